"""The combinations of Tien Gow and the plays a hand can make (TG-10, TG-11, TG-21…24, TG-50…53).

`play_keys` lists every combination the options allow as ``(cls, kinds,
rank)``, which is what the action table is built from. The functions on hands
take a hand as a packed count of kinds (`shedkit.tiengow.combos.pack`) and
return interned moves of the action table (`shedkit.tiengow.actions`) they are given.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from shedkit.tiengow.combos import (
    CIVIL,
    CIVIL_KINDS,
    CIVIL_PAIR,
    CIVIL_TRIPLE,
    FAMILIES,
    KIND_BIT,
    KIND_RANK,
    KIND_SUIT,
    KIND_TILES,
    MILITARY_PAIR,
    MILITARY_TRIPLE,
    MIXED_PAIR,
    NUM_KINDS,
    QUAD,
    RED_ENDS,
    SINGLE_CIVIL,
    SINGLE_MILITARY,
    SUPREME,
    SUPREME_KINDS,
    TOTAL,
    TWO_CIVIL_PAIRS,
    TWO_MILITARY_PAIRS,
    WEN_SUPREME,
    Move,
    fits,
)
from shedkit.tiengow.options import Options

__all__ = [
    "Key",
    "beats",
    "discard_moves",
    "hand_counts",
    "lead_moves",
    "military_pairs",
    "play_keys",
    "remove_kind",
    "special_factor",
]

Key = tuple[int, tuple[int, ...], int]

#: ``1-5``, the Civil Supreme's tile (TG-60), and ``1-6``, which captures it.
WEN_KIND: Final = CIVIL_KINDS - 1
CAPTURE_KIND: Final = CIVIL_KINDS - 2


def military_pairs() -> list[tuple[int, int]]:
    """The military pairs, highest first (TG-10: equal totals; ``2-4`` and ``1-2`` have none)."""
    military = range(CIVIL_KINDS, NUM_KINDS)
    return [(a, b) for a, b in itertools.combinations(military, 2) if TOTAL[a] == TOTAL[b]]


def play_keys(opts: Options) -> list[Key]:
    """Every combination under ``opts``, as ``(cls, kinds, rank)``; the higher rank wins (TG-22).

    Singles rank by TG-05/TG-06; pairs by the civil order or the military total;
    mixed pairs, triples and quads by family (heaven-nine 4 … harmony-five 1);
    two pairs by their higher pair (TG-52).
    """
    keys: list[Key] = []
    for k in range(NUM_KINDS):
        cls = SINGLE_CIVIL if KIND_SUIT[k] == CIVIL else SINGLE_MILITARY
        keys.append((cls, (k,), KIND_RANK[k]))
    if opts.combinations == "singles":
        return keys
    wen = opts.wen_supreme
    for k in range(CIVIL_KINDS):
        if wen and k == WEN_KIND:
            keys.append((WEN_SUPREME, (k, k), 0))  # TG-60, TG-12: never a civil pair
        else:
            keys.append((CIVIL_PAIR, (k, k), KIND_RANK[k]))
    pairs = military_pairs()
    for a, b in pairs:
        keys.append((MILITARY_PAIR, (a, b), TOTAL[a]))
    keys.append((SUPREME, SUPREME_KINDS, 0))
    families = [(4 - i, civil, mil) for i, (civil, mil) in enumerate(FAMILIES)]
    if opts.combinations in ("full", "pairs"):
        for rank, civil, mil in families:
            for m in mil:
                keys.append((MIXED_PAIR, (civil, m), rank))
    if opts.combinations == "full":
        for rank, civil, mil in families:
            for m in mil:
                keys.append((CIVIL_TRIPLE, (civil, civil, m), rank))
        for rank, civil, mil in families:
            keys.append((MILITARY_TRIPLE, (civil, *mil), rank))
        for rank, civil, mil in families:
            keys.append((QUAD, (civil, civil, *mil), rank))
    if opts.two_pairs:
        civil_kinds = [k for k in range(CIVIL_KINDS) if not (wen and k == WEN_KIND)]
        for a, b in itertools.combinations(civil_kinds, 2):
            keys.append((TWO_CIVIL_PAIRS, (a, a, b, b), KIND_RANK[a]))
        for (a, b), (c, d) in itertools.combinations(pairs, 2):
            keys.append((TWO_MILITARY_PAIRS, (a, b, c, d), TOTAL[a]))
    return keys


def beats(move: Move, high: Move, opts: Options) -> bool:
    """True if ``move`` beats the current high ``high`` (TG-22, TG-23, TG-24, TG-51, TG-60).

    The same class and a strictly higher rank; nothing beats a led Supreme and a
    Supreme or Civil Supreme played after the lead beats nothing. Under
    ``triplet_match = "civil-guarded"`` a civil triple of a higher family also
    beats a military triple. With ``wen_supreme_capture`` only ``1-6 1-6`` beats
    a Civil Supreme. (A captured Civil Supreme is the state's matter: nothing
    beats the capture, `shedkit.tiengow.rules.State`.)
    """
    hc = high.cls
    if hc == SUPREME:
        return False
    if hc == WEN_SUPREME:
        return opts.has_wen_capture and move.kinds == (CAPTURE_KIND, CAPTURE_KIND)
    mc = move.cls
    if mc == hc:
        return mc != SUPREME and mc != WEN_SUPREME and move.rank > high.rank
    if opts.triplet_match == "civil-guarded" and hc == MILITARY_TRIPLE and mc == CIVIL_TRIPLE:
        return move.rank > high.rank
    return False


def hand_counts(mask: int) -> int:
    """The packed count of kinds of a hand given as a bitmask of tiles."""
    out = 0
    for k in range(NUM_KINDS):
        held = mask & KIND_TILES[k]
        if held:
            out += KIND_BIT[k] * held.bit_count()
    return out


def remove_kind(mask: int, kind: int) -> tuple[int, int]:
    """Take one tile of ``kind`` out of the tile bitmask ``mask``: ``(mask, tile)``.

    The lower copy goes first; views never show which copy another seat played,
    so the choice tells nobody anything.
    """
    held = mask & KIND_TILES[kind]
    low = held & -held
    return mask ^ low, low.bit_length() - 1


def lead_moves(counts: int, plays: Sequence[Move]) -> list[Move]:
    """The combinations among ``plays`` that the hand ``counts`` holds (TG-20)."""
    return [m for m in plays if fits(counts, m.need)]


def discard_moves(counts: int, size: int, by_need: dict[int, Move], kinds: int = -1) -> list[Move]:
    """Every discard of ``size`` tiles from the hand ``counts`` (TG-21 b), by action id.

    ``by_need`` is the table's discards by packed count; ``kinds`` limits the
    tiles discarded to a bitmask of kinds (TG-53).
    """
    held: list[tuple[int, int]] = []
    k = 0
    rest = counts
    while rest:
        c = rest & 7
        if c and kinds >> k & 1:
            held.append((k, c))
        rest >>= 3
        k += 1
    out: list[Move] = []
    _multisets(held, 0, size, 0, by_need, out)
    out.sort(key=_action_id)
    return out


def _action_id(move: Move) -> int:
    return move.action_id


def _multisets(
    held: list[tuple[int, int]],
    start: int,
    left: int,
    need: int,
    by_need: dict[int, Move],
    out: list[Move],
) -> None:
    """Append the discards of ``left`` more tiles from ``held[start:]`` to ``out``."""
    if left == 0:
        out.append(by_need[need])
        return
    for i in range(start, len(held)):
        k, c = held[i]
        bit = KIND_BIT[k]
        for n in range(1, min(c, left) + 1):
            _multisets(held, i + 1, left - n, need + n * bit, by_need, out)


def special_factor(kinds: Sequence[int]) -> int:
    """TG-64: 4 for a hand with no red end or 8 military tiles, 2 for one red end or 7
    military tiles, else 0 (the higher factor where both apply)."""
    red = 0
    military = 0
    for k in kinds:
        red += RED_ENDS[k]
        military += KIND_SUIT[k]
    if red == 0 or military == 8:
        return 4
    if red == 1 or military == 7:
        return 2
    return 0
