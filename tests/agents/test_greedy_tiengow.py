"""The ``greedy`` Tien Gow bot: legal, deterministic, sensible, and stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

import shedkit
from shedkit.agents import GreedyTienGow, make_agent
from shedkit.core.match import Match, play_deal
from shedkit.tiengow import Move, State, TienGow, View


class Checked:
    """Wraps an agent and asserts every move it returns is one of the view's legal moves."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name

    def act(self, view: View) -> Move:
        move = self.agent.act(view)
        assert move in view.legal_moves, (move, view.legal_moves)
        return move  # type: ignore[no-any-return]


def make(**options: object) -> TienGow:
    return shedkit.make("tiengow", **options)  # type: ignore[no-any-return]


def table(hands: list[str], leader: int = 0, **options: object) -> State:
    game = make(**options)
    return game.new_deal(seed=1, hands=hands, banker=leader)


def choice(state: State) -> str:
    seat = state.current_player
    assert seat is not None
    return str(GreedyTienGow(state.game).act(state.view(seat)))


def play(state: State, *moves: str) -> State:
    for text in moves:
        state.apply(state.game.parse_move(text, state))
    return state


@pytest.mark.parametrize("preset", ["standard", "hong-kong", "ancient", "ku-pai", "dominorules"])
def test_only_legal_moves_in_whole_matches(preset: str) -> None:
    game = shedkit.make("tiengow", preset=preset)
    match = Match(game, seed=3, deals=8)
    agents = [Checked(make_agent("greedy", game, s)) for s in range(4)]
    while not match.is_over:
        match.finish_deal(play_deal(match.next_deal(), agents))
    assert sum(match.totals) == 0


def test_registered_and_deterministic() -> None:
    game = make(preset="hong-kong")
    bot = make_agent("greedy", game, seed=3)
    assert isinstance(bot, GreedyTienGow) and bot.name == "greedy"
    state = game.new_deal(seed=7)
    view = state.view(state.current_player)
    assert bot.act(view) is GreedyTienGow(game, seed=99).act(view)
    assert GreedyTienGow().act(view) is bot.act(view)  # no game: the view's options suffice


def test_refuses_a_view_without_moves() -> None:
    state = make().new_deal(seed=1)
    other = (state.current_player + 1) % 4  # type: ignore[operator]
    with pytest.raises(ValueError, match="not this seat's turn"):
        GreedyTienGow().act(state.view(other))


def test_random_plays_every_game_through_the_contract() -> None:
    game = make(preset="dominorules")
    state = play_deal(game.new_deal(seed=2), [make_agent("random", game, s) for s in range(4)])
    assert state.is_over and sum(state.returns()) == 0


def test_keeps_the_supreme_for_the_last_trick() -> None:
    # 6-6 6-6 cannot be beaten: it is led first, the Supreme kept for the last trick.
    hands = ["6-6 6-6 2-4 1-2", "5-5 5-5 1-3 1-3", "1-1 1-1 2-6 3-5", "4-4 4-4 2-5 3-4"]
    state = table(hands)
    assert choice(state) == "6-6 6-6"
    play(state, "6-6 6-6", "discard 5-5 5-5", "discard 1-1 1-1", "discard 4-4 4-4")
    assert choice(state) == "2-4 1-2"


def test_leads_the_supreme_when_nothing_else_is_safe() -> None:
    hands = ["2-2 1-5 2-4 1-2", "5-5 5-5 1-3 1-3", "1-1 1-1 2-6 3-5", "4-4 4-4 2-5 3-4"]
    assert choice(table(hands)) == "2-4 1-2"


def test_gives_the_lead_away_with_its_lowest_loose_tile() -> None:
    hands = ["2-2 1-5 4-6 3-4", "5-5 5-5 1-3 1-3", "1-1 1-1 2-6 3-5", "4-4 6-6 2-5 4-5"]
    assert choice(table(hands)) == "1-5"


def table_units(hands: list[str], units: list[int]) -> State:
    return make().new_deal(seed=1, hands=hands, banker=0, units=units)


def test_beats_on_the_last_trick_to_win_the_hand() -> None:
    state = play(table_units(["2-3", "2-6", "1-1", "4-4"], [2, 2, 2, 1]), "2-3")
    assert choice(state) == "2-6"


def test_keeps_a_dear_tile_on_an_earlier_single_trick() -> None:
    state = play(table_units(["2-3 1-1", "2-6 5-5", "6-6 4-4", "1-3 3-3"], [1, 1, 1, 1]), "2-3")
    assert choice(state) == "discard 5-5"


def test_discards_its_lowest_tiles_when_it_cannot_beat() -> None:
    hands = ["6-6 1-1 4-4", "1-5 5-5 3-6", "1-3 2-2 4-5", "3-3 5-6 2-6"]
    state = play(table(hands), "6-6")
    assert choice(state) == "discard 1-5"


def test_stronger_than_random() -> None:
    game = make()
    chips = [0, 0]
    for rotation in range(2):
        names = ["greedy", "random"] * 2 if rotation == 0 else ["random", "greedy"] * 2
        for seed in range(60):
            agents = [make_agent(n, game, s) for s, n in enumerate(names)]
            state = play_deal(game.new_deal(seed=100 * rotation + seed), agents)
            for seat, chip in enumerate(state.returns()):
                chips[names[seat] == "greedy"] += chip
    assert chips[1] > 0 > chips[0]
