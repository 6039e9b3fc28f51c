"""A slow, independent reading of the combination table of doudizhu.md.

It classifies a multiset of ranks directly from the spec (DDZ-15…19, the
de-wikipedia and four-player readings) and finds a hand's leads by trying every
sub-multiset. The engine's generator is checked against it, and the move-count
files are written by it, so neither shares code with the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from shedkit.doudizhu.options import Options

Key = tuple[str, tuple[int, ...], tuple[int, ...]]
B, R = 13, 14


def _expand(counts: dict[int, int]) -> tuple[int, ...]:
    return tuple(r for r in sorted(counts) for _ in range(counts[r]))


def _consecutive(ranks: list[int]) -> bool:
    return all(b == a + 1 for a, b in itertools.pairwise(ranks))


def _pairable(r: int, opts: Options) -> bool:
    return r < B or opts.players == 4


def _rocket(counts: dict[int, int], opts: Options) -> bool:
    need = 1 if opts.players == 3 else 2
    return counts.get(B, 0) >= need and counts.get(R, 0) >= need


def _solo_kickers_ok(kick: dict[int, int], opts: Options) -> bool:
    if any(n >= 4 for n in kick.values()):
        return False
    if not opts.kickers_may_repeat and any(n > 1 for n in kick.values()):
        return False
    return opts.rocket_as_kickers or not _rocket(kick, opts)


def _pair_kickers_ok(kick: dict[int, int], k: int, opts: Options) -> bool:
    if len(kick) != k or any(n != 2 for n in kick.values()):
        return False
    if not all(_pairable(r, opts) for r in kick):
        return False
    return opts.rocket_as_kickers or not _rocket(kick, opts)


def readings(counts: dict[int, int], opts: Options) -> Iterator[Key]:
    """Every combination reading of the multiset ``counts`` (rank -> count)."""
    counts = {r: n for r, n in counts.items() if n}
    size = sum(counts.values())
    ranks = sorted(counts)
    nchain = 13 if opts.two_in_chains else 12
    every = _expand(counts)
    if size == 0:
        return
    if len(ranks) == 1:
        r, n = ranks[0], counts[ranks[0]]
        if n == 1:
            yield ("solo", every, ())
        if n == 2 and _pairable(r, opts):
            yield ("pair", every, ())
        if n == 3 and r < B:
            yield ("trio", every, ())
        if r < B and 4 <= n <= 4 * opts.decks:
            yield ("bomb", every, ())
    if _rocket(counts, opts) and size == 2 * opts.decks and set(ranks) == {B, R}:
        yield ("rocket", every, ())
    for kind, width, lo, hi in (("chain", 1, 5, 12), ("pair_chain", 2, 3, 10), ("plane", 3, 2, 6)):
        # DDZ-19; de-wikipedia lets the 2 (rank 12) end a pair chain or a plane only.
        top = nchain if width > 1 else 12
        in_chain = all(r < top for r in ranks) and _consecutive(ranks)
        if in_chain and all(counts[r] == width for r in ranks) and lo <= len(ranks) <= hi:
            yield (kind, every, ())
    # Trio/plane bases: a run of k ranks with at least three cards each.
    for k in range(1, 7):
        for lo in range(0, 13 - k + 1):
            base_ranks = list(range(lo, lo + k))
            if k > 1 and base_ranks[-1] >= nchain:
                continue
            if not all(counts.get(r, 0) >= 3 for r in base_ranks):
                continue
            kick = {r: n for r, n in counts.items() if r not in base_ranks}
            if any(counts[r] != 3 for r in base_ranks):
                continue  # a kicker never shares a base rank (DDZ-15)
            base = tuple(r for r in base_ranks for _ in range(3))
            kick_size = sum(kick.values())
            solo_kind = "trio_solo" if k == 1 else "plane_solo"
            pair_kind = "trio_pair" if k == 1 else "plane_pair"
            if kick_size == k and 4 * k <= 20 and _solo_kickers_ok(kick, opts):
                yield (solo_kind, base, _expand(kick))
            if kick_size == 2 * k and 5 * k <= 20 and _pair_kickers_ok(kick, k, opts):
                yield (pair_kind, base, _expand(kick))
    for q in ranks:
        if q >= B or counts[q] != 4:
            continue
        kick = {r: n for r, n in counts.items() if r != q}
        base = (q,) * 4
        kick_size = sum(kick.values())
        if kick_size == 2 and _solo_kickers_ok(kick, opts):
            yield ("quad_two_solos", base, _expand(kick))
        if kick_size == 4 and _pair_kickers_ok(kick, 2, opts):
            yield ("quad_two_pairs", base, _expand(kick))
        if opts.quad_single_kicker:
            if kick_size == 1:
                yield ("quad_solo", base, _expand(kick))
            if kick_size == 2 and _pair_kickers_ok(kick, 1, opts):
                yield ("quad_pair", base, _expand(kick))


def reference_leads(hand: list[int], opts: Options) -> set[Key]:
    """Every reading of every sub-multiset of the rank-count list ``hand``."""
    ranks = [r for r in range(15) if hand[r]]
    out: set[Key] = set()
    for choice in itertools.product(*(range(hand[r] + 1) for r in ranks)):
        out.update(readings(dict(zip(ranks, choice, strict=True)), opts))
    return out


KIND_ORDER = ("solo", "pair", "trio", "chain", "pair_chain", "plane")


def beats(move: Key, last: Key, opts: Options) -> bool:
    """DDZ-20…23 (and DDZ-41/42): whether ``move`` beats ``last``, from the keys alone."""
    kind, base, kick = move
    lkind, lbase, lkick = last
    if lkind == "rocket":
        return False
    if kind == "rocket":
        return True
    if kind == "bomb":
        if lkind != "bomb":
            return True
        return (len(base), base[0]) > (len(lbase), lbase[0])
    if kind != lkind or len(base) != len(lbase) or len(kick) != len(lkick):
        return False
    return max(base) > max(lbase)
