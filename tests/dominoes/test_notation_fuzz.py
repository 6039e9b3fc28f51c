"""Hypothesis fuzzing of ``parse_move`` (DOM-40/41): only InvalidMoveError escapes."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit import InvalidMoveError
from shedkit.dominoes import Dominoes

GAMES = [
    shedkit.make("dominoes"),
    shedkit.make("dominoes", variant="fives", max_pips=9),
    shedkit.make("dominoes", players=2, max_pips=12),
]
STATE = GAMES[0].new_deal(seed=1, hands=["3-5 6-6", "5-1 3-2", None, None], leader=0)
STATE.apply(GAMES[0].parse_move("3-5"))

move_like = st.text(alphabet="0123456789-|[]@LRUDlrud passdraw", max_size=20)


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=30), move_like), st.sampled_from(GAMES))
def test_dom_41_parse_never_raises_anything_else(text: str, game: Dominoes) -> None:
    try:
        move = game.parse_move(text)
    except InvalidMoveError:
        return
    assert game.parse_move(str(move)) is move
    assert game.action_to_move(move.action_id) is move


@settings(max_examples=300, deadline=None)
@given(move_like)
def test_dom_41_parse_with_state(text: str) -> None:
    with contextlib.suppress(InvalidMoveError):
        GAMES[0].parse_move(text, STATE)
