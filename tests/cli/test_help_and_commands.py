"""``shedkit --help``, ``shedkit play --help``, ``--watch``, ``replay`` of a folder, extras."""

from __future__ import annotations

import dataclasses
import importlib
import json
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
    for command in ("play GAME", "replay PATH", "serve", "arena"):
        assert f"\n  {command}" in out


@pytest.mark.parametrize("game", ["doudizhu", "president", "dominoes"])
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


@pytest.mark.parametrize("game", ["doudizhu", "president", "dominoes"])
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
