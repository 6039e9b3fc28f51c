"""The Chinese dominoes set as a tile model: names, civil and military suits, ranks (DOM-30…32).

The 32 tiles come from two dice: the 11 *civil* kinds twice each and the 10
*military* tiles once each. Civil tiles rank in the order of `CIVIL`
(heaven highest, DOM-31); military tiles rank by pip total, the tiles of
equal total sharing a rank, in the order of `MILITARY`. No game is
played on the set yet (DOM-32).

>>> tiles = chinese_set()
>>> len(tiles), tiles[0].name, tiles[0].suit
(32, 'heaven', 'civil')
>>> find("4-5").name, find("4-5").rank == find("3-6").rank
('nine', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["CIVIL", "MILITARY", "ChineseTile", "chinese_set", "compare", "find"]

#: DOM-30: the civil kinds, strongest first, with their names.
CIVIL: Final[tuple[tuple[int, int, str], ...]] = (
    (6, 6, "heaven"),
    (1, 1, "earth"),
    (4, 4, "man"),
    (1, 3, "goose"),
    (5, 5, "plum"),
    (3, 3, "long three"),
    (2, 2, "bench"),
    (5, 6, "axe"),
    (4, 6, "red head ten"),
    (1, 6, "long leg seven"),
    (1, 5, "red mallet six"),
)

#: DOM-30: the military tiles in rank groups, strongest first; a group shares its rank.
MILITARY: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    ((3, 6), (4, 5)),
    ((2, 6), (3, 5)),
    ((2, 5), (3, 4)),
    ((2, 4),),
    ((1, 4), (2, 3)),
    ((1, 2),),
)

_MILITARY_NAMES: Final = {9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 3: "three"}


@dataclass(frozen=True, slots=True)
class ChineseTile:
    """One tile of the Chinese set.

    ``rank`` is 1 for the strongest of its suit and grows downwards; ``copy``
    tells the two tiles of a civil kind apart (0 or 1). ``index`` is the
    tile's place in `chinese_set`.
    """

    index: int
    low: int
    high: int
    name: str
    suit: Literal["civil", "military"]
    rank: int
    copy: int

    @property
    def pips(self) -> int:
        """The pip total of the two dice faces."""
        return self.low + self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


def _build() -> tuple[ChineseTile, ...]:
    tiles: list[ChineseTile] = []
    for rank, (lo, hi, name) in enumerate(CIVIL, start=1):
        for copy in range(2):
            tiles.append(ChineseTile(len(tiles), lo, hi, name, "civil", rank, copy))
    for rank, group in enumerate(MILITARY, start=1):
        for lo, hi in group:
            name = _MILITARY_NAMES[lo + hi]
            tiles.append(ChineseTile(len(tiles), lo, hi, name, "military", rank, 0))
    return tuple(tiles)


_SET: Final = _build()


def chinese_set() -> tuple[ChineseTile, ...]:
    """The 32 tiles: civil kinds strongest first (each twice), then the military tiles."""
    return _SET


def find(text: str) -> ChineseTile:
    """The first tile named ``text``: ``a-b`` in either order, or a civil name (``heaven``).

    Raises `ValueError` for a name or pair that is not in the set.
    """
    key = text.strip().lower()
    match = re.fullmatch(r"\[?\s*(\d)\s*[-|]\s*(\d)\s*\]?", key)
    for tile in _SET:
        if match is not None:
            a, b = sorted((int(match[1]), int(match[2])))
            if (tile.low, tile.high) == (a, b):
                return tile
        elif tile.suit == "civil" and tile.name == key:
            return tile
    raise ValueError(f"{text!r} is not a tile of the Chinese set (DOM-30)")


def compare(a: ChineseTile, b: ChineseTile) -> int:
    """1 if ``a`` outranks ``b``, -1 if ``b`` outranks ``a``, 0 if they rank equal (DOM-31).

    Tiles of different suits do not rank against each other: `ValueError`.
    """
    if a.suit != b.suit:
        raise ValueError(f"{a} ({a.suit}) and {b} ({b.suit}) are of different suits (DOM-31)")
    return (a.rank < b.rank) - (a.rank > b.rank)
