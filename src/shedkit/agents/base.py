"""Agents: anything that picks a move from a seat's view.

An agent never sees a state, only ``state.view(seat)``; its randomness comes
from the seed it was made with, so a seeded match replays exactly.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import re
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from shedkit.core.errors import OptionError, did_you_mean

__all__ = [
    "AGENTS",
    "ENTRY_POINT_GROUP",
    "Agent",
    "RandomAgent",
    "load_entry_points",
    "make_agent",
    "register_agent",
]

#: Installed packages register agents by name in this entry-point group.
ENTRY_POINT_GROUP = "shedkit.agents"
_IMPORT_PATH = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*")


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


_loaded_entry_points = False


def load_entry_points() -> None:
    """Register the agents of installed packages (entry-point group ``shedkit.agents``).

    Each entry point's name is the agent's name, its object a factory taking
    ``(game, seed)`` (an agent class usually); it plays every game unless it has a
    ``games`` attribute listing the games it plays. Names registered already win.
    """
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in AGENTS:
            continue
        try:
            factory = entry.load()
        except Exception as err:  # a broken plug-in must not stop the others
            raise OptionError(
                f"agent {entry.name!r} of entry point {entry.value!r} cannot be loaded: {err}"
            ) from err
        for game_name in getattr(factory, "games", None) or ("*",):
            register_agent(entry.name, game_name, factory)


def _import_factory(name: str) -> AgentFactory:
    """The object ``module.path:Attr`` names: an agent factory taking ``(game, seed)``."""
    module_name, _, attr = name.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as err:
        raise OptionError(f"agent {name!r}: cannot import {module_name!r} ({err})") from err
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise OptionError(f"agent {name!r}: {module_name!r} has no {attr!r}") from None
    if not callable(obj):
        raise OptionError(f"agent {name!r} is not a class or a factory taking (game, seed)")
    factory: AgentFactory = obj
    return factory


def make_agent(name: str, game: Any, seed: int = 0) -> Agent:
    """Build the agent ``name`` for ``game`` with its own seeded randomness.

    ``name`` is a registered name (built in, or from an installed package's
    ``shedkit.agents`` entry point), an import path ``package.module:Class`` of a
    class or factory taking ``(game, seed)``, or ``cmd:COMMAND`` for a program
    that speaks the bot protocol ([`shedkit.agents.external`][shedkit.agents.external]).
    """
    if name.startswith("cmd:"):
        from shedkit.agents.external import ExternalAgent

        return ExternalAgent(name, game, seed)
    if name not in AGENTS:
        load_entry_points()
    by_game = AGENTS.get(name)
    if by_game is None and _IMPORT_PATH.fullmatch(name):
        agent = _import_factory(name)(game, seed)
        if not callable(getattr(agent, "act", None)):
            raise OptionError(f"agent {name!r} has no act(view) method")
        return agent
    if by_game is None:
        raise OptionError(
            f"unknown agent {name!r}{did_you_mean(name, AGENTS)}; "
            f"valid agents: {', '.join(sorted(AGENTS))}, "
            "an import path package.module:Class, or cmd:PROGRAM for a bot program"
        )
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
