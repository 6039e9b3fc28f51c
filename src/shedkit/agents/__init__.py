"""Bots: ``random`` for every game, ``greedy`` rule-based bots per game."""

from shedkit.agents.base import AGENTS, Agent, RandomAgent, make_agent, register_agent

__all__ = ["AGENTS", "Agent", "RandomAgent", "make_agent", "register_agent"]
