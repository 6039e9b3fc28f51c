"""openskill ratings from the games of a tournament, in a fixed order (deal, arrangement).

Each game is one rating event. In Dou Di Zhu the landlord and the peasants
are two teams and each agent has one rating per role (``greedy (landlord)``,
``greedy (peasant)``), since the roles are different jobs. In the other games
every seat is its own team, ranked by its place. When one agent fills
several seats of a game, each copy is rated and the agent takes the mean of
the copies' new ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from shedkit.arena.tournament import GameResult

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
        if name not in ratings:
            ratings[name] = model.rating(name=name)
        return ratings[name]

    for r in sorted(results, key=lambda g: (g.deal, g.arrangement)):
        if not r.counted:
            continue
        names = [_entity(agents[a], r.roles[s], by_role) for s, a in enumerate(r.seats)]
        # Seats that share a place form one team (the peasants), else one team per seat.
        groups: dict[int, list[int]] = {}
        for seat, place in enumerate(r.places):
            groups.setdefault(place, []).append(seat)
        order = sorted(groups)
        teams = [
            [model.rating(mu=get(names[s]).mu, sigma=get(names[s]).sigma) for s in groups[p]]
            for p in order
        ]
        new = model.rate(teams, ranks=[float(p) for p in order])
        updates: dict[str, list[Any]] = {}
        for p_index, p in enumerate(order):
            for seat, rating in zip(groups[p], new[p_index], strict=True):
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
