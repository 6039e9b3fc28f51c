"""``shedkit --help``, ``shedkit play --help``, ``--watch``, ``replay`` of a folder, extras."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import match_args, run


def test_tool_help_describes_the_tool_and_each_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["--help"])
    assert code == 0
    assert "shedkit plays and studies shedding games" in out
    for command in ("rules", "play", "replay", "serve", "arena", "bot"):
        # Each command once, in the one list of commands.
        assert len(re.findall(rf"^    {command} ", out, re.M)) == 1, command


@pytest.mark.parametrize("game", ["doudizhu", "president", "dominoes", "tiengow"])
def test_play_help_describes_every_option_and_preset_of_each_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["play", "--help"])
    assert code == 0
    flat = " ".join(out.split())
    assert "a value" not in flat
    options = importlib.import_module(f"shedkit.{game}.options")
    for f in dataclasses.fields(options.Options):
        text = f.metadata["help"]
        assert text, f"{game}.{f.name} has no help"
        if f.name != "target":  # --target is the match flag of the same name
            assert f"--{f.name.replace('_', '-')}" in flat
            assert f"[{game}] {text}" in flat
    for name in options.PRESETS:
        assert f"{name} {options.PRESET_HELP[name]}" in flat


@pytest.mark.parametrize("game", ["doudizhu", "president", "dominoes", "tiengow"])
def test_watch_plays_a_bot_only_match_without_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    argv = [*match_args(game, tmp_path, "--watch", seed=2, deals=2)]
    code, out, err = run(monkeypatch, capsys, argv, "")
    assert code == 0, err
    assert "All seats are greedy bots." in out
    assert "Your move" not in out and "You " not in out
    assert "Match over" in out
    assert len(list(tmp_path.glob("deal-*.json"))) == 2


def test_replay_of_a_match_folder_names_players_and_the_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = match_args("president", tmp_path, "--bots", "random", seed=7, deals=2)
    code, played, err = run(monkeypatch, capsys, argv, "#1\n" * 2000)
    assert code == 0, err
    info = json.loads((tmp_path / "match.json").read_text())
    assert info["seed"] == 7 and info["names"][0] == "You"
    code, out, err = run(monkeypatch, capsys, ["replay", str(tmp_path)])
    assert code == 0, err
    assert "match seed 7" in out and "2 deal(s)" in out
    assert "Players: 0 You, 1 Bot 1 (random)" in out
    assert out.count("Replay deal-") == 2
    assert "Totals after 2 deal(s):" in out
    # The totals agree with the match as played.
    final = played.split("Total")[-1].split("\n")[0].split()
    assert [int(t) for t in final] == [
        int(part.split()[-1]) for part in out.split("Totals after 2 deal(s): ")[1].split(",")
    ]
    # A single deal file still replays.
    code, out, _ = run(monkeypatch, capsys, ["replay", str(tmp_path / "deal-0001.json")])
    assert code == 0 and "Replay" in out


def test_replay_of_a_folder_without_records_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(monkeypatch, capsys, ["replay", str(tmp_path)])
    assert code == 2 and "holds no deal records" in err


def test_a_missing_extra_prints_the_install_hint_with_its_brackets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # None in sys.modules makes the import fail as if the extra were not installed.
    monkeypatch.setitem(sys.modules, "shedkit.server.run", None)
    code, _, err = run(monkeypatch, capsys, ["serve"])
    assert code == 2
    assert "pip install 'shedkit[server]'" in err
    monkeypatch.setitem(sys.modules, "openskill", None)
    code, _, err = run(monkeypatch, capsys, ["arena", "doudizhu", "--agents", "greedy"])
    assert code == 2
    assert "pip install 'shedkit[arena]'" in err


def shedkit(*argv: str) -> subprocess.CompletedProcess[str]:
    """The installed ``shedkit`` console script, run as a user runs it."""
    script = Path(sys.executable).with_name("shedkit")
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [str(script), *argv], capture_output=True, text=True, timeout=120, env=env, check=False
    )


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["play", "doudizhu", "--level", "hard"], "did you mean --bots?"),
        (["play", "president", "--seeed", "3"], "did you mean --seed?"),
        (["arena", "doudizhu", "--agents", "greedy,random", "--bots", "x"], "--agents"),
        (["serve", "--prot", "80"], "did you mean --port?"),
    ],
)
def test_a_wrong_flag_names_the_nearest_one(argv: list[str], meant: str) -> None:
    done = shedkit(*argv)
    assert done.returncode == 2
    command = argv[0]
    assert f"shedkit {command}: unknown flag {argv[-2]}" in done.stderr
    assert meant in done.stderr
    assert f"'shedkit {command} --help'" in done.stderr
    # One line, not the top-level usage.
    assert "usage:" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_play_help_for_one_game_lists_its_options_only() -> None:
    done = shedkit("play", "doudizhu", "--help")
    assert done.returncode == 0
    flat = " ".join(done.stdout.split())
    assert "--pass-is-final" in flat and "rules options of doudizhu" in flat
    # President's and Dominoes' options and presets are not there.
    assert "--eight-stops" not in flat and "--spinner" not in flat
    assert "international" not in flat
    whole = shedkit("play", "--help").stdout
    assert len(done.stdout.splitlines()) < len(whole.splitlines()) / 2 + 5


def test_arena_takes_the_rules_option_flags_of_play(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    argv = ["arena", "president", "--agents", "greedy,random", "--deals", "1"]
    done = shedkit(*argv, "--players", "5", "--no-progress", "--out", str(out))
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["options"]["players"] == 5


def test_rules_long_text_goes_through_the_pager_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console, PagerContext
    from rich.pager import Pager

    from shedkit.cli.rules_cmd import _show

    paged: list[str] = []

    class Noted(Pager):
        def show(self, content: str) -> None:
            paged.append(content)

    console = Console(force_terminal=True, width=80, height=30)

    def pager(styles: bool = False) -> PagerContext:
        return Console.pager(console, pager=Noted(), styles=styles)

    monkeypatch.setattr(console, "pager", pager)
    _show("# DDZ\n\n" + "\n\n".join(f"line {i}" for i in range(80)), console)
    assert paged and "line 79" in paged[0]
    paged.clear()
    with console.capture() as captured:
        _show("# DDZ\n\nshort", console)
    assert not paged and "short" in captured.get()


def test_replays_speak_to_you_and_name_the_seats(tmp_path: Path) -> None:
    records = tmp_path / "match"
    argv = ["play", "doudizhu", "--seed", "3", "--deals", "1", "--records", str(records)]
    script = Path(sys.executable).with_name("shedkit")
    played = subprocess.run(
        [str(script), *argv, "--delay", "0", "--pass-is-final"],
        input="#1\n" * 300,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    # The header names the rules in force: the preset and what the flags changed.
    assert "preset 'standard' with pass_is_final=yes" in played.stdout
    one = shedkit("replay", str(records / "deal-0001.json")).stdout
    whole = shedkit("replay", str(records)).stdout
    for out in (one, whole):
        # A file of a match folder replays with the players' names, as the folder does.
        assert "Seat 1" not in out and "Bot 1 (greedy" in out
        assert "You bid first." in out and "1. You pass" in out
        assert not re.search(r"\bYou (bids|passes|plays|is|takes|wins|leads|goes)\b", out)
        assert "(greedy) (" not in out


def test_quitting_before_a_deal_ends_saves_nothing_and_says_so(tmp_path: Path) -> None:
    records = tmp_path / "never"
    argv = ["play", "president", "--players", "4", "--records", str(records)]
    script = Path(sys.executable).with_name("shedkit")
    done = subprocess.run(
        [str(script), *argv], input="", capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "No deal was finished, so no record was saved." in done.stdout
    assert "saved in" not in done.stdout and not records.exists()


def test_president_titles_and_dominoes_teams_read_in_english(tmp_path: Path) -> None:
    pre = shedkit(
        "play",
        "president",
        "--watch",
        "--deals",
        "1",
        "--seed",
        "4",
        "--records",
        str(tmp_path / "p"),
        "--players",
        "4",
    )
    assert pre.returncode == 0, pre.stderr
    # PRE-11: the titles in the English terminal are English.
    assert "President" in pre.stdout and "Slave" in pre.stdout
    assert not re.search(r"Presidente|Schiavo|Cittadino", pre.stdout)
    script = Path(sys.executable).with_name("shedkit")
    argv = ["play", "dominoes", "--players", "4", "--partners", "true", "--deals", "1"]
    dom = subprocess.run(
        [str(script), *argv, "--seed", "4", "--records", str(tmp_path / "d"), "--delay", "0"],
        input="#1\n" * 200,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "(greedy, team B)" in dom.stdout and ") (team" not in dom.stdout


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["play", "doudizu"], "unknown game 'doudizu' (did you mean 'doudizhu'?)"),
        (["play", "doudizhu", "--preset", "stadard"], "(did you mean 'standard'?)"),
        (["play", "doudizhu", "--bots", "hrad"], "unknown bots 'hrad' (did you mean 'hard'?)"),
        (["play", "doudizhu", "--spring", "of"], "not 'of' (did you mean 'off'?)"),
        (["play", "doudizhu", "--option", "pass_is_finl=1"], "(did you mean 'pass_is_final'?)"),
        (["arena", "presidnt", "--agents", "greedy,random"], "(did you mean 'president'?)"),
        (["arena", "doudizhu", "--agents", "greedy,rando"], "(did you mean 'random'?)"),
        (["rules", "dominos"], "(did you mean 'dominoes'?)"),
    ],
)
def test_a_wrong_value_names_the_nearest_one(argv: list[str], meant: str) -> None:
    done = shedkit(*argv)
    assert done.returncode == 2
    assert meant in done.stderr and len(done.stderr.splitlines()) == 1


def test_serve_help_shows_the_hosting_defaults() -> None:
    done = shedkit("serve", "--help")
    assert done.returncode == 0
    flat = " ".join(done.stdout.split())
    for shown in (
        "--host HOST address to listen on (default: 127.0.0.1)",
        "--port PORT port; 0 lets the system pick a free one, shown once bound (default: 8000)",
        "before moving (default: 0.6)",
        "plays for it (default: 20.0)",
        "tables this server hosts at most (default: 1000)",
    ):
        assert shown in flat, shown


def test_rules_piped_are_plain_text_and_help_lists_each_command_once() -> None:
    done = shedkit("rules", "president")
    assert done.returncode == 0
    assert "\nPRE-16 · " in done.stdout
    assert not re.search(r"^#+ |\*\*|`|\{#|\x1b", done.stdout, re.M)
    top = shedkit("--help").stdout
    for command in ("rules", "play", "replay", "serve", "arena", "bot"):
        assert len(re.findall(rf"^    {command} ", top, re.M)) == 1, command


def test_a_missing_or_bad_argument_is_one_line_with_the_nearest_flag() -> None:
    done = shedkit("bot", "connect", "http://127.0.0.1:9", "--tabel", "x", "--seat", "0")
    assert done.returncode == 2
    assert "--tabel is not a flag here; did you mean --table?" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "usage:" not in done.stderr
    nested = shedkit(
        "bot",
        "connect",
        "http://127.0.0.1:9",
        "--table",
        "x",
        "--seat",
        "0",
        "--namee",
        "y",
        "--",
        "prog",
    )
    assert "shedkit bot connect: unknown flag --namee; did you mean --name?" in nested.stderr
    bad = shedkit("play", "doudizhu", "--seed", "x")
    assert bad.returncode == 2 and "invalid int value: 'x'" in bad.stderr
    assert len(bad.stderr.splitlines()) == 1
