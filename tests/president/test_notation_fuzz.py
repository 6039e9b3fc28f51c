"""Hypothesis fuzzing of President's ``parse_move`` (PRE-30/31): only InvalidMoveError escapes."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit import InvalidMoveError
from shedkit.president import President

GAMES: list[President] = [
    shedkit.make("president"),
    shedkit.make("president", players=5, jokers=1, rank_order="two-high"),
    shedkit.make("president", players=2, jokers=1, tax=True),
]
STATE = GAMES[1].new_deal(seed=1)

move_like = st.text(alphabet="A23456789TJQK10shdcSHDC♠♥♦♣Jk= ,pasgiv", max_size=30)
cards = st.builds(
    lambda r, s: r + s,
    st.sampled_from([*"A23456789TJQK", "10", "Jk"]),
    st.sampled_from(["s", "h", "d", "c", "♠", "♥", "", "=5h", "=Jk"]),
)
card_lists = st.lists(cards, max_size=6).map(" ".join)


@settings(max_examples=800, deadline=None)
@given(st.one_of(st.text(max_size=40), move_like, card_lists), st.sampled_from(GAMES))
def test_pre_31_parse_never_raises_anything_else(text: str, game: President) -> None:
    try:
        move = game.parse_move(text)
    except InvalidMoveError:
        return
    assert game.parse_move(str(move)) is move
    assert move is game.action_to_move(move.action_id)


@settings(max_examples=300, deadline=None)
@given(st.one_of(move_like, card_lists.map(lambda t: "give " + t)))
def test_pre_31_parse_with_state(text: str) -> None:
    with contextlib.suppress(InvalidMoveError):
        GAMES[1].parse_move(text, STATE)
