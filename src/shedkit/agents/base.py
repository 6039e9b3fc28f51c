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
    "AGENTS_WITH_ARGUMENT",
    "ENTRY_POINT_GROUP",
    "Agent",
    "RandomAgent",
    "agent_names",
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

#: Agents that need an argument (``douzero`` its weights), by name: the keyword that
#: ``NAME:VALUE`` fills, and the factories by game, each taking ``(game, seed, **{keyword:
#: value})``. They are kept out of `AGENTS`, the agents a name alone makes (which the
#: server's tables offer).
AGENTS_WITH_ARGUMENT: dict[str, tuple[str, dict[str, Callable[..., Agent]]]] = {}


def register_agent(
    name: str, game_name: str, factory: Callable[..., Agent], *, argument: str | None = None
) -> None:
    """Make ``make_agent(name, game)`` build ``factory(game, seed)`` for ``game_name``.

    With ``argument``, the agent needs that keyword: ``make_agent(name, game,
    **{argument: value})`` or ``make_agent("NAME:VALUE", game)`` builds
    ``factory(game, seed, **{argument: value})``.
    """
    if argument is None:
        AGENTS.setdefault(name, {})[game_name] = factory
        return
    keyword, by_game = AGENTS_WITH_ARGUMENT.setdefault(name, (argument, {}))
    if keyword != argument:
        raise ValueError(f"agent {name!r} takes {keyword!r}, not {argument!r}")
    by_game[game_name] = factory


def agent_names() -> list[str]:
    """Every registered agent as it is written: ``greedy``, ``douzero:WEIGHTS``."""
    with_argument = [f"{n}:{kw.upper()}" for n, (kw, _) in AGENTS_WITH_ARGUMENT.items()]
    return sorted([*AGENTS, *with_argument])


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


def make_agent(name: str, game: Any, seed: int = 0, **kwargs: Any) -> Agent:
    """Build the agent ``name`` for ``game`` with its own seeded randomness.

    ``name`` is a registered name (built in, or from an installed package's
    ``shedkit.agents`` entry point), ``NAME:VALUE`` for an agent that takes an
    argument (``douzero:DIR``, the same as ``make_agent("douzero", game,
    weights=DIR)``), an import path ``package.module:Class`` of a class or factory
    taking ``(game, seed)``, or ``cmd:COMMAND`` for a program that speaks the bot
    protocol ([`shedkit.agents.external`][shedkit.agents.external]). ``kwargs`` go
    to an agent that takes an argument; other agents take none.
    """
    if name.startswith("cmd:"):
        from shedkit.agents.external import ExternalAgent

        if kwargs:
            raise OptionError(f"a bot program takes no arguments, not {', '.join(kwargs)}")
        return ExternalAgent(name, game, seed)
    base, colon, value = name.partition(":")
    if base in AGENTS_WITH_ARGUMENT:
        return _make_with_argument(base, value if colon else None, game, seed, kwargs)
    if kwargs:
        raise OptionError(f"agent {name!r} takes no arguments, not {', '.join(kwargs)}")
    if name not in AGENTS:
        load_entry_points()
    by_game = AGENTS.get(name)
    if by_game is None and _IMPORT_PATH.fullmatch(name):
        agent = _import_factory(name)(game, seed)
        if not callable(getattr(agent, "act", None)):
            raise OptionError(f"agent {name!r} has no act(view) method")
        return agent
    if by_game is None:
        known = [*AGENTS, *AGENTS_WITH_ARGUMENT]
        raise OptionError(
            f"unknown agent {name!r}{did_you_mean(name, known)}; "
            f"valid agents: {', '.join(agent_names())}, "
            "an import path package.module:Class, or cmd:PROGRAM for a bot program"
        )
    factory = by_game.get(game.name) or by_game.get("*")
    if factory is None:
        games = ", ".join(sorted(by_game))
        raise OptionError(f"agent {name!r} does not play {game.name}; it plays {games}")
    return factory(game, seed)


def _make_with_argument(
    name: str, value: str | None, game: Any, seed: int, kwargs: dict[str, Any]
) -> Agent:
    """Build an agent of `AGENTS_WITH_ARGUMENT`, its argument from ``NAME:VALUE`` or a keyword."""
    keyword, by_game = AGENTS_WITH_ARGUMENT[name]
    other = [k for k in kwargs if k != keyword]
    if other:
        raise OptionError(f"agent {name!r} takes {keyword}=…, not {', '.join(other)}")
    if value is not None:
        if keyword in kwargs:
            raise OptionError(f"agent {name!r}: {keyword} given twice ({name}:… and {keyword}=)")
        kwargs = {keyword: value}
    if not kwargs or kwargs[keyword] in ("", None):
        raise OptionError(
            f"agent {name!r} needs its {keyword}: {name}:{keyword.upper()}, "
            f"or make_agent({name!r}, game, {keyword}=…)"
        )
    factory = by_game.get(game.name) or by_game.get("*")
    if factory is None:
        games = ", ".join(sorted(by_game))
        raise OptionError(f"agent {name!r} does not play {game.name}; it plays {games}")
    return factory(game, seed, **kwargs)


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
