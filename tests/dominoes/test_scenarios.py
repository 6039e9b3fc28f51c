"""Scripted scoring scenarios: domino, blocked, void, All Fives rounding (DOM-09, DOM-10, DOM-24).

Each hand is fixed (``hands=``) with a fixed, here empty, boneyard, so every
number below is worked out by hand from the rules.
"""

from __future__ import annotations

import pytest

from .helpers import deal, play


@pytest.mark.parametrize(
    ("loser", "pips", "points"),
    [
        ("6-6 0-1", 13, 15),  # remainder 3 rounds up
        ("6-6 0-2", 14, 15),  # remainder 4 rounds up
        ("5-6", 11, 10),  # remainder 1 rounds down
        ("6-6 0-0", 12, 10),  # remainder 2 rounds down
        ("5-5 0-0", 10, 10),
    ],
)
def test_dom_24_domino_rounding(loser: str, pips: int, points: int) -> None:
    state = deal(["1-2", loser], boneyard="", variant="fives")
    play(state, "1-2")  # count 3: nothing scored during play
    assert state.end_reason == "domino" and state.pips(1) == pips
    assert state.returns() == [points, 0]


@pytest.mark.parametrize(
    ("hands", "points"),
    [
        (["1-2 0-3", "6-6 5-5"], 20),  # 22 - 3 = 19: remainder 4 rounds up
        (["1-2 0-4", "6-6 4-4"], 15),  # 20 - 4 = 16: remainder 1 rounds down
        (["1-2 0-0", "6-6 0-6"], 20),  # 18 - 0 = 18: remainder 3 rounds up
        (["1-2 0-0", "6-6"], 10),  # 12 - 0 = 12: remainder 2 rounds down
    ],
)
def test_dom_24_blocked_rounding(hands: list[str], points: int) -> None:
    state = deal(hands, boneyard="", variant="fives")
    play(state, "1-2")
    assert state.end_reason == "blocked" and state.winner == 0
    assert state.returns() == [points, 0]


def test_dom_09_domino_without_partners() -> None:
    state = deal(["6-6 6-5", "5-1 2-2", "5-4 0-0"], boneyard="")
    play(state, "6-6", "pass", "pass", "5-6@R")
    # seat 1 holds 6 + 4 pips, seat 2 holds 9 + 0: seat 0 scores both hands.
    assert state.end_reason == "domino" and state.returns() == [19, 0, 0]


def test_dom_09_domino_with_partners_by_the_partner() -> None:
    state = deal(["6-6 0-0", "1-1", "6-2", "3-3"], boneyard="")
    play(state, "6-6", "pass", "2-6@R")
    # Seat 2 went out: its team scores 0 (partner) + 2 + 6 (opponents).
    assert state.returns() == [8, 0, 8, 0]


def test_dom_10_blocked_clear_winner_three_players() -> None:
    state = deal(["6-6 0-1", "2-3 4-4", "5-5"], boneyard="", variant="block")
    play(state, "6-6")
    # Seat 0 has 1 pip; the others 13 and 10: it scores 23 - 1.
    assert state.end_reason == "blocked" and state.returns() == [22, 0, 0]


def test_dom_10_blocked_tie_voids_even_with_a_third_seat_behind() -> None:
    state = deal(["6-6 0-3", "1-2", "5-5"], boneyard="", variant="block")
    play(state, "6-6")
    assert state.winner is None and state.returns() == [0, 0, 0]


def test_dom_10_blocked_team_tie_voids() -> None:
    state = deal(["6-6 0-1", "0-2", "0-3", "1-1"], boneyard="", variant="block")
    play(state, "6-6")
    # seats 0+2: 1 + 3; seats 1+3: 2 + 2.
    assert state.side_pips() == [4, 4] and state.returns() == [0, 0, 0, 0]


def test_dom_23_in_play_points_go_to_the_team() -> None:
    state = deal(["5-5 2-3", "5-0 1-1", "0-0 4-4", "6-6 0-4"], boneyard="", variant="fives")
    play(state, "5-5", "0-5@L", "0-0@L")
    # 5-5 alone: 10 (seat 0); 0 + 10: 10 (seat 1); the double 0-0 at L adds 0: 10 (seat 2).
    assert not state.is_over and state.scores() == [20, 10, 20, 10]
