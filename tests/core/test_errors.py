"""Bad input gets a clear error and leaves the state unchanged."""

from __future__ import annotations

import json

import pytest

import shedkit
from shedkit import IllegalMoveError, OptionError, RecordError
from shedkit.core.records import load_record, save_record


def test_unknown_game_names_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="doudizhu"):
        shedkit.make("mahjong")


def test_unknown_preset_names_the_valid_ones() -> None:
    with pytest.raises(OptionError, match=r"de-wikipedia.*four-player.*standard"):
        shedkit.make("doudizhu", preset="texas")


def test_unknown_option_names_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="pass_is_final"):
        shedkit.make("doudizhu", pass_is_finale=True)


@pytest.mark.parametrize(
    ("name", "value", "hint"),
    [
        ("spring", "sometimes", "'standard', 'any_player', 'off'"),
        ("players", 5, "3, 4"),
        ("pass_is_final", "yes", "true or false"),
        ("first_bidder", 2, "'random', 'rotate'"),
    ],
)
def test_bad_option_values(name: str, value: object, hint: str) -> None:
    with pytest.raises(OptionError) as info:
        shedkit.make("doudizhu", **{name: value})
    assert hint in str(info.value)


def test_illegal_and_out_of_turn_moves_leave_the_state_unchanged() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=4, first_bidder=0)
    before = state.record()
    with pytest.raises(IllegalMoveError, match="seat 0's turn"):
        state.apply(game.parse_move("bid1"), seat=1)
    with pytest.raises(IllegalMoveError, match="auction"):
        state.apply(game.parse_move("7"))
    state.apply(game.parse_move("bid2"))
    with pytest.raises(IllegalMoveError, match="does not raise"):
        state.apply(game.parse_move("bid1"))
    assert state.record()["moves"] == ["bid2"]
    assert before["moves"] == []
    with pytest.raises(IllegalMoveError):
        state.apply("bid3")  # type: ignore[arg-type]


def test_moves_after_the_end_are_refused() -> None:
    state = shedkit.make("doudizhu").new_deal(seed=1, hands=["3", "4", "5"], landlord=0)
    state.apply(state.legal_moves()[0])
    assert state.is_over
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(shedkit.make("doudizhu").parse_move("pass"))


DOUDIZHU_BREAKS = [
    lambda r: r.pop("game"),
    lambda r: r.update(game="chess"),
    lambda r: r.update(options={"bogus": 1}),
    lambda r: r.update(moves="bid3"),
    lambda r: r["moves"].append("bid9"),
    lambda r: r["moves"].insert(0, "77"),
    lambda r: r["setup"]["hands"][0].append(r["setup"]["hands"][1][0]),
    lambda r: r.update(returns=[1, 2, 3]),
    lambda r: r.pop("setup"),
    lambda r: r.update(seed="x"),
]
DOMINOES_BREAKS = [
    lambda r: r.pop("setup"),
    lambda r: r.update(moves="6-6"),
    lambda r: r["moves"].append("0-0@L"),
    lambda r: r["moves"].insert(0, "draw"),
    lambda r: r["setup"].update(leader=9),
    lambda r: r["setup"]["hands"][0].append(r["setup"]["hands"][1][0]),
    lambda r: r.update(returns=[1, 2, 3, 4]),
    lambda r: r.update(options={"players": 9}),
    lambda r: r["moves"].__setitem__(0, "[9|9]"),
]


@pytest.mark.parametrize(
    ("name", "mutate"),
    [("doudizhu", m) for m in DOUDIZHU_BREAKS] + [("dominoes", m) for m in DOMINOES_BREAKS],
)
def test_malformed_records_raise_record_error(name: str, mutate: object) -> None:
    game = shedkit.make(name)
    state = game.new_deal(seed=9)
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    record = json.loads(json.dumps(state.record()))
    mutate(record)  # type: ignore[operator]
    with pytest.raises(RecordError):
        shedkit.replay(record)


def test_record_files(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    state = shedkit.make("doudizhu").new_deal(seed=2)
    path = save_record(state.record(), tmp_path / "deal.json")
    assert shedkit.replay(load_record(path)).record() == state.record()
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(RecordError, match="does not hold a record"):
        load_record(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "broken.json")
    with pytest.raises(RecordError):
        shedkit.replay([1, 2])  # type: ignore[arg-type]
