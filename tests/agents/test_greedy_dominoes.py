"""The greedy Dominoes bot: its preferences on scripted views, and its edge over random."""

from __future__ import annotations

import pytest

import shedkit
from shedkit.agents import GreedyDominoes, make_agent
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed
from shedkit.dominoes import State


def deal(hands: list[str], boneyard: str, **options: object) -> State:
    game = shedkit.make("dominoes", players=len(hands), **options)
    state = game.new_deal(seed=1, hands=hands, boneyard=boneyard, leader=0)
    assert isinstance(state, State)
    return state


def play(state: State, *moves: str) -> None:
    for text in moves:
        state.apply(state.game.parse_move(text, state))


def test_registered_for_dominoes() -> None:
    game = shedkit.make("dominoes")
    assert isinstance(make_agent("greedy", game, 3), GreedyDominoes)


def test_dom_23_takes_the_best_count() -> None:
    state = deal(["5-5 6-6", "5-0 5-6 3-6"], boneyard="", variant="fives")
    play(state, "5-5")
    bot = GreedyDominoes(state.game)
    view = state.view(1)
    # 0-5 leaves 0 + 10 = 10 and scores; the heavier 5-6 leaves 16 and scores nothing.
    assert bot.points(view, state.game.parse_move("0-5@L")) == 10
    assert bot.points(view, state.game.parse_move("5-6@L")) == 0
    assert str(bot.act(view)) in ("0-5@L", "0-5@R")


def test_heavier_tile_when_nothing_else_differs() -> None:
    state = deal(["6-6 0-0", "6-5 6-1 2-2"], boneyard="", variant="block")
    play(state, "6-6")
    bot = GreedyDominoes(state.game)
    assert str(bot.act(state.view(1))) == "5-6@L"


def test_forced_moves_and_determinism() -> None:
    state = deal(["6-6 1-2", "0-0 3-4"], boneyard="0-1 5-6")
    play(state, "6-6")
    bot = GreedyDominoes(state.game)
    assert str(bot.act(state.view(1))) == "draw"
    game = shedkit.make("dominoes", players=3)
    s = game.new_deal(seed=4)
    view = s.view(s.current_player)
    assert bot.act(view) == GreedyDominoes(game).act(view)
    with pytest.raises(ValueError, match="not this seat's turn"):
        bot.act(s.view((s.leader + 1) % 3))


@pytest.mark.parametrize(
    "options", [{"players": 2}, {"players": 4, "variant": "block"}, {"variant": "fives"}], ids=str
)
def test_beats_random_on_the_same_deals(options: dict[str, object]) -> None:
    game = shedkit.make("dominoes", **options)
    n = game.num_players
    wins = {True: 0, False: 0}
    points = {True: 0, False: 0}
    hands = 300
    for i in range(hands):
        seat = i % n
        side = game.side_of[seat]
        for greedy in (True, False):
            agents = [
                make_agent(
                    "greedy" if greedy and game.side_of[s] == side else "random",
                    game,
                    derive_seed(11, "agent", i, s),
                )
                for s in range(n)
            ]
            state = play_deal(game.new_deal(seed=derive_seed(11, "deal", i)), agents)
            wins[greedy] += state.winner == side
            points[greedy] += state.returns()[seat]
    # Hands won is what the draw and block games reward; All Fives pays for the count.
    if game.options.variant != "fives":
        assert wins[True] > wins[False] + hands // 25
        assert points[True] > points[False]
    else:
        assert points[True] > 1.5 * points[False]
