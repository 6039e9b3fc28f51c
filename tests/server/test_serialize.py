"""The JSON of views: built from a seat's view only, JSON-able, keys that match the moves."""

from __future__ import annotations

import json
import random

import pytest

import shedkit
from shedkit.protocol.views import SERIALIZERS, serialize_view


def test_every_registered_serializer_is_a_registered_game() -> None:
    assert set(SERIALIZERS) <= set(shedkit.GAMES)


def test_unknown_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="no serialiser"):
        serialize_view("chess", None)


@pytest.mark.parametrize("game_name", sorted(SERIALIZERS))
def test_views_of_a_random_deal_serialise_with_matching_keys(game_name: str) -> None:
    game = shedkit.make(game_name)
    state = game.new_deal(seed=4)
    rng = random.Random(4)
    steps = 0
    while not state.is_over:
        seat = state.current_player
        for s in [*range(game.num_players), None]:
            view = state.view(s)
            data = serialize_view(game_name, view)
            assert json.loads(json.dumps(data)) == data
            assert [c["c"] for c in data["hand"]] == list(view.hand)
            assert len(data["cards_left"]) == game.num_players
            if s == seat:
                # A selection of cards with a move's keys names exactly that move.
                assert [m["m"] for m in data["legal"]] == [str(m) for m in view.legal_moves]
                for m, move in zip(data["legal"], view.legal_moves, strict=True):
                    assert game.parse_move(m["m"], state) == move
                    held = [c["k"] for c in data["hand"]]
                    assert all(m["k"].count(k) <= held.count(k) for k in m["k"])
            else:
                assert data["legal"] == []
            if s is None:
                assert data["hand"] == []
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        steps += 1
    final = serialize_view(game_name, state.view(None))
    assert final["is_over"] and final["returns"] == state.returns()
    assert steps > 10


def test_doudizhu_kitty_is_shown_only_once_there_is_a_landlord() -> None:  # DDZ-10
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=2, first_bidder=0)
    assert serialize_view("doudizhu", state.view(1))["kitty"] is None
    state.apply(game.parse_move("bid3", state))
    data = serialize_view("doudizhu", state.view(1))
    assert data["landlord"] == 0 and data["stake"] == 3 and data["multiplier"] == 1
    assert [c["c"] for c in data["kitty"]] == list(state.view(1).kitty)
    assert data["bids"] == [{"seat": 0, "move": "bid3", "kind": "bid", "cards": [], "bid": 3}]
    # Once play begins, a seat's last play is no bid left over from the auction.
    assert data["last_by_seat"] == {}


def test_plays_carry_their_kind_and_cards_and_the_trick_is_the_history_tail() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=2, first_bidder=0)
    state.apply(game.parse_move("bid3", state))
    lead = next(m for m in state.legal_moves() if m.kind == "pair")
    state.apply(lead)
    data = serialize_view("doudizhu", state.view(1))
    assert data["trick"] == data["history"][-1:]
    assert data["trick"][0]["kind"] == "pair" and len(data["trick"][0]["cards"]) == 2
    legal = serialize_view("doudizhu", game.new_deal(seed=2, first_bidder=0).view(0))["legal"]
    assert {m["bid"] for m in legal if m["kind"] == "bid"} == {1, 2, 3}


def test_dominoes_moves_name_their_end_and_president_titles_have_codes() -> None:
    game = shedkit.make("dominoes", preset="block")
    state = game.new_deal(seed=4)
    state.apply(state.legal_moves()[0])
    legal = serialize_view("dominoes", state.view(state.current_player))["legal"]
    assert all(m["end"] in ("L", "R") for m in legal if m["kind"] == "play")
    pres = shedkit.make("president")
    s = pres.new_deal(seed=1)
    while not s.is_over:
        s.apply(s.legal_moves()[0])
    data = serialize_view("president", s.view(0))
    assert sorted(data["title_codes"].values()) == sorted(
        ["president", "vice_president", "vice_slave", "slave"]
    )


def test_president_tax_cards_reach_only_the_two_seats_of_the_exchange() -> None:  # PRE-20
    game = shedkit.make("president", preset="international")
    state = game.new_deal(seed=3, previous_order=[0, 1, 2, 3])
    assert state.phase == "tax"
    giver = state.current_player
    move = state.legal_moves()[0]
    state.apply(move)
    given = set(move.cards)
    receiver = next(r for g, r, _ in state.view(None).exchanges if g == giver)
    for seat in [*range(4), None]:
        data = serialize_view("president", state.view(seat))
        cards = {c["c"] for e in data["history"] for c in e["cards"]}
        texts = [e["move"] for e in data["history"]]
        if seat in (giver, receiver):
            assert cards == given
        else:
            assert cards == set() and texts == ["give (hidden)"]
        first = data["exchanges"][0]
        assert {k: first[k] for k in ("giver", "receiver", "count")} == {
            "giver": 0,
            "receiver": 3,
            "count": 2,
        }
        assert (data["tax_drawn"] != []) == (seat in (0, 1))
        assert (data["tax_lost"] != []) == (seat in (2, 3))
        assert data["order"][-1] == "2"  # two-high


@pytest.mark.parametrize("preset", ["international", "standard"])
def test_president_exchanges_go_both_ways_for_their_two_seats_only(preset: str) -> None:
    """PRE-20, PRE-21: the two seats of an exchange see the cards the giver took (drawn at
    random, or the best cards handed over) and the cards it gave back; others see counts."""
    game = shedkit.make("president", preset=preset, tax=True)
    state = game.new_deal(seed=3, previous_order=[0, 1, 2, 3])
    draws = [set(d) for d in state.tax_draws]
    before = serialize_view("president", state.view(3))["exchanges"][0]
    assert {c["c"] for c in before["taken"]} == draws[0] and before["given"] is None
    move = state.legal_moves()[0]
    state.apply(move)
    for seat in [*range(4), None]:
        data = serialize_view("president", state.view(seat))
        first, second = data["exchanges"]
        if seat in (0, 3):
            assert {c["c"] for c in first["taken"]} == draws[0]
            assert {c["c"] for c in first["given"]} == set(move.cards)
        else:
            assert first["taken"] is None and first["given"] is None
        if seat in (1, 2):
            assert {c["c"] for c in second["taken"]} == draws[1]
        else:
            assert second["taken"] is None
        assert second["given"] is None  # not given yet


@pytest.mark.parametrize("game_name", ["doudizhu", "president"])
def test_the_trick_just_ended_is_in_every_view_until_the_next_move(game_name: str) -> None:
    """DDZ-13, PRE-09: once the passes end a trick, every view (a page loaded then
    included) carries that trick, passes and all, as the history's tail; the next move
    clears it."""
    game = shedkit.make(game_name)
    state = game.new_deal(seed=2)
    while state.phase != "play":
        state.apply(state.legal_moves()[-1])
    start = len(state.history)
    lead = next(m for m in state.legal_moves() if m.kind != "pass")
    state.apply(lead)
    assert serialize_view(game_name, state.view(None))["finished_trick"] == []
    while state.last_play is not None:
        state.apply(next(m for m in state.legal_moves() if m.kind == "pass"))
    for seat in [*range(game.num_players), None]:
        data = serialize_view(game_name, state.view(seat))
        assert data["trick"] == []
        done = data["finished_trick"]
        assert done == data["history"][start:]
        assert done[0]["move"] == str(lead) and len(done) == game.num_players
        assert all(e["kind"] == "pass" for e in done[1:])
    state.apply(next(m for m in state.legal_moves() if m.kind != "pass"))
    data = serialize_view(game_name, state.view(0))
    assert data["finished_trick"] == [] and len(data["trick"]) == 1
