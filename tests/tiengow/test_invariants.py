"""Randomized invariants of Tien Gow over thousands of seeded hands, under every option.

Hands are played in match order (``match_setup``: the winner banks, the
direction alternates) with random moves. On every state: the 32 tiles are
all somewhere (in a hand, played, or out of play), every hand holds as many
tiles as the others at a trick's start, every legal move applies and its
notation reads back as itself, and no view shows another seat's face-down
tile. At the end: 8 units were won (or a special hand won at once), the
returns are zero-sum and within the game's bounds, and the record replays
to the same hand. ``determinize`` gives a hand whose view is the seat's view.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit.tiengow import PRESETS, State, TienGow
from shedkit.tiengow.combos import TILE_KIND

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *((preset, {}) for preset in PRESETS),
    ("standard", {"must_follow_suit": True, "two_pairs": True, "alternate_direction": True}),
    ("hong-kong", {"discards_exposed": True, "triplet_match": "civil-guarded"}),
    ("standard", {"combinations": "pure-pairs", "banker_multiplier": "none", "early_death": False}),
]
HANDS = 250  # per configuration: 2,000 hands in all


def all_tiles(state: State) -> list[int]:
    tiles = [t for seat in range(4) for t in state.hand(seat)]
    tiles += [t for _, _, played in state.history for t in played]
    return sorted(tiles + list(state.out_of_play))


def hands_in_match(game: TienGow, count: int, seed: int) -> Iterator[tuple[State, list[State]]]:
    """Seeded random hands in match order, each with every state it passed through."""
    previous: State | None = None
    for number in range(count):
        rng = random.Random(seed + number)
        state = game.new_deal(seed=seed + number, **game.match_setup(number, previous))
        states = [state.clone()]
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            states.append(state.clone())
        previous = state
        yield state, states


def check_final(final: State) -> None:
    game = final.game
    returns = final.returns()
    assert sum(returns) == 0  # TG-30
    assert all(game.info.min_score <= r <= game.info.max_score for r in returns)
    if final.special is None:
        assert sum(final.units) == 8 and not any(final.hands)
        assert final.winner == final.tricks[-1][1]
    else:
        assert final.history == [] and final.winner == final.special[0]
    record = json.loads(json.dumps(final.record()))
    again = shedkit.replay(record)
    assert again.record() == record and again.returns() == returns


def check_state(state: State) -> None:
    assert all_tiles(state) == list(range(32))
    if state.phase == "play" and not state.trick:
        assert len({h.bit_count() for h in state.hands}) == 1
    game = state.game
    for move in state.legal_moves():
        assert game.parse_move(str(move)) is move
        assert game.action_to_move(move.action_id) is move


def check_views(state: State) -> None:
    """No view holds a tile another seat laid face down (TG-25), unless open (TG-54)."""
    exposed = state.game.options.discards_exposed
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        assert view.hand == (state.hand(seat) if seat is not None else ())
        assert view.legal_moves == (state.legal_moves() if seat == state.current_player else ())
        seen: Counter[int] = Counter(TILE_KIND[t] for t in view.hand)
        expected: Counter[int] = Counter(TILE_KIND[t] for t in view.hand)
        for (who, move, tiles), (real_who, real, real_tiles) in zip(
            view.history, state.history, strict=True
        ):
            assert who == real_who
            if who == seat:
                assert move is real and tiles == real_tiles
            else:
                assert tiles == ()
                if real.is_discard and not exposed:
                    assert move.hidden and move.size == real.size
                else:
                    assert move is real
            seen.update(TILE_KIND[t] for t in tiles)
            seen.update(move.kinds if who != seat else ())
            if who == seat or not real.is_discard or exposed:
                expected.update(real.kinds)
        assert seen == expected
        assert view.discarded == tuple(state.discarded)


@pytest.mark.parametrize(
    ("preset", "options"), CONFIGS, ids=[f"{p}-{'-'.join(o) or 'plain'}" for p, o in CONFIGS]
)
def test_seeded_hands(preset: str, options: dict[str, Any]) -> None:
    game = shedkit.make("tiengow", preset=preset, **options)
    winners: Counter[int] = Counter()
    for number, (final, states) in enumerate(hands_in_match(game, HANDS, 10_000)):
        check_final(final)
        winners[final.winner] += 1
        if number % 10 == 0:
            for state in states:
                check_state(state)
                check_views(state)
        else:
            assert all_tiles(final) == list(range(32))
    assert set(winners) == {0, 1, 2, 3}


def test_determinize_gives_the_seats_view() -> None:
    rng = random.Random(3)
    for preset, options in CONFIGS:
        game = shedkit.make("tiengow", preset=preset, **options)
        for final, states in hands_in_match(game, 12, 500):
            for state in states[::3]:
                if state.is_over:
                    continue
                seat = state.current_player
                view = state.view(seat)
                sample = game.determinize(view, rng)
                again = sample.view(seat)
                for field in dataclasses.fields(view):
                    assert getattr(again, field.name) == getattr(view, field.name), field.name
                assert all_tiles(sample) == list(range(32))
                finish = sample.clone()
                while not finish.is_over:
                    finish.apply(finish.legal_moves()[0])
            del final


def test_determinize_refuses_a_spectator() -> None:
    game = shedkit.make("tiengow")
    with pytest.raises(ValueError, match="spectator"):
        game.determinize(game.new_deal(seed=1).view(None), random.Random(0))


OPTIONS = st.fixed_dictionaries(
    {
        "first_banker": st.sampled_from(["random", 0, 1, 2, 3]),
        "alternate_direction": st.booleans(),
        "combinations": st.sampled_from(["full", "pairs", "pure-pairs", "singles"]),
        "triplet_match": st.sampled_from(["composition", "civil-guarded"]),
        "two_pairs": st.booleans(),
        "must_follow_suit": st.booleans(),
        "discards_exposed": st.booleans(),
        "early_death": st.booleans(),
        "zero_trick_payment": st.integers(0, 6),
        "over_par_refund": st.booleans(),
        "banker_multiplier": st.sampled_from(["increasing", "fixed", "none"]),
        "slam_multiplier": st.integers(1, 4),
        "wen_supreme": st.booleans(),
        "wen_supreme_capture": st.booleans(),
        "supreme_bonus": st.integers(0, 3),
        "quad_bonus": st.integers(0, 5),
        "supreme_finish_multiplier": st.integers(1, 3),
        "quad_finish_multiplier": st.integers(1, 4),
        "yao_finish_multiplier": st.integers(1, 3),
        "yao_capture_multiplier": st.integers(0, 4),
        "special_hands": st.booleans(),
    }
).filter(lambda o: o["combinations"] != "singles" or not (o["two_pairs"] or o["wen_supreme"]))


@settings(max_examples=150, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**62))
def test_hypothesis_matches_keep_every_invariant(options: dict[str, Any], seed: int) -> None:
    """Four hands of a match under random options: 600 hands over the examples."""
    game = shedkit.make("tiengow", **options)
    totals = [0, 0, 0, 0]
    for number, (final, states) in enumerate(hands_in_match(game, 4, seed)):
        check_final(final)
        totals = [t + r for t, r in zip(totals, final.returns(), strict=True)]
        for state in states if number == 0 else states[::4]:
            check_state(state)
            check_views(state)
    assert sum(totals) == 0
