"""The ``greedy`` Dou Di Zhu bot: legal, deterministic, sensible, and stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

import shedkit
from shedkit.agents import GreedyDouDizhu, RandomAgent, make_agent
from shedkit.agents.greedy_doudizhu import bid_value, make_plan
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed
from shedkit.doudizhu import Move, State, View
from shedkit.doudizhu.notation import parse_ranks

PRESETS = ["standard", "de-wikipedia", "four-player"]


class Checked:
    """Wraps an agent and asserts every move it returns is one of the view's legal moves."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.moves = 0

    def act(self, view: View) -> Move:
        move = self.agent.act(view)
        assert move in view.legal_moves, (move, view.legal_moves)
        self.moves += 1
        return move  # type: ignore[no-any-return]


def rank_counts(text: str) -> list[int]:
    """Cards per rank of a hand written as bare ranks."""
    counts = [0] * 15
    for r in parse_ranks(text):
        counts[r] += 1
    return counts


def scenario(hands: list[str], landlord: int = 0, preset: str = "standard") -> State:
    """A deal with every hand given as bare ranks and the auction skipped."""
    game = shedkit.make("doudizhu", preset=preset)
    state: State = game.new_deal(seed=0, hands=hands, landlord=landlord)
    return state


def greedy_move(state: State) -> Move:
    seat = state.current_player
    assert seat is not None
    return GreedyDouDizhu(state.game).act(state.view(seat))


def play(state: State, *texts: str) -> None:
    for text in texts:
        state.apply(state.game.parse_move(text, state))


def test_registered() -> None:
    game = shedkit.make("doudizhu")
    agent = make_agent("greedy", game, seed=3)
    assert isinstance(agent, GreedyDouDizhu)
    assert agent.name == "greedy"


@pytest.mark.parametrize("preset", PRESETS)
def test_always_legal(preset: str) -> None:
    """All-greedy tables and greedy among random bots, auction included, on seeded deals."""
    game = shedkit.make("doudizhu", preset=preset)
    n = game.num_players
    deals = 40 if n == 4 else 80
    total = 0
    for i in range(deals):
        seed = derive_seed(11, preset, i)
        # Even deals: all greedy; odd deals: greedy seats among random ones (wilder tricks).
        seats = [
            Checked(GreedyDouDizhu(game, s))
            if i % 2 == 0 or s % 2 == 0
            else RandomAgent(game, seed + s)
            for s in range(n)
        ]
        state = play_deal(game.new_deal(seed=seed), seats)
        assert state.is_over
        assert sum(state.returns()) == 0
        total += sum(a.moves for a in seats if isinstance(a, Checked))
    assert total > deals * 5


def test_deterministic() -> None:
    game = shedkit.make("doudizhu")
    records = []
    for _ in range(2):
        state = play_deal(game.new_deal(seed=99), [GreedyDouDizhu(game, s) for s in range(3)])
        records.append(state.record())
    assert records[0] == records[1]


def test_takes_winning_lead() -> None:
    # The plan keeps 3333 aside as a bomb and would lead a solo; 3333+45 goes out now.
    state = scenario(["333345", "6789TJQKA2", "6789TJQKA2"])
    move = greedy_move(state)
    assert move.kind == "quad_two_solos"
    assert str(move) == "3333+45"


def test_takes_winning_response_over_partner() -> None:
    # Seat 2 never fights its partner, except to go out.
    state = scenario(["3456789TJQ", "4K", "A"])
    play(state, "3", "4")
    assert str(greedy_move(state)) == "A"


def test_peasant_passes_on_partner_play() -> None:
    hands = ["3889TKK2", "5QQA", "677TJ"]
    state = scenario(hands)
    play(state, "3", "5")
    view = state.view(2)
    assert any(m.kind == "solo" for m in view.legal_moves), "seat 2 could beat the 5"
    assert greedy_move(state).kind == "pass"
    # The same cards over the landlord's play: seat 2 beats it cheaply.
    state = scenario(hands)
    play(state, "3", "pass")
    move = greedy_move(state)
    assert move.kind == "solo"
    assert str(move) == "6"


def test_keeps_bomb_when_no_threat() -> None:
    # Only the bomb beats the landlord's K; the landlord holds many cards, so seat 1 passes.
    state = scenario(["34566788TJK", "35799994Q", "TJQAA"])
    play(state, "K")
    assert any(m.is_bomb for m in state.legal_moves())
    assert greedy_move(state).kind == "pass"


def test_bombs_when_it_leads_to_going_out() -> None:
    # After 9999 the rest, 34567, is one lead: bombing wins the trick and then the deal.
    state = scenario(["34566788TJK", "357999946", "TJQAA"])
    play(state, "K")
    assert str(greedy_move(state)) == "9999"


def test_bombs_when_opponent_nearly_out() -> None:
    state = scenario(["3K", "35799994", "TJQAA"])
    play(state, "K")
    assert greedy_move(state) == Move("bomb", 6, (6, 6, 6, 6))


def test_leads_chain_before_singles() -> None:
    state = scenario(["345679JK", "TTQQAA22", "TJQKA2BR"])
    move = greedy_move(state)
    assert move.kind == "chain"
    assert str(move) == "34567"


def test_avoids_solo_lead_when_opponent_has_one_card() -> None:
    state = scenario(["3558", "A", "K"])
    # Landlord to lead; both peasants hold one card: lead the pair first.
    assert str(greedy_move(state)) == "55"


def test_plan_keeps_bombs_and_chains_apart() -> None:
    game = shedkit.make("doudizhu")
    plan = make_plan(rank_counts("3456789TTTTBR"), game.options)
    assert [str(p) for p in plan.bombs] == ["TTTT", "BR"]
    assert [str(p) for p in plan.parts] == ["3456789"]


def test_plan_trio_takes_weakest_kicker() -> None:
    game = shedkit.make("doudizhu")
    plan = make_plan(rank_counts("3888KA"), game.options)
    assert sorted(str(p) for p in plan.parts) == ["888+3", "A", "K"]


def test_bidding_follows_hand_strength() -> None:
    game = shedkit.make("doudizhu")
    strong = rank_counts("BR2222AAKK345789J")
    weak = rank_counts("334456789TTJQQKK5")
    assert bid_value(strong, game.options) == 3
    assert bid_value(weak, game.options) == 0
    state = game.new_deal(seed=1, hands=["BR2222AAKK345789J", None, None], first_bidder=0)
    assert str(greedy_move(state)) == "bid3"
    state = game.new_deal(seed=1, hands=["334456789TTJQQKK5", None, None], first_bidder=0)
    assert str(greedy_move(state)) == "pass"


def _side_wins(greedy_landlord: bool, deals: int = 300) -> int:
    """Deals won by the greedy side, roles forced, against random bots."""
    game = shedkit.make("doudizhu")
    wins = 0
    for i in range(deals):
        landlord = i % 3
        state = game.new_deal(seed=derive_seed(5, "strength", i), landlord=landlord)
        agents = [
            GreedyDouDizhu(game, s) if (s == landlord) == greedy_landlord else RandomAgent(game, i)
            for s in range(3)
        ]
        play_deal(state, agents)
        wins += (state.winner == landlord) == greedy_landlord
    return wins


def test_greedy_landlord_beats_random_peasants() -> None:
    # Random vs random, the landlord wins about 37 %; greedy measured about 97 %.
    assert _side_wins(greedy_landlord=True) >= 240


def test_greedy_peasants_beat_random_landlord() -> None:
    # Random vs random, the peasants win about 63 %; greedy peasants measured about 99 %.
    assert _side_wins(greedy_landlord=False) >= 255
