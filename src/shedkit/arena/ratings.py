"""openskill ratings from the games of a tournament, in a fixed order (deal, arrangement).

Each game is one rating event with one openskill team per side: in Dou Di
Zhu the landlord and the peasants, in Dominoes the partnerships, elsewhere
every seat, ranked by place. In Dou Di Zhu each agent has one rating per
role (``greedy (landlord)``, ``greedy (peasant)``), since the roles are
different jobs. When one agent fills
several seats of a game, each copy is rated and the agent takes the mean of
the copies' new ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shedkit.arena.tournament import GameResult
from shedkit.core.extras import require_extra

try:
    from openskill.models import PlackettLuce
except ImportError:
    require_extra("arena", "shedkit.arena.ratings", "openskill")
    raise

__all__ = ["rate"]


def _entity(agent: str, role: str, by_role: bool) -> str:
    return f"{agent} ({role})" if by_role else agent


def rate(
    results: Sequence[GameResult], agents: Sequence[str], by_role: bool
) -> dict[str, dict[str, float]]:
    """``mu``, ``sigma`` and the conservative ``ordinal`` (mu − 3 sigma) of each rated entity."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}

    def get(name: str) -> Any:
        """The current rating of ``name`` (a fresh one at its first game)."""
        if name not in ratings:
            ratings[name] = model.rating(name=name)
        return ratings[name]

    for r in sorted(results, key=lambda g: (g.deal, g.arrangement)):
        if not r.counted:
            continue
        names = [_entity(agents[a], r.roles[s], by_role) for s, a in enumerate(r.seats)]
        # One openskill team per side (the peasants, a Dominoes partnership), ranked by place.
        groups: dict[int, list[int]] = {}
        for seat, team in enumerate(r.teams):
            groups.setdefault(team, []).append(seat)
        order = sorted(groups)
        teams = [
            [model.rating(mu=get(names[s]).mu, sigma=get(names[s]).sigma) for s in groups[g]]
            for g in order
        ]
        ranks = [float(r.places[groups[g][0]]) for g in order]
        new = model.rate(teams, ranks=ranks)
        updates: dict[str, list[Any]] = {}
        for g_index, g in enumerate(order):
            for seat, rating in zip(groups[g], new[g_index], strict=True):
                updates.setdefault(names[seat], []).append(rating)
        for name, copies in updates.items():
            mu = sum(c.mu for c in copies) / len(copies)
            sigma = sum(c.sigma for c in copies) / len(copies)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {
        name: {
            "mu": round(float(r.mu), 6),
            "sigma": round(float(r.sigma), 6),
            "ordinal": round(float(r.ordinal()), 6),
        }
        for name, r in sorted(ratings.items())
    }
