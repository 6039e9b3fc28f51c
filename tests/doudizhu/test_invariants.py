"""Randomized invariants over thousands of seeded deals, for every preset.

Cards are conserved, every legal move applies, scores are zero-sum, a view
never holds another seat's hidden cards, every record replays to the same
state, and ``parse_move(str(m)) == m`` for every legal move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

import shedkit
from shedkit.doudizhu import State

PRESETS = ["standard", "de-wikipedia", "four-player"]
DEALS = {"standard": 1500, "de-wikipedia": 500, "four-player": 500}


def random_deals(preset: str, count: int, **options: object) -> Iterator[tuple[State, list[State]]]:
    """Seeded random deals, each with the states it passed through."""
    game = shedkit.make("doudizhu", preset=preset, **options)
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        states = [state.clone()]
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            states.append(state.clone())
        yield state, states


def all_cards(state: State) -> list[int]:
    cards = [c for seat in range(state.num_players) for c in state.hand(seat)]
    cards += [c for played in state.played for c in played]
    if state.landlord is None:
        cards += state.kitty
    return sorted(cards)


@pytest.mark.parametrize("preset", PRESETS)
def test_cards_conserved_and_zero_sum(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    deck = sorted(game.deck)
    for final, states in random_deals(preset, DEALS[preset]):
        for state in states[:: max(1, len(states) // 8)]:
            assert all_cards(state) == deck
        assert all_cards(final) == deck
        assert sum(final.returns()) == 0
        assert final.thrown_in or final.winner is not None
        if not final.thrown_in:
            assert final.hand(final.winner) == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_views_hide_other_hands(preset: str) -> None:
    for _, states in random_deals(preset, DEALS[preset] // 5):
        for state in states:
            for seat in range(state.num_players):
                view = state.view(seat)
                hidden = {
                    c
                    for other in range(state.num_players)
                    if other != seat
                    for c in state.hand(other)
                }
                if state.landlord is not None:
                    hidden -= set(state.kitty)  # the shown kitty is public (DDZ-10)
                else:
                    hidden |= set(state.kitty)
                visible = set(view.hand) | set(view.kitty or ())
                visible |= {c for _, _, cards in view.history for c in cards}
                assert not visible & hidden
                assert view.hand == state.hand(seat)
                assert view.legal_moves == (
                    state.legal_moves() if seat == state.current_player else ()
                )
            spectator = state.view(None)
            assert spectator.hand == () and spectator.legal_moves == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_move_applies_and_round_trips(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    for _, states in random_deals(preset, DEALS[preset] // 10):
        for state in states:
            for move in state.legal_moves():
                assert game.parse_move(str(move), state) == move
                assert game.parse_move(str(move)) == move
                child = state.clone()
                child.apply(move)
                assert child.history[-1][1] == move
            assert state.legal_moves() == state.clone().legal_moves()


@pytest.mark.parametrize("preset", PRESETS)
def test_records_replay_to_the_same_state(preset: str) -> None:
    for final, states in random_deals(preset, DEALS[preset] // 3):
        record = json.loads(json.dumps(final.record()))
        again = shedkit.replay(record)
        assert again.record() == final.record()
        assert again.returns() == final.returns()
        assert [again.hand(s) for s in range(again.num_players)] == [
            final.hand(s) for s in range(final.num_players)
        ]
        middle = states[len(states) // 2]
        assert shedkit.replay(middle.record()).record() == middle.record()


@pytest.mark.parametrize("preset", PRESETS)
def test_determinize_is_consistent_with_the_view(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    rng = random.Random(5)
    for _, states in random_deals(preset, 40):
        for state in states[:: max(1, len(states) // 5)]:
            if state.is_over:
                continue
            seat = rng.randrange(state.num_players)
            view = state.view(seat)
            sample = game.determinize(view, rng)
            again = sample.view(seat)
            assert again.hand == view.hand
            assert again.cards_left == view.cards_left
            assert again.history == view.history
            assert again.kitty == view.kitty
            assert again.phase == view.phase and again.current_player == view.current_player
            assert sample.legal_moves() == state.legal_moves() or seat != state.current_player
            assert sorted(all_cards(sample)) == sorted(game.deck)


def test_clone_is_independent() -> None:
    state = shedkit.make("doudizhu").new_deal(seed=3)
    copy = state.clone()
    copy.apply(copy.legal_moves()[-1])
    assert state.record()["moves"] == []
    assert copy.record()["moves"] == ["bid3"]


def test_same_seed_same_deal() -> None:
    game = shedkit.make("doudizhu")
    assert game.new_deal(seed=11).record() == game.new_deal(seed=11).record()
    assert game.new_deal(seed=11).record() != game.new_deal(seed=12).record()


@pytest.mark.parametrize("preset", PRESETS)
def test_bombs_kept_per_seat_match_the_hands(preset: str) -> None:
    """DDZ-21: the bomb ranks the state keeps per seat are those it holds four of."""
    from shedkit.doudizhu.movegen import bomb_ranks

    seen = 0
    for final, states in random_deals(preset, 200):
        for state in [*states, final]:
            assert state.bomb_masks == [bomb_ranks(c) for c in state.rank_counts]
            seen += sum(1 for m in state.bomb_masks if m)
    assert seen > 0  # some hands held bombs, so the check had something to check
