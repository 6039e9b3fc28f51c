"""The game contract shared by every game: errors, options, metadata, registry, records."""

from shedkit.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
    ShedkitError,
)
from shedkit.core.info import GameInfo
from shedkit.core.registry import make, register

__all__ = [
    "GameInfo",
    "IllegalMoveError",
    "InvalidMoveError",
    "OptionError",
    "RecordError",
    "ShedkitError",
    "make",
    "register",
]
