"""Bot programs (``cmd:`` agents) in the arena and the terminal: the protocol, forfeits, cleanup.

Broken bots are ``tests/arena/protocol_bot.py`` in a misbehaving mode. Every
test checks that the processes a run started are gone when it returns.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("scipy", reason="the [arena] extra is not installed")

import shedkit
from shedkit.agents import AGENTS, make_agent
from shedkit.agents import base as agents_base
from shedkit.agents.external import BotForfeit, BotLimits, ExternalAgent
from shedkit.arena import Tournament, run_tournament
from shedkit.cli.main import main
from shedkit.core.match import play_deal

ROOT = Path(__file__).resolve().parents[2]
BOT = Path(__file__).with_name("protocol_bot.py")
EXAMPLES = ROOT / "examples" / "bots"
SCHEMA = json.loads((ROOT / "docs" / "bot-protocol.schema.json").read_text("utf-8"))
# A short move limit keeps the broken bots' tests quick; no test asserts on a duration.
SHORT = {"move_time": 0.5, "startup_time": 5.0}


def bot(mode: str, pids: Path, log: Path | None = None) -> str:
    """The ``cmd:`` agent name of the test bot in ``mode``."""
    argv = [sys.executable, str(BOT), "--mode", mode, "--pids", str(pids)]
    if log is not None:
        argv += ["--log", str(log)]
    return "cmd:" + shlex.join(argv)


def alive(pid: int) -> bool:
    """True if the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def pids_in(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def assert_all_gone(path: Path) -> None:
    pids = pids_in(path)
    assert pids, "the bot never started"
    # Processes killed by a dying parent are reaped by init: allow it a moment.
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)], "a bot process was left behind"


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash3", r"crashed: it exited with status 3"),
        ("sleep2", r"timeout: no answer within 0\.5 s"),
        ("garbage2", r"bad_output: the bot wrote a line that is not JSON"),
        ("illegal2", r"illegal_move: the bot answered an illegal move 'not-a-move'"),
        ("flood2", r"flood: it wrote over 65536 bytes without a newline"),
        # The extra line is seen before the next request, or read as the next answer.
        ("chatty", r"flood: it wrote \d+ bytes nobody asked for|bad_output: .* not a 'move'"),
        ("mute", r"start_failed: (no answer within 1 s \(starting\)|not started again)"),
    ],
)
def test_a_broken_bot_forfeits_with_its_reason_and_the_run_completes(
    tmp_path: Path, mode: str, reason: str
) -> None:
    pids = tmp_path / "pids"
    name = bot(mode, pids)
    limits = {**SHORT, "startup_time": 1.0} if mode == "mute" else SHORT
    tour = Tournament(
        "doudizhu", (name, "greedy"), deals=2, seed=3, bot_logs=str(tmp_path / "logs"), **limits
    )
    results = run_tournament(tour)
    assert results["games"] == 2 * 6  # every game of the run is there
    forfeits = results["forfeits"]
    assert forfeits and {f["agent"] for f in forfeits} == {name}
    for f in forfeits:
        assert re.match(reason, f["reason"]), f["reason"]
        # The log of the process that forfeited (the folder, when none was started).
        assert tmp_path / "logs" in (Path(f["log"]), Path(f["log"]).parent)
    # A forfeit is a loss of the forfeiting side, counted once per game, never rated.
    row = results["stats"][name]["all"]
    assert row["forfeits"] == len(forfeits)
    assert row["wins"] <= row["results"] - len(forfeits)
    assert results["stats"]["greedy"]["all"]["forfeits"] == 0
    assert_all_gone(pids)
    if mode == "mute":
        # Three failed starts in a row per seat, then no more tries (a start killed before
        # it wrote its pid is not in the file).
        assert len(pids_in(pids)) <= 3 * 3
        assert any("not started again" in f["reason"] for f in forfeits)


def test_a_forfeit_scores_the_worst_the_deal_allows(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    name = bot("illegal2", pids)
    for game, options, worst in [
        ("doudizhu", {}, None),
        ("president", {"players": 5}, 5.0),
        ("dominoes", {}, 0.0),
    ]:
        tour = Tournament(
            game,
            (name, "greedy"),
            deals=1,
            seed=1,
            options=options,
            bot_logs=str(tmp_path / "logs"),
            **SHORT,
        )
        results = run_tournament(tour)
        row = results["stats"][name]["all" if game == "doudizhu" else "player"]
        assert row["wins"] == 0 and row["forfeits"] == row["results"] > 0
        if worst is not None:
            assert row["score"] == worst
        else:
            assert row["score"] <= -2.0  # a lost spring at stake 1 at least
    assert_all_gone(pids)


def test_the_report_lists_forfeits_with_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pids = tmp_path / "pids"
    argv = ["arena", "doudizhu", "--agents", bot("garbage2", pids) + ",greedy", "--deals", "1"]
    argv += ["--move-time", "0.5", "--bot-logs", str(tmp_path / "logs"), "--no-progress"]
    argv += ["--out", str(tmp_path / "r.json")]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "forfeits: 6 game(s)" in text
    assert "6 x bad_output: the bot wrote a line that is not JSON" in text
    assert json.loads((tmp_path / "r.json").read_text())["forfeits"][0]["seat"] in (0, 1, 2)
    assert_all_gone(pids)


def test_one_process_per_seat_across_deals_and_workers(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    name = bot("lowest", pids)
    tour = Tournament("president", (name, "greedy"), deals=6, seed=2, bot_logs=str(tmp_path))
    one = run_tournament(tour)
    assert one["games"] == 6 * 14 and not one["forfeits"]
    assert len(pids_in(pids)) == 4  # one per seat, kept across deals
    assert_all_gone(pids)
    two = run_tournament(tour, workers=2)
    # The bot is deterministic: the same figures on any number of workers.
    assert json.dumps(two) == json.dumps(one)
    assert len(pids_in(pids)) <= 4 + 2 * 4
    assert_all_gone(pids)


def test_bot_programs_on_ray(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    pids = tmp_path / "pids"
    tour = Tournament(
        "doudizhu", (bot("lowest", pids), "greedy"), deals=3, seed=4, bot_logs=str(tmp_path)
    )
    local = run_tournament(tour)
    assert json.dumps(run_tournament(tour, workers=2, backend="ray")) == json.dumps(local)
    broken = Tournament("doudizhu", (bot("crash3", pids), "greedy"), deals=2, seed=4, **SHORT)
    results = run_tournament(broken, workers=2, backend="ray")
    assert results["games"] == 12 and results["forfeits"]
    assert_all_gone(pids)


#: ``python -c SIGINT_DEFAULT ARGS...`` runs ``python ARGS...`` with SIGINT at its default.
SIGINT_DEFAULT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


def test_ctrl_c_leaves_no_bot_behind(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    # A shell that starts a job in the background (nohup ... &, as CI runners may) hands
    # it SIGINT ignored, and Python keeps it so: Ctrl-C would then be lost on the arena.
    # Start it as a terminal would, with SIGINT at its default (kept across exec).
    argv = [sys.executable, "-c", SIGINT_DEFAULT, "-m", "shedkit.cli.main", "arena"]
    argv += ["president", "--agents", bot("lowest", pids) + ",random", "--deals", "5000"]
    argv += ["--workers", "2", "--no-progress", "--bot-logs", str(tmp_path / "logs")]
    # Its own process group, as a terminal's job: Ctrl-C reaches the arena and its workers.
    arena = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while len(pids_in(pids)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(pids_in(pids)) >= 2
        os.killpg(arena.pid, signal.SIGINT)
        assert arena.wait(timeout=60) == 130
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
            arena.wait()
    assert_all_gone(pids)


GAMES = [("doudizhu", {}), ("president", {"players": 5}), ("dominoes", {})]


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_every_message_of_a_full_deal_fits_the_schema_and_hides_other_hands(
    tmp_path: Path, game_name: str, options: dict[str, Any]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from tests.server.test_hidden import allowed, cards_in, names_of

    validator = jsonschema.Draft202012Validator(SCHEMA)
    game = shedkit.make(game_name, **options)
    pids = tmp_path / "pids"
    logs = [tmp_path / f"seat{s}.jsonl" for s in range(2)]
    limits = BotLimits(log_dir=str(tmp_path / "logs"))
    bots = [ExternalAgent(bot("lowest", pids, logs[s]), game, s, limits) for s in range(2)]
    agents: list[Any] = [*bots, *(make_agent("greedy", game, s) for s in range(2, 5))]
    try:
        state = play_deal(game.new_deal(seed=11), agents[: game.num_players])
        for s, b in enumerate(bots):
            b.deal_end(state.view(s), 1, state.returns())
    finally:
        for b in bots:
            b.close()
    assert_all_gone(pids)
    record = state.record()
    names = names_of(game_name)
    kinds: set[str] = set()
    for seat, log in enumerate(logs):
        for line in log.read_text().splitlines():
            message = json.loads(line[2:])
            validator.validate(message)
            kinds.add(message["type"])
            if line.startswith("<"):
                may = (
                    set()
                    if "view" not in message
                    else allowed(game_name, state, record, seat, message)
                )
                leaked = cards_in(message, names) - may
                assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}"
    assert kinds == {"hello", "ready", "act", "move", "deal_end", "match_end"}


@pytest.mark.parametrize(
    ("game_name", "options", "example"),
    [
        ("doudizhu", {}, "js"),
        ("president", {"players": 5}, "python"),
        ("dominoes", {}, "c"),
        ("president", {"players": 5}, "c"),
        ("dominoes", {}, "js"),
        ("doudizhu", {}, "python"),
    ],
)
def test_the_example_bots_play_every_game(
    tmp_path: Path, game_name: str, options: dict[str, Any], example: str
) -> None:
    if example == "js":
        if shutil.which("node") is None:
            pytest.skip("Node.js is not installed")
        name = "cmd:node " + shlex.quote(str(EXAMPLES / "js" / "bot.js"))
    elif example == "c":
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            pytest.skip("no C compiler (cc or gcc) is installed")
        exe = tmp_path / "lowest"
        subprocess.run([compiler, "-O2", "-o", str(exe), str(EXAMPLES / "c" / "bot.c")], check=True)
        name = "cmd:" + shlex.quote(str(exe))
    else:
        name = "cmd:" + shlex.join([sys.executable, str(EXAMPLES / "python" / "bot.py")])
    tour = Tournament(
        game_name, (name, "greedy"), deals=2, seed=5, options=options, bot_logs=str(tmp_path)
    )
    results = run_tournament(tour)
    assert not results["forfeits"]
    role = "all" if game_name == "doudizhu" else "player"
    assert results["stats"][name][role]["results"] > 0


def test_play_in_the_terminal_with_a_bot_program(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    argv = ["play", "president", "--watch", "--bots", bot("lowest", pids), "--deals", "2"]
    argv += ["--seed", "3", "--records", str(tmp_path / "rec"), "--bot-logs", str(tmp_path)]
    assert main(argv) == 0
    assert len(pids_in(pids)) == 4
    assert_all_gone(pids)
    crash = ["play", "doudizhu", "--watch", "--bots", bot("crash3", pids), "--deals", "1"]
    crash += ["--records", str(tmp_path / "rec2"), "--bot-logs", str(tmp_path)]
    assert main(crash) == 2
    assert_all_gone(pids)


def test_agent_names_bad_and_good() -> None:
    game = shedkit.make("doudizhu")
    with pytest.raises(shedkit.OptionError, match="not found"):
        make_agent("cmd:./no-such-bot --level 3", game)
    with pytest.raises(shedkit.OptionError, match="names a program"):
        make_agent("cmd:  ", game)
    with pytest.raises(shedkit.OptionError, match="cannot read"):
        make_agent("cmd:bot 'unclosed", game)
    with pytest.raises(shedkit.OptionError, match="move time"):
        BotLimits(move_time=0)
    assert make_agent("tests.arena.plugin:FirstBot", game).name == "first"
    with pytest.raises(shedkit.OptionError, match="cannot import"):
        make_agent("tests.arena.nothing_here:Bot", game)
    with pytest.raises(shedkit.OptionError, match="has no 'Missing'"):
        make_agent("tests.arena.plugin:Missing", game)
    with pytest.raises(shedkit.OptionError, match="no act"):
        make_agent("tests.arena.plugin:NoAct", game)
    with pytest.raises(shedkit.OptionError, match=r"unknown agent 'nobody'.*cmd:PROGRAM"):
        make_agent("nobody", game)
    with pytest.raises(BotForfeit, match="forfeits"):
        agent = ExternalAgent("cmd:" + shlex.join([sys.executable, "-c", "pass"]), game)
        state = game.new_deal(seed=1)
        agent.act(state.view(state.current_player))


def test_import_path_and_entry_point_agents_in_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    results = run_tournament(Tournament("president", ("tests.arena.plugin:FirstBot",), deals=1))
    assert results["games"] == 1
    entry = importlib.metadata.EntryPoint(
        name="first-plugin", value="tests.arena.plugin:FirstBot", group="shedkit.agents"
    )

    def entry_points(**kw: Any) -> list[importlib.metadata.EntryPoint]:
        return [entry] if kw.get("group") == "shedkit.agents" else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(agents_base, "_loaded_entry_points", False)
    try:
        tour = Tournament("dominoes", ("first-plugin", "random"), deals=1)
        assert run_tournament(tour)["games"] == 14
        assert "first-plugin" in AGENTS
    finally:
        AGENTS.pop("first-plugin", None)


def test_no_process_after_an_error_in_the_middle(tmp_path: Path) -> None:
    """An exception in the run (here a failing agent) still stops the bot programs."""
    pids = tmp_path / "pids"
    game = shedkit.make("president")
    agent = ExternalAgent(bot("lowest", pids), game, 0, BotLimits(log_dir=str(tmp_path)))
    state = game.new_deal(seed=2)
    with pytest.raises(ZeroDivisionError):
        try:
            while state.current_player != 0:
                state.apply(state.legal_moves()[0])
            state.apply(agent.act(state.view(0)))
            raise ZeroDivisionError
        finally:
            agent.close()
    assert_all_gone(pids)
    assert os.path.isdir(tmp_path)
