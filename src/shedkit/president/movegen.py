"""Plays a President hand can make (PRE-07, PRE-15, PRE-16).

A hand is a card bitmask. `play_keys` yields plays as keys
``(kind, cards, joker_as)``; given a kind and a size it yields only those,
which is all a response needs. The action table is built from the keys of the
full pack, so every key of a hand names an interned move.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from shedkit.president.combos import JOKER

__all__ = ["Key", "play_keys"]

Key = tuple[str, tuple[int, ...], int]
_SAME_FACE = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
_SIZE_OF = {"single": 1, "pair": 2, "triple": 3, "quad": 4}


def play_keys(hand: int, sequence: Sequence[int], kind: str = "", size: int = 0) -> Iterator[Key]:
    """Every play of the card bitmask ``hand``, or only those of ``kind`` and ``size``.

    ``sequence`` is the faces in the normal order, along which runs are read.
    """
    joker = bool(hand >> JOKER & 1)
    if kind != "run":
        sizes = (_SIZE_OF[kind],) if kind else (1, 2, 3, 4)
        for f in range(13):
            cards = [c for c in range(4 * f, 4 * f + 4) if hand >> c & 1]
            for n in sizes:
                name = _SAME_FACE[n]
                for combo in itertools.combinations(cards, n):
                    yield (name, combo, -1)
                if joker and n > 1 and n - 1 <= len(cards):
                    for combo in itertools.combinations(cards, n - 1):
                        # PRE-16: the player names the card the joker stands for, any card
                        # of the face not already in the play, so each is its own move.
                        used = {c % 4 for c in combo}
                        for free in range(4):
                            if free not in used:
                                yield (name, (*combo, JOKER), 4 * f + free)
        if joker and (not kind or kind == "single"):
            yield ("single", (JOKER,), -1)  # PRE-15
        if kind:
            return
    for suit in range(4):
        present = [hand >> (4 * f + suit) & 1 for f in sequence]
        bits = 0
        for p, here in enumerate(present):
            bits |= here << p
        # Every run holds a window of three ranks with all three present, or two and the
        # joker; most suits of a hand have neither, and skipping them is most of the speed.
        if joker:
            if not (bits & bits >> 1 | bits & bits >> 2 | bits >> 1 & bits >> 2):
                continue
        elif not bits & bits >> 1 & bits >> 2:
            continue
        for lo in range(13):
            highs = range(lo + size, lo + size + 1) if size else range(lo + 3, 14)
            for hi in highs:
                if hi > 13:
                    break
                window = [4 * sequence[p] + suit for p in range(lo, hi)]
                missing = [p for p in range(lo, hi) if not present[p]]
                if len(missing) > joker:
                    break  # a longer window misses the same cards and more
                if not missing:
                    yield ("run", tuple(sorted(window)), -1)
                    if joker:
                        for c in window:
                            rest = tuple(sorted(x for x in window if x != c))
                            yield ("run", (*rest, JOKER), c)
                else:
                    gap = 4 * sequence[missing[0]] + suit
                    rest = tuple(sorted(x for x in window if x != gap))
                    yield ("run", (*rest, JOKER), gap)
