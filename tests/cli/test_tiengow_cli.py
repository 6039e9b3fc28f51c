"""``shedkit play tiengow`` and ``shedkit replay`` of Tien Gow records, through piped input."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

import shedkit
from shedkit.agents import make_agent
from shedkit.cli.play_cmd import PLAYABLE
from shedkit.cli.tiengow_text import back, face, payments, row_of
from shedkit.cli.tiengow_tui import TienGowTUI
from shedkit.core.match import Match
from shedkit.core.records import load_record
from shedkit.tiengow import KIND_NAMES, PRESETS, State, TienGow
from tests.cli.helpers import match_args, run


def play_args(records: Path, *extra: str, seed: int = 3, deals: int = 2) -> list[str]:
    return match_args("tiengow", records, *extra, seed=seed, deals=deals)


def test_tiengow_is_playable() -> None:
    assert "tiengow" in PLAYABLE


# -- whole matches -------------------------------------------------------------------


def test_tg_41_watch_plays_a_whole_match_of_16_hands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["play", "tiengow", "--seed", "3", "--watch", "--records", str(tmp_path)]
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 0, err
    assert "seed 3, 16 deal(s). All seats are greedy bots." in out
    assert "Deal 16 of 16" in out and "Match over" in out and "After 16 deal(s)" in out
    assert "Your move" not in out and "You " not in out
    assert out.count("Payments (TG-30…34):") == 16
    assert "discards 1 tile face down" in out and "wins the trick" in out
    files = sorted(tmp_path.glob("deal-*.json"))
    assert len(files) == 16
    records = [load_record(p) for p in files]
    totals = [sum(r["returns"][s] for r in records) for s in range(4)]
    assert sum(totals) == 0  # TG-30
    shown = out.split("Total")[-1].split("\n")[0].split()
    assert [int(t) for t in shown] == totals
    for before, after in itertools.pairwise(records):
        assert after["setup"]["banker"] == before["winner"]  # TG-40
        kept = before["winner"] == before["setup"]["banker"]
        streak = before["setup"]["banker_streak"] + 1 if kept else 1
        assert after["setup"]["banker_streak"] == streak
    assert json.loads((tmp_path / "match.json").read_text())["game"] == "tiengow"


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "standard"])
def test_watch_under_every_preset(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, preset: str
) -> None:
    argv = ["play", "tiengow", "--watch", "--seed", "5", "--preset", preset, "--hands", "3"]
    code, out, err = run(monkeypatch, capsys, [*argv, "--records", str(tmp_path)])
    assert code == 0, err
    assert f"preset '{preset}' with hands=3" in out and "After 3 deal(s)" in out
    if preset == "ku-pai":
        assert "(open discards, TG-54)" in out


def test_a_match_with_a_human_seat_and_flags(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    extra = ("--seat", "2", "--bots", "random", "--first-banker", "2", "--banker-multiplier")
    extra += ("fixed", "--hands", "2")
    code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *extra, deals=5), "#1\n" * 400)
    assert code == 0, err
    assert "You are seat 2; the others are random bots." in out
    assert "with first_banker=2, banker_multiplier=fixed, hands=2" in out
    assert "After 2 deal(s)" in out
    assert "Your tiles (8):" in out and "Your turn: lead any combination" in out
    assert "2 You" in out and "莊 banker" in out and "Face down" in out and "Match" in out
    assert "×2 (fixed, TG-32)" in out
    assert "Units won: " in out and "Hand: " in out
    assert len(list(tmp_path.glob("deal-*.json"))) == 2


def test_bad_flags_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for extra, needle in (
        (["--combinations", "triples"], "'full', 'pairs', 'pure-pairs', 'singles'"),
        (["--slam-multiplier", "0"], "'slam_multiplier' must be at least 1"),
        (["--combinations", "singles", "--wen-supreme"], "'wen_supreme' is a pair"),
        (["--first-banker", "4"], "'first_banker' must be 'random' or a seat 0 to 3"),
        (["--seat", "4"], "--seat must be 0 to 3"),
    ):
        code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *extra), "")
        assert code == 2, extra
        assert needle in err, (extra, err)
        assert "Traceback" not in out + err


# -- what the human types --------------------------------------------------------------


def _turn(game: TienGow, state: State, human: int, typed: str) -> tuple[Any, str]:
    """One human turn on ``state`` with ``typed`` as input: (the move, the screen)."""
    agents = {s: make_agent("random", game, s) for s in range(4) if s != human}
    console = Console(file=io.StringIO(), width=200, color_system=None)
    tui = TienGowTUI(console, game, human, agents, io.StringIO(typed))
    move = tui.human_turn(state, state.view(human))
    return move, console.file.getvalue()  # type: ignore[attr-defined]


def test_tg_80_82_bad_tiles_and_combinations_when_leading() -> None:
    game = shedkit.make("tiengow", first_banker=0)
    state = game.new_deal(seed=1, hands=["6-6 6-6 4-5 1-1 2-2 1-5 2-4 1-2", None, None, None])
    typed = [
        "7-7",
        "0-3",
        "66",
        "5-5",
        "4-4 4-4 2-5",
        "6-6 1-1",
        "6-6 6-6 6-6",
        "discard 2-2",
        "discard ?? ??",
        "discard 2-2 1-5 1-2 4-5 1-1",
        "12",
        "#99",
        "4-5 6-6",
    ]
    move, screen = _turn(game, state, 0, "\n".join(typed) + "\n")
    assert str(move) == "6-6 4-5"
    for message in (
        "'7-7' is not a tile of the Chinese set (DOM-30)",
        "'0-3' is not a tile of the Chinese set (DOM-30)",
        "'66' is not a tile; write it as a-b, like 1-3 or [1|3]",
        "you do not hold 5-5",
        "you do not hold 4-4",
        "'6-6 1-1' is not a combination under these options (TG-11, TG-50)",
        "the set has two of each civil tile and one of each military tile (TG-01)",
        "the leader plays one combination face up, not discard 2-2 (TG-20)",
        "'??' is how other seats see it (TG-82)",
        "a discard has as many tiles as a trick can have, 1 to 4 under these options (TG-21)",
        "'12' is not a tile; write it as a-b",
        "'#99' is not an option; options are #1 to #11",
    ):
        assert message in screen, message
    assert "seat 0" not in screen


def test_tg_21_22_23_bad_follows_say_which_rule() -> None:
    game = shedkit.make("tiengow", first_banker=0)
    hands = ["4-5 1-1 2-2 6-6", "3-6 1-1 5-5 5-5", "1-3 2-3 1-4 3-3", "2-4 1-2 5-6 4-6"]
    state = game.new_deal(seed=1, hands=hands)
    state.apply(game.parse_move("4-5"), seat=0)
    typed = ["discard 5-5 1-1", "3-6", "5-5", "5-5 5-5", "1-1 5-5", "discard 3-6"]
    move, screen = _turn(game, state, 1, "\n".join(typed) + "\n")
    assert str(move) == "discard 3-6"
    assert "each player plays as many tiles as were led: 1 (TG-21)" in screen
    assert (
        "3-6 only equals 4-5: an equal rank never beats, the earlier play stands (TG-22); "
        "to lay it face down type: discard 3-6"
    ) in screen
    assert (
        "5-5 is civil and 4-5 military: civil and military tiles never beat each other (TG-07)"
    ) in screen
    assert "each player plays as many tiles as were led: 1 (TG-21)" in screen
    assert "'1-1 5-5' is not a combination" in screen
    assert "Your turn: beat 4-5 with a higher single, or discard 1 tile face down" not in screen
    assert "Your turn: nothing you hold beats 4-5: discard 1 tile face down" in screen
    # Pairs of another class, and a lower rank (TG-23, TG-22).
    hands = ["1-1 2-6 5-5 5-5", "6-6 4-5 1-1 3-5", "6-6 3-6 4-4 3-4", "3-3 3-3 2-5 1-3"]
    state = game.new_deal(seed=1, hands=hands)
    state.apply(game.parse_move("1-1 2-6"), seat=0)
    state.apply(game.parse_move("6-6 4-5"), seat=1)
    move, screen = _turn(game, state, 2, "4-4 3-4\n6-6 3-6\ndiscard 3-6 3-4\n")
    assert "4-4 3-4 ranks below 6-6 4-5: a beat must rank higher (TG-22)" in screen
    assert "6-6 3-6 only equals 6-6 4-5" in screen
    assert "Bot 1 beats ★" in screen and "Bot 0 leads" in screen
    hands = ["1-4 2-3 6-6 1-1", "5-5 5-5 2-2 3-3", "4-4 4-4 6-6 2-2", "3-3 1-6 1-6 2-6"]
    state = game.new_deal(seed=1, hands=hands)
    state.apply(game.parse_move("1-4 2-3"), seat=0)
    _, screen = _turn(game, state, 1, "5-5 5-5\ndiscard 2-2 3-3\n")
    assert (
        "5-5 5-5 is a civil pair: only a higher military pair beats 1-4 2-3 (TG-23); "
        "to lay them face down type: discard 5-5 5-5"
    ) in screen


def test_tg_24_nothing_beats_a_led_supreme() -> None:
    game = shedkit.make("tiengow", first_banker=0)
    state = game.new_deal(
        seed=1, hands=["2-4 1-2 5-6", "6-6 6-6 1-5", "3-6 4-5 2-2", "2-3 1-4 4-6"]
    )
    state.apply(game.parse_move("2-4 1-2"), seat=0)
    move, screen = _turn(game, state, 1, "6-6 6-6\ndiscard 6-6\ndiscard 1-5 6-6\n")
    assert "Your turn: nothing beats a led Supreme (TG-24): discard 2 tiles face down" in screen
    assert "nothing beats a led Supreme: discard (TG-24)" in screen
    assert "each player plays as many tiles as were led: 2 (TG-21)" in screen
    assert str(move) == "discard 6-6 1-5"


def test_tg_28_an_early_death_beat_is_refused_and_the_forced_discard_told() -> None:
    game = shedkit.make("tiengow")
    hands = ["2-3", "1-2", "4-5", "6-6"]
    # The spec's case 7: last trick, seats 2 and 3 have no unit; s0 leads 2-3.
    state = game.new_deal(seed=1, hands=hands, units=[3, 4, 0, 0], banker=1, leader=0)
    state.apply(game.parse_move("2-3"), seat=0)
    state.apply(game.parse_move("discard 1-2"), seat=1)
    _, screen = _turn(game, state, 2, "4-5\n")
    assert (
        "you have won no trick: you must discard on this last trick (TG-28); "
        "to lay it face down type: discard 4-5"
    ) in screen
    assert (
        "Your turn: you have won no trick: discard 1 tile face down (early death, TG-28)" in screen
    )
    # In play the only legal move is made for the human, with the rule said.
    state = game.new_deal(seed=1, hands=hands, units=[3, 4, 0, 0], banker=1, leader=0)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    agents = {s: make_agent("greedy", game, s) for s in (0, 1, 3)}
    tui = TienGowTUI(console, game, 2, agents, io.StringIO(""))
    assert tui.play_deal(state)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "You discard 4-5 face down  (your only legal move)" in text
    assert "Early death (TG-28): you have won no trick, so you may not beat" in text
    assert "Bot 0 wins the last trick and the hand (TG-27)." in text


def test_tg_53_a_discard_that_must_follow_suit_is_refused() -> None:
    game = shedkit.make("tiengow", preset="dominorules", first_banker=0)
    state = game.new_deal(seed=1, hands=["4-5 1-1", "3-6 6-6", "2-6 5-5", "1-2 2-2"])
    state.apply(game.parse_move("4-5"), seat=0)
    state.apply(game.parse_move("discard 3-6"), seat=1)
    move, screen = _turn(game, state, 2, "discard 5-5\n6-6\ndiscard 2-6\n")
    assert "you hold a tile of the led suit: you must play one" in screen
    assert "(TG-53)" in screen
    assert "you do not hold 6-6" in screen
    assert str(move) == "discard 2-6"


# -- drawing and paying -----------------------------------------------------------------


def _style_at(text: Text, offset: int) -> str:
    """The style of the character at ``offset`` of a drawn row."""
    return " ".join(str(s.style) for s in text.spans if s.start <= offset < s.end)


def test_tiles_are_drawn_with_their_pips_suit_and_name() -> None:
    kind = {name: k for k, name in enumerate(KIND_NAMES)}
    heaven = face(kind["6-6"])
    assert [t.plain for t in heaven] == [
        "╭─6-6─╮",
        "│●   ●│",
        "│●   ●│",
        "│●   ●│",
        "│     │",
        "│●   ●│",
        "│●   ●│",
        "│●   ●│",
        "╰─文──╯",
    ]
    # Red pips: the ones and fours, and one column of each six of the double six.
    assert "red" in _style_at(heaven[1], 1) and "white" in _style_at(heaven[1], 5)
    five = face(kind["1-4"])
    assert [t.plain for t in five][1:4] == ["│     │", "│  ●  │", "│     │"]
    assert five[-1].plain == "╰─武──╯"
    assert "red" in _style_at(five[5], 1) and "red" in _style_at(five[2], 3)
    assert face(kind["2-2"])[1].plain == "│●   ●│" and face(kind["2-2"])[7].plain == "│●   ●│"
    assert back()[0].plain == "╭─ ? ─╮" and back(kind["2-2"])[0].plain == "╭─2-2─╮"
    assert row_of([face(0), back()]).plain.splitlines()[0] == "╭─6-6─╮ ╭─ ? ─╮"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_tg_30_34_61_64_payments_add_up_to_the_returns(preset: str) -> None:
    import random

    game = shedkit.make("tiengow", preset=preset)
    rng = random.Random(7)
    for seed in range(60):
        state = game.new_deal(seed=seed, banker_streak=1 + seed % 3)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
        view = state.view(None)
        lines, chips = payments(view, ["S0", "S1", "S2", "S3"])
        assert [c + b for c, b in zip(chips, view.bonus, strict=True)] == list(view.returns)
        assert len(lines) == 3


def test_tg_63_the_capture_is_told() -> None:
    # The spec's case 9 (b): s0 leads the last 1-2, s2 catches it with 2-4.
    game = shedkit.make("tiengow", preset="hong-kong")
    hands = ["1-2", "1-1", "2-4", "2-2"]
    state = game.new_deal(seed=1, hands=hands, units=[2, 3, 2, 0], banker=1, leader=0)
    for text in ("1-2", "discard 1-1", "2-4", "discard 2-2"):
        state.apply(game.parse_move(text))
    lines, chips = payments(state.view(None), ["S0", "S1", "S2", "S3"])
    assert chips == [-36, 0, 36, 0] == state.returns()
    assert "S0 led the last 1-2 and was caught (TG-63): pays 9 × 4 = 36" in lines
    assert "S3 (0 units) owes S2 5 (no unit), paid by S0" in lines


def test_tg_64_a_special_hand_wins_at_once_and_is_shown() -> None:
    game = shedkit.make("tiengow", preset="hong-kong", first_banker=1)
    # No red end (no half showing 1 or 4): factor 4.
    hands = ["6-6 6-6 5-5 5-5 3-3 3-3 2-2 2-2", None, None, None]
    state = game.new_deal(seed=2, hands=hands)
    assert state.is_over and state.special == (0, 4)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    agents = {s: make_agent("greedy", game, s) for s in (1, 2, 3)}
    tui = TienGowTUI(console, game, 0, agents, io.StringIO(""))
    match = Match(game, deals=3)
    tui.totals = match.totals
    tui.start_deal(state)
    tui.show_deal_end(state, match.finish_deal(state), match)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "You win at once with a special hand (TG-64), factor 4:" in text
    assert "╭─6-6─╮ ╭─6-6─╮ ╭─5-5─╮" in text
    assert "Bot 1 pays You 5 × 4 (special hand) × 2 (banker) = 40 (TG-64)" in text
    assert "Bot 2 pays You 5 × 4 (special hand) = 20 (TG-64)" in text
    assert "Hand: You +80, Bot 1 -40, Bot 2 -20, Bot 3 -20" in text
    assert "You become the banker for the next hand (TG-40); 2 hand(s) left (TG-41)." in text


# -- replays -------------------------------------------------------------------------------


def test_replay_of_a_tiengow_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(monkeypatch, capsys, play_args(tmp_path, "--watch"))
    path = sorted(tmp_path.glob("deal-*.json"))[0]
    record = load_record(path)
    alone = tmp_path / "alone" / path.name
    alone.parent.mkdir()
    alone.write_bytes(path.read_bytes())
    code, out, err = run(monkeypatch, capsys, ["replay", str(alone)])
    assert code == 0, err
    banker = record["setup"]["banker"]
    assert f"Seat {banker} (banker ×2)" in out and "Tien Gow, preset 'standard'" in out
    assert f"  1. Seat {banker} leads {record['moves'][0]}" in out
    discards = [m for m in record["moves"] if m.startswith("discard")]
    assert discards and f"discards {discards[0][len('discard ') :]} face down" in out
    assert "Units won: " in out and "Returns: " in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"], "\nq\n")
    assert code == 0 and out.count("[Enter] next move") == 2 and "Bot " in out
    code, out, err = run(monkeypatch, capsys, ["replay", str(tmp_path)])
    assert code == 0, err
    assert "Tien Gow match in" in out and "Totals after 2 deal(s)" in out


def test_a_seats_own_record_does_not_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = shedkit.make("tiengow")
    state = game.new_deal(seed=4)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    path = tmp_path / "seat.json"
    path.write_text(json.dumps(state.record(1)), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 2
    assert "seat 1's record" in err and "Traceback" not in out + err
