"""Hypothesis fuzzing of Tien Gow's ``parse_move`` (TG-80…82): only InvalidMoveError escapes."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit import InvalidMoveError
from shedkit.tiengow import TienGow

GAMES: list[TienGow] = [
    shedkit.make("tiengow"),
    shedkit.make("tiengow", preset="hong-kong", two_pairs=True),
    shedkit.make("tiengow", preset="ku-pai"),
]
STATE = GAMES[0].new_deal(seed=1)

move_like = st.text(alphabet="0123456789-|[] ,?discardDISCARD", max_size=30)
tiles = st.builds(
    lambda a, b, style: style.format(a, b),
    st.integers(0, 7),
    st.integers(0, 7),
    st.sampled_from(["{}-{}", "[{}|{}]", "{}|{}", "{}{}", "[{}-{}"]),
)
tile_lists = st.lists(tiles, max_size=5).map(" ".join)


@settings(max_examples=800, deadline=None)
@given(
    st.one_of(st.text(max_size=40), move_like, tile_lists, tile_lists.map("discard ".__add__)),
    st.sampled_from(GAMES),
)
def test_tg_81_parse_never_raises_anything_else(text: str, game: TienGow) -> None:
    try:
        move = game.parse_move(text)
    except InvalidMoveError:
        return
    assert game.parse_move(str(move)) is move
    assert move is game.action_to_move(move.action_id)


@settings(max_examples=300, deadline=None)
@given(st.one_of(move_like, tile_lists))
def test_tg_81_parse_with_state(text: str) -> None:
    with contextlib.suppress(InvalidMoveError):
        GAMES[0].parse_move(text, STATE)
