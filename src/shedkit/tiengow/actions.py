"""The dense action space of Tien Gow under given options, computed in code.

First every combination the options allow (`shedkit.tiengow.movegen.play_keys`,
singles first), then every discard of one tile, of two, and so on up to the
largest combination (TG-21 b): a discard is a multiset of kinds, at most two
of a civil kind and one of a military tile. A move's id, text and what beats
it are fixed here, once per options value.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from shedkit.tiengow.combos import (
    COMBO_IDS,
    KIND_SUIT,
    MILITARY,
    NUM_KINDS,
    Move,
    kinds_text,
    pack,
)
from shedkit.tiengow.movegen import beats, play_keys
from shedkit.tiengow.options import Options

__all__ = ["Tables", "tables_for"]


class Tables:
    """Interned moves, lookup by kinds, and for each combination the ones that beat it."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the options: unpickling gets the cached tables (compiled classes need it)."""
        return tables_for, (self.opts,)

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        moves: list[Move] = []
        for cls, kinds, rank in play_keys(opts):
            moves.append(
                Move(
                    COMBO_IDS[cls],
                    kinds,
                    len(kinds),
                    cls,
                    rank,
                    pack(kinds),
                    kinds_text(kinds),
                    len(moves),
                )
            )
        self.plays: tuple[Move, ...] = tuple(moves)
        #: The largest combination: discards go up to it (TG-21).
        self.max_size = max(m.size for m in self.plays)
        for size in range(1, self.max_size + 1):
            for kinds in itertools.combinations_with_replacement(range(NUM_KINDS), size):
                if any(kinds.count(k) > (1 if KIND_SUIT[k] == MILITARY else 2) for k in set(kinds)):
                    continue
                text = "discard " + kinds_text(kinds)
                moves.append(Move("discard", kinds, size, -1, 0, pack(kinds), text, len(moves)))
        self.moves: tuple[Move, ...] = tuple(moves)
        self.play_by_need: dict[int, Move] = {m.need: m for m in self.plays}
        self.discard_by_need: dict[int, Move] = {m.need: m for m in self.moves[len(self.plays) :]}
        # What beats each combination, by its id, ascending (TG-22, TG-23, TG-51, TG-60).
        self.beaters: tuple[tuple[Move, ...], ...] = tuple(
            tuple(b for b in self.plays if b.size == m.size and beats(b, m, opts))
            for m in self.plays
        )

    @property
    def num_actions(self) -> int:
        """Size of the dense action space."""
        return len(self.moves)


@functools.lru_cache(maxsize=32)
def tables_for(opts: Options) -> Tables:
    """The tables of ``opts``, built once per distinct options value."""
    return Tables(opts)
