"""Hypothesis fuzzing of ``parse_move`` (DDZ-50/51): only InvalidMoveError escapes."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit import InvalidMoveError

GAMES = [shedkit.make("doudizhu", preset=p) for p in ("standard", "de-wikipedia", "four-player")]
STATE = GAMES[0].new_deal(seed=1, hands=[None, None, None], landlord=0)

move_like = st.text(alphabet="3456789TJQKA2BRtjqkabr10+: pasbidqu_lr", max_size=30)


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=40), move_like), st.sampled_from(GAMES))
def test_ddz_51_parse_never_raises_anything_else(
    text: str, game: shedkit.doudizhu.DouDizhu
) -> None:
    try:
        move = game.parse_move(text)
    except InvalidMoveError:
        return
    assert game.parse_move(str(move)) == move


@settings(max_examples=300, deadline=None)
@given(move_like)
def test_ddz_51_parse_with_state(text: str) -> None:
    with contextlib.suppress(InvalidMoveError):
        GAMES[0].parse_move(text, STATE)
