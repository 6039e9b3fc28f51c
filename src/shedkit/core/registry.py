"""The registry of games: ``shedkit.make(name, preset=..., **options)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shedkit.core.errors import OptionError, did_you_mean

__all__ = ["GAMES", "make", "register"]

GameFactory = Callable[..., Any]

GAMES: dict[str, GameFactory] = {}


def register(name: str, factory: GameFactory) -> None:
    """Make ``factory(preset=..., **options)`` reachable as ``shedkit.make(name, ...)``."""
    GAMES[name] = factory


def make(name: str, preset: str = "standard", **options: Any) -> Any:
    """Return the game ``name`` with the options of ``preset`` updated by ``options``.

    >>> import shedkit
    >>> shedkit.make("doudizhu").info.num_players
    3
    """
    factory = GAMES.get(name)
    if factory is None:
        raise OptionError(
            f"unknown game {name!r}{did_you_mean(name, GAMES)}; "
            f"valid games: {', '.join(sorted(GAMES))}"
        )
    return factory(preset=preset, **options)
