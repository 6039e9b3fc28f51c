"""Legal combinations from a hand of rank counts (DDZ-11…23).

A hand is a list of 15 counts, one per rank. Leads enumerate every kind;
responses enumerate only the last play's kind and length above its rank, plus
the bombs and the rocket that beat it. Every move comes out of the
:class:`~shedkit.doudizhu.actions.Tables`, so it is interned and carries its id.
"""

from __future__ import annotations

import itertools

from shedkit.doudizhu.actions import LIMITS, Tables, contains_rocket, multisets
from shedkit.doudizhu.combos import BJ, NRANKS, PASS, RJ, Move

__all__ = ["lead_moves", "response_moves"]

_RANKS = range(NRANKS)


def _runs(c: list[int], need: int, nchain: int) -> list[tuple[int, int]]:
    """Maximal runs ``(lo, hi)`` (hi exclusive) of chain ranks with at least ``need`` cards."""
    runs = []
    lo = -1
    for r in range(nchain):
        if c[r] >= need:
            if lo < 0:
                lo = r
        elif lo >= 0:
            runs.append((lo, r))
            lo = -1
    if lo >= 0:
        runs.append((lo, nchain))
    return runs


def _run_moves(
    out: list[Move],
    c: list[int],
    t: Tables,
    kind: str,
    need: int,
    limits: tuple[int, int],
    k_only: int,
    above: int,
) -> None:
    table = t.runs[kind]
    kmin, kmax = limits
    if k_only:
        kmin = kmax = k_only
    for lo, hi in _runs(c, need, t.nchain):
        for k in range(kmin, min(kmax, hi - lo) + 1):
            for top in range(max(lo + k - 1, above + 1), hi):
                out.append(table[(top, k)])


def _solo_kicker_sets(t: Tables, c: list[int], lo: int, hi: int, k: int) -> list[tuple[int, ...]]:
    caps = t.kicker_caps
    avail = [(r, min(c[r], caps[r])) for r in _RANKS if c[r] and not lo <= r < hi]
    if k == 1:
        return [(r,) for r, _ in avail]
    found = multisets(avail, k)
    if t.opts.rocket_as_kickers or c[BJ] < t.decks or c[RJ] < t.decks:
        return found
    return [kick for kick in found if not contains_rocket(kick, t.decks)]


def _pair_kicker_sets(t: Tables, c: list[int], lo: int, hi: int, k: int) -> list[tuple[int, ...]]:
    limit = NRANKS if t.decks == 2 else BJ
    ranks = [r for r in range(limit) if c[r] >= 2 and not lo <= r < hi]
    if k == 1:
        return [(r, r) for r in ranks]
    out = [tuple(r for r in combo for _ in (0, 1)) for combo in itertools.combinations(ranks, k)]
    if t.decks == 2 and not t.opts.rocket_as_kickers:
        out = [kick for kick in out if not contains_rocket(kick, 2)]
    return out


def _kickers(
    t: Tables, c: list[int], lo: int, hi: int, k: int, pairs: bool
) -> list[tuple[int, ...]]:
    return (_pair_kicker_sets if pairs else _solo_kicker_sets)(t, c, lo, hi, k)


def _single_base_kickers(
    out: list[Move], c: list[int], t: Tables, kind: str, need: int, k: int, above: int
) -> None:
    """Trios (``need`` 3) or quads (``need`` 4) with ``k`` solo or pair kickers."""
    table = t.with_kickers[kind]
    pairs = kind.endswith(("pair", "pairs"))
    for r in range(above + 1, BJ):
        if c[r] >= need:
            row = table[(r, 1)]
            out += [row[kick] for kick in _kickers(t, c, r, r + 1, k, pairs)]


def _plane_kickers(
    out: list[Move], c: list[int], t: Tables, kind: str, k_only: int, above: int
) -> None:
    """Planes with one solo or pair kicker per trio (DDZ-16, DDZ-18)."""
    table = t.with_kickers[kind]
    pairs = kind == "plane_pair"
    kmin, kmax = LIMITS.plane_pair if pairs else LIMITS.plane_solo
    if k_only:
        kmin = kmax = k_only
    for lo, hi in _runs(c, 3, t.nchain):
        for k in range(kmin, min(kmax, hi - lo) + 1):
            for top in range(max(lo + k - 1, above + 1), hi):
                row = table[(top, k)]
                out += [row[kick] for kick in _kickers(t, c, top - k + 1, top + 1, k, pairs)]


def _kicker_moves(
    out: list[Move], c: list[int], t: Tables, kind: str, k_only: int, above: int
) -> None:
    """Every move of a kicker ``kind`` (of ``k_only`` groups for planes) ranked above ``above``."""
    if kind == "trio_solo" or kind == "trio_pair":
        _single_base_kickers(out, c, t, kind, 3, 1, above)
    elif kind == "quad_two_solos" or kind == "quad_two_pairs":
        _single_base_kickers(out, c, t, kind, 4, 2, above)
    elif kind == "quad_solo" or kind == "quad_pair":
        _single_base_kickers(out, c, t, kind, 4, 1, above)
    else:
        _plane_kickers(out, c, t, kind, k_only, above)


def _bomb_moves(out: list[Move], c: list[int], t: Tables, above: tuple[int, int] | None) -> None:
    """Bombs (DDZ-21, DDZ-41) beating ``above`` = (size, rank), or all; then the rocket."""
    if max(c) >= 4:  # jokers never reach 4, so this asks for a bomb
        bomb = t.bomb
        for r in range(BJ):
            n = c[r]
            if n >= 4:
                for size in range(4, n + 1):
                    if above is None or (size, r) > above:
                        out.append(bomb[(r, size)])
    if c[BJ] >= t.decks and c[RJ] >= t.decks:
        out.append(t.rocket)


def lead_moves(c: list[int], t: Tables) -> list[Move]:
    """Every combination the hand ``c`` can lead (DDZ-11), each reading once (DDZ-16a)."""
    out: list[Move] = []
    solo, pair, trio = t.solo, t.pair, t.trio
    pair_limit = NRANKS if t.decks == 2 else BJ
    trios = 0
    for r in _RANKS:
        n = c[r]
        if n:
            out.append(solo[r])  # type: ignore[arg-type]
            if n >= 2 and r < pair_limit:
                out.append(pair[r])  # type: ignore[arg-type]
                if n >= 3:
                    out.append(trio[r])  # type: ignore[arg-type]
                    trios += 1
    _run_moves(out, c, t, "chain", 1, LIMITS.chain, 0, -1)
    _run_moves(out, c, t, "pair_chain", 2, LIMITS.pair_chain, 0, -1)
    if trios:
        _single_base_kickers(out, c, t, "trio_solo", 3, 1, -1)
        _single_base_kickers(out, c, t, "trio_pair", 3, 1, -1)
        if trios >= 2:
            _run_moves(out, c, t, "plane", 3, LIMITS.plane, 0, -1)
            _plane_kickers(out, c, t, "plane_solo", 0, -1)
            _plane_kickers(out, c, t, "plane_pair", 0, -1)
        _single_base_kickers(out, c, t, "quad_two_solos", 4, 2, -1)
        _single_base_kickers(out, c, t, "quad_two_pairs", 4, 2, -1)
        if t.opts.quad_single_kicker:
            _single_base_kickers(out, c, t, "quad_solo", 4, 1, -1)
            _single_base_kickers(out, c, t, "quad_pair", 4, 1, -1)
    _bomb_moves(out, c, t, None)
    return out


def response_moves(c: list[int], t: Tables, last: Move) -> list[Move]:
    """``pass`` and every play of hand ``c`` that beats ``last`` (DDZ-12, DDZ-20…23)."""
    out: list[Move] = [PASS]
    kind = last.kind
    above = last.rank
    if kind == "rocket":
        return out
    if kind == "bomb":
        _bomb_moves(out, c, t, (len(last.base), above))
        return out
    if kind == "solo":
        solo = t.solo
        out += [solo[r] for r in range(above + 1, NRANKS) if c[r]]  # type: ignore[misc]
    elif kind == "pair":
        pair = t.pair
        limit = NRANKS if t.decks == 2 else BJ
        out += [pair[r] for r in range(above + 1, limit) if c[r] >= 2]  # type: ignore[misc]
    elif kind == "trio":
        trio = t.trio
        out += [trio[r] for r in range(above + 1, BJ) if c[r] >= 3]  # type: ignore[misc]
    elif kind == "chain":
        _run_moves(out, c, t, kind, 1, LIMITS.chain, last.length, above)
    elif kind == "pair_chain":
        _run_moves(out, c, t, kind, 2, LIMITS.pair_chain, last.length, above)
    elif kind == "plane":
        _run_moves(out, c, t, kind, 3, LIMITS.plane, last.length, above)
    else:
        _kicker_moves(out, c, t, kind, last.length, above)
    _bomb_moves(out, c, t, None)
    return out
