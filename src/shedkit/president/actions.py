"""The dense action space of President under given options, computed in code.

``pass`` is 0; then every play the full pack could form (singles, pairs,
triples, quads, one-suit runs, each with or without the joker standing in for
a card) and every tax ``give`` of one or two cards. A move's id, text and
strength in either order are fixed here, once per options value.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from shedkit.president.combos import (
    FACE_CHARS,
    JOKER,
    KINDS,
    PASS,
    SUIT_CHARS,
    Move,
    card_key,
    normal_order,
)
from shedkit.president.movegen import Key, play_keys
from shedkit.president.options import Options

__all__ = ["Tables", "tables_for"]


class Tables:
    """Interned moves, their strengths in both orders, and lookup by key."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the options: unpickling gets the cached tables (compiled classes need it)."""
        return tables_for, (self.opts,)

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.sequence = normal_order(opts.rank_order)
        self.position = [0] * 13
        for pos, face in enumerate(self.sequence):
            self.position[face] = pos
        # Each card's place when sorting a hand low to high, normal order then reversed
        # (`card_key` as one int: a hand is sorted at every view, so by a list lookup).
        ranks: list[list[int]] = []
        for rev in (False, True):
            keys_of = [card_key(c, self.position, rev) for c in range(JOKER + 1)]
            ranks.append([face * 4 + suit for face, suit in keys_of])
        self.sort_rank: tuple[list[int], list[int]] = (ranks[0], ranks[1])
        deck = (1 << 52) - 1 | ((1 << JOKER) if opts.jokers else 0)
        keys = sorted(set(play_keys(deck, self.sequence)), key=self._order)
        cards = [c for c in range(53) if deck >> c & 1]
        keys += [("give", combo, -1) for k in (1, 2) for combo in itertools.combinations(cards, k)]
        moves = [PASS]
        for kind, cs, joker_as in keys:
            faces = tuple(joker_as // 4 if c == JOKER and joker_as >= 0 else c // 4 for c in cs)
            if cs == (JOKER,):
                faces = ()
            moves.append(
                Move(kind, cs, joker_as, faces, self._text(kind, cs, joker_as), len(moves))
            )
        self.moves: tuple[Move, ...] = tuple(moves)
        self.by_key: dict[Key, Move] = {(m.kind, m.cards, m.joker_as): m for m in moves}
        # PRE-31: a play is written low to high in the order in force, so a revolution
        # writes it the other way round; ``text_reversed`` holds that spelling by id.
        self.text_reversed: tuple[str, ...] = tuple(
            m.text
            if m.kind in ("pass", "give")
            else self._text(m.kind, m.cards, m.joker_as, reverse=True)
            for m in moves
        )
        # Strength of a play's top card: normal order, then reversed (PRE-07, PRE-13).
        self.strength: list[tuple[int, int]] = []
        for m in moves:
            if m.kind in ("pass", "give"):
                self.strength.append((-1, -1))
            elif not m.faces:  # the joker alone beats every single (PRE-15)
                self.strength.append((13, 13))
            else:
                top = max(self.position[f] for f in m.faces)
                low = min(self.position[f] for f in m.faces)
                self.strength.append((top, 12 - low))

        # Same-face plays by [face][suit pattern | joker << 4][size] (size 0: every size),
        # so a hand's singles to quads are table reads, not enumerations.
        self.same_face: list[list[list[tuple[Move, ...]]]] = []
        for face in range(13):
            rows: list[list[tuple[Move, ...]]] = []
            for pattern in range(32):
                if pattern >> 4 and not opts.jokers:
                    rows.append(rows[pattern & 15])  # never read: no joker in this game
                    continue
                bits = (pattern & 15) << (4 * face) | (pattern >> 4) << JOKER
                by_size: list[list[Move]] = [[] for _ in range(5)]
                for key in play_keys(bits, self.sequence):
                    if key[0] != "run" and key[1] != (JOKER,):
                        m = self.by_key[key]
                        by_size[0].append(m)
                        by_size[m.size].append(m)
                rows.append([tuple(ms) for ms in by_size])
            self.same_face.append(rows)

    @property
    def num_actions(self) -> int:
        """Size of the dense action space."""
        return len(self.moves)

    def _order(self, key: Key) -> tuple[int, int, tuple[int, ...], int]:
        kind, cards, joker_as = key
        return (KINDS.index(kind), len(cards), cards, joker_as)

    def sort_key(self, card: int, joker_as: int = -1) -> tuple[int, int]:
        """Where a card sorts in the normal order (the joker at its stand-in's place, or last)."""
        if card == JOKER:
            if joker_as < 0:
                return (13, 4)
            card = joker_as
        return (self.position[card // 4], card % 4)

    def _text(self, kind: str, cards: tuple[int, ...], joker_as: int, reverse: bool = False) -> str:
        def key(c: int) -> tuple[int, int]:
            pos, suit = self.sort_key(c, joker_as)
            return (12 - pos if reverse and pos < 13 else pos, suit)

        ordered = sorted(cards, key=key)
        parts = [
            f"Jk={FACE_CHARS[joker_as // 4]}{SUIT_CHARS[joker_as % 4]}"
            if c == JOKER and joker_as >= 0
            else ("Jk" if c == JOKER else FACE_CHARS[c // 4] + SUIT_CHARS[c % 4])
            for c in ordered
        ]
        text = " ".join(parts)
        return f"give {text}" if kind == "give" else text


@functools.lru_cache(maxsize=16)
def tables_for(opts: Options) -> Tables:
    """The tables of ``opts``, built once per distinct options value."""
    return Tables(opts)
