"""Bots: ``random`` for every game, ``greedy`` rule-based bots per game, ``douzero:DIR``."""

from shedkit.agents import douzero as douzero  # registers douzero:DIR (numpy: when made)
from shedkit.agents.base import AGENTS, Agent, RandomAgent, make_agent, register_agent
from shedkit.agents.dominoes_pkg import PackageDominoesAgent  # registered when dominoes imports
from shedkit.agents.greedy_dominoes import GreedyDominoes
from shedkit.agents.greedy_doudizhu import GreedyDouDizhu
from shedkit.agents.greedy_president import GreedyPresident
from shedkit.agents.greedy_tiengow import GreedyTienGow
from shedkit.agents.rlcard_rule import RLCardRuleAgent  # registered when rlcard imports
from shedkit.agents.search import SearchAgent  # registers the levels

__all__ = ["AGENTS", "Agent", "GreedyDouDizhu", "RandomAgent", "make_agent", "register_agent"]
__all__ += ["GreedyPresident"]
__all__ += ["GreedyDominoes"]
__all__ += ["GreedyTienGow"]
__all__ += ["RLCardRuleAgent"]
__all__ += ["SearchAgent"]
__all__ += ["PackageDominoesAgent"]
