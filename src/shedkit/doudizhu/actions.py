"""The dense action space of Dou Di Zhu under given options, computed in code.

Every move a player could ever make (``pass``, the three bids and every
combination reading) gets an id: ``pass`` is 0, ``bid1…bid3`` are 1…3, then the
combinations by kind, length, rank and kickers. The tables built here are also
the lookup structures the move generator indexes into, so every generated move
is an interned [`Move`][shedkit.doudizhu.actions.Move] carrying its id.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from shedkit.doudizhu.combos import BJ, KINDS, NRANKS, PASS, RJ, TWO, Move
from shedkit.doudizhu.options import Options

__all__ = ["Limits", "Tables", "tables_for"]

Key = tuple[str, int, tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Limits:
    """Length limits of chains and planes (DDZ-18), in groups."""

    chain: tuple[int, int] = (5, 12)
    pair_chain: tuple[int, int] = (3, 10)
    plane: tuple[int, int] = (2, 6)
    plane_solo: tuple[int, int] = (2, 5)
    plane_pair: tuple[int, int] = (2, 4)


LIMITS = Limits()


def solo_kicker_caps(opts: Options) -> list[int]:
    """Most cards of each rank a set of solo kickers may hold (DDZ-16)."""
    if not opts.kickers_may_repeat:
        return [1] * NRANKS
    joker = opts.decks
    # Never all four of a rank: kickers never split a bomb (DDZ-16, DDZ-41).
    return [3] * (NRANKS - 2) + [joker, joker]


def contains_rocket(kickers: tuple[int, ...], decks: int) -> bool:
    """True if the kicker ranks hold every joker of the rocket (DDZ-16, DDZ-42)."""
    return kickers.count(BJ) >= decks and kickers.count(RJ) >= decks


def pairable(rank: int, decks: int) -> bool:
    """Whether two cards of ``rank`` form a pair (DDZ-16; DDZ-42 for two packs)."""
    return rank < BJ or decks == 2


def multisets(avail: list[tuple[int, int]], k: int) -> list[tuple[int, ...]]:
    """All ascending rank tuples of size ``k`` taking at most ``cap`` of each ``(rank, cap)``."""
    out: list[tuple[int, ...]] = []
    n = len(avail)
    if k == 2 and all(avail[i][0] < avail[i + 1][0] for i in range(n - 1)):
        # Two kickers (four with two, two-trio planes) are most of the calls: list them
        # directly, already in ascending order, without the recursion.
        for i in range(n):
            rank, cap = avail[i]
            if cap >= 2:
                out.append((rank, rank))
            for j in range(i + 1, n):
                out.append((rank, avail[j][0]))
        return out
    room = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + avail[i][1]

    def rec(i: int, left: int, prefix: tuple[int, ...]) -> None:
        if left == 0:
            out.append(prefix)
            return
        if room[i] < left:
            return
        rank, cap = avail[i]
        for m in range(min(cap, left), -1, -1):
            rec(i + 1, left - m, prefix + (rank,) * m)

    rec(0, k, ())
    out.sort()
    return out


class Tables:
    """Interned moves and per-kind lookup tables for one set of options."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the options: unpickling gets the cached tables (compiled classes need it)."""
        return tables_for, (self.opts,)

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.decks = opts.decks
        self.nchain = 13 if opts.two_in_chains else 12
        self.deck_counts = [4 * opts.decks] * 13 + [opts.decks, opts.decks]
        self.kicker_caps = solo_kicker_caps(opts)
        self.bomb_sizes = range(4, 4 * opts.decks + 1)
        keys = sorted(set(_all_keys(self)), key=_key_order)
        moves: list[Move] = [PASS]
        moves += [Move("bid", v, action_id=v) for v in (1, 2, 3)]
        for key in keys:
            kind, rank, base, kickers = key
            moves.append(Move(kind, rank, base, kickers, _length(kind, base), len(moves)))
        self.moves: tuple[Move, ...] = tuple(moves)
        self.by_key: dict[Key, Move] = {(m.kind, m.rank, m.base, m.kickers): m for m in moves}
        self.bids = moves[1:4]
        self.by_cards: dict[tuple[int, ...], list[Move]] = {}
        for m in moves[4:]:
            self.by_cards.setdefault(tuple(sorted(m.ranks)), []).append(m)
        self.solo: list[Move | None] = [None] * NRANKS
        self.pair: list[Move | None] = [None] * NRANKS
        self.trio: list[Move | None] = [None] * NRANKS
        self.bomb: dict[tuple[int, int], Move] = {}
        self.rocket: Move = PASS
        self.runs: dict[str, dict[tuple[int, int], Move]] = {
            k: {} for k in ("chain", "pair_chain", "plane")
        }
        self.with_kickers: dict[str, dict[tuple[int, int], dict[tuple[int, ...], Move]]] = {
            k: {}
            for k in (
                "trio_solo",
                "trio_pair",
                "plane_solo",
                "plane_pair",
                "quad_two_solos",
                "quad_two_pairs",
                "quad_solo",
                "quad_pair",
            )
        }
        self._index(moves)
        self.chain_mask = (1 << self.nchain) - 1
        self.run_leads: dict[str, list[tuple[Move, ...]]] = {}
        for kind, width, limits in (
            ("chain", 1, LIMITS.chain),
            ("pair_chain", 2, LIMITS.pair_chain),
            ("plane", 3, LIMITS.plane),
        ):
            table = self.runs[kind]
            allowed = (1 << opts.chain_limit(width)) - 1  # a single chain never holds the 2
            self.run_leads[kind] = [
                tuple(table[key] for key in run_keys(mask & allowed, limits))
                for mask in range(1 << self.nchain)
            ]
        # trio_solo/trio_pair by [trio rank][kicker rank], so leads need no tuple keys.
        self.trio_kicked: dict[str, list[list[Move | None]]] = {}
        for kind in ("trio_solo", "trio_pair"):
            grid: list[list[Move | None]] = [[None] * NRANKS for _ in range(NRANKS)]
            for (rank, _), row in self.with_kickers[kind].items():
                for kick, m in row.items():
                    grid[rank][kick[0]] = m
            self.trio_kicked[kind] = grid

    def _index(self, moves: list[Move]) -> None:
        for m in moves[4:]:
            kind = m.kind
            if kind == "solo":
                self.solo[m.rank] = m
            elif kind == "pair":
                self.pair[m.rank] = m
            elif kind == "trio":
                self.trio[m.rank] = m
            elif kind == "bomb":
                self.bomb[(m.rank, len(m.base))] = m
            elif kind == "rocket":
                self.rocket = m
            elif kind in self.runs:
                self.runs[kind][(m.rank, m.length)] = m
            else:
                table = self.with_kickers[kind].setdefault((m.rank, m.length), {})
                table[m.kickers] = m

    @property
    def num_actions(self) -> int:
        """Size of the dense action space."""
        return len(self.moves)


def _mask_runs(mask: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs ``(lo, hi)`` (hi exclusive) of set bits in ``mask``."""
    runs = []
    r = 0
    while mask >> r:
        if mask >> r & 1:
            lo = r
            while mask >> r & 1:
                r += 1
            runs.append((lo, r))
        else:
            r += 1
    return tuple(runs)


#: Runs of set bits for every 13-bit rank mask (3 … 2), built once at import.
MASK_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_mask_runs(m) for m in range(1 << 13))


def run_keys(mask: int, limits: tuple[int, int]) -> list[tuple[int, int]]:
    """Every ``(top, k)`` run of ``limits[0] … limits[1]`` groups inside the ranks of ``mask``."""
    kmin, kmax = limits
    return [
        (top, k)
        for lo, hi in MASK_RUNS[mask]
        for k in range(kmin, min(kmax, hi - lo) + 1)
        for top in range(lo + k - 1, hi)
    ]


def _length(kind: str, base: tuple[int, ...]) -> int:
    if kind in ("chain",):
        return len(base)
    if kind == "pair_chain":
        return len(base) // 2
    if kind in ("plane", "plane_solo", "plane_pair"):
        return len(base) // 3
    return 1


def _key_order(key: Key) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...]]:
    kind, rank, base, kickers = key
    return (KINDS.index(kind), len(base), rank, base, kickers)


def _all_keys(t: Tables) -> Iterator[Key]:
    """Every combination reading that a full deck could form (the action space)."""
    opts, decks, caps = t.opts, t.decks, t.deck_counts
    singles = range(NRANKS)
    pairs = [r for r in singles if pairable(r, decks)]
    trios = range(TWO + 1)
    for r in singles:
        yield ("solo", r, (r,), ())
    for r in pairs:
        yield ("pair", r, (r, r), ())
    for r in trios:
        yield ("trio", r, (r,) * 3, ())
        for s in singles:
            if s != r:
                yield ("trio_solo", r, (r,) * 3, (s,))
        for s in pairs:
            if s != r:
                yield ("trio_pair", r, (r,) * 3, (s, s))
        for size in t.bomb_sizes:
            yield ("bomb", r, (r,) * size, ())
    yield ("rocket", RJ, (BJ,) * decks + (RJ,) * decks, ())
    for kind, width, (lo_k, hi_k) in (
        ("chain", 1, LIMITS.chain),
        ("pair_chain", 2, LIMITS.pair_chain),
        ("plane", 3, LIMITS.plane),
    ):
        for k in range(lo_k, hi_k + 1):
            for top in range(k - 1, t.opts.chain_limit(width)):
                yield (kind, top, _run_base(top, k, width), ())
    for k in range(LIMITS.plane_solo[0], LIMITS.plane_solo[1] + 1):
        for top in range(k - 1, t.nchain):
            base = _run_base(top, k, 3)
            for kick in solo_kickers(t, caps, set(base), k):
                yield ("plane_solo", top, base, kick)
    for k in range(LIMITS.plane_pair[0], LIMITS.plane_pair[1] + 1):
        for top in range(k - 1, t.nchain):
            base = _run_base(top, k, 3)
            for kick in pair_kickers(t, caps, set(base), k):
                yield ("plane_pair", top, base, kick)
    for q in trios:
        base = (q,) * 4
        for kick in solo_kickers(t, caps, {q}, 2):
            yield ("quad_two_solos", q, base, kick)
        for kick in pair_kickers(t, caps, {q}, 2):
            yield ("quad_two_pairs", q, base, kick)
        if opts.quad_single_kicker:
            for s in singles:
                if s != q:
                    yield ("quad_solo", q, base, (s,))
            for s in pairs:
                if s != q:
                    yield ("quad_pair", q, base, (s, s))


def _run_base(top: int, k: int, width: int) -> tuple[int, ...]:
    return tuple(r for r in range(top - k + 1, top + 1) for _ in range(width))


def solo_kickers(t: Tables, counts: list[int], exclude: set[int], k: int) -> list[tuple[int, ...]]:
    """Solo kicker rank tuples of size ``k`` from ``counts`` avoiding ``exclude`` (DDZ-15/16)."""
    caps = t.kicker_caps
    avail = [(r, min(counts[r], caps[r])) for r in range(NRANKS) if counts[r] and r not in exclude]
    found = multisets(avail, k)
    if t.opts.rocket_as_kickers:
        return found
    return [kick for kick in found if not contains_rocket(kick, t.decks)]


def pair_kickers(t: Tables, counts: list[int], exclude: set[int], k: int) -> list[tuple[int, ...]]:
    """Pair kicker rank tuples (``a a b b …``) of ``k`` distinct ranks (DDZ-15/16)."""
    ranks = [
        r for r in range(NRANKS) if counts[r] >= 2 and r not in exclude and pairable(r, t.decks)
    ]
    out = []
    for combo in itertools.combinations(ranks, k):
        kick = tuple(r for r in combo for _ in (0, 1))
        if t.opts.rocket_as_kickers or not contains_rocket(kick, t.decks):
            out.append(kick)
    return out


@functools.lru_cache(maxsize=16)
def tables_for(opts: Options) -> Tables:
    """The tables of ``opts``, built once per distinct options value."""
    return Tables(opts)
