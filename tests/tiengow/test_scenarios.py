"""The nine worked "Test cases" of ``rules/tiengow.md``, one test (or more) each.

Hands are given at the start of the trick and seats play in order from the
leader, as the specification writes them; unless a case says otherwise the
options are the defaults and the trick is not the hand's last.
"""

from __future__ import annotations

import pytest

from shedkit.tiengow import settle
from shedkit.tiengow.options import Options

from .helpers import beats, discards, game, legal, play, table

CASE_1 = ["4-5 1-1", "3-6 6-6", "2-6 1-2", "5-5 2-2"]


def test_case_1_equal_ranks_and_suits() -> None:
    """TG-06, TG-07, TG-22: nobody beats a led 4-5; every follower discards one tile."""
    state = play(table(CASE_1), "4-5")
    assert legal(state) == {"discard 6-6", "discard 3-6"}
    play(state, "discard 3-6")
    assert legal(state) == {"discard 2-6", "discard 1-2"}
    play(state, "discard 1-2")
    assert legal(state) == {"discard 5-5", "discard 2-2"}
    play(state, "discard 5-5")
    assert state.tricks == [(0, 0, 1)] and state.current_player == 0


def test_case_1_with_must_follow_suit() -> None:
    """TG-53: s1 must discard its military 3-6; s2's tiles are both military; s3 is free."""
    state = play(table(CASE_1, must_follow_suit=True), "4-5")
    assert legal(state) == {"discard 3-6"}
    play(state, "discard 3-6")
    assert legal(state) == {"discard 2-6", "discard 1-2"}
    play(state, "discard 2-6")
    assert legal(state) == {"discard 5-5", "discard 2-2"}
    play(state, "discard 2-2")
    assert state.tricks == [(0, 0, 1)]


CASE_2 = ["2-2 5-6 1-6", "1-3 3-3 2-3", "5-5 4-6 1-5", "1-3 1-4 2-5"]


def test_case_2_civil_order_and_beating_the_current_high() -> None:
    """TG-05, TG-21: each beat must top the current high, not just the lead."""
    state = play(table(CASE_2), "2-2")
    assert beats(state) == {"1-3", "3-3"}
    play(state, "3-3")
    assert beats(state) == {"5-5"}
    play(state, "5-5")
    assert beats(state) == {"1-3"}
    play(state, "1-3")
    assert state.tricks == [(0, 3, 1)] and state.current_player == 3


def test_case_2_an_equal_tile_does_not_beat() -> None:
    """Had s1 played 1-3, nobody could beat it: s3's 1-3 only equals it."""
    state = play(table(CASE_2), "2-2", "1-3")
    assert beats(state) == set()
    play(state, "discard 1-5")
    assert beats(state) == set()
    play(state, "discard 2-5")
    assert state.tricks == [(0, 1, 1)]


def test_case_3_mixed_pairs() -> None:
    """Combination table, TG-22, TG-23: 6-6 4-5 beats 1-1 2-6; 1-1 3-5 only equals it."""
    hands = ["1-1 2-6 5-5 5-5", "6-6 4-5 1-1 3-5", "6-6 3-6 4-4 3-4", "3-3 3-3 2-5 1-3"]
    state = play(table(hands), "1-1 2-6")
    assert beats(state) == {"6-6 4-5"}
    play(state, "6-6 4-5")
    assert beats(state) == set()
    play(state, "discard 4-4 3-4")
    assert beats(state) == set()
    assert "discard 3-3 3-3" in discards(state)
    play(state, "discard 2-5 1-3")
    assert state.tricks == [(0, 1, 2)] and state.units == [0, 2, 0, 0]


CASE_4 = ["2-4 1-2 5-6", "6-6 6-6 1-5", "3-6 4-5 2-2", "2-3 1-4 4-6"]


def test_case_4a_a_led_supreme() -> None:
    """TG-24: the other three must discard two tiles each; the leader wins."""
    state = play(table(CASE_4), "2-4 1-2")
    for _ in range(3):
        seat = state.current_player
        assert seat is not None and beats(state) == set()
        tiles = sorted(state.game.tile_str(t) for t in state.hand(seat))
        pairs = {f"discard {a} {b}" for i, a in enumerate(tiles) for b in tiles[i + 1 :]}
        assert {" ".join(sorted(d.split()[1:])) for d in discards(state)} == {
            " ".join(sorted(p.split()[1:])) for p in pairs
        }
        state.apply(state.legal_moves()[0])
    assert state.tricks == [(0, 0, 2)] and state.units == [2, 0, 0, 0]


def test_case_4b_a_supreme_after_the_lead_beats_nothing() -> None:
    """TG-24: s3's fives are lower, s0's Supreme beats nothing, s1's 6-6 6-6 is another class."""
    state = play(table(CASE_4, leader=2), "3-6 4-5")
    assert state.current_player == 3 and beats(state) == set()
    play(state, "discard 2-3 1-4")
    assert beats(state) == set() and "discard 2-4 1-2" in discards(state)
    play(state, "discard 2-4 1-2")
    assert beats(state) == set()
    play(state, "discard 6-6 6-6")
    assert state.tricks == [(2, 2, 2)]


@pytest.mark.parametrize("triplet_match", ["composition", "civil-guarded"])
def test_case_5a_triples(triplet_match: str) -> None:
    """TG-22, TG-51: a military triple never beats a civil triple; a higher civil one does."""
    hands = ["4-4 4-4 2-5", "6-6 3-6 4-5", "1-1 1-1 2-6", "6-6 1-3 1-3"]
    state = play(table(hands, triplet_match=triplet_match), "4-4 4-4 2-5")
    assert beats(state) == set()
    play(state, "discard 6-6 3-6 4-5")
    assert beats(state) == {"1-1 1-1 2-6"}
    play(state, "1-1 1-1 2-6")
    assert beats(state) == set()
    play(state, "discard 6-6 1-3 1-3")
    assert state.winner == 2 and state.units == [0, 0, 3, 0]


CASE_5B = ["1-3 1-4 2-3", "6-6 6-6 3-6", "1-1 2-6 3-5", "5-5 5-5 2-2"]


def test_case_5b_composition() -> None:
    """TG-51 default: only a higher military triple beats a military triple."""
    state = play(table(CASE_5B), "1-3 1-4 2-3")
    assert beats(state) == set()
    play(state, "discard 6-6 6-6 3-6")
    assert beats(state) == {"1-1 2-6 3-5"}
    play(state, "1-1 2-6 3-5", "discard 5-5 5-5 2-2")
    assert state.winner == 2


def test_case_5b_civil_guarded() -> None:
    """TG-51 ``civil-guarded``: s1's civil triple beats the military one, then s2 cannot."""
    state = play(table(CASE_5B, triplet_match="civil-guarded"), "1-3 1-4 2-3")
    assert beats(state) == {"6-6 6-6 3-6"}
    play(state, "6-6 6-6 3-6")
    assert beats(state) == set()
    play(state, "discard 1-1 2-6 3-5", "discard 5-5 5-5 2-2")
    assert state.winner == 1


def test_case_6_quad() -> None:
    """TG-22: a higher family's quad beats; the others discard four tiles; 16 tiles, 4 units."""
    hands = ["1-1 1-1 2-6 3-5", "6-6 6-6 3-6 4-5", "4-4 4-4 2-5 3-4", "5-5 5-5 1-3 1-3"]
    state = play(table(hands), "1-1 1-1 2-6 3-5")
    assert beats(state) == {"6-6 6-6 3-6 4-5"}
    play(state, "6-6 6-6 3-6 4-5")
    assert beats(state) == set()
    play(state, "discard 4-4 4-4 2-5 3-4")
    assert beats(state) == set()
    play(state, "discard 5-5 5-5 1-3 1-3")
    assert state.winner == 1 and state.units == [0, 4, 0, 0]
    won = sum(size * 4 for _, winner, size in state.tricks if winner == 1)
    assert won == 16


CASE_7 = ["2-3", "1-2", "4-5", "6-6"]


def test_case_7_early_death() -> None:
    """TG-28: s2 has no unit, so on this single-tile last trick it may only discard."""
    state = play(table(CASE_7, banker=1, units=[3, 4, 0, 0]), "2-3", "discard 1-2")
    assert legal(state) == {"discard 4-5"}
    play(state, "discard 4-5", "discard 6-6")
    assert state.winner == 0 and state.units == [4, 4, 0, 0]
    assert state.returns() == [10, 0, -5, -5]


def test_case_7_without_early_death() -> None:
    """TG-28 off: s2 beats and wins the hand with one unit."""
    state = table(CASE_7, banker=1, units=[3, 4, 0, 0], early_death=False)
    play(state, "2-3", "discard 1-2")
    assert legal(state) == {"4-5", "discard 4-5"}
    play(state, "4-5", "discard 6-6")
    assert state.winner == 2 and state.units == [3, 4, 1, 0]
    assert state.returns() == [-1, 0, 6, -5]


def test_case_8a_settlement_banker_loses() -> None:
    """TG-31, TG-32: the banker (m = 2) pays 3 x 2; s2 refunds s1 one chip."""
    assert settle(Options(), [1, 5, 2, 0], winner=2, banker=0, streak=1) == [-6, 1, 10, -5]
    state = table(["5-5", "6-6", "1-1", "2-2"], leader=2, banker=0, units=[1, 5, 1, 0])
    play(state, "1-1", "discard 2-2", "discard 5-5", "discard 6-6")
    assert state.units == [1, 5, 2, 0] and state.returns() == [-6, 1, 10, -5]


def test_case_8b_settlement_banker_keeps_the_bank() -> None:
    """TG-32: a banker in its second hand in a row has m = 3: 9 + 9 + 15; fixed m = 2: 22."""
    assert settle(Options(), [6, 1, 1, 0], winner=0, banker=0, streak=2) == [33, -9, -9, -15]
    fixed = Options(banker_multiplier="fixed")
    assert settle(fixed, [6, 1, 1, 0], winner=0, banker=0, streak=2)[0] == 22
    state = table(["6-6", "5-5", "2-2", "1-3"], banker=0, streak=2, units=[5, 1, 1, 0])
    play(state, "6-6", "discard 5-5", "discard 2-2", "discard 1-3")
    assert state.returns() == [33, -9, -9, -15]


def test_case_8c_slam() -> None:
    """TG-33: all 8 units double every payment; slam_multiplier = 1 turns it off."""
    assert settle(Options(), [0, 0, 8, 0], winner=2, banker=0, streak=1) == [-20, -10, 40, -10]
    plain = Options(slam_multiplier=1)
    assert settle(plain, [0, 0, 8, 0], winner=2, banker=0, streak=1) == [-10, -5, 20, -5]
    state = table(["5-5", "2-2", "6-6", "1-3"], leader=2, banker=0, units=[0, 0, 7, 0])
    play(state, "6-6", "discard 1-3", "discard 5-5", "discard 2-2")
    assert state.returns() == [-20, -10, 40, -10]


def test_case_8d_refund_to_a_losing_banker_is_not_multiplied() -> None:
    """TG-32's exception: W refunds the banker 1, not 1 x m."""
    assert settle(Options(), [5, 2, 1, 0], winner=1, banker=0, streak=1) == [1, 7, -3, -5]
    state = table(["5-5", "6-6", "2-2", "1-3"], leader=1, banker=0, units=[5, 1, 1, 0])
    play(state, "6-6", "discard 2-2", "discard 1-3", "discard 5-5")
    assert state.returns() == [1, 7, -3, -5]


CASE_9A = ["1-5 1-5 2-4", "6-6 6-6 3-3", "1-6 1-6 5-6", "2-2 3-3 4-6"]


def test_case_9a_default_a_pair_of_1_5_is_the_lowest_civil_pair() -> None:
    """TG-60 off: 6-6 6-6 beats 1-5 1-5, and 1-6 1-6 cannot beat that."""
    state = play(table(CASE_9A, banker=3), "1-5 1-5")
    assert beats(state) == {"6-6 6-6"}
    play(state, "6-6 6-6")
    assert beats(state) == set()
    play(state, "discard 1-6 1-6", "discard 2-2 3-3")
    assert state.tricks == [(0, 1, 2)] and state.bonus == [0, 0, 0, 0]


def test_case_9a_hong_kong_capture_and_bonus() -> None:
    """TG-60, TG-61: the Civil Supreme stands against 6-6 6-6, 1-6 1-6 captures it, and the
    capturer at once receives 2 from s0, 2 from s1 and 4 from the banker s3 (m = 2)."""
    state = play(table(CASE_9A, banker=3, preset="hong-kong"), "1-5 1-5")
    assert beats(state) == set()
    play(state, "discard 6-6 6-6")
    assert beats(state) == {"1-6 1-6"}
    play(state, "1-6 1-6")
    assert beats(state) == set()
    play(state, "discard 2-2 3-3")
    assert state.tricks == [(0, 2, 2)]
    assert state.bonus == [-2, -2, 8, -4] and state.scores() == [-2, -2, 8, -4]


CASE_9B = ["1-2", "1-1", "2-4", "2-2"]


@pytest.mark.parametrize(
    ("preset", "returns"), [("standard", [-2, -2, 9, -5]), ("hong-kong", [-36, 0, 36, 0])]
)
def test_case_9b_capture_of_a_led_1_2(preset: str, returns: list[int]) -> None:
    """TG-63: under "hong-kong" the captured leader pays (2 + 2 + 5) x 4 for everyone."""
    state = table(CASE_9B, banker=1, units=[2, 3, 2, 0], preset=preset)
    play(state, "1-2", "discard 1-1", "2-4", "discard 2-2")
    assert state.winner == 2 and state.units == [2, 3, 3, 0]
    assert state.returns() == returns
    assert game(preset).options.yao_capture_multiplier == (4 if preset == "hong-kong" else 0)
