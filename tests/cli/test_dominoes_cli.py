"""``shedkit play dominoes`` and ``shedkit replay`` of Dominoes records, through piped input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import shedkit
from shedkit.agents import make_agent
from shedkit.cli.dominoes_tui import DominoesTUI, line_rows, score_line
from shedkit.cli.play_cmd import PLAYABLE
from shedkit.core.records import load_record
from shedkit.dominoes import Dominoes, Line
from tests.cli.helpers import match_args, run


def play_args(records: Path, *extra: str, seed: int = 3, deals: int = 2) -> list[str]:
    return match_args("dominoes", records, *extra, seed=seed, deals=deals)


def test_dominoes_is_playable() -> None:
    assert "dominoes" in PLAYABLE


@pytest.mark.parametrize(
    "flags",
    [
        ["--players", "4"],
        ["--players", "4", "--variant", "fives", "--bots", "random"],
        ["--players", "2", "--max-pips", "9"],
        ["--players", "3", "--variant", "block"],
    ],
    ids=" ".join,
)
def test_full_match(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    flags: list[str],
) -> None:
    code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *flags), "#1\n" * 3000)
    assert code == 0, err
    assert "Scores after 2 deal(s)" in out and "Match over" in out
    assert "Open ends: L" in out and "Boneyard: " in out and "Your tiles (" in out
    assert "Pips left: You" in out
    if "fives" in flags:
        assert "count " in out and "Count " in out
    if flags[1] == "4":
        assert "Partners: You and Bot 2 against Bot 1 and Bot 3." in out
    files = sorted(tmp_path.glob("deal-*.json"))
    assert len(files) == 2
    first, second = (load_record(p) for p in files)
    assert second["setup"]["leader"] == (first["setup"]["leader"] + 1) % int(flags[1])  # DOM-05
    for record in (first, second):
        assert shedkit.replay(record).returns() == record["returns"]


def test_target_flag_sets_the_game_target(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = play_args(tmp_path, "--players", "2", "--target", "30", deals=0)
    code, out, err = run(monkeypatch, capsys, argv, "#1\n" * 5000)
    assert code == 0, err
    assert "first to 30" in out and "First to 30 wins the match (DOM-11)" in out
    totals = out.split("Total")[-1].split("\n")[0]
    assert any(int(t.strip("+")) >= 30 for t in totals.split())
    assert load_record(sorted(tmp_path.glob("deal-*.json"))[0])["options"]["target"] == 30


def test_typed_moves_and_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = ["", "?", "9-9", "xyz", "#99", "moves", "table", "quit"]
    code, out, err = run(
        monkeypatch,
        capsys,
        play_args(tmp_path, "--players", "2", deals=1),
        "\n".join(script) + "\n",
    )
    assert code == 0, err
    assert "Type a move, or # and a number from the list" in out
    assert "the double-6 set has halves 0 to 6" in out
    assert "'xyz' is not a tile" in out
    assert "#99" in out and "is not an option" in out
    assert "Quit. No deal was finished, so no record was saved." in out


def test_bad_flags_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for extra, needle in (
        (["--players", "7"], "'players' must be 2 to 6"),
        (["--variant", "muggins"], "'draw', 'block', 'fives'"),
        (["--players", "3", "--partners", "true"], "needs 4 players"),
        (["--max-pips", "8"], "6, 9, 12"),
    ):
        code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *extra), "")
        assert code == 2, extra
        assert needle in err
        assert "Traceback" not in out + err


def test_replay_of_a_dominoes_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(monkeypatch, capsys, play_args(tmp_path, "--players", "2"), "#1\n" * 2000)
    path = sorted(tmp_path.glob("deal-*.json"))[0]
    record = load_record(path)
    # Alone, away from its match folder's names: the seats are numbered.
    alone = tmp_path / "alone" / path.name
    alone.parent.mkdir()
    alone.write_bytes(path.read_bytes())
    code, out, _ = run(monkeypatch, capsys, ["replay", str(alone)])
    assert code == 0
    assert "Boneyard " in out and "(leads)" in out
    assert f"  1. Seat {record['setup']['leader']} leads {record['moves'][0]}" in out
    assert "Returns: " in out and "Pips left: " in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"], "\nq\n")
    assert code == 0 and out.count("[Enter] next move") == 2
    # The file name is shown as written, not read as Rich markup.
    odd = path.with_name("deal[bold].json")
    path.rename(odd)
    code, out, err = run(monkeypatch, capsys, ["replay", str(odd)])
    assert code == 0, err
    assert "deal[bold].json" in out


# -- drawing the line and scripted hands -------------------------------------------------


def test_dom_06_dom_22_line_doubles_crosswise_and_spinner_arms() -> None:
    line = Line(main=((3, 5), (5, 5), (5, 2)), spinner=1, up=((5, 1),), down=((5, 0), (0, 0)))
    rows = line_rows(line)
    assert rows == [
        "      U▲ [5|1]",
        "       5",
        "[3|5]  *  [5|2]",
        "       5",
        "      D▼ [5|0] [0|0]",
    ]
    plain = line_rows(Line(main=((1, 2), (2, 6))))
    assert plain == ["[1|2] [2|6]"]
    long = Line(main=tuple((i % 7, (i + 1) % 7) for i in range(30)))
    wide = line_rows(long, width=60)
    assert " … " in wide[0] and len(wide[0]) <= 60
    assert wide[0].startswith("[0|1]") and wide[0].endswith("[1|2]")


def client(game: Dominoes, stdin: str) -> tuple[DominoesTUI, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None)
    agents = {s: make_agent("greedy", game, s) for s in range(1, game.num_players)}
    return DominoesTUI(console, game, 0, agents, io.StringIO(stdin)), out


def test_scripted_hand_with_draws_and_a_tile_alone() -> None:
    game: Dominoes = shedkit.make("dominoes", players=2)
    state = game.new_deal(seed=1, hands=["6-6 1-6 0-0", "2-3 4-4"], boneyard="0-1 5-6 2-5")
    tui, out = client(game, "1-6\n1\n" * 20)
    assert tui.play_deal(state)
    text = out.getvalue()
    assert "You hold 6-6, the highest, and lead it." in text
    assert "You lead 6-6  (your only legal move)" in text
    assert text.count("Bot 1 draws from the boneyard") == 2
    assert "Bot 1 plays 5-6 on" in text
    assert "You play 1-6 on" in text
    assert state.is_over


def test_dom_11_a_match_plays_to_the_target_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["play", "dominoes", "--seed", "2", "--records", str(tmp_path), "--players", "4"]
    code, out, err = run(monkeypatch, capsys, argv, "#1\n" * 5000)
    assert code == 0, err
    assert "first to 100" in out and "Match over" in out
    totals = [int(t.strip("+")) for t in out.split("Total")[-1].split("\n")[0].split()]
    assert max(totals) >= 100 and len(list(tmp_path.glob("deal-*.json"))) > 1


@pytest.mark.parametrize("preset", ["standard", "block", "all-fives", "two-player"])
def test_dom_09_10_24_the_score_line_adds_up_to_the_hand_score(preset: str) -> None:
    game = shedkit.make("dominoes", preset=preset)
    for seed in range(12):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            state.apply(state.legal_moves()[-1], seat=state.current_player)
        view = state.view(None)
        line = score_line(game, view, [f"Seat {s}" for s in range(game.num_players)], None)
        if view.winner is None:
            assert "nobody scores" in line
            continue
        side = [s for s in range(game.num_players) if game.side_of[s] == view.winner]
        during = sum(h[3] for h in view.history if h[0] in side)
        numbers = [int(w) for w in line.replace(",", " ").split() if w.isdigit()]
        end_score = view.returns[side[0]] - during
        if preset == "all-fives":
            assert "rounded to" in line or "(a multiple of 5)" in line
            assert end_score in numbers and end_score % 5 == 0
        else:
            assert numbers[-1] == end_score
        assert ("went out" in line) == (view.end_reason == "domino")
        if game.teams and view.end_reason == "domino":
            partner = "the partner's included" if preset != "all-fives" else "not the partner's"
            assert partner in line
