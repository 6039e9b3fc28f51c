"""Tiles, kinds, combination classes and the `Move` value of Tien Gow (TG-01, TG-05…12, TG-80…82).

A tile is an int, its index in the Chinese set of `shedkit.dominoes.chinese`
(DOM-30): ``0 … 21`` are the civil tiles, strongest kind first, each kind twice
(``2k`` and ``2k + 1``); ``22 … 31`` the military tiles, nines first. Play never
tells the two copies of a civil tile apart (TG-01), so moves are made of
*kinds*: ``0 … 10`` the civil kinds (``6-6`` … ``1-5``) and ``11 … 20`` the
military tiles (``3-6 4-5 2-6 3-5 2-5 3-4 2-4 1-4 2-3 1-2``). Kinds in
ascending order are the TG-81 writing order.

A hand's kinds are counted in one int, three bits per kind (`pack`): a move
fits a hand when no count goes below zero, which one subtraction with guard
bits tells (`fits`).

>>> KIND_NAMES[TILE_KIND[1]], KIND_NAMES[TILE_KIND[31]]
('6-6', '1-2')
>>> fits(pack([0, 0, 11]), pack([0, 11])), fits(pack([0, 11]), pack([0, 0]))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from shedkit.core.pickling import reduce_dataclass
from shedkit.dominoes.chinese import chinese_set

__all__ = [
    "CIVIL",
    "CIVIL_KINDS",
    "CIVIL_PAIR",
    "CIVIL_TRIPLE",
    "COMBO_IDS",
    "FAMILIES",
    "GUARDS",
    "HIDDEN_DISCARDS",
    "KIND_BIT",
    "KIND_NAMES",
    "KIND_RANK",
    "KIND_SUIT",
    "KIND_TILES",
    "MILITARY",
    "MILITARY_PAIR",
    "MILITARY_TRIPLE",
    "MIXED_PAIR",
    "NUM_KINDS",
    "NUM_TILES",
    "QUAD",
    "RED_ENDS",
    "SINGLE_CIVIL",
    "SINGLE_MILITARY",
    "SUIT_KINDS",
    "SUPREME",
    "SUPREME_KINDS",
    "TILE_KIND",
    "TILE_NAMES",
    "TOTAL",
    "TWO_CIVIL_PAIRS",
    "TWO_MILITARY_PAIRS",
    "WEN_SUPREME",
    "Move",
    "fits",
    "kinds_text",
    "pack",
    "unpack",
]

NUM_TILES: Final = 32
NUM_KINDS: Final = 21
CIVIL_KINDS: Final = 11
CIVIL: Final = 0
MILITARY: Final = 1

# Combination classes (TG-22/23: only a play of the same class can beat).
SINGLE_CIVIL: Final = 0
SINGLE_MILITARY: Final = 1
CIVIL_PAIR: Final = 2
MILITARY_PAIR: Final = 3
SUPREME: Final = 4
MIXED_PAIR: Final = 5
CIVIL_TRIPLE: Final = 6
MILITARY_TRIPLE: Final = 7
QUAD: Final = 8
TWO_CIVIL_PAIRS: Final = 9
TWO_MILITARY_PAIRS: Final = 10
WEN_SUPREME: Final = 11
#: The combination id (the table of the spec) of each class; civil and military singles
#: share ``single``, as two civil or two military pairs share ``two_pairs``.
COMBO_IDS: Final = (
    "single",
    "single",
    "civil_pair",
    "military_pair",
    "supreme",
    "mixed_pair",
    "civil_triple",
    "military_triple",
    "quad",
    "two_pairs",
    "two_pairs",
    "wen_supreme",
)


def _tables() -> tuple[
    tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]:
    """Per tile its kind, per kind its name, suit, rank in its suit and pip total."""
    tile_kind: list[int] = []
    names = [""] * NUM_KINDS
    suit = [0] * NUM_KINDS
    rank = [0] * NUM_KINDS
    total = [0] * NUM_KINDS
    military = 0
    for tile in chinese_set():
        if tile.suit == "civil":
            kind = tile.rank - 1
            # TG-05: 6-6 ranks 11 … 1-5 ranks 1.
            rank[kind] = CIVIL_KINDS - kind
        else:
            kind = CIVIL_KINDS + military
            military += 1
            suit[kind] = MILITARY
            # TG-06: by pip total, equal totals equal: nines 6 … the three 1.
            rank[kind] = 7 - tile.rank
        tile_kind.append(kind)
        names[kind] = str(tile)
        total[kind] = tile.pips
    return tuple(tile_kind), tuple(names), tuple(suit), tuple(rank), tuple(total)


_TABLES: Final = _tables()
#: Per tile, its kind.
TILE_KIND: Final = _TABLES[0]
#: Per kind, its tiles' pips as ``a-b`` (TG-80), its suit, its rank in the suit and its pip total.
KIND_NAMES: Final = _TABLES[1]
KIND_SUIT: Final = _TABLES[2]
KIND_RANK: Final = _TABLES[3]
TOTAL: Final = _TABLES[4]
TILE_NAMES: Final = tuple(KIND_NAMES[k] for k in TILE_KIND)
#: The tiles of each kind as a bitmask (two for a civil kind, one for a military tile).
KIND_TILES: Final = tuple(
    sum(1 << t for t in range(NUM_TILES) if TILE_KIND[t] == k) for k in range(NUM_KINDS)
)
#: The kinds of each suit as a bitmask of kinds.
SUIT_KINDS: Final = (
    sum(1 << k for k in range(NUM_KINDS) if KIND_SUIT[k] == CIVIL),
    sum(1 << k for k in range(NUM_KINDS) if KIND_SUIT[k] == MILITARY),
)
#: Per kind, the ends showing 1 or 4 (TG-64's red ends).
RED_ENDS: Final = tuple(
    sum(1 for half in name.split("-") if half in ("1", "4")) for name in KIND_NAMES
)

_BY_NAME: Final = {name: k for k, name in enumerate(KIND_NAMES)}


def _kind(name: str) -> int:
    return _BY_NAME[name]


#: The four families (TG-11 table), highest first: civil kind and its two military kinds.
FAMILIES: Final = tuple(
    (_kind(c), (_kind(a), _kind(b)))
    for c, a, b in (
        ("6-6", "3-6", "4-5"),
        ("1-1", "2-6", "3-5"),
        ("4-4", "2-5", "3-4"),
        ("1-3", "1-4", "2-3"),
    )
)
#: ``2-4`` and ``1-2``, the Supreme (TG-10, TG-24).
SUPREME_KINDS: Final = (_kind("2-4"), _kind("1-2"))

#: Three bits per kind in a packed count; the top bit of each field is its guard.
KIND_BIT: Final = tuple(1 << (3 * k) for k in range(NUM_KINDS))
GUARDS: Final = sum(4 << (3 * k) for k in range(NUM_KINDS))


def pack(kinds: Iterable[int]) -> int:
    """The packed count of ``kinds`` (a kind may repeat)."""
    out = 0
    for k in kinds:
        out += KIND_BIT[k]
    return out


def unpack(packed: int) -> list[int]:
    """The kinds a packed count holds, each as often as counted, ascending."""
    out: list[int] = []
    k = 0
    while packed:
        count = packed & 7
        for _ in range(count):
            out.append(k)
        packed >>= 3
        k += 1
    return out


def fits(hand: int, need: int) -> bool:
    """True if the packed count ``hand`` holds the packed count ``need``.

    A field's guard bit survives the subtraction exactly when its count does
    not go negative; counts stay below 4, so no field borrows from the next.
    """
    return ((hand | GUARDS) - need) & GUARDS == GUARDS


def kinds_text(kinds: Iterable[int]) -> str:
    """Kinds written as tiles in TG-81 order (civil first, higher first; military by total)."""
    return " ".join(KIND_NAMES[k] for k in sorted(kinds))


@dataclass(frozen=True, slots=True)
class Move:
    """A face-up combination or a face-down ``discard`` of ``size`` tiles.

    ``kind`` is the combination id (``single``, ``civil_pair`` … ``wen_supreme``)
    or ``discard``; ``kinds`` the tile kinds in TG-81 order, empty for another
    seat's discard as a view shows it. ``cls`` and ``rank`` decide what beats
    what (TG-22), ``need`` is the packed count of ``kinds``.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    kind: str
    kinds: tuple[int, ...]
    size: int
    cls: int = field(default=-1, compare=False, repr=False)
    rank: int = field(default=0, compare=False, repr=False)
    need: int = field(default=0, compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)
    action_id: int = field(default=-1, compare=False)

    @property
    def is_discard(self) -> bool:
        """True for a face-down discard (TG-21 b)."""
        return self.kind == "discard"

    @property
    def hidden(self) -> bool:
        """True for another seat's discard as a view shows it: a count, no tiles (TG-25)."""
        return self.kind == "discard" and not self.kinds

    @property
    def suit(self) -> int:
        """`CIVIL` or `MILITARY` for a single; -1 for any other move."""
        if self.cls == SINGLE_CIVIL:
            return CIVIL
        if self.cls == SINGLE_MILITARY:
            return MILITARY
        return -1

    def __str__(self) -> str:
        return self.text or self.kind

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


#: Another seat's discard of 1 to 4 tiles as views show it (TG-82); index 0 is unused.
HIDDEN_DISCARDS: Final = tuple(
    Move("discard", (), n, text=" ".join(["discard"] + ["??"] * n)) for n in range(5)
)
