"""The open ends of the line, placing a tile, the count, and the plays a hand can make.

The board is a flat list of 13 ints, cheap to copy (DOM-06, DOM-22, DOM-23):

- ``b[0:4]``: the pip value showing at ends ``L R U D``, or -1 while an end
  is not open (``U`` and ``D`` open only on a spinner);
- ``b[4:8]``: what each end adds to the count (a double at an end counts
  both halves; an end still at the spinner adds nothing of its own);
- ``b[8:12]``: 1 while the end is the spinner itself (nothing attached yet);
- ``b[12]``: the spinner's pip value, or -1 while there is none.

The same functions serve the engine and the bots (a bot weighs a play by the
count it would make).
"""

from __future__ import annotations

from shedkit.dominoes.actions import Tables
from shedkit.dominoes.combos import Move

__all__ = ["board_count", "can_play", "empty_board", "legal_plays", "place", "playable_mask"]


def empty_board() -> list[int]:
    """A board with no tile on it."""
    return [-1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1]


def board_count(b: list[int]) -> int:
    """The sum of the open ends (DOM-23); the spinner counts while it is an end of the line."""
    total = b[4] + b[5] + b[6] + b[7]
    if b[12] >= 0 and (b[8] or b[9]):
        total += 2 * b[12]
    return total


def place(
    b: list[int], halves: tuple[int, int], end: int, fives: bool, cross_now: bool = False
) -> None:
    """Put a tile with ``halves`` on ``end`` (-1: the first tile), updating ``b`` in place.

    ``fives`` turns on the spinner (DOM-22): the first double takes four sides;
    ``cross_now`` opens its cross sides at once (``spinner_opens="immediately"``).
    The caller has checked that the tile fits the end.
    """
    lo, hi = halves
    if not fives:
        if end < 0:
            b[0], b[1] = lo, hi
        else:
            b[end] = hi if lo == b[end] else lo
        return
    if end < 0:
        if lo == hi:
            b[0] = b[1] = lo
            b[4] = b[5] = 0
            b[8] = b[9] = 1
            b[12] = lo
            if cross_now:
                _open_cross(b)
        else:
            b[0], b[1], b[4], b[5] = lo, hi, lo, hi
        return
    out = hi if lo == b[end] else lo
    b[end] = out
    if lo == hi:
        if b[12] < 0:  # the first double of the hand becomes the spinner
            b[12] = lo
            b[4 + end] = 0
            b[8 + end] = 1
            if cross_now:
                _open_cross(b)
            return
        b[4 + end] = 2 * lo
    else:
        b[4 + end] = out
    b[8 + end] = 0
    if b[12] >= 0 and b[2] < 0 and not b[8] and not b[9]:
        _open_cross(b)  # both long sides of the spinner now hold a tile


def _open_cross(b: list[int]) -> None:
    b[2] = b[3] = b[12]
    b[6] = b[7] = 0
    b[10] = b[11] = 1


def playable_mask(b: list[int], t: Tables) -> int:
    """The tiles that fit some open end (all tiles before the first one is down)."""
    vm = t.value_mask
    if b[0] < 0:
        return (1 << t.num_tiles) - 1
    mask = vm[b[0]] | vm[b[1]]
    if b[2] >= 0:
        mask |= vm[b[2]] | vm[b[3]]
    return mask


def can_play(hand: int, b: list[int], t: Tables) -> bool:
    """Whether ``hand`` holds a tile that fits an open end."""
    return bool(hand & playable_mask(b, t))


def legal_plays(hand: int, b: list[int], t: Tables) -> list[Move]:
    """The plays of ``hand`` on the open ends, in action-id order (empty if none fits)."""
    vm = t.value_mask
    plays = t.plays
    e = t.num_ends
    if b[2] < 0:
        ml, mr = vm[b[0]], vm[b[1]]
        cand = hand & (ml | mr)
        out = []
        while cand:
            low = cand & -cand
            cand ^= low
            i = (low.bit_length() - 1) * e
            if low & ml:
                out.append(plays[i])
            if low & mr:
                out.append(plays[i + 1])
        return out
    masks = [vm[b[0]], vm[b[1]], vm[b[2]], vm[b[3]]]
    cand = hand & (masks[0] | masks[1] | masks[2] | masks[3])
    out = []
    while cand:
        low = cand & -cand
        cand ^= low
        i = (low.bit_length() - 1) * e
        for k in range(4):
            if low & masks[k]:
                out.append(plays[i + k])
    return out
