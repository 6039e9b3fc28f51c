"""The error hierarchy: every error a user can cause is a ``ValueError``."""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidMoveError",
    "OptionError",
    "RecordError",
    "SetupError",
    "ShedkitError",
]


class ShedkitError(ValueError):
    """Base class of every error shedkit raises for bad input."""


class IllegalMoveError(ShedkitError):
    """A well-formed move that is not legal now (wrong turn, phase or cards)."""


class InvalidMoveError(ShedkitError):
    """Text that does not parse as a move of this game."""


class OptionError(ShedkitError):
    """An unknown game, preset or option, or an option value out of range."""


class RecordError(ShedkitError):
    """A record that is malformed or does not replay."""


class SetupError(ShedkitError):
    """A scenario passed to ``new_deal`` that is not a possible deal."""
