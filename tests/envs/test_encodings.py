"""Encodings: the documented segments hold what they say, and nothing hidden leaks."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numpy", reason="the [rl] extra is not installed")

import shedkit
from shedkit.envs.encodings import encoding_for, register_encoding
from shedkit.envs.encodings.base import Layout


def random_states(game: Any, deals: int, seed: int, **setup: Any) -> list[Any]:
    """States along random deals (a copy at every decision)."""
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        state = game.new_deal(seed=seed * 1000 + d, **setup)
        while not state.is_over:
            out.append(state.clone())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        out.append(state.clone())
    return out


@pytest.mark.parametrize(
    ("name", "options", "setup"),
    [
        ("doudizhu", {}, {}),
        ("doudizhu", {"players": 4}, {}),
        ("president", {"players": 4, "preset": "all-options"}, {"previous_order": [2, 0, 3, 1]}),
        ("president", {"players": 3}, {}),
        ("dominoes", {}, {}),
        ("dominoes", {"players": 3, "preset": "all-fives"}, {}),
        ("tiengow", {}, {}),
        ("tiengow", {"preset": "dominorules"}, {"direction": -1}),
        ("tiengow", {"preset": "ku-pai"}, {}),
        ("tiengow", {"preset": "hong-kong"}, {}),
    ],
)
def test_views_that_agree_encode_the_same(
    name: str, options: dict[str, Any], setup: dict[str, Any]
) -> None:
    # A determinized state deals the hidden cards anew: the observer's encoding must not
    # change (no hidden card leaks), and its mask must be its legal moves.
    game = shedkit.make(name, **options)
    enc = encoding_for(game)
    rng = random.Random(3)
    for state in random_states(game, 2, seed=4, **setup)[::7]:
        if state.is_over:
            continue
        for seat in range(game.num_players):
            view = state.view(seat)
            obs = enc.encode(view)
            assert obs.dtype == np.float32 and obs.shape == (enc.layout.size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            other = game.determinize(view, rng)
            assert np.array_equal(enc.encode(other.view(seat)), obs)
            mask = enc.mask(view)
            assert set(np.flatnonzero(mask)) == {m.action_id for m in view.legal_moves}


def test_doudizhu_segments() -> None:
    game = shedkit.make("doudizhu")
    enc = encoding_for(game)
    # Ten card sets of 60, then 3 + 3 + 4 + 3 + 8 + 1 + 4 + 4 flags.
    assert enc.layout.size == 600 + 30
    state = game.new_deal(seed=11, hands=["33344455667788BR", None, None], landlord=0, bid=2)
    lay = enc.layout
    obs = enc.encode(state.view(0))
    hand = obs[lay.slice("hand")].reshape(15, 4)
    assert hand[0].tolist() == [1, 1, 1, 0]  # three 3s: a thermometer of 3
    assert hand[13].tolist() == [1, 0, 0, 0] and hand[14].tolist() == [1, 0, 0, 0]
    assert obs[lay.slice("landlord")].tolist() == [1, 0, 0, 0]
    assert obs[lay.slice("stake")].tolist() == [0, 0, 1, 0]
    kitty = obs[lay.slice("kitty")].sum()
    assert kitty == 3
    # 54 cards in all: own hand + unseen (nothing played yet).
    assert obs[lay.slice("hand")].sum() + obs[lay.slice("unseen")].sum() == 54
    state.apply(game.parse_move("333+4", state))
    obs1 = enc.encode(state.view(1))
    assert obs1[lay.slice("to_beat")].reshape(15, 4)[0].tolist() == [1, 1, 1, 0]
    # Seat 0 is one seat before seat 1: relative position 2 of three.
    assert obs1[lay.slice("to_beat_by")].tolist() == [0, 0, 1]
    assert obs1[lay.slice("landlord")].tolist() == [0, 0, 1, 0]
    played = obs1[lay.slice("played")].reshape(3, 15, 4)
    assert played[2].sum() == 4 and played[0].sum() == 0
    assert obs1[lay.slice("recent_pass")].tolist() == [0, 0, 0]
    state.apply(game.parse_move("pass", state))
    obs2 = enc.encode(state.view(2))
    assert obs2[lay.slice("recent_pass")].tolist() == [1, 0, 0]
    # The landlord (relative 1 for seat 2) holds 16 + 3 kitty - 4 played cards.
    assert obs2[lay.slice("cards_left")][1] == pytest.approx(15 / 20)


def test_doudizhu_bombs_and_auction() -> None:
    game = shedkit.make("doudizhu")
    enc = encoding_for(game)
    state = game.new_deal(seed=2, first_bidder=1)
    obs = enc.encode(state.view(1))
    lay = enc.layout
    assert obs[lay.slice("auction")].tolist() == [1]
    assert obs[lay.slice("landlord")].tolist() == [0, 0, 0, 1]
    assert obs[lay.slice("high_bidder")].tolist() == [0, 0, 0, 1]
    assert obs[lay.slice("bombs")][0] == 1
    state.apply(game.parse_move("bid2", state))
    obs = enc.encode(state.view(2))
    assert obs[lay.slice("high_bidder")].tolist() == [0, 0, 1, 0]  # seat 1 = relative 2
    assert obs[lay.slice("stake")].tolist() == [0, 0, 1, 0]


def test_president_segments() -> None:
    game = shedkit.make("president", players=4)
    enc = encoding_for(game)
    lay = enc.layout
    state = game.new_deal(seed=5, dealer=3)
    leader = state.current_player
    assert leader == 0  # PRE-06: the seat after the dealer leads
    obs = enc.encode(state.view(0))
    assert obs[lay.slice("hand")].sum() == 13
    assert obs[lay.slice("unseen")].sum() == 39
    low = state.legal_moves()[0]
    state.apply(low)
    obs = enc.encode(state.view(1))
    assert obs[lay.slice("to_beat")][list(low.cards)].tolist() == [1.0] * low.size
    assert obs[lay.slice("to_beat_by")].tolist() == [0, 0, 0, 1]
    assert obs[lay.slice("strength")].sum() == 1
    assert obs[lay.slice("played")].reshape(4, 52)[3].sum() == low.size


def test_dominoes_segments() -> None:
    game = shedkit.make("dominoes", players=2)
    enc = encoding_for(game)
    lay = enc.layout
    state = game.new_deal(seed=3)
    seat = state.current_player
    obs = enc.encode(state.view(seat))
    assert obs[lay.slice("hand")].sum() == 7 and obs[lay.slice("unseen")].sum() == 21
    assert obs[lay.slice("boneyard")][0] == pytest.approx(14 / 28)
    ends = obs[lay.slice("ends")].reshape(4, 8)
    assert ends[:, 7].tolist() == [1, 1, 1, 1]  # no tile down: every end closed
    first = state.legal_moves()[0]
    state.apply(first)
    other = enc.encode(state.view(1 - seat))
    assert other[lay.slice("played")].reshape(2, 28)[1, first.tile] == 1
    low, high = game.tables.halves[first.tile]
    ends = other[lay.slice("ends")].reshape(4, 8)
    assert {int(np.flatnonzero(ends[0])[0]), int(np.flatnonzero(ends[1])[0])} == {low, high}
    assert other[lay.slice("partner")].tolist() == [1, 0]
    teams = encoding_for(shedkit.make("dominoes", players=4))
    view = shedkit.make("dominoes", players=4).new_deal(seed=1).view(1)
    assert teams.encode(view)[teams.layout.slice("partner")].tolist() == [1, 0, 1, 0]


def test_tiengow_segments() -> None:
    # TG-01: a tile set counts kinds, so which copy of a civil tile is held never shows.
    game = shedkit.make("tiengow", first_banker=2)
    enc = encoding_for(game)
    lay = enc.layout
    # Eleven tile sets of 32, six segments of one per seat, then 12 + 1 + 1 + 4 + 1 + 1.
    assert enc.layout.size == 32 * 11 + 4 * 6 + 20
    hands = ["6-6 4-4 4-4 1-2 5-5 3-3 1-1 2-6", "6-6 2-2 5-5 3-6 1-3 1-6 1-6 4-6", None, None]
    state = game.new_deal(seed=4, hands=hands)
    assert state.hand(1)[0] == 1  # seat 1 holds the second copy of 6-6 ...
    assert state.current_player == 2  # TG-20: the banker leads
    obs = enc.encode(state.view(0))
    hand = obs[lay.slice("hand")]
    assert hand[[0, 1]].tolist() == [1, 0] and hand.sum() == 8
    assert obs[lay.slice("unseen")].sum() == 32 - 8
    assert obs[lay.slice("banker")].tolist() == [0, 0, 1, 0]  # seat 2: two places on
    other = enc.encode(state.view(1))
    assert other[lay.slice("hand")][[0, 1]].tolist() == [1, 0]  # ... shown in the first slot
    lead = next(m for m in state.legal_moves() if m.size == 1)
    state.apply(lead)
    obs = enc.encode(state.view(3))
    assert obs[lay.slice("high")].sum() == 1 and obs[lay.slice("high_by")].tolist() == [0, 0, 0, 1]
    assert obs[lay.slice("trick_size")].tolist() == [1, 0, 0, 0]
    assert obs[lay.slice("played")].reshape(4, 32)[3].sum() == 1
    discard = next(m for m in state.legal_moves() if m.is_discard)
    state.apply(discard)
    # Seat 3's discard: its tiles for itself, a count for the others (TG-25).
    mine = enc.encode(state.view(3))
    assert mine[lay.slice("discards")].reshape(4, 32)[0].sum() == 1
    theirs = enc.encode(state.view(0))
    assert theirs[lay.slice("discards")].sum() == 0
    assert theirs[lay.slice("discarded")].tolist() == [0, 0, 0, 1 / 8]
    assert theirs[lay.slice("unseen")].sum() == 32 - 8 - 1
    assert theirs[lay.slice("in_trick")].tolist() == [0, 0, 1, 1]


def test_tiengow_seats_follow_the_direction_of_play() -> None:
    # TG-02: with play going the other way, the seat after the observer is the one before.
    game = shedkit.make("tiengow", first_banker=1)
    enc = encoding_for(game)
    lay = enc.layout
    forward = enc.encode(game.new_deal(seed=2).view(0))
    backward = enc.encode(game.new_deal(seed=2, direction=-1).view(0))
    assert forward[lay.slice("banker")].tolist() == [0, 1, 0, 0]
    assert backward[lay.slice("banker")].tolist() == [0, 0, 0, 1]
    assert backward[lay.slice("direction")].tolist() == [1]


def test_action_features_describe_each_action() -> None:
    for name in ("doudizhu", "president", "dominoes", "tiengow"):
        game = shedkit.make(name)
        enc = encoding_for(game)
        assert enc.action_features.shape[0] == game.num_actions
        width = enc.layout.slice("hand").stop
        for move in game.tables.moves[:: max(1, game.num_actions // 300)]:
            row = enc.action_features[move.action_id]
            size = 1 if move.kind in ("lead", "play") else 0 if name == "dominoes" else move.size
            assert row[:width].sum() == size


def test_layout_and_registry_errors() -> None:
    with pytest.raises(ValueError, match="twice"):
        Layout([("a", 1), ("a", 2)])

    class Fake:
        name = "no-such-game"

    with pytest.raises(shedkit.OptionError, match="no environment encoding"):
        encoding_for(Fake())
    register_encoding("no-such-game", lambda game: encoding_for(shedkit.make("president")))
    try:
        assert encoding_for(Fake()).num_actions == shedkit.make("president").num_actions
    finally:
        from shedkit.envs.encodings import ENCODINGS

        del ENCODINGS["no-such-game"]
    with pytest.raises(ValueError, match="spectator"):
        encoding_for(shedkit.make("doudizhu")).encode(
            shedkit.make("doudizhu").new_deal(1).view(None)
        )
