"""Agents: anything that picks a move from a seat's view.

An agent never sees a state, only ``state.view(seat)``; its randomness comes
from the seed it was made with, so a seeded match replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from shedkit.core.errors import OptionError

__all__ = ["AGENTS", "Agent", "RandomAgent", "make_agent", "register_agent"]


@runtime_checkable
class Agent(Protocol):
    """Picks one of ``view.legal_moves`` for the seat the view belongs to."""

    name: str

    def act(self, view: Any) -> Any:
        """Return one move of ``view.legal_moves``."""
        ...


AgentFactory = Callable[[Any, int], Agent]

#: Factories by agent name; each takes ``(game, seed)``.
AGENTS: dict[str, dict[str, AgentFactory]] = {}


def register_agent(name: str, game_name: str, factory: AgentFactory) -> None:
    """Make ``make_agent(name, game)`` build ``factory(game, seed)`` for ``game_name``."""
    AGENTS.setdefault(name, {})[game_name] = factory


def make_agent(name: str, game: Any, seed: int = 0) -> Agent:
    """Build the agent ``name`` for ``game`` with its own seeded randomness."""
    by_game = AGENTS.get(name)
    if by_game is None:
        raise OptionError(f"unknown agent {name!r}; valid agents: {', '.join(sorted(AGENTS))}")
    factory = by_game.get(game.name) or by_game.get("*")
    if factory is None:
        games = ", ".join(sorted(by_game))
        raise OptionError(f"agent {name!r} does not play {game.name}; it plays {games}")
    return factory(game, seed)


class RandomAgent:
    """Uniformly random among the legal moves (any game)."""

    name = "random"

    def __init__(self, game: Any = None, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        """A uniformly random legal move."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        return moves[self.rng.randrange(len(moves))]


register_agent("random", "*", RandomAgent)
