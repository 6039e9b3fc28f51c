"""The error hierarchy: every error a user can cause is a ``ValueError``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "IllegalMoveError",
    "InvalidMoveError",
    "OptionError",
    "RecordError",
    "SetupError",
    "ShedkitError",
    "did_you_mean",
]


def did_you_mean(word: object, choices: Iterable[object]) -> str:
    """`` (did you mean 'x'?)`` for the choice nearest a mistyped ``word``, else ``""``.

    >>> did_you_mean("doudizu", ["doudizhu", "president"])
    " (did you mean 'doudizhu'?)"
    """
    names = {str(c): c for c in choices}
    close = difflib.get_close_matches(str(word), list(names), n=1, cutoff=0.6)
    return f" (did you mean {names[close[0]]!r}?)" if close else ""


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
