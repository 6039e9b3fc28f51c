"""The ``rlcard-rule`` adapter: RLCard's Dou Di Zhu rule model playing from our views."""

from __future__ import annotations

import pytest

pytest.importorskip("rlcard", reason="rlcard is not installed (the [bench] or [dev] extra)")

import shedkit
from shedkit.agents import AGENTS, make_agent
from shedkit.agents.rlcard_rule import rlcard_string
from shedkit.core.match import play_deal


def test_registered_and_plays_whole_deals_legally_and_reproducibly() -> None:
    assert "rlcard-rule" in AGENTS
    game = shedkit.make("doudizhu")
    records = []
    for seed in range(6):
        state = game.new_deal(seed=seed)
        play_deal(state, [make_agent("rlcard-rule", game, seed * 3 + s) for s in range(3)])
        assert state.is_over
        records.append(state.record())
    again = []
    for seed in range(6):
        state = game.new_deal(seed=seed)
        play_deal(state, [make_agent("rlcard-rule", game, seed * 3 + s) for s in range(3)])
        again.append(state.record())
    assert records == again
    assert any(not r["thrown_in"] for r in records)


def test_lead_plays_the_combination_holding_the_lowest_card() -> None:
    # RLCard's lead rule: split the hand (rocket, bombs, trios, chains, pairs, solos)
    # and lead the first combination holding the lowest card: here the chain 3…7.
    game = shedkit.make("doudizhu")
    state = game.new_deal(
        seed=1, hands=["34567999JJQKA22BR", None, None], kitty="", landlord=0, bid=1
    )
    agent = make_agent("rlcard-rule", game, 0)
    move = agent.act(state.view(0))
    assert (move.kind, str(move)) == ("chain", "34567")


def test_follow_plays_the_lowest_of_the_same_type_and_spares_the_partner() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(
        seed=2,
        hands=["5KKKAAA2222BR", "689TTJJQQ", "3444667789"],
        kitty="",
        landlord=0,
        bid=1,
    )
    state.apply(game.parse_move("5", state))
    agent = make_agent("rlcard-rule", game, 0)
    # DDZ-20: seat 1 beats the landlord's solo with its lowest solo above it.
    assert str(agent.act(state.view(1))) == "6"
    state.apply(game.parse_move("6", state))
    # Seat 2 has a solo 7 but no reason to beat its partner (RLCard still follows the type):
    assert str(agent.act(state.view(2))) == "7"


def test_bids_come_from_the_greedy_rule_and_four_players_are_refused() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=3, hands=["2222BRAAAKKKQQQJJ", None, None], first_bidder=0)
    assert str(make_agent("rlcard-rule", game, 0).act(state.view(0))) == "bid3"
    with pytest.raises(shedkit.OptionError, match="three-player"):
        make_agent("rlcard-rule", shedkit.make("doudizhu", players=4), 0)


def test_rlcard_strings() -> None:
    game = shedkit.make("doudizhu")
    assert rlcard_string(game.parse_move("333+4")) == "3334"
    assert rlcard_string(game.parse_move("pass")) == "pass"
    assert rlcard_string(game.parse_move("BR")) == "BR"


def test_a_play_rlcard_has_no_string_for() -> None:
    # A plane of four with a trio among its solos is ours alone: the seat facing it
    # beats it when it can (an opponent's play), and passes when it cannot.
    game = shedkit.make("doudizhu")
    state = game.new_deal(
        seed=4,
        hands=["3334445556667778K", "9999TJ", "TTJJQQ"],
        kitty="",
        landlord=0,
        bid=1,
    )
    state.apply(game.parse_move("333444555666+7778", state))
    agent = make_agent("rlcard-rule", game, 0)
    assert str(agent.act(state.view(1))) == "9999"
    state.apply(game.parse_move("pass", state))
    assert str(agent.act(state.view(2))) == "pass"
