"""The game contract for Tien Gow: metadata, dense action ids, clear errors, pickling."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import shedkit
from shedkit import IllegalMoveError, InvalidMoveError, OptionError
from shedkit.tiengow import PRESETS, SetupError, TienGow

from .helpers import game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_metadata_and_dense_action_ids(preset: str) -> None:
    g = game(preset)
    info = g.info
    assert info.name == "tiengow" and info.num_players == 4
    assert info.chance and info.hidden_information and info.zero_sum
    assert info.min_score == -info.max_score < 0
    assert info.num_actions == g.num_actions and info.max_game_length == 32
    assert info.match_target is None
    moves = [g.action_to_move(i) for i in range(g.num_actions)]
    assert [m.action_id for m in moves] == list(range(g.num_actions))
    assert len(set(moves)) == len({str(m) for m in moves}) == g.num_actions
    for m in moves:
        assert g.parse_move(str(m)) is m
    # Plays first, singles first; then discards by size.
    assert moves[0].kind == "single" and moves[-1].is_discard
    sizes = [m.size for m in moves if m.is_discard]
    assert sizes == sorted(sizes) and sizes[-1] == g.tables.max_size


def test_action_counts_are_computed_per_options() -> None:
    counts = {p: game(p).num_actions for p in PRESETS}
    assert counts["ku-pai"] == 21 + 21  # singles and one-tile discards
    assert counts["ancient"] < counts["standard"] < counts["dominorules"]


@pytest.mark.parametrize(
    ("name", "value", "hint"),
    [
        ("combinations", "triples", "'full', 'pairs', 'pure-pairs', 'singles'"),
        ("banker_multiplier", "double", "'increasing', 'fixed', 'none'"),
        ("first_banker", 7, "seat 0 to 3"),
        ("hands", 0, "at least 1"),
        ("target", -3, "at least 1"),
        ("slam_multiplier", 0, "at least 1"),
        ("quad_finish_multiplier", 0, "at least 1"),
        ("supreme_bonus", -2, "0 or more"),
        ("yao_capture_multiplier", -1, "0 or more"),
        ("early_death", "yes", "true or false"),
        ("zero_trick_payment", 2.5, "integer"),
    ],
)
def test_bad_options(name: str, value: object, hint: str) -> None:
    with pytest.raises(OptionError) as err:
        shedkit.make("tiengow", **{name: value})
    assert hint in str(err.value) and "tiengow" in str(err.value)


def test_every_preset_builds_and_options_override_it() -> None:
    for preset in PRESETS:
        assert isinstance(game(preset), TienGow)
    assert game("hong-kong", supreme_bonus=0).options.supreme_bonus == 0
    with pytest.raises(OptionError, match="did you mean 'hong-kong'"):
        game("hongkong")


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"hands": ["6-6", "5-5 5-5", None, None]}, "as many tiles"),
        ({"hands": ["6-6", None, None]}, "must list 4 hands"),
        ({"hands": ["9-9", None, None, None]}, "not a tile"),
        ({"banker": 4}, "banker must be a seat"),
        ({"leader": "0"}, "leader must be a seat"),
        ({"banker_streak": 0}, "banker_streak"),
        ({"units": [1, 0, 0, 0]}, "units"),
        ({"hands": ["6-6", None, None, None], "units": [5, 2, 1, 0]}, "at most 7"),
        ({"direction": 0}, "direction"),
    ],
)
def test_bad_set_ups_are_setup_errors(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        game().new_deal(seed=1, **setup)


def test_illegal_moves_change_nothing_and_say_why() -> None:
    g = game(first_banker=0)
    state = g.new_deal(seed=2, hands=["6-6 6-6", "5-5 5-5", "4-4 4-4", "1-3 1-3"])
    before = state.record()
    for text, why in [
        ("5-5", "TG-20"),
        ("4-4 4-4", "TG-20"),
    ]:
        with pytest.raises(IllegalMoveError, match=why):
            state.apply(g.parse_move(text))
    assert state.record() == before
    with pytest.raises(IllegalMoveError, match="not a move under these options"):
        state.apply(game("hong-kong").parse_move("1-5 1-5"))
    with pytest.raises(InvalidMoveError, match="two of each civil tile"):
        g.parse_move("6-6 6-6 6-6")
    with pytest.raises(InvalidMoveError, match="empty move"):
        g.parse_move("discard")


def test_pickled_game_state_view_and_tables() -> None:
    g = game("hong-kong")
    state = g.new_deal(seed=5)
    for _ in range(5):
        if not state.is_over:
            state.apply(state.legal_moves()[-1])
    assert pickle.loads(pickle.dumps(state)).record() == state.record()
    assert pickle.loads(pickle.dumps(g.tables)) is g.tables
    seat = state.current_player
    assert pickle.loads(pickle.dumps(state.view(seat))) == state.view(seat)


def test_clone_is_independent() -> None:
    state = game().new_deal(seed=3)
    copy = state.clone()
    state.apply(state.legal_moves()[0])
    assert copy.history == [] and copy.record()["moves"] == []
    assert state.opens_trick() is False and not state.thrown_in and state.finishing_order() == []
