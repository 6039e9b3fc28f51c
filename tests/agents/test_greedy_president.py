"""The ``greedy`` President bot: legal, deterministic, sensible, and stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

import shedkit
from shedkit.agents import GreedyPresident, make_agent
from shedkit.agents.greedy_president import face_counts, wants_revolution
from shedkit.core.match import Match, play_deal
from shedkit.core.rng import derive_seed
from shedkit.president import Move, President, State, View, card_str


class Checked:
    """Wraps an agent and asserts every move it returns is one of the view's legal moves."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name

    def act(self, view: View) -> Move:
        move = self.agent.act(view)
        assert move in view.legal_moves, (move, view.legal_moves)
        return move  # type: ignore[no-any-return]


def make(**options: object) -> President:
    return shedkit.make("president", **options)  # type: ignore[no-any-return]


def table(hands: list[str], game: President | None = None) -> State:
    game = game or make(players=len(hands))
    return game.new_deal(seed=1, hands=hands, dealer=game.num_players - 1)


def choice(state: State) -> str:
    seat = state.current_player
    assert seat is not None
    return str(GreedyPresident().act(state.view(seat)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("preset", ["standard", "all-options", "international"])
def test_only_legal_moves_in_whole_matches(players: int, preset: str) -> None:
    game = shedkit.make("president", preset=preset, players=players)
    match = Match(game, seed=players, deals=6)
    agents = [Checked(make_agent("greedy", game, s)) for s in range(players)]
    while not match.is_over:
        match.finish_deal(play_deal(match.next_deal(), agents))
    assert sum(match.totals) == 6 * players * (players - 1) // 2


def test_registered_and_deterministic() -> None:
    game = make(jokers=1, tax=True)
    bot = make_agent("greedy", game, seed=3)
    assert isinstance(bot, GreedyPresident) and bot.name == "greedy"
    state = game.new_deal(seed=7)
    view = state.view(state.current_player)
    assert bot.act(view) is GreedyPresident(game, seed=99).act(view)


def test_refuses_a_view_without_moves() -> None:
    state = make().new_deal(seed=1)
    other = (state.current_player + 1) % 4  # type: ignore[operator]
    with pytest.raises(ValueError, match="not this seat's turn"):
        GreedyPresident().act(state.view(other))


def test_leads_its_lowest_group_whole() -> None:
    assert choice(table(["3s 3h 4c 9d Kc", "Qs", "Js"])) == "3s 3h"
    assert choice(table(["As 4c 4h 9d Kc", "Qs", "Js"])) == "As"


def test_leads_a_run_of_loose_low_cards_before_a_single() -> None:
    assert choice(table(["3s 4s 5s 9d 9c Kc", "Qs", "Js"])) == "3s 4s 5s"


def test_goes_out_when_it_can() -> None:
    # A quad it would rather keep is still played when it is the last group.
    assert choice(table(["7s 7h 7d 7c", "Qs", "Js"])) == "7s 7h 7d 7c"
    game = make(players=3, jokers=1)
    state = table(["9s 9h 3c", "Qs Jk", "Js 4d"], game)
    state.apply(game.parse_move("9s 9h"))
    assert choice(state) == "Qs Jk=Qh"


def test_responds_cheaply_and_keeps_pairs_whole() -> None:
    state = table(["5s Kd", "6s 9h 9c Js 2d 3d 4d 4h Qc", "7s 8c"])
    state.apply(state.game.parse_move("5s"))
    assert choice(state) == "6s"
    state = table(["Ts Kd", "9h 9c Js Jh 2d 3d 4d 4h Qc", "7s 8c"])
    state.apply(state.game.parse_move("Ts"))
    assert choice(state) == "Qc"  # the jacks stay a pair


def test_saves_high_cards_while_the_hand_is_long() -> None:
    state = table(["Js 4d 5d 6c 7c 8c 9h", "Ks 2d 3d 4s 5h 6h 7h Th", "7s 8s 9s Ts Qh 3c"])
    state.apply(state.game.parse_move("Js"))
    assert choice(state) == "pass"  # K is the top of the ace-low order
    state = table(["Js 4d 5d 6c 7c 8c 9h", "Ks 2d 3d", "7s 8s 9s Ts Qh 3c"])
    state.apply(state.game.parse_move("Js"))
    assert choice(state) == "Ks"  # a short hand spends it


def test_breaks_a_group_only_when_an_opponent_is_nearly_out() -> None:
    pairs = "Qs Qh 3d 3s 4h 4c 2d 2c"
    state = table(["5s 3c 4d 6c 7c 8c 9h", pairs, "7s 2h 9d Td Jd Kd"])
    state.apply(state.game.parse_move("5s"))
    assert choice(state) == "pass"
    state = table(["5s 3c 4d 6c 7c 8c 9h", pairs, "7s 2h"])
    state.apply(state.game.parse_move("5s"))
    assert choice(state) == "Qs"


def test_gives_its_worst_loose_cards_in_the_tax() -> None:
    game = make(players=4, tax=True)
    hands = ["As 2h 2d 5c 9d Kc Kh", "6s 7h 8h", "Ts Jh 4d", "3s 4h Qd"]
    state = game.new_deal(
        seed=1, hands=hands, previous_order=[0, 1, 2, 3], tax_draws=[[13, 46], [14]]
    )
    assert [card_str(c) for c in state.tax_draws[0]] == ["4h", "Qd"]
    # The 2s are a pair and stay together; the drawn 4h is not the giver's to give (PRE-20).
    assert choice(state) == "give As 5c"
    state.apply(state.game.parse_move("give As 5c"))
    assert choice(state) == "give 6s"  # seat 1's lowest own card, not the drawn 4d


def test_never_gives_the_joker() -> None:
    game = make(players=2, tax=True, jokers=1)
    hands = ["Jk As 2s 3s", "Ks Kh Kd"]
    state = game.new_deal(seed=1, hands=hands, previous_order=[0, 1], tax_draws=[[48, 49]])
    assert choice(state) == "give As 2s"


def test_keeps_quads_until_a_revolution_helps() -> None:
    assert not wants_revolution(face_counts([16, 17, 18, 19, 48, 44, 41]), list(range(13)))
    assert choice(table(["5s 5h 5d 5c Ks Qs Jh", "2c", "3c"])) == "Jh"
    assert wants_revolution(face_counts([16, 17, 18, 19, 8, 13, 0]), list(range(13)))
    assert choice(table(["5s 5h 5d 5c 3s 4h As", "2c", "3c"])) == "5s 5h 5d 5c"


def test_clearly_stronger_than_random() -> None:
    game = make(players=4)
    places = []
    for i in range(150):
        me = i % 4
        agents = [
            make_agent("greedy" if s == me else "random", game, derive_seed(2, i, s))
            for s in range(4)
        ]
        state = play_deal(game.new_deal(seed=derive_seed(2, "deal", i)), agents)
        places.append(state.finished.index(me) + 1)
    assert sum(places) / len(places) < 1.8  # random play averages 2.5
