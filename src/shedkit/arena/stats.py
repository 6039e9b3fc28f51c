"""Statistics of a tournament: win rates with Wilson intervals, mean scores with bootstrap ones.

Per agent and role: games, wins, the win proportion (WP) with its 95 %
Wilson score interval, and the mean score (Dou Di Zhu's ADP, President's
average place, Dominoes' points per hand, Tien Gow's chips per hand) with a
95 % percentile bootstrap interval. The bootstrap resamples *deals*, not
games: the games of one deal share its cards (that is the point of duplicate play), so they are not
independent, while different deals are. Resampling is seeded from the
tournament seed and the role (not the agent: equal data, equal intervals),
so the intervals are reproducible.

A *game* is one deal played under one seating of the agents. Within a game
an agent has one *result* per seat, except that seats of one agent on one
side (the two peasants of a Dou Di Zhu deal, a Dominoes partnership) give
one result, that of the side. ``results`` (also ``games`` in older output)
counts those; ``played`` counts the games the agent sat in, so an agent on
both sides of a game (landlord and a peasant) has two results of one game.
WP and the mean score are per result.

A game a bot program forfeited gives one result only, to the forfeiting
agent's side: a loss at the worst score (`shedkit.arena.games`). The
other agents at that table get none; ``forfeits`` counts an agent's
forfeited games per role.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from shedkit.arena.tournament import GameResult
from shedkit.core.extras import require_extra
from shedkit.core.rng import derive_seed

try:
    import numpy as np
    from numpy.typing import NDArray
    from scipy import stats as sps
except ImportError:
    require_extra("arena", "shedkit.arena.stats", "numpy", "scipy")
    raise

__all__ = ["bootstrap_ratio", "summarize", "wilson"]

CONFIDENCE = 0.95
RESAMPLES = 2000


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins / games`` (``(0, 1)`` for no games).

    >>> [round(x, 4) for x in wilson(30, 100)]
    [0.2189, 0.3958]
    """
    if games == 0:
        return (0.0, 1.0)
    ci = sps.binomtest(wins, games).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return (float(ci.low), float(ci.high))


def bootstrap_ratio(
    sums: NDArray[np.float64], counts: NDArray[np.float64], seed: int
) -> tuple[float, float]:
    """95 % percentile bootstrap interval of ``sums.sum() / counts.sum()``, resampling clusters.

    Each entry is one cluster (a deal): the total score and the number of games
    in it. Constant data give the point itself as the interval.
    """
    keep = counts > 0
    sums, counts = sums[keep], counts[keep]
    if counts.size == 0:
        return (float("nan"), float("nan"))
    point = float(sums.sum() / counts.sum())
    if counts.size == 1 or np.allclose(sums / counts, point):
        return (point, point)

    def ratio(s: NDArray[np.float64], c: NDArray[np.float64], axis: int = -1) -> Any:
        """Total score over total games of each resample (vectorised along ``axis``)."""
        return s.sum(axis=axis) / c.sum(axis=axis)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on near-degenerate resamples
        res = sps.bootstrap(
            (sums, counts),
            ratio,
            paired=True,
            vectorized=True,
            confidence_level=CONFIDENCE,
            n_resamples=RESAMPLES,
            method="percentile",
            random_state=np.random.default_rng(seed),
        )
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def _round(x: float) -> float:
    # Six decimals keep the JSON readable; equal inputs still give equal text.
    return round(float(x), 6)


def summarize(
    results: Sequence[GameResult],
    agents: Sequence[str],
    roles: Sequence[str],
    deals: int,
    seed: int,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per agent, per role (and ``"all"`` when there are several roles): the statistics."""
    keys = [*roles, "all"] if len(roles) > 1 else list(roles)
    shape = (len(agents), len(keys), deals)
    score_sum = np.zeros(shape)
    game_count = np.zeros(shape)
    win_count = np.zeros(shape)
    played = np.zeros(shape)
    forfeits = np.zeros(shape)
    role_index = {r: i for i, r in enumerate(keys)}
    for r in results:
        if not r.counted:
            continue
        # Seats of one agent on one side (two peasants) share one result: count it once.
        seen: set[tuple[int, int]] = set()
        sat: set[tuple[int, str]] = set()
        offender = None
        if r.forfeit_seat is not None:
            offender = (r.seats[r.forfeit_seat], r.teams[r.forfeit_seat])
            for key in (r.roles[r.forfeit_seat], "all"):
                k = role_index.get(key)
                if k is not None and not (key == "all" and len(keys) == 1):
                    forfeits[offender[0], k, r.deal] += 1
        for seat, agent in enumerate(r.seats):
            if offender is None or (agent, r.teams[seat]) == offender:
                sat.update({(agent, r.roles[seat]), (agent, "all")})
        for agent, key in sat:
            k = role_index.get(key)
            if k is not None and not (key == "all" and len(keys) == 1):
                played[agent, k, r.deal] += 1
        for seat, agent in enumerate(r.seats):
            side = (agent, r.teams[seat])
            if side in seen or (offender is not None and side != offender):
                continue
            seen.add(side)
            for key in (r.roles[seat], "all"):
                k = role_index.get(key)
                if k is None or (key == "all" and len(keys) == 1):
                    continue
                score_sum[agent, k, r.deal] += r.scores[seat]
                game_count[agent, k, r.deal] += 1
                win_count[agent, k, r.deal] += r.won[seat]
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for a, name in enumerate(agents):
        out[name] = {}
        for k, key in enumerate(keys):
            games = int(game_count[a, k].sum())
            wins = int(win_count[a, k].sum())
            if games == 0:
                out[name][key] = {"games": 0, "results": 0, "played": 0, "forfeits": 0}
                continue
            lo, hi = wilson(wins, games)
            slo, shi = bootstrap_ratio(
                score_sum[a, k], game_count[a, k], derive_seed(seed, "bootstrap", key)
            )
            out[name][key] = {
                "games": games,
                "results": games,
                "played": int(played[a, k].sum()),
                "forfeits": int(forfeits[a, k].sum()),
                "wins": wins,
                "wp": _round(wins / games),
                "wp_ci": [_round(lo), _round(hi)],
                "score": _round(score_sum[a, k].sum() / games),
                "score_ci": [_round(slo), _round(shi)],
            }
    return out
