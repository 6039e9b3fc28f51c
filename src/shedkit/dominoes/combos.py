"""Tiles, ends and the `Move` value of Dominoes (DOM-01, DOM-40, DOM-41).

A tile is an int, its index in the set ordered by ``(low, high)``: with
double-six ``0`` is ``0-0``, ``1`` is ``0-1`` … ``27`` is ``6-6``. Open ends are
ints too: ``L R U D`` are ``0 1 2 3`` (``U`` and ``D`` are a spinner's cross
sides, DOM-22); a first tile is played on no end (``-1``).

>>> tile_str(tile_index(3, 5)), tile_halves(27)
('3-5', (6, 6))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Final

from shedkit.core.pickling import reduce_dataclass

__all__ = [
    "DRAW",
    "END_NAMES",
    "KINDS",
    "LEAD",
    "PASS",
    "Move",
    "tile_halves",
    "tile_index",
    "tile_pips",
    "tile_str",
]

END_NAMES: Final = "LRUD"
LEAD: Final = -1  # the "end" of a hand's first tile
KINDS: Final = ("pass", "draw", "lead", "play")


@functools.cache
def _halves(max_pips: int) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a in range(max_pips + 1) for b in range(a, max_pips + 1))


@functools.cache
def _index(max_pips: int) -> dict[tuple[int, int], int]:
    return {h: i for i, h in enumerate(_halves(max_pips))}


#: The largest set (double-twelve) contains the smaller ones' tiles under other ids,
#: so functions take ``max_pips``; the default is double-six.
def tile_halves(tile: int, max_pips: int = 6) -> tuple[int, int]:
    """The two halves ``(low, high)`` of ``tile``."""
    return _halves(max_pips)[tile]


def tile_index(a: int, b: int, max_pips: int = 6) -> int:
    """The tile with halves ``a`` and ``b`` (in either order)."""
    key = (a, b) if a <= b else (b, a)
    try:
        return _index(max_pips)[key]
    except KeyError:
        raise ValueError(f"{a}-{b} is not a tile of the double-{max_pips} set") from None


def tile_str(tile: int, max_pips: int = 6) -> str:
    """A tile as ``a-b`` with ``a ≤ b`` (DOM-40)."""
    a, b = _halves(max_pips)[tile]
    return f"{a}-{b}"


def tile_pips(tile: int, max_pips: int = 6) -> int:
    """Pips on ``tile`` (both halves)."""
    a, b = _halves(max_pips)[tile]
    return a + b


@dataclass(frozen=True, slots=True)
class Move:
    """A ``pass``, a ``draw``, a ``lead`` (a first tile) or a ``play`` of ``tile`` on ``end``.

    ``tile`` is -1 for ``pass`` and ``draw``; ``end`` is an index of ``LRUD``
    for a play and -1 otherwise. ``text`` is the DOM-41 notation.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    kind: str
    tile: int = -1
    end: int = -1
    text: str = field(default="", compare=False, repr=False)
    action_id: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return self.text or self.kind

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


PASS: Final = Move("pass", text="pass", action_id=0)
DRAW: Final = Move("draw", text="draw", action_id=1)
