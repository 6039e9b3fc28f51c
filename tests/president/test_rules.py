"""One or more tests per rule ID of ``rules/president.md`` (PRE-01 … PRE-31, PRE-21 included).

Each test states the rule's expected outcome from the specification and checks
the engine through the public surface: ``new_deal(hands=...)``, ``legal_moves``,
``apply``, ``parse_move``, ``view``, ``returns``, ``match_setup`` and records.
Scenario hands are written in PRE-30 notation; seat 0 leads unless said.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Sequence

import pytest

import shedkit
from shedkit import IllegalMoveError, InvalidMoveError, OptionError
from shedkit.agents import make_agent
from shedkit.core.match import Match, play_deal
from shedkit.president import TITLES, President, State, card_str
from shedkit.president.combos import JOKER, card_key
from shedkit.president.rules import SetupError, title
from shedkit.president.view import HIDDEN_GIVE


def make(**options: object) -> President:
    return shedkit.make("president", **options)  # type: ignore[no-any-return]


def table(hands: list[str], game: President | None = None, leader: int = 0) -> State:
    """A deal in play with exactly these hands; every other card is leftover."""
    game = game or make(players=len(hands))
    n = game.num_players
    assert len(hands) == n
    return game.new_deal(seed=1, hands=hands, dealer=(leader - 1) % n)


def play(state: State, *moves: str) -> State:
    """Apply moves written in PRE-31 notation, in turn."""
    for text in moves:
        state.apply(state.game.parse_move(text, state))
    return state


def legal(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def snapshot(state: State) -> tuple[object, ...]:
    return (
        list(state.hands),
        state.current_player,
        state.last_play,
        state.revolution,
        list(state.finished),
        len(state.history),
        state.phase,
    )


def assert_illegal(state: State, text: str) -> None:
    """``text`` parses but is refused, and the refusal changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalMoveError):
        state.apply(state.game.parse_move(text, state))
    assert snapshot(state) == before


# -- cards and seats -----------------------------------------------------------


def test_pre_01_one_pack_of_52_and_an_optional_joker() -> None:
    plain, joker = make(), make(jokers=1)
    assert len(plain.deck) == 52 and len({card_str(c) for c in plain.deck}) == 52
    assert joker.deck == (*plain.deck, JOKER)
    assert card_str(JOKER) == "Jk"
    dealt = joker.new_deal(seed=4)
    everything = [c for s in range(4) for c in dealt.hand(s)] + list(dealt.leftover)
    assert sorted(everything) == list(joker.deck)
    with pytest.raises(OptionError, match="jokers"):
        make(jokers=2)


def test_pre_02_two_to_five_players_next_seat_is_seat_plus_one() -> None:
    for n in range(2, 6):
        assert make(players=n).num_players == n
    for bad in (1, 6):
        with pytest.raises(OptionError, match="players"):
            make(players=bad)
    state = table(["3s", "4s", "5s", "6s", "7s"])
    seen = []
    for text in ("3s", "4s", "5s", "6s"):
        seen.append(state.current_player)
        play(state, text)
    assert seen == [0, 1, 2, 3]


def test_pre_03_ace_low_is_the_default_order() -> None:
    assert make().options.rank_order == "ace-low"
    # A is the lowest card, K the highest.
    assert legal(play(table(["As 3c", "2s Kh"]), "As")) == {"pass", "2s", "Kh"}
    assert legal(play(table(["Ks 3c", "As 2s Qh"]), "Ks")) == {"pass"}
    # Runs follow the order without wrap-around: A-2-3 is a run, Q-K-A is not.
    game = make()
    assert game.parse_move("As 2s 3s").kind == "run"
    with pytest.raises(InvalidMoveError):
        game.parse_move("Qs Ks As")


def test_pre_03_two_high_order() -> None:
    game = make(players=2, rank_order="two-high")
    assert legal(play(table(["Ks 3c", "As 2s Qh"], game), "Ks")) == {"pass", "As", "2s"}
    assert legal(play(table(["As 3c", "2s Kh"], game), "As")) == {"pass", "2s"}
    assert legal(play(table(["3s 9c", "2s 4h"], game), "3s")) == {"pass", "2s", "4h"}
    assert game.parse_move("Ks As 2s").kind == "run"
    with pytest.raises(InvalidMoveError):
        game.parse_move("As 2s 3s")
    with pytest.raises(InvalidMoveError):
        game.parse_move("2s 3s 4s")


# -- deal ----------------------------------------------------------------------


def test_pre_04_first_dealer_random_then_rotates() -> None:
    game = make()
    dealers = {game.new_deal(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert game.new_deal(seed=9).dealer == game.new_deal(seed=9).dealer
    match = Match(game, seed=3, deals=5)
    agents = [make_agent("random", game, s) for s in range(4)]
    seen = []
    while not match.is_over:
        state = match.next_deal()
        seen.append(state.dealer)
        match.finish_deal(play_deal(state, agents))
    assert seen == [(seen[0] + i) % 4 for i in range(5)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("jokers", [0, 1])
def test_pre_05_hand_sizes_and_public_leftover(players: int, jokers: int) -> None:
    game = make(players=players, jokers=jokers)
    size = 10 if players == 5 else 13
    state = game.new_deal(seed=players * 10 + jokers)
    assert [len(state.hand(s)) for s in range(players)] == [size] * players
    assert len(state.leftover) == 52 + jokers - size * players
    for seat in [*range(players), None]:
        view = state.view(seat)
        assert view.leftover == state.leftover
        assert view.cards_left == (size,) * players
    # Leftover cards are out of play: nobody ever holds one.
    rng_state = state.clone()
    while not rng_state.is_over:
        rng_state.apply(rng_state.legal_moves()[-1])
    played = {c for _, m, cards in rng_state.history for c in cards}
    assert not played & set(state.leftover)


def test_pre_06_player_after_dealer_leads() -> None:
    game = make(players=5)
    for dealer in range(5):
        state = game.new_deal(seed=2, dealer=dealer)
        assert state.current_player == (dealer + 1) % 5
        assert state.phase == "play"
        assert "pass" not in legal(state)
    for seed in range(10):
        state = game.new_deal(seed=seed)
        assert state.current_player == (state.dealer + 1) % 5


# -- combinations and beating ----------------------------------------------------


def test_pre_07_the_leader_plays_any_combination() -> None:
    state = table(["7s 7h 7d 7c 3h 4h 5h", "Ks", "Qs"])
    kinds = {m.kind for m in state.legal_moves()}
    assert kinds == {"single", "pair", "triple", "quad", "run"}
    assert {"3h 4h 5h", "7s 7h 7d 7c", "7h 7c", "3h"} <= legal(state)
    assert "pass" not in legal(state)
    with pytest.raises(InvalidMoveError):
        state.game.parse_move("3h 4h 5s")  # a run is of one suit
    with pytest.raises(InvalidMoveError):
        state.game.parse_move("3h 5h 6h")  # consecutive ranks


def test_pre_07_same_combination_same_size_strictly_higher() -> None:
    state = play(table(["2s 2h 9c", "3s 3h Kd", "As Ah 5c"]), "2s 2h")
    assert legal(state) == {"pass", "3s 3h"}  # a pair of 2s is beaten by a pair of 3s
    assert_illegal(state, "Kd")  # not the same combination
    play(state, "3s 3h")
    assert legal(state) == {"pass"}  # aces are lower than 3s under ace-low
    assert_illegal(state, "As Ah")


def test_pre_07_run_ranked_by_top_card_same_length() -> None:
    state = table(["3s 4s 5s Kc", "4h 5h 6h 7h", "3d 4d 5d 6d"])
    play(state, "3s 4s 5s")
    assert legal(state) == {"pass", "4h 5h 6h", "5h 6h 7h"}
    assert_illegal(state, "4h 5h 6h 7h")  # same length only
    play(state, "4h 5h 6h")
    assert legal(state) == {"pass"}  # 4d-5d-6d ties the top card; not strictly higher
    assert_illegal(state, "4d 5d 6d")


def test_pre_08_a_pass_does_not_take_a_player_out_of_the_trick() -> None:
    state = play(table(["5s 6c Kc", "9s Qh Jd", "7s 8c 4d"]), "5s", "pass", "7s", "pass")
    assert state.current_player == 1
    assert legal(state) == {"pass", "9s", "Qh", "Jd"}
    assert make().options.pass_is_final is False


def test_pre_08_option_pass_is_final() -> None:
    game = make(players=3, pass_is_final=True)
    state = play(table(["5s 6c Kc", "9s Qh Jd", "7s 8c 4d"], game), "5s", "pass", "7s")
    assert state.current_player == 0  # seat 1 passed and is skipped
    play(state, "pass")
    # Everyone but seat 2 has passed: the trick is over and seat 2 leads.
    assert state.current_player == 2 and state.last_play is None


def test_pre_09_trick_ends_when_all_others_pass_last_player_leads() -> None:
    state = play(table(["Ks 4c", "As 2c", "3s 5c", "6s 7c"]), "Ks", "pass", "pass")
    assert state.last_play is not None and state.current_player == 3
    play(state, "pass")
    assert state.last_play is None and state.current_player == 0
    assert "pass" not in legal(state)


def test_pre_09_lead_passes_on_when_the_last_player_went_out() -> None:
    state = play(table(["Kh", "As 2c", "3s 5c", "6s 7c"]), "Kh")
    assert state.finished == [0]
    play(state, "pass", "pass")
    assert state.last_play is not None  # seat 3 has not passed yet
    play(state, "pass")
    assert state.last_play is None and state.current_player == 1


def test_pre_09_lead_skips_seats_already_out() -> None:
    state = play(table(["3s 9h", "4s", "5s 6s", "7s 8s"]), "3s", "4s", "5s", "7s", "9h")
    assert state.finished == [1, 0]
    play(state, "pass", "pass")
    assert state.current_player == 2 and state.last_play is None


# -- going out, titles, score -----------------------------------------------------


def test_pre_10_going_out_and_the_full_finishing_order() -> None:
    state = table(["3s", "4s 9c", "5s Tc Jc"])
    play(state, "3s")
    assert state.finished == [0] and not state.is_over
    assert state.current_player == 1
    play(state, "4s", "5s", "pass", "Jc")  # seat 1 passes; seat 2 keeps going
    assert state.current_player == 1
    play(state, "pass")  # the trick ends on seat 2, who leads
    play(state, "Tc")
    assert state.finished == [0, 2, 1] and state.is_over
    assert state.current_player is None and state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(state.game.parse_move("pass"))


def test_pre_11_titles_by_finishing_place() -> None:
    expected = {
        2: ["Presidente", "Schiavo"],
        3: ["Presidente", "Vicepresidente", "Schiavo"],
        4: ["Presidente", "Vicepresidente", "Vice-schiavo", "Schiavo"],
        5: ["Presidente", "Vicepresidente", "Cittadino", "Vice-schiavo", "Schiavo"],
    }
    for n, names in expected.items():
        assert [title(p, n) for p in range(n)] == names
        assert set(names) <= set(TITLES)
    state = play(table(["3s", "4s 9c", "5s Tc Jc"]), "3s", "4s", "5s", "pass", "Jc", "pass", "Tc")
    assert state.titles() == {0: "Presidente", 2: "Vicepresidente", 1: "Schiavo"}


def test_pre_12_place_p_of_n_scores_n_minus_p() -> None:
    state = play(table(["3s", "4s 9c", "5s Tc Jc"]), "3s", "4s", "5s", "pass", "Jc", "pass", "Tc")
    assert state.returns() == [2, 0, 1]
    assert table(["3s", "4s"]).returns() == [0, 0]  # nothing until the deal is over
    game = make(players=5)
    match = Match(game, seed=8, deals=4)
    agents = [make_agent("random", game, s) for s in range(5)]
    while not match.is_over:
        result = match.finish_deal(play_deal(match.next_deal(), agents))
        assert sorted(result.returns) == [0, 1, 2, 3, 4]
    assert sum(match.totals) == 4 * 10
    target = Match(game, seed=8, target=6)
    while not target.is_over:
        target.finish_deal(play_deal(target.next_deal(), agents))
    assert max(target.totals) >= 6


# -- revolution ------------------------------------------------------------------


def test_pre_13_a_quad_reverses_the_order_and_another_reverses_it_back() -> None:
    state = table(["5s 5h 5d 5c 9s", "6s 6h 6d 6c 8h Th", "4s 4h 4d 4c Qd"])
    normal = state.order
    play(state, "5s 5h 5d 5c")
    assert state.revolution and state.order == tuple(reversed(normal))
    assert state.view(1).revolution and state.view(None).order[0] == 12  # K lowest
    assert legal(state) == {"pass"}  # 6s are now lower than 5s
    assert_illegal(state, "6s 6h 6d 6c")
    play(state, "pass")
    assert "4s 4h 4d 4c" in legal(state)
    play(state, "4s 4h 4d 4c")
    assert not state.revolution and state.order == normal
    play(state, "pass")
    assert "6s 6h 6d 6c" in legal(state)  # higher again in the normal order


def test_pre_13_singles_under_revolution() -> None:
    state = play(table(["5s 5h 5d 5c 9s Kc", "8h Th 2c", "3d Qd 7c"]), "5s 5h 5d 5c")
    play(state, "pass", "pass")
    assert state.current_player == 0 and state.revolution
    play(state, "9s")
    assert legal(state) == {"pass", "8h", "2c"}
    assert_illegal(state, "Th")
    # The hand is shown low to high in the order in force.
    assert [card_str(c) for c in state.hand(1)] == ["Th", "8h", "2c"]


def test_pre_13_option_revolution_off_makes_a_quad_an_ordinary_set_of_four() -> None:
    assert make().options.revolution is True
    game = make(players=3, revolution=False)
    state = table(["5s 5h 5d 5c 9s", "6s 6h 6d 6c 8h Th", "4s 4h 4d 4c Qd"], game)
    normal = state.order
    play(state, "5s 5h 5d 5c")
    assert not state.revolution and state.order == normal
    assert legal(state) == {"pass", "6s 6h 6d 6c"}  # higher in the normal order
    assert_illegal(state, "4s 4h 4d 4c")
    play(state, "6s 6h 6d 6c")
    assert not state.revolution
    assert state.record()["moves"] == ["5s 5h 5d 5c", "6s 6h 6d 6c"]
    assert shedkit.replay(state.record()).order == normal


def _revolution_deal(game: President) -> State:
    state = play(table(["5s 5h 5d 5c", "3s"], game), "5s 5h 5d 5c")
    assert state.is_over and state.revolution
    return state


def test_pre_14_order_resets_every_deal() -> None:
    game = make(players=2)
    assert game.options.revolution_persists is False
    setup = game.match_setup(1, _revolution_deal(game))
    assert game.new_deal(seed=2, **setup).revolution is False


def test_pre_14_option_revolution_persists() -> None:
    game = make(players=2, revolution_persists=True)
    setup = game.match_setup(1, _revolution_deal(game))
    nxt = game.new_deal(seed=2, **setup)
    assert nxt.revolution is True
    assert shedkit.replay(nxt.record()).revolution is True


# -- joker -------------------------------------------------------------------------


JOKER_GAME = make(players=3, jokers=1)


def test_pre_15_joker_single_cannot_be_beaten_by_a_single() -> None:
    state = play(table(["Jk 3c 4c", "Ks Kh 2s", "Qd Qh As"], JOKER_GAME), "Jk")
    assert legal(state) == {"pass"}
    assert_illegal(state, "Ks")
    # Even under a revolution nothing beats it.
    rev = play(table(["5s 5h 5d 5c 9s", "Ks As", "Jk Qd"], JOKER_GAME), "5s 5h 5d 5c")
    play(rev, "pass", "pass", "9s", "pass", "Jk")
    assert legal(rev) == {"pass"}
    # The joker may be played on any single.
    state = play(table(["Ks 3c", "Jk 4h", "Qd 5d"], JOKER_GAME), "Ks")
    assert legal(state) == {"pass", "Jk"}


def test_pre_15_joker_alone_is_only_a_single() -> None:
    state = play(table(["Ks Kh 3c", "Jk 4h", "Qd 5d"], JOKER_GAME), "Ks Kh")
    assert legal(state) == {"pass"}


def test_pre_16_joker_stands_in_for_the_card_it_replaces() -> None:
    state = table(["4h Jk 6h 9s 9d 9c", "Ks", "Qs"], JOKER_GAME)
    leads = legal(state)
    assert {"4h Jk=5h 6h", "9s Jk=9h", "9s Jk=9h 9d", "9s Jk=9h 9d 9c", "Jk"} <= leads
    run = JOKER_GAME.parse_move("4h Jk=5h 6h")
    assert run.kind == "run" and run.joker_as == 4 * 4 + 1 and run.has_joker
    assert JOKER_GAME.parse_move("4h Jk 6h") == run  # the only gap is implied
    assert JOKER_GAME.parse_move("6h 4h Jk=5h") == run
    with pytest.raises(InvalidMoveError, match="joker"):
        JOKER_GAME.parse_move("4h 5h Jk")  # either end: the player must say which


def test_pre_16_the_joker_keeps_the_card_its_player_names() -> None:
    state = table(["5h Jk 9s", "Ks", "Qs"], JOKER_GAME)
    pairs = {m for m in legal(state) if "Jk=5" in m}
    # Any card of the face not already in the play, each its own move, written in order.
    assert pairs == {"Jk=5s 5h", "5h Jk=5d", "5h Jk=5c"}
    move = JOKER_GAME.parse_move("5h Jk=5d")
    assert str(move) == "5h Jk=5d" and move.joker_as == 4 * 4 + 2
    play(state, "5h Jk=5d")
    record = state.record()
    assert record["moves"] == ["5h Jk=5d"]
    assert str(shedkit.replay(record).history[0][1]) == "5h Jk=5d"
    # Unnamed in a set the suit changes nothing, so the lowest free one is taken.
    assert str(JOKER_GAME.parse_move("5h Jk")) == "Jk=5s 5h"


def test_pre_16_a_joker_declared_as_a_card_already_in_the_play_is_refused() -> None:
    for text in ("5h Jk=5h", "9s 9d Jk=9d", "4h 5h Jk=5h"):
        with pytest.raises(InvalidMoveError, match="already in this play"):
            JOKER_GAME.parse_move(text)


def test_pre_16_a_run_with_a_joker_is_beaten_by_a_higher_run_of_the_same_length() -> None:
    state = table(["4h Jk 6h 2c", "5s 6s 7s 8s", "4d 5d 6d Qc"], JOKER_GAME)
    play(state, "4h Jk=5h 6h")
    assert legal(state) == {"pass", "5s 6s 7s", "6s 7s 8s"}
    assert_illegal(state, "5s 6s 7s 8s")
    play(state, "pass")
    assert legal(state) == {"pass"}  # 4d-5d-6d only ties the joker run's top (6)
    assert_illegal(state, "4d 5d 6d")


def test_pre_16_a_joker_completed_quad_starts_a_revolution() -> None:
    state = table(["9s 9d 9c Jk 3h", "Ks", "Qs"], JOKER_GAME)
    play(state, "9s 9d 9c Jk=9h")
    assert state.last_play is not None and state.last_play.kind == "quad"
    assert state.revolution


def test_pre_17_an_unbeaten_joker_play_passes_the_lead_to_the_next_player() -> None:
    state = play(table(["Jk 3c 4c", "Ks Kh", "Qd Qh"], JOKER_GAME), "Jk", "pass", "pass")
    assert state.last_play is None and state.current_player == 1
    pair = play(table(["9s Jk 3c", "4d 5d", "Qd Qh"], JOKER_GAME), "9s Jk=9h", "pass", "pass")
    assert pair.current_player == 1


def test_pre_17_a_beaten_joker_play_leaves_the_normal_rule() -> None:
    state = table(["9s Jk 3c", "Ts Th 4d", "Qd 5h"], JOKER_GAME)
    play(state, "9s Jk=9h", "Ts Th", "pass", "pass")
    assert state.last_play is None and state.current_player == 1


def test_pre_17_joker_play_going_out_passes_the_lead_on() -> None:
    state = play(table(["Jk", "Ks Kh", "Qd Qh"], JOKER_GAME), "Jk", "pass", "pass")
    assert state.finished == [0] and state.current_player == 1


# -- optional rules ----------------------------------------------------------------


EIGHTS = make(players=3, eight_stops=True)


def test_pre_18_eights_stop_the_trick_and_their_player_leads_again() -> None:
    assert make().options.eight_stops is False
    state = play(table(["8s 3c", "Ks Kh", "Qd 9h"], EIGHTS), "8s")
    assert state.last_play is None and state.current_player == 0
    run = play(table(["6h 7h 8h 3c", "9s Ts Js", "Qd 9h"], EIGHTS), "6h 7h 8h")
    assert run.last_play is None and run.current_player == 0
    # Without the option an 8 is beaten like any card.
    plain = play(table(["8s 3c", "Ks Kh", "Qd 9h"]), "8s")
    assert legal(plain) == {"pass", "Ks", "Kh"}


def test_pre_18_an_eight_going_out_gives_the_lead_to_the_next_player_in() -> None:
    state = play(table(["8s", "Ks Kh", "Qd 9h"], EIGHTS), "8s")
    assert state.finished == [0] and state.current_player == 1 and state.last_play is None


def test_pre_18_a_joker_standing_for_an_eight_stops_too() -> None:
    game = make(players=3, eight_stops=True, jokers=1)
    state = play(table(["7h Jk 9h 3c", "Ks Kh", "Qd 9c"], game), "7h Jk=8h 9h")
    assert state.last_play is None


def test_pre_19_a_joker_play_with_an_eight_gives_the_lead_to_the_next_player() -> None:
    game = make(players=3, eight_stops=True, jokers=1)
    state = play(table(["8s Jk 3c", "Ks Kh", "Qd 9h"], game), "8s Jk=8h")
    assert state.last_play is None and state.current_player == 1


# -- tax ---------------------------------------------------------------------------


def tax_deal(players: int, order: list[int], draws: list[list[int]] | None = None) -> State:
    game = make(players=players, tax=True)
    return game.new_deal(seed=11, previous_order=order, tax_draws=draws, dealer=0)


def test_pre_20_no_tax_without_the_option_or_on_the_first_deal() -> None:
    assert make().options.tax is False
    assert make().new_deal(seed=1, previous_order=[0, 1, 2, 3]).phase == "play"
    assert make(tax=True).new_deal(seed=1).phase == "play"
    assert make(tax=True).match_setup(0, None) == {}


def test_pre_20_tax_with_four_players() -> None:
    state = tax_deal(4, [2, 0, 3, 1])
    assert state.phase == "tax" and state.current_player == 2
    assert state.exchanges == [(2, 1, 2), (0, 3, 1)]
    drawn, drawn2 = state.tax_draws
    # The random cards left the loser for the giver before anything is given.
    assert set(drawn) <= set(state.dealt[1]) and set(drawn) <= set(state.hand(2))
    assert not set(drawn) & set(state.hand(1))
    assert len(state.hand(2)) == 15 and len(state.hand(1)) == 11
    gives = state.legal_moves()
    assert all(m.kind == "give" and m.size == 2 for m in gives)
    # PRE-20: two of the giver's own 13 dealt cards, never one just drawn.
    assert len(gives) == 13 * 12 // 2
    assert all(set(m.cards) <= set(state.dealt[2]) for m in gives)
    assert_illegal(state, "pass")
    give = gives[0]
    state.apply(give)
    assert set(give.cards) <= set(state.hand(1)) and len(state.hand(2)) == 13
    assert state.current_player == 0
    assert all(m.size == 1 for m in state.legal_moves())
    assert all(not set(m.cards) & set(drawn2) for m in state.legal_moves())
    state.apply(state.legal_moves()[0])
    assert [len(state.hand(s)) for s in range(4)] == [13] * 4
    assert set(drawn2) <= set(state.dealt[3]) and not set(drawn2) & set(state.hand(3))
    assert state.phase == "play" and state.current_player == 1  # after the dealer (PRE-06)


@pytest.mark.parametrize("players", [2, 3])
def test_pre_20_only_the_first_exchange_with_two_or_three_players(players: int) -> None:
    order = list(range(players))[::-1]
    state = tax_deal(players, order)
    assert state.exchanges == [(order[0], order[-1], 2)]
    state.apply(state.legal_moves()[0])
    assert state.phase == "play"


def test_pre_20_five_players_two_exchanges() -> None:
    state = tax_deal(5, [4, 3, 2, 1, 0])
    assert state.exchanges == [(4, 0, 2), (3, 1, 1)]


def test_pre_20_the_giver_gives_own_dealt_cards_never_the_ones_just_drawn() -> None:
    game = make(players=4, tax=True)
    base = game.new_deal(seed=5, dealer=0)
    loser_cards = base.dealt[3]
    state = game.new_deal(
        seed=5,
        dealer=0,
        previous_order=[0, 1, 2, 3],
        tax_draws=[list(loser_cards[:2]), [base.dealt[2][0]]],
    )
    assert set(loser_cards[:2]) <= set(state.hand(0))
    # Handing the drawn cards straight back would make the exchange a no-op.
    back = game.parse_move("give " + " ".join(card_str(c) for c in loser_cards[:2]))
    with pytest.raises(IllegalMoveError, match="PRE-20"):
        state.apply(back)
    one_back = game.parse_move(f"give {card_str(loser_cards[0])} {card_str(state.dealt[0][0])}")
    with pytest.raises(IllegalMoveError, match="not the cards just drawn"):
        state.apply(one_back)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    # A swap every time: each giver and each loser ends with a hand unlike the dealt one.
    for seat in range(4):
        assert set(state.hand(seat)) != set(state.dealt[seat])


def test_pre_20_the_tax_is_hidden_from_the_other_seats() -> None:
    state = tax_deal(4, [2, 0, 3, 1])
    give = state.legal_moves()[5]
    state.apply(give)
    drawn = set(state.tax_draws[0])
    assert state.view(0).tax_drawn == state.tax_draws[1] == state.view(3).tax_lost
    for seat in (0, 3):
        view = state.view(seat)
        assert not drawn & set(view.tax_drawn + view.tax_lost)
        seen = {c for _, _, cards in view.history for c in cards}
        assert not seen and str(view.history[0][1]) == "give (hidden)"
        visible = set(view.hand) | set(view.tax_drawn) | set(view.tax_lost) | seen
        assert not visible & (drawn | set(give.cards))
    assert set(state.view(2).tax_drawn) == drawn
    assert set(state.view(1).tax_lost) == drawn
    assert state.view(1).history[0][2] == give.cards


def test_pre_20_bad_tax_set_up_is_refused() -> None:
    game = make(tax=True)
    with pytest.raises(SetupError, match="previous_order"):
        game.new_deal(seed=1, previous_order=[0, 0, 1, 2])
    with pytest.raises(SetupError, match="tax_draws"):
        game.new_deal(seed=1, previous_order=[0, 1, 2, 3], tax_draws=[[0, 1]])


def test_pre_20_a_match_with_the_tax() -> None:
    game = make(players=4, tax=True)
    match = Match(game, seed=4, deals=4)
    agents = [make_agent("random", game, s) for s in range(4)]
    previous = None
    while not match.is_over:
        state = match.next_deal()
        if previous is None:
            assert state.phase == "play"
        else:
            order = previous.finished
            assert state.exchanges == [(order[0], order[-1], 2), (order[1], order[-2], 1)]
            assert state.phase == "tax"
        previous = play_deal(state, agents)
        match.finish_deal(previous)
    for result in match.results[1:]:
        assert [m for m in result.record["moves"][:2] if m.startswith("give")] == result.record[
            "moves"
        ][:2]
        assert shedkit.replay(result.record).record() == result.record


# -- tax style (PRE-21) ------------------------------------------------------------


def best_deal(
    hands: Sequence[str | None],
    order: list[int],
    game: President | None = None,
    revolution: bool = False,
) -> State:
    """A deal under ``tax_style = "best"`` after a deal that finished in ``order``."""
    game = game or make(players=len(hands), tax=True, tax_style="best")
    return game.new_deal(
        seed=21, hands=hands, previous_order=order, dealer=0, revolution=revolution
    )


def cards(state: State, seat: int) -> set[str]:
    return {card_str(c) for c in state.hand(seat)}


def texts(ids: Iterable[int]) -> set[str]:
    return {card_str(c) for c in ids}


def test_pre_21_option_values_default_and_preset() -> None:
    assert make().options.tax_style == "drawn"
    intl = shedkit.make("president", preset="international").options
    assert (intl.tax_style, intl.tax, intl.rank_order) == ("best", True, "two-high")
    with pytest.raises(OptionError, match=r"tax_style.*'drawn', 'best'"):
        make(tax_style="random")
    with pytest.raises(OptionError, match="tax_style"):
        make(tax_style=True)


def test_pre_21_the_best_cards_move_by_themselves() -> None:
    # Seat 3 (last) hands seat 0 (first) its two kings; seat 2 hands seat 1 its queen.
    hands = ["As 2s 3s", "Ah 2h 3h", "4c 5c Qc 6c", "7d 8d Ks 9d Kh"]
    state = best_deal(hands, [0, 1, 2, 3])
    assert state.exchanges == [(0, 3, 2), (1, 2, 1)]
    assert [texts(d) for d in state.tax_draws] == [{"Ks", "Kh"}, {"Qc"}]
    assert cards(state, 0) == {"As", "2s", "3s", "Ks", "Kh"}
    assert cards(state, 3) == {"7d", "8d", "9d"}
    assert cards(state, 1) == {"Ah", "2h", "3h", "Qc"}
    assert cards(state, 2) == {"4c", "5c", "6c"}
    # Nothing was a move: the history is empty, the first finisher is to give back.
    assert state.phase == "tax" and state.current_player == 0 and state.history == []


def test_pre_21_equal_ranks_go_by_the_suit_order_s_h_d_c() -> None:
    # Four kings: the two highest by PRE-30's order s h d c (low to high) are Kd and Kc.
    state = best_deal(["As", "Ks Kh Kd Kc 3s"], [0, 1])
    assert texts(state.tax_draws[0]) == {"Kd", "Kc"}
    state = best_deal(["As", "Ks Kh Ad 3s"], [0, 1])
    assert texts(state.tax_draws[0]) == {"Ks", "Kh"}


def test_pre_21_with_a_joker_the_joker_counts_highest() -> None:
    game = make(players=3, jokers=1, tax=True, tax_style="best")
    state = best_deal(["As", "2s", "Jk 3h Kc Qs"], [1, 0, 2], game)
    assert state.exchanges == [(1, 2, 2)]
    assert texts(state.tax_draws[0]) == {"Jk", "Kc"}
    assert cards(state, 1) == {"2s", "Jk", "Kc"}


def test_pre_21_the_order_in_force_two_high_and_revolution() -> None:
    two_high = make(players=2, tax=True, tax_style="best", rank_order="two-high")
    state = best_deal(["3s", "As 2h Kd 5c"], [0, 1], two_high)
    assert texts(state.tax_draws[0]) == {"As", "2h"}
    # A revolution carried into the deal (PRE-14) reverses the order: the low cards are best.
    lasting = make(players=2, tax=True, tax_style="best", revolution_persists=True)
    state = best_deal(["3s", "As 2h Kd 5c"], [0, 1], lasting, revolution=True)
    assert texts(state.tax_draws[0]) == {"As", "2h"}
    state = best_deal(["3s", "As 2h Kd 5c"], [0, 1], lasting)
    assert texts(state.tax_draws[0]) == {"Kd", "5c"}
    # Through a match: the previous deal's revolution sets the order of the tax.
    rev = _revolution_deal(lasting)
    nxt = lasting.new_deal(seed=2, **lasting.match_setup(1, rev))
    assert nxt.revolution is True
    assert set(nxt.tax_draws[0]) == set(nxt.sort(nxt.dealt[rev.finished[-1]])[-2:])


def test_pre_21_the_give_back_choices_are_exactly_the_legal_moves() -> None:
    state = best_deal([None] * 4, [2, 0, 3, 1])
    assert state.phase == "tax" and state.current_player == 2
    hand = state.hand(2)
    assert len(hand) == 15
    expected = {frozenset(pair) for pair in itertools.combinations(hand, 2)}
    gives = state.legal_moves()
    assert all(m.kind == "give" for m in gives)
    assert {frozenset(m.cards) for m in gives} == expected and len(gives) == len(expected)
    # The received cards are among the choices; pass and plays are not.
    assert any(set(m.cards) == set(state.tax_draws[0]) for m in gives)
    assert_illegal(state, "pass")
    with pytest.raises(IllegalMoveError, match="PRE-21"):
        state.apply(state.game.parse_move("pass"))
    state.apply(gives[0])
    assert state.current_player == 0
    one = state.legal_moves()
    assert {m.cards for m in one} == {(c,) for c in state.hand(0)} and len(one) == 14
    state.apply(one[-1])
    assert state.phase == "play" and state.current_player == 1  # after the dealer (PRE-06)
    assert [len(state.hand(s)) for s in range(4)] == [13] * 4


def test_pre_21_received_cards_may_be_given_back() -> None:
    hands = ["As 2s 3s", "Ah 2h 3h", "4c 5c Qc 6c", "7d 8d Ks 9d Kh"]
    state = best_deal(hands, [0, 1, 2, 3])
    play(state, "give Ks Kh", "give Qc")
    # Each exchange handed the best cards straight back: every hand is as dealt.
    for seat in range(4):
        assert state.hand(seat) == state.sort(state.dealt[seat])
    assert state.phase == "play"


@pytest.mark.parametrize("players", [2, 3])
def test_pre_21_only_the_first_exchange_with_two_or_three_players(players: int) -> None:
    order = list(range(players))[::-1]
    state = best_deal([None] * players, order)
    assert state.exchanges == [(order[0], order[-1], 2)]
    assert len(state.tax_draws[0]) == 2
    assert set(state.tax_draws[0]) == set(state.sort(state.dealt[order[-1]])[-2:])
    state.apply(state.legal_moves()[0])
    assert state.phase == "play"
    assert all(len(state.hand(s)) == len(state.dealt[s]) for s in range(players))


@pytest.mark.parametrize("players", [4, 5])
def test_pre_21_two_exchanges_with_four_or_five_players(players: int) -> None:
    order = list(range(players))[::-1]
    state = best_deal([None] * players, order)
    first, second, *_, second_last, last = order
    assert state.exchanges == [(first, last, 2), (second, second_last, 1)]
    assert set(state.tax_draws[0]) == set(state.sort(state.dealt[last])[-2:])
    assert set(state.tax_draws[1]) == set(state.sort(state.dealt[second_last])[-1:])
    size = state.game.options.hand_size
    assert len(state.hand(first)) == size + 2 and len(state.hand(second)) == size + 1
    state.apply(state.legal_moves()[3])
    assert all(m.size == 1 for m in state.legal_moves())
    state.apply(state.legal_moves()[0])
    assert [len(state.hand(s)) for s in range(players)] == [size] * players


def test_pre_21_exchange_partners_see_the_cards_the_others_only_counts() -> None:
    from shedkit.protocol.views import serialize_view

    state = best_deal([None] * 4, [2, 0, 3, 1])
    best = set(state.tax_draws[0])
    give = state.legal_moves()[7]
    state.apply(give)
    assert set(state.view(2).tax_drawn) == best == set(state.view(1).tax_lost)
    assert state.view(0).tax_drawn == state.tax_draws[1] == state.view(3).tax_lost
    for partner in (2, 1):
        assert state.view(partner).history[0] == (2, give, give.cards)
    for seat in (0, 3, None):
        view = state.view(seat)
        assert not best & set(view.tax_drawn + view.tax_lost)
        assert view.history[0][1] is HIDDEN_GIVE and view.history[0][2] == ()
        assert view.exchanges[0] == (2, 1, 2)  # how many, not which
        assert view.cards_left == (14, 13, 13, 12)  # the second exchange is still open
        data = serialize_view("president", view)
        seen = {c["c"] for c in data["hand"] + data["tax_drawn"] + data["tax_lost"]}
        seen |= {c["c"] for e in data["history"] for c in e["cards"]}
        assert not seen & (best | set(give.cards)) - set(view.hand)
        assert data["tax_style"] == "best"


def test_pre_21_a_record_replays_exactly() -> None:
    game = make(players=5, jokers=1, tax=True, tax_style="best")
    state = game.new_deal(seed=8, previous_order=[3, 1, 4, 0, 2])
    rng = random.Random(8)
    records = []
    while not state.is_over:
        records.append(json.loads(json.dumps(state.record())))
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    records.append(state.record())
    for record in records:
        assert record["options"]["tax_style"] == "best"
        assert "tax_draws" not in record["setup"]  # they follow from the hands
        again = shedkit.replay(record)
        assert again.record() == record
        assert again.tax_draws == state.tax_draws
    again = shedkit.replay(records[-1])
    assert again.hands == state.hands and again.history == state.history
    # A set-up naming other cards than the best ones is not a possible deal.
    bad = json.loads(json.dumps(records[-1]))
    bad["setup"]["tax_draws"] = [[0, 1], [2]]
    with pytest.raises(shedkit.RecordError, match="PRE-21"):
        shedkit.replay(bad)


def test_pre_21_a_match_with_the_best_cards_tax() -> None:
    game = shedkit.make("president", preset="international", players=4)
    match = Match(game, seed=6, deals=4)
    agents = [make_agent("random", game, s) for s in range(4)]
    previous = None
    while not match.is_over:
        state = match.next_deal()
        if previous is not None:
            order = previous.finished
            assert state.exchanges == [(order[0], order[-1], 2), (order[1], order[-2], 1)]
            assert set(state.tax_draws[0]) == set(state.sort(state.dealt[order[-1]])[-2:])
        previous = play_deal(state, agents)
        match.finish_deal(previous)
    for result in match.results[1:]:
        assert result.record is not None
        assert [m[:4] for m in result.record["moves"][:2]] == ["give", "give"]
        assert shedkit.replay(result.record).record() == result.record


def test_pre_21_drawn_stays_the_default_and_unnamed_in_records() -> None:
    state = tax_deal(4, [2, 0, 3, 1])
    record = state.record()
    assert "tax_style" not in record["options"] and "tax_draws" in record["setup"]
    # A record that does not name tax_style is "drawn", even under the preset that says
    # "best" (a record of the international preset written before PRE-21).
    game = shedkit.make("president", preset="international", tax_style="drawn")
    old = game.new_deal(seed=4, previous_order=[1, 0, 3, 2])
    old.apply(old.legal_moves()[0])
    record = json.loads(json.dumps(old.record()))
    assert record["preset"] == "international" and "tax_style" not in record["options"]
    again = shedkit.replay(record)
    assert again.game.options.tax_style == "drawn"
    assert again.record() == record and again.hands == old.hands


def test_pre_21_tax_draws_must_be_the_best_cards() -> None:
    game = make(players=2, tax=True, tax_style="best")
    hands = ["As 2s", "Ks Kh 3c"]
    state = game.new_deal(seed=1, hands=hands, previous_order=[0, 1], tax_draws=[[48, 49]])
    assert texts(state.tax_draws[0]) == {"Ks", "Kh"}
    with pytest.raises(SetupError, match="PRE-21"):
        game.new_deal(seed=1, hands=hands, previous_order=[0, 1], tax_draws=[[48, 11]])


def test_pre_21_determinize_keeps_what_each_seat_knows() -> None:
    rng = random.Random(3)
    game = make(players=4, tax=True, tax_style="best")
    position = game.tables.position

    def key(c: int) -> tuple[int, int]:
        return card_key(c, position, False)

    for seed in range(20):
        state = game.new_deal(seed=seed, previous_order=[0, 1, 2, 3], dealer=3)
        # The first finisher received the last one's best cards: the last holds only lower.
        view = state.view(0)
        for _ in range(3):
            det = game.determinize(view, rng)
            assert set(det.hand(0)) == set(state.hand(0))
            bar = min(key(c) for c in view.tax_drawn)
            assert all(key(c) < bar for c in det.hand(3))
            # Outside the second exchange, still open: its giver holds a card above all
            # of its loser's, the one handed over.
            top = max(key(c) for c in det.hand(2))
            assert any(key(c) > top for c in det.hand(1))
            assert det.tax_draws[1] and set(det.tax_draws[1]) <= set(det.hand(1))
            assert det.view(0) == view
        # The last finisher knows where its best cards went.
        view = state.view(3)
        det = game.determinize(view, rng)
        assert set(view.tax_lost) <= set(det.hand(0))
        assert det.view(3) == view


# -- notation ----------------------------------------------------------------------


def test_pre_30_card_notation() -> None:
    game = make(jokers=1)
    assert game.parse_move("Ts") == game.parse_move("10s") == game.parse_move("T♠")
    assert str(game.parse_move("10♥")) == "Th"
    assert str(game.parse_move("jk")) == "Jk"
    assert [card_str(c) for c in (0, 5, 38, 51)] == ["As", "2h", "Td", "Kc"]
    for bad in ("1s", "Tx", "Zs", "T", "Jk=Jk 3s"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(bad)


def test_pre_31_play_notation() -> None:
    game = make(jokers=1)
    assert str(game.parse_move("7c 7h")) == "7h 7c"
    assert str(game.parse_move("5s 3s 4s")) == "3s 4s 5s"
    assert str(game.parse_move("6h Jk=5h 4h")) == "4h Jk=5h 6h"
    assert str(game.parse_move("pass")) == "pass"
    assert str(game.parse_move("give 4d 3c")) == "give 3c 4d"
    for m in game.tables.moves:
        assert game.parse_move(str(m)) is m
    with pytest.raises(InvalidMoveError):
        game.parse_move("give 3c 4d 5h")


def test_pre_31_plays_are_written_in_the_order_in_force() -> None:
    state = play(table(["5s 5h 5d 5c 9s Ts Js", "Ks", "Qs"]), "5s 5h 5d 5c", "pass", "pass")
    run = state.game.parse_move("9s Ts Js")
    assert state.notation(run) == "Js Ts 9s"
    assert state.game.parse_move(state.notation(run)) is run
    play(state, state.notation(run))
    assert state.record()["moves"][-1] == "Js Ts 9s"
    assert shedkit.replay(state.record()).hands == state.hands
