"""The arena: duplicate tournaments between agents, with intervals and ratings.

>>> from shedkit.arena import Tournament, run_tournament
>>> results = run_tournament(Tournament("doudizhu", ("greedy", "random"), deals=2, seed=1))
>>> results["games"], sorted(results["stats"]["greedy"])
(12, ['all', 'landlord', 'peasant'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shedkit.arena.backends import BACKENDS, run
from shedkit.arena.games import ARENA_GAMES, arena_game, register_arena_game
from shedkit.arena.tournament import (
    GameResult,
    Tournament,
    arrangements,
    close_external,
    play_deals,
)
from shedkit.core.options import options_to_dict

__all__ = [
    "ARENA_GAMES",
    "BACKENDS",
    "GameResult",
    "Tournament",
    "arrangements",
    "close_external",
    "play_deals",
    "register_arena_game",
    "run_tournament",
]


def run_tournament(
    tour: Tournament,
    workers: int = 1,
    backend: str = "processes",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``tour`` and return its JSON-able results (the same for any backend and workers).

    Games a bot program forfeited are listed under ``forfeits`` with their reasons;
    they count as losses of the forfeiting agent and are not rated. The bot
    programs this process started are stopped before it returns.
    """
    from shedkit.arena.ratings import rate
    from shedkit.arena.stats import summarize

    rules = arena_game(tour.game)
    game = tour.make_game()
    try:
        games = run(tour, workers=workers, backend=backend, progress=progress)
    finally:
        close_external()
    counted = [g for g in games if g.counted]
    forfeits = [
        {
            "deal": g.deal,
            "arrangement": g.arrangement,
            "seat": g.forfeit_seat,
            "agent": tour.agents[g.seats[g.forfeit_seat]],
            "reason": g.forfeit_reason,
            "log": g.forfeit_log,
        }
        for g in games
        if g.forfeit_seat is not None
    ]
    return {
        "game": tour.game,
        "preset": tour.preset,
        "options": options_to_dict(game.options),
        "agents": list(tour.agents),
        "seed": tour.seed,
        "deals": tour.deals,
        "auction": tour.auction,
        "roles": tour.roles,
        "arrangements": [list(a) for a in tour.arrangements()],
        "games": len(games),
        "thrown_in": len(games) - len(counted),
        "score_name": rules.score_name,
        "stats": summarize(counted, tour.agents, rules.roles, tour.deals, tour.seed),
        "ratings": rate(
            [g for g in counted if g.forfeit_seat is None],
            tour.agents,
            by_role=len(rules.roles) > 1,
        ),
        "forfeits": forfeits,
    }
