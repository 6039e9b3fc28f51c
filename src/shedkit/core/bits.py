"""Sets of small ints as bitmasks, and taking a scenario's cards or tiles out of a deal.

>>> members(mask_of([5, 0, 3]))
[0, 3, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from shedkit.core.errors import SetupError

__all__ = ["claim", "mask_of", "members"]


def mask_of(items: Iterable[int]) -> int:
    """The bitmask with bit ``i`` set for each ``i`` in ``items``."""
    out = 0
    for i in items:
        out |= 1 << i
    return out


def members(bits: int) -> list[int]:
    """The set bits of ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def claim(
    items: list[int],
    free: set[int],
    what: str,
    universe: Collection[int],
    name: Callable[[int], str],
    noun: str = "card",
) -> list[int]:
    """Take ``items`` (a scenario's hand, kitty or boneyard) out of ``free``.

    Each item must be an int of ``universe``, named once, and still ``free``;
    otherwise `SetupError` says which, with ``what`` ("hand of seat 1")
    and ``name`` (the notation of an item) in the message.
    """
    for x in items:
        if not isinstance(x, int) or isinstance(x, bool) or x not in universe:
            raise SetupError(f"{what}: {x!r} is not a {noun} of this game")
    if len(set(items)) != len(items):
        raise SetupError(f"{what} names a {noun} twice")
    taken = [name(x) for x in items if x not in free]
    if taken:
        raise SetupError(f"{what}: {' '.join(taken)} already placed elsewhere")
    free.difference_update(items)
    return items
