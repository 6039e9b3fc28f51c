"""Property tests: a determinized state agrees with the view it came from.

For every preset of every game and every way a deal can start, random play
visits thousands of decision points; at each, ``game.determinize(view, rng)``
must give a state whose view for the same seat equals the original view in
every field (phase, current player, legal moves, history, counts, ...), and
whose hidden hands respect what the seat knows (Dominoes voids from passes,
President tax cards).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

import shedkit
from shedkit.dominoes.options import PRESETS as DOMINOES_PRESETS
from shedkit.doudizhu.options import PRESETS as DOUDIZHU_PRESETS
from shedkit.president.options import PRESETS as PRESIDENT_PRESETS

Start = Callable[[Any, int], Any]


def _fields(view: Any) -> dict[str, Any]:
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}


def _walk(game: Any, start: Start, deals: int, check: Callable[[Any, Any, Any], None]) -> int:
    """Play ``deals`` random deals; check every decision point; return how many."""
    positions = 0
    for seed in range(deals):
        rng = random.Random(seed)
        state = start(game, seed)
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            sample = game.determinize(view, rng)
            assert _fields(sample.view(seat)) == _fields(view)
            check(view, state, sample)
            positions += 1
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return positions


def _no_check(view: Any, state: Any, sample: Any) -> None:
    """Nothing beyond the view's own fields."""


def _ddz_fixed_landlord(game: Any, seed: int) -> Any:
    return game.new_deal(seed=seed, landlord=seed % game.num_players, bid=1 + seed % 3)


def _ddz_scenario(game: Any, seed: int) -> Any:
    hands = ["3 3 4 4 5 5 6 6 7 7"] + [None] * (game.num_players - 1)
    return game.new_deal(seed=seed, hands=hands, landlord=1)


def _ddz_scenario_auction(game: Any, seed: int) -> Any:
    return game.new_deal(seed=seed, hands=["3 3 4 4 5"] + [None] * (game.num_players - 1))


DDZ_STARTS: dict[str, Start] = {
    "auction": lambda game, seed: game.new_deal(seed=seed),
    "landlord": _ddz_fixed_landlord,
    "scenario": _ddz_scenario,
    "scenario-auction": _ddz_scenario_auction,
}


@pytest.mark.parametrize("start", sorted(DDZ_STARTS))
@pytest.mark.parametrize("preset", sorted(DOUDIZHU_PRESETS))
def test_ddz_10_determinize_agrees_with_view(preset: str, start: str) -> None:
    """DDZ-10: a sample keeps the kitty, the landlord, the stake and every play."""
    game = shedkit.make("doudizhu", preset=preset)

    def check(view: Any, state: Any, sample: Any) -> None:
        assert sample.landlord == state.landlord
        if view.kitty is not None:
            assert sample.kitty == state.kitty

    assert _walk(game, DDZ_STARTS[start], 6, check) >= 250


def _president_tax(game: Any, seed: int) -> Any:
    order = list(range(game.num_players))
    random.Random(seed).shuffle(order)
    return game.new_deal(seed=seed, previous_order=order)


PRESIDENT_STARTS: dict[str, Start] = {
    "plain": lambda game, seed: game.new_deal(seed=seed),
    "tax": _president_tax,
}


def _president_check(view: Any, state: Any, sample: Any) -> None:
    """PRE-20: cards this seat saw move in the tax sit in the right hand."""
    me = view.seat
    for giver, loser, _ in view.exchanges:
        if loser == me:
            still = set(view.tax_lost) & set(state.hand(giver))
            assert still <= set(sample.hand(giver))
    for who, move, cards in view.history:
        if move.kind == "give" and who == me and cards:
            receiver = next(r for g, r, _ in view.exchanges if g == me)
            assert set(cards) & set(state.hand(receiver)) <= set(sample.hand(receiver))


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("start", sorted(PRESIDENT_STARTS))
@pytest.mark.parametrize("preset", sorted(PRESIDENT_PRESETS))
def test_pre_20_determinize_agrees_with_view(preset: str, start: str, players: int) -> None:
    """PRE-05, PRE-20: leftover, tax cards and the trick agree with the view."""
    game = shedkit.make("president", preset=preset, players=players)
    assert _walk(game, PRESIDENT_STARTS[start], 5, _president_check) >= 250


def _dominoes_check(view: Any, state: Any, sample: Any) -> None:
    """DOM-07: a seat that passed on an end holds no tile with that value."""
    from shedkit.dominoes.view import missing_values

    halves = sample.game.tables.halves
    for seat, values in enumerate(missing_values(sample.game, view)):
        if seat != view.seat:
            for tile in sample.hand(seat):
                assert not set(halves[tile]) & values


def _dominoes_leader(game: Any, seed: int) -> Any:
    return game.new_deal(seed=seed, leader=seed % game.num_players)


def _dominoes_scenario(game: Any, seed: int) -> Any:
    return game.new_deal(seed=seed, hands=["6-6 5-5 1-2"] + [None] * (game.num_players - 1))


DOMINOES_STARTS: dict[str, Start] = {
    "plain": lambda game, seed: game.new_deal(seed=seed),
    "leader": _dominoes_leader,
    "scenario": _dominoes_scenario,
}


@pytest.mark.parametrize("start", sorted(DOMINOES_STARTS))
@pytest.mark.parametrize("preset", sorted(DOMINOES_PRESETS))
def test_dom_07_determinize_agrees_with_view(preset: str, start: str) -> None:
    """DOM-07: draws, passes (voids), the board and the scores agree with the view."""
    game = shedkit.make("dominoes", preset=preset)
    assert _walk(game, DOMINOES_STARTS[start], 12, _dominoes_check) >= 150


def test_determinize_refuses_a_spectator() -> None:
    """A spectator's view has no seat to sample around: a clear error."""
    for name in ("doudizhu", "president", "dominoes"):
        game = shedkit.make(name)
        view = game.new_deal(seed=1).view(None)
        with pytest.raises(ValueError, match="spectator"):
            game.determinize(view, random.Random(0))
