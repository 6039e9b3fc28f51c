"""Encodings per game, found by game name: ``encoding_for(game)``.

A new game needs one module here (a class with ``layout``, ``num_actions``,
``action_features``, ``encode``, ``mask`` and ``render``) and one
`register_encoding` line below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shedkit.core.errors import OptionError
from shedkit.envs.encodings.base import Encoding, Layout, move_mask
from shedkit.envs.encodings.dominoes import DominoesEncoding
from shedkit.envs.encodings.doudizhu import DouDizhuEncoding
from shedkit.envs.encodings.president import PresidentEncoding
from shedkit.envs.encodings.tiengow import TienGowEncoding

__all__ = [
    "ENCODINGS",
    "DominoesEncoding",
    "DouDizhuEncoding",
    "Encoding",
    "Layout",
    "PresidentEncoding",
    "TienGowEncoding",
    "encoding_for",
    "move_mask",
    "register_encoding",
]

#: Encoding factories by game name.
ENCODINGS: dict[str, Callable[[Any], Encoding]] = {}


def register_encoding(game_name: str, factory: Callable[[Any], Encoding]) -> None:
    """Make ``encoding_for(game)`` build ``factory(game)`` for games named ``game_name``."""
    ENCODINGS[game_name] = factory


def encoding_for(game: Any) -> Encoding:
    """The encoding of ``game`` under its options."""
    factory = ENCODINGS.get(game.name)
    if factory is None:
        raise OptionError(
            f"no environment encoding for {game.name!r}; encoded games: {', '.join(ENCODINGS)}"
        )
    return factory(game)


register_encoding("doudizhu", DouDizhuEncoding)
register_encoding("president", PresidentEncoding)
register_encoding("dominoes", DominoesEncoding)
register_encoding("tiengow", TienGowEncoding)
