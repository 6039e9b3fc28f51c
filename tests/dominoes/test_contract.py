"""The game contract for Dominoes: metadata, dense action ids, clear errors, unchanged states."""

from __future__ import annotations

from typing import Any

import pytest

import shedkit
from shedkit import IllegalMoveError, OptionError
from shedkit.dominoes import PRESETS, SetupError

from .helpers import deal, play

OPTIONS: list[dict[str, Any]] = [
    {},
    {"players": 2, "variant": "block"},
    {"players": 3, "variant": "fives", "max_pips": 9},
    {"players": 6, "max_pips": 12},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_metadata_and_dense_action_ids(options: dict[str, Any]) -> None:
    game = shedkit.make("dominoes", **options)
    info = game.info
    assert info.name == "dominoes" and info.num_players == game.num_players
    assert info.chance and info.hidden_information and not info.zero_sum
    assert info.min_score == 0 < info.max_score and info.num_actions == game.num_actions
    moves = [game.action_to_move(i) for i in range(game.num_actions)]
    assert [m.action_id for m in moves] == list(range(game.num_actions))
    assert len(set(moves)) == len({str(m) for m in moves}) == game.num_actions
    assert [str(m) for m in moves[:3]] == ["pass", "draw", "0-0"]
    for m in moves:
        assert game.parse_move(str(m)) is m
    ends = 4 if options.get("variant") == "fives" else 2
    assert game.num_actions == 2 + game.tables.num_tiles * (1 + ends)


def test_every_preset_builds() -> None:
    for preset in PRESETS:
        assert shedkit.make("dominoes", preset=preset).info.num_players >= 2
    with pytest.raises(OptionError, match="all-fives, block"):
        shedkit.make("dominoes", preset="mexican-train")


@pytest.mark.parametrize(
    ("name", "value", "hint"),
    [
        ("variant", "muggins", "'draw', 'block', 'fives'"),
        ("first_player", "oldest", "'highest-double', 'draw'"),
        ("spinner_opens", "never", "'after-both-sides', 'immediately'"),
        ("target", 0, "at least 1"),
        ("partners", "yes", "bad value"),
    ],
)
def test_bad_options(name: str, value: object, hint: str) -> None:
    with pytest.raises(OptionError) as info:
        shedkit.make("dominoes", **{name: value})
    assert hint in str(info.value)


@pytest.mark.parametrize("bad", [-1, 10**6, "7", None, 1.5])
def test_bad_action_ids(bad: object) -> None:
    with pytest.raises(IllegalMoveError, match="action id"):
        shedkit.make("dominoes").action_to_move(bad)  # type: ignore[arg-type]


def test_illegal_moves_leave_the_state_unchanged() -> None:
    game = shedkit.make("dominoes", players=2)
    state = game.new_deal(seed=1, hands=["3-6 6-6", "5-1 2-6"], boneyard="")
    before = state.record()
    for text, why in [("3-6", "led with 6-6"), ("6-6@L", "first tile is played alone")]:
        with pytest.raises(IllegalMoveError, match=why):
            play(state, text)
    with pytest.raises(IllegalMoveError, match="seat 0's turn"):
        state.apply(state.legal_moves()[0], seat=1)
    with pytest.raises(IllegalMoveError, match="not a Dominoes move"):
        state.apply("6-6")  # type: ignore[arg-type]
    assert state.record() == before
    play(state, "6-6")
    for text, why in [
        ("6-6@L", "does not hold 6-6"),
        ("2-6", "say the end"),
        ("pass", "may not pass"),
        ("1-5@L", "does not match the 6 at end L"),
    ]:
        with pytest.raises(IllegalMoveError, match=why):
            state.apply(game.parse_move(text))
    assert state.record()["moves"] == ["6-6"]
    play(state, "2-6@L", "3-6@R")
    assert state.ends[:2] == (2, 3)


def test_moves_after_the_end_are_refused() -> None:
    state = deal(["6-6", "0-1"], boneyard="")
    play(state, "6-6")
    with pytest.raises(IllegalMoveError, match="over"):
        play(state, "pass")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hands": ["6-6", "6-6"]}, "already placed"),
        ({"hands": ["6-6 6-6", None]}, "twice"),
        ({"hands": ["6-6"]}, "must list 2 hands"),
        ({"hands": ["7-7", None]}, "halves 0 to 6"),
        ({"hands": [[99], None]}, "not a tile"),
        ({"hands": ["", None]}, "at least one tile"),
        ({"leader": 5}, "leader must be a seat"),
        ({"leader": 0, "lead_tile": 99}, "not in the hand"),
        ({"lead_tile": 3}, "needs a leader"),
        ({"seed": "x"}, "seed must be an integer"),
    ],
)
def test_bad_setups(kwargs: dict[str, Any], match: str) -> None:
    game = shedkit.make("dominoes", players=2)
    with pytest.raises(SetupError, match=match):
        game.new_deal(**{"seed": 1, **kwargs})


def test_views_reject_bad_seats() -> None:
    state = shedkit.make("dominoes").new_deal(seed=1)
    for bad in (-1, 4, True):
        with pytest.raises(ValueError, match="seat"):
            state.view(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="spectator"):
        state.game.determinize(state.view(None), __import__("random").Random(1))
