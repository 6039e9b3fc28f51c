"""Cards, the order in force, and the `Move` value of President (PRE-01, PRE-03, PRE-30/31).

A card is an int: ``face * 4 + suit`` for the 52 suited cards, faces
``0 … 12`` being ``A 2 3 … K`` and suits ``s h d c``; ``52`` is the joker.

>>> card_str(4 * 9 + 1), card_str(JOKER)
('Th', 'Jk')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from shedkit.core.pickling import reduce_dataclass

__all__ = [
    "FACE_CHARS",
    "JOKER",
    "KINDS",
    "PASS",
    "SUIT_CHARS",
    "Move",
    "best_cards",
    "card_key",
    "card_str",
    "normal_order",
]

FACE_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "shdc"
JOKER: Final = 52
EIGHT: Final = 7  # the face index of the 8 (PRE-18)
KINDS: Final = ("pass", "give", "single", "pair", "triple", "quad", "run")


def card_str(card: int) -> str:
    """A card as rank + suit letter (``Th``), the joker as ``Jk`` (PRE-30)."""
    if card == JOKER:
        return "Jk"
    return FACE_CHARS[card // 4] + SUIT_CHARS[card % 4]


def normal_order(rank_order: str) -> tuple[int, ...]:
    """Faces from low to high without a revolution (PRE-03)."""
    if rank_order == "ace-low":
        return tuple(range(13))
    return (*tuple(range(2, 13)), 0, 1)


def card_key(card: int, position: Sequence[int], reverse: bool) -> tuple[int, int]:
    """Where ``card`` sorts, low to high, in the order in force: face, then suit ``s h d c``.

    ``position`` is each face's place in the normal order; ``reverse`` is a
    revolution (PRE-13). The joker sorts above every card (PRE-21).
    """
    if card == JOKER:
        return (13, 0)
    p = position[card // 4]
    return (12 - p if reverse else p, card % 4)


def best_cards(
    cards: Sequence[int], count: int, position: Sequence[int], reverse: bool
) -> tuple[int, ...]:
    """The ``count`` highest of ``cards`` in the order in force, as ascending ids (PRE-21)."""
    ranked = sorted(cards, key=lambda c: card_key(c, position, reverse))
    return tuple(sorted(ranked[len(ranked) - min(count, len(ranked)) :]))


@dataclass(frozen=True, slots=True)
class Move:
    """A pass, a tax ``give``, or a play of ``cards`` (ids, ascending; the joker last).

    ``joker_as`` is the card the joker stands for (PRE-16), or -1. ``faces``
    are the played faces with the joker's declared face in its place. ``text``
    is the notation in the normal order of the game the move belongs to.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    kind: str
    cards: tuple[int, ...] = ()
    joker_as: int = -1
    faces: tuple[int, ...] = field(default=(), compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)
    action_id: int = field(default=-1, compare=False)

    @property
    def has_joker(self) -> bool:
        """True if the joker is among the cards."""
        return JOKER in self.cards

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.cards)

    def __str__(self) -> str:
        return self.text or self.kind

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


PASS: Final = Move("pass", text="pass", action_id=0)
