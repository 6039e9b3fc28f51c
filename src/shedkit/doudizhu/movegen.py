"""Legal combinations from a hand of rank counts (DDZ-11…23).

A hand is a list of 15 counts, one per rank. Leads enumerate every kind;
responses enumerate only the last play's kind and length above its rank, plus
the bombs and the rocket that beat it. Every move comes out of the
`Tables`, so it is interned and carries its id.
"""

from __future__ import annotations

import itertools

from shedkit.doudizhu.actions import LIMITS, Tables, contains_rocket, multisets
from shedkit.doudizhu.combos import BJ, NRANKS, PASS, RJ, Move

__all__ = ["bomb_ranks", "lead_moves", "response_moves"]

_RANKS = range(NRANKS)


def bomb_ranks(c: list[int]) -> int:
    """Bitmask of the ranks of which hand ``c`` holds four or more (jokers never do)."""
    bombs = 0
    for r in range(BJ):
        if c[r] >= 4:
            bombs |= 1 << r
    return bombs


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


def _bomb_moves(
    out: list[Move], c: list[int], t: Tables, above: tuple[int, int] | None, bombs: int
) -> None:
    """Bombs (DDZ-21, DDZ-41) beating ``above`` = (size, rank), or all; then the rocket.

    ``bombs`` is `bomb_ranks` of ``c``, which the state keeps per seat.
    """
    if bombs:
        bomb = t.bomb
        while bombs:
            low = bombs & -bombs
            bombs ^= low
            r = low.bit_length() - 1
            for size in range(4, c[r] + 1):
                if above is None or (size, r) > above:
                    out.append(bomb[(r, size)])
    if c[BJ] >= t.decks and c[RJ] >= t.decks:
        out.append(t.rocket)


def lead_moves(c: list[int], t: Tables, bombs: int = -1) -> list[Move]:
    """Every combination the hand ``c`` can lead (DDZ-11), each reading once (DDZ-16a).

    ``bombs``, `bomb_ranks` of ``c``, is worked out here unless given.
    """
    if bombs < 0:
        bombs = bomb_ranks(c)
    solo, pair, trio = t.solo, t.pair, t.trio
    pair_limit = NRANKS if t.decks == 2 else BJ
    ones: list[int] = []
    twos: list[int] = []
    threes: list[int] = []
    m1 = m2 = m3 = 0
    for r in _RANKS:
        n = c[r]
        if n:
            ones.append(r)
            m1 |= 1 << r
            if n >= 2 and r < pair_limit:
                twos.append(r)
                m2 |= 1 << r
                if n >= 3:
                    threes.append(r)
                    m3 |= 1 << r
    out: list[Move] = [solo[r] for r in ones]  # type: ignore[misc]
    out += [pair[r] for r in twos]  # type: ignore[misc]
    out += [trio[r] for r in threes]  # type: ignore[misc]
    chain_mask = t.chain_mask
    run_leads = t.run_leads
    out += run_leads["chain"][m1 & chain_mask]
    out += run_leads["pair_chain"][m2 & chain_mask]
    if threes:
        solo_grid = t.trio_kicked["trio_solo"]
        pair_grid = t.trio_kicked["trio_pair"]
        for r3 in threes:
            row = solo_grid[r3]
            out += [row[r] for r in ones if r != r3]  # type: ignore[misc]
            row = pair_grid[r3]
            out += [row[r] for r in twos if r != r3]  # type: ignore[misc]
        if len(threes) >= 2:
            out += run_leads["plane"][m3 & chain_mask]
            _plane_kickers(out, c, t, "plane_solo", 0, -1)
            _plane_kickers(out, c, t, "plane_pair", 0, -1)
        if bombs:
            _single_base_kickers(out, c, t, "quad_two_solos", 4, 2, -1)
            _single_base_kickers(out, c, t, "quad_two_pairs", 4, 2, -1)
            if t.opts.quad_single_kicker:
                _single_base_kickers(out, c, t, "quad_solo", 4, 1, -1)
                _single_base_kickers(out, c, t, "quad_pair", 4, 1, -1)
    _bomb_moves(out, c, t, None, bombs)
    return out


def response_moves(c: list[int], t: Tables, last: Move, bombs: int = -1) -> list[Move]:
    """``pass`` and every play of hand ``c`` that beats ``last`` (DDZ-12, DDZ-20…23).

    ``bombs``, `bomb_ranks` of ``c``, is worked out here unless given.
    """
    if bombs < 0:
        bombs = bomb_ranks(c)
    out: list[Move] = [PASS]
    kind = last.kind
    above = last.rank
    if kind == "rocket":
        return out
    if kind == "bomb":
        _bomb_moves(out, c, t, (len(last.base), above), bombs)
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
    elif kind == "chain" or kind == "pair_chain" or kind == "plane":
        need = 1 if kind == "chain" else 2 if kind == "pair_chain" else 3
        mask = 0
        for r in range(t.nchain):
            if c[r] >= need:
                mask |= 1 << r
        k = last.length
        out += [m for m in t.run_leads[kind][mask] if m.length == k and m.rank > above]
    else:
        _kicker_moves(out, c, t, kind, last.length, above)
    _bomb_moves(out, c, t, None, bombs)
    return out
