"""Ranks, cards and the `Move` value of Dou Di Zhu (DDZ-01, DDZ-02, DDZ-50/51).

Ranks are small ints ``0 … 14`` in playing order: ``0`` is the 3, ``11`` the ace,
``12`` the 2, ``13`` the black joker and ``14`` the red joker (DDZ-02). A card is
an int: in one pack ``rank * 4 + suit`` for the 52 suited cards, ``52`` the black
and ``53`` the red joker; the second pack of the four-player game adds 54.

>>> card_str(4 * 7 + 0), card_str(53)
('Ts', 'R')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from shedkit.core.pickling import reduce_dataclass

__all__ = [
    "BJ",
    "KINDS",
    "NRANKS",
    "PASS",
    "RANK_CHARS",
    "RJ",
    "SUIT_CHARS",
    "TWO",
    "Move",
    "card_rank",
    "card_str",
]

NRANKS: Final = 15
TWO: Final = 12
BJ: Final = 13
RJ: Final = 14
RANK_CHARS: Final = "3456789TJQKA2BR"
SUIT_CHARS: Final = "shdc"
CARDS_PER_PACK: Final = 54

#: Combination ids (DDZ table), plus the auction's ``pass``/``bid``.
KINDS: Final = (
    "pass",
    "bid",
    "solo",
    "pair",
    "trio",
    "trio_solo",
    "trio_pair",
    "chain",
    "pair_chain",
    "plane",
    "plane_solo",
    "plane_pair",
    "bomb",
    "rocket",
    "quad_two_solos",
    "quad_two_pairs",
    "quad_solo",
    "quad_pair",
)

_RANK_OF_CARD: Final = tuple(
    (c % CARDS_PER_PACK) // 4 if c % CARDS_PER_PACK < 52 else BJ + (c % CARDS_PER_PACK) - 52
    for c in range(2 * CARDS_PER_PACK)
)


def card_rank(card: int) -> int:
    """Return the rank (0 = 3 … 14 = red joker) of a card id."""
    return _RANK_OF_CARD[card]


def card_str(card: int) -> str:
    """Return a card as rank + suit letter (``Ts``, ``2h``), jokers as ``B``/``R`` (DDZ-50)."""
    c = card % CARDS_PER_PACK
    if c >= 52:
        return "B" if c == 52 else "R"
    return RANK_CHARS[c // 4] + SUIT_CHARS[c % 4]


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a bid, a pass, or a combination read one particular way (DDZ-16a).

    Two moves are equal when kind, rank and cards are; ``action_id`` is the
    dense id in the game the move came from. ``base`` and ``kickers`` are rank
    tuples in ascending order; ``rank`` is the ranking rank (the top rank of a
    chain, the bid value of a bid); ``length`` is the number of groups of a
    chain or plane (1 otherwise); ``ranks`` is base then kickers.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    kind: str
    rank: int = 0
    base: tuple[int, ...] = ()
    kickers: tuple[int, ...] = ()
    length: int = field(default=1, compare=False)
    action_id: int = field(default=-1, compare=False)
    ranks: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        # Every play reads base + kickers; join them once per interned move.
        object.__setattr__(self, "ranks", self.base + self.kickers)

    @property
    def size(self) -> int:
        """Number of cards played."""
        return len(self.base) + len(self.kickers)

    @property
    def is_bomb(self) -> bool:
        """True for bombs and the rocket, the moves that beat other kinds (DDZ-21/22)."""
        return self.kind == "bomb" or self.kind == "rocket"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind == "bid":
            return f"bid{self.rank}"
        text = "".join(RANK_CHARS[r] for r in self.base)
        if self.kickers:
            text += "+" + "".join(RANK_CHARS[r] for r in self.kickers)
        # quad_pair reads the same cards as a quad_two_solos with equal kickers.
        if self.kind == "quad_pair":
            text = "quad_pair:" + text
        return text


PASS: Final = Move("pass", action_id=0)
