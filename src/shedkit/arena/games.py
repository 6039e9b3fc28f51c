"""What the arena needs to know of each game: how a deal is set up, what a finished deal means.

An `Outcome` reduces a finished deal to what the statistics and the
ratings read, the same shape for every game: the role of each seat, who won,
each seat's place for the ratings (0 = best; equal places tie), the team
each seat plays for (its side), and each seat's score in the game's own unit:

- Dou Di Zhu: roles ``landlord`` / ``peasant``; a side wins or loses together;
  the score is the side's points per deal at the stake played, as in
  DouZero's ADP (the landlord's return divided by the number of peasants, a
  peasant's return);
- President: role ``player``; the score is the finishing place, 1 = first
  (PRE-10); a win is finishing first;
- Dominoes: role ``player``; the score is the points of the hand (the side's,
  with partners); a win is the hand won by the seat's side; a void hand
  (DOM-10) is a draw for the ratings.
- Tien Gow: role ``player``; the score is the chips of the hand (TG-30…34,
  TG-61…64); a win is the hand won (the last trick, TG-27, or a special hand,
  TG-64); the ratings place the seats by their chips. The banker (TG-03)
  rotates with the deal, so every arrangement of agents plays the same tiles
  with the same banker.

A game a bot program forfeited ([`shedkit.agents.external`][shedkit.agents.external]) is read by
the game's ``forfeit`` function instead: the forfeiting seat's side loses at
the worst score the rules allow from where the deal stopped (Dou Di Zhu: the
stake and the bombs so far, doubled as a spring; President: last place;
Dominoes: no points; Tien Gow: a loser's payment for the units won so far at the
banker factor, doubled as a slam while one is possible and at the largest
finishing factor, TG-31…34 and TG-62, plus the bonuses paid so far). Only that
side's result counts; the other seats' is not judged on a deal that was not
played out.

A game is added with one [`register_arena_game`][shedkit.arena.games.register_arena_game] call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shedkit.core.errors import OptionError, did_you_mean

__all__ = ["ARENA_GAMES", "ArenaGame", "Outcome", "arena_game", "register_arena_game"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished deal as the arena reads it (one entry per seat)."""

    roles: tuple[str, ...]
    won: tuple[bool, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...]
    teams: tuple[int, ...]
    counted: bool = True  # False for a deal that was thrown in (no roles, no result)


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """Set-up and reading of deals for one game in the arena."""

    roles: tuple[str, ...]
    score_name: str
    higher_is_better: bool
    setup: Callable[[Any, int, bool], dict[str, Any]]
    outcome: Callable[[Any], Outcome]
    #: The outcome of a deal the bot in the given seat forfeited.
    forfeit: Callable[[Any, int], Outcome]


ARENA_GAMES: dict[str, ArenaGame] = {}


def register_arena_game(name: str, spec: ArenaGame) -> None:
    """Make the arena play the game ``name`` (as registered with `shedkit.register`)."""
    ARENA_GAMES[name] = spec


def arena_game(name: str) -> ArenaGame:
    """The arena's description of game ``name``."""
    spec = ARENA_GAMES.get(name)
    if spec is None:
        raise OptionError(
            f"the arena does not play {name!r}{did_you_mean(name, ARENA_GAMES)}; "
            f"it plays {', '.join(ARENA_GAMES)}"
        )
    return spec


def _doudizhu_setup(game: Any, deal: int, auction: bool) -> dict[str, Any]:
    # DouZero's evaluation: the landlord is fixed (it rotates with the deal), the
    # stake is 1, and every arrangement of agents plays the same cards in each role.
    if auction:
        return {}
    return {"landlord": deal % game.num_players, "bid": 1}


def _doudizhu_outcome(state: Any) -> Outcome:
    n = state.num_players
    landlord = state.landlord
    if state.thrown_in or landlord is None:
        return Outcome(
            ("none",) * n, (False,) * n, (0,) * n, (0.0,) * n, tuple(range(n)), counted=False
        )
    returns = state.returns()
    landlord_won = state.winner == landlord
    roles = tuple("landlord" if s == landlord else "peasant" for s in range(n))
    won = tuple((s == landlord) == landlord_won for s in range(n))
    scores = tuple(returns[s] / (n - 1) if s == landlord else float(returns[s]) for s in range(n))
    teams = tuple(0 if s == landlord else 1 for s in range(n))
    return Outcome(roles, won, tuple(0 if w else 1 for w in won), scores, teams)


def _doudizhu_forfeit(state: Any, seat: int) -> Outcome:
    n = state.num_players
    view = state.view(seat)
    landlord = view.landlord
    # During the auction there is no landlord yet: the forfeiting seat loses as a peasant.

    def side(s: int) -> bool:
        """True for the landlord's side (the forfeiting seat's opponents in the auction)."""
        return s == landlord if landlord is not None else s != seat

    roles = tuple(
        "landlord" if landlord is not None and s == landlord else "peasant" for s in range(n)
    )
    worst = -2.0 * max(1, view.stake or 1) * view.multiplier  # lost as a spring (DDZ-32)
    lost = tuple(side(s) == side(seat) for s in range(n))
    scores = tuple(worst if lost[s] else -worst for s in range(n))
    teams = tuple(0 if side(s) else 1 for s in range(n))
    return Outcome(roles, tuple(not x for x in lost), tuple(int(x) for x in lost), scores, teams)


def _president_setup(game: Any, deal: int, auction: bool) -> dict[str, Any]:
    return {"dealer": deal % game.num_players}


def _president_outcome(state: Any) -> Outcome:
    n = state.num_players
    places = [0] * n
    for place, seat in enumerate(state.finished):
        places[seat] = place
    return Outcome(
        ("player",) * n,
        tuple(p == 0 for p in places),
        tuple(places),
        tuple(float(p + 1) for p in places),
        tuple(range(n)),
    )


def _president_forfeit(state: Any, seat: int) -> Outcome:
    n = state.num_players
    places = tuple(n - 1 if s == seat else 0 for s in range(n))
    return Outcome(
        ("player",) * n,
        tuple(s != seat for s in range(n)),
        places,
        tuple(float(p + 1) for p in places),
        tuple(range(n)),
    )


def _dominoes_setup(game: Any, deal: int, auction: bool) -> dict[str, Any]:
    return {}


def _dominoes_outcome(state: Any) -> Outcome:
    n = state.num_players
    side_of = state.game.side_of
    won = tuple(state.winner is not None and side_of[s] == state.winner for s in range(n))
    # Ratings: the winning side first, every other side tied behind it.
    places = tuple(0 if w or state.winner is None else 1 for w in won)
    scores = tuple(float(r) for r in state.returns())
    return Outcome(("player",) * n, won, places, scores, side_of)


def _dominoes_forfeit(state: Any, seat: int) -> Outcome:
    n = state.num_players
    side_of = state.game.side_of
    won = tuple(side_of[s] != side_of[seat] for s in range(n))
    return Outcome(
        ("player",) * n,
        won,
        tuple(0 if w else 1 for w in won),
        tuple(0.0 for _ in range(n)),
        side_of,
    )


def _tiengow_setup(game: Any, deal: int, auction: bool) -> dict[str, Any]:
    # TG-03: the first banker is fixed per deal, so every arrangement meets the same bank.
    return {"banker": deal % game.num_players}


def _places_by(scores: tuple[float, ...]) -> tuple[int, ...]:
    """Each seat's place by ``scores``, highest first; equal scores share a place."""
    return tuple(sum(1 for other in scores if other > mine) for mine in scores)


def _tiengow_outcome(state: Any) -> Outcome:
    n = state.num_players
    scores = tuple(float(r) for r in state.returns())
    won = tuple(state.winner == s for s in range(n))
    return Outcome(("player",) * n, won, _places_by(scores), scores, tuple(range(n)))


def _tiengow_forfeit(state: Any, seat: int) -> Outcome:
    n = state.num_players
    opts = state.game.options
    units = state.units[seat]
    # TG-31: what a loser with these units pays (no refund for a forfeit) ...
    owed = opts.zero_trick_payment if units == 0 else max(0, 4 - units)
    # ... at the banker factor (the banker wins or loses at it, TG-32) ...
    owed *= state.multiplier
    # ... doubled as a slam while no other seat but one has won a unit (TG-33) ...
    if units == 0 and sum(1 for s in range(n) if state.units[s] > 0) <= 1:
        owed *= opts.slam_multiplier
    # ... and at the largest finishing factor (TG-34, TG-62).
    owed *= max(
        opts.supreme_finish_multiplier, opts.quad_finish_multiplier, opts.yao_finish_multiplier
    )
    worst = float(state.bonus[seat] - owed)
    scores = tuple(worst if s == seat else 0.0 for s in range(n))
    return Outcome(
        ("player",) * n,
        tuple(s != seat for s in range(n)),
        tuple(int(s == seat) for s in range(n)),
        scores,
        tuple(range(n)),
    )


register_arena_game(
    "doudizhu",
    ArenaGame(
        roles=("landlord", "peasant"),
        score_name="ADP",
        higher_is_better=True,
        setup=_doudizhu_setup,
        outcome=_doudizhu_outcome,
        forfeit=_doudizhu_forfeit,
    ),
)
register_arena_game(
    "president",
    ArenaGame(
        roles=("player",),
        score_name="average place",
        higher_is_better=False,
        setup=_president_setup,
        outcome=_president_outcome,
        forfeit=_president_forfeit,
    ),
)
register_arena_game(
    "dominoes",
    ArenaGame(
        roles=("player",),
        score_name="points per hand",
        higher_is_better=True,
        setup=_dominoes_setup,
        outcome=_dominoes_outcome,
        forfeit=_dominoes_forfeit,
    ),
)
register_arena_game(
    "tiengow",
    ArenaGame(
        roles=("player",),
        score_name="chips per hand",
        higher_is_better=True,
        setup=_tiengow_setup,
        outcome=_tiengow_outcome,
        forfeit=_tiengow_forfeit,
    ),
)
