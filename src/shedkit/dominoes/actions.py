"""The dense action space of Dominoes under given options, computed in code.

``pass`` is 0 and ``draw`` 1; then a ``lead`` of every tile (a hand's first
tile, DOM-41), then a ``play`` of every tile on every end the variant has
(``L R``, and ``U D`` in All Fives, DOM-22). A play's id is
``2 + T + tile * E + end`` for ``T`` tiles and ``E`` ends. The tables also
hold, per pip value, the bitmask of the tiles showing it.
"""

from __future__ import annotations

import functools
from typing import Any

from shedkit.dominoes.combos import DRAW, END_NAMES, PASS, Move, tile_halves, tile_str
from shedkit.dominoes.options import Options

__all__ = ["Tables", "tables_for"]


class Tables:
    """Interned moves, tile halves and pips, and the tiles showing each pip value."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the options: unpickling gets the cached tables (compiled classes need it)."""
        return tables_for, (self.opts,)

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        m = opts.max_pips
        self.max_pips = m
        self.num_tiles = opts.num_tiles
        self.num_ends = 4 if opts.variant == "fives" else 2
        self.halves: tuple[tuple[int, int], ...] = tuple(
            tile_halves(t, m) for t in range(self.num_tiles)
        )
        self.pips: tuple[int, ...] = tuple(a + b for a, b in self.halves)
        self.names: tuple[str, ...] = tuple(tile_str(t, m) for t in range(self.num_tiles))
        self.doubles: tuple[int, ...] = tuple(t for t, (a, b) in enumerate(self.halves) if a == b)
        # value_mask[v]: tiles with a half showing v; a hand's tiles fitting an end are hand & it.
        self.value_mask: tuple[int, ...] = tuple(
            sum(1 << t for t, h in enumerate(self.halves) if v in h) for v in range(m + 1)
        )
        moves: list[Move] = [PASS, DRAW]
        for t in range(self.num_tiles):
            moves.append(Move("lead", t, -1, self.names[t], len(moves)))
        self.lead_base = len(moves)
        for t in range(self.num_tiles):
            for e in range(self.num_ends):
                moves.append(Move("play", t, e, f"{self.names[t]}@{END_NAMES[e]}", len(moves)))
        self.play_base = len(moves) - self.num_tiles * self.num_ends
        self.moves: tuple[Move, ...] = tuple(moves)
        self.leads: tuple[Move, ...] = self.moves[2 : 2 + self.num_tiles]
        self.plays: tuple[Move, ...] = self.moves[self.play_base :]
        self.by_text: dict[str, Move] = {m.text: m for m in moves}

    @property
    def num_actions(self) -> int:
        """Size of the dense action space."""
        return len(self.moves)

    def play(self, tile: int, end: int) -> Move:
        """The interned play of ``tile`` on ``end``."""
        return self.plays[tile * self.num_ends + end]

    def rank(self, tile: int) -> tuple[bool, int, int]:
        """Where a tile ranks for DOM-04 (doubles first, then by pips and high half)."""
        a, b = self.halves[tile]
        return (a == b, a + b, b)


@functools.lru_cache(maxsize=32)
def tables_for(opts: Options) -> Tables:
    """The tables of ``opts``, built once per distinct options value."""
    return Tables(opts)
