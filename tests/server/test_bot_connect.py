"""Bot programs at web tables: ``"bot": true`` seats in the lobby, ``shedkit bot connect``.

The end-to-end test seats the Node example bot through the bridge, a person
in chromium (the browser actions are tests/server/browser.py's helpers) and the
greedy bot at one Dou Di Zhu table, and plays a whole deal.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.live import LiveServer, wait

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "bots" / "js" / "bot.js"
PY_BOT = ROOT / "examples" / "bots" / "python" / "bot.py"
TEST_BOT = ROOT / "tests" / "arena" / "protocol_bot.py"


def bridge(live: LiveServer, table: str, seat: int, program: list[str], *extra: str) -> Any:
    """``shedkit bot connect`` in a process of its own, for ``seat`` of ``table``."""
    argv = [str(Path(sys.executable).with_name("shedkit")), "bot", "connect", live.url]
    argv += ["--table", table, "--seat", str(seat), *extra, "--", *program]
    return subprocess.Popen(argv, cwd=ROOT, stderr=subprocess.PIPE, text=True)


def test_a_seat_taken_as_a_bot_shows_in_the_lobby(client: TestClient) -> None:
    table = client.post("/api/tables", json={"game": "president", "bots": 2}).json()
    tid = table["id"]
    joined = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Lowbot", "bot": True})
    assert joined.status_code == 200, joined.text
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[tid]["bot_seats"] == [1]
    assert [s["is_bot"] for s in lobby[tid]["seats"]] == [False, True, False, False]
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["is_bot"]
    token = joined.json()["token"]
    assert client.post(f"/api/tables/{tid}/leave", json={"token": token}).status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["bot_seats"] == []
    bad = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "X", "bot": "maybe"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"


def test_the_bridge_plays_a_whole_match(live: LiveServer, tmp_path: Path) -> None:
    tid = live.create(game="president", bots=3, deals=2, seed=5)["id"]
    proc = bridge(live, tid, 0, [sys.executable, str(PY_BOT)], "--bot-logs", str(tmp_path))
    try:
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    table = live.table(tid)
    assert table.status == "finished" and table.match.deals_played == 2
    assert table.seats[0].program and table.seats[0].name == "Bot 0"


def test_a_forfeiting_program_gives_up_its_seat(live: LiveServer, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    program = [sys.executable, str(TEST_BOT), "--mode", "crash3", "--pids", str(pids)]
    tid = live.create(game="doudizhu", bots=2, deals=1, seed=6)["id"]
    proc = bridge(live, tid, 0, program, "--move-time", "2", "--bot-logs", str(tmp_path))
    try:
        assert proc.wait(timeout=120) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None and "crashed: it exited with status 3" in proc.stderr.read()
    table = live.table(tid)
    assert table.seats[0].token_hash is None  # given up: the stand-in bot plays it
    wait(lambda: table.status == "finished")
    pid = int(pids.read_text().split()[0])
    assert not os.path.exists(f"/proc/{pid}") or "Z" in Path(f"/proc/{pid}/stat").read_text()


def test_bridge_errors(live: LiveServer) -> None:
    from shedkit.cli.main import main

    assert main(["bot", "connect", live.url, "--table", "nope", "--seat", "0", "--", "x"]) == 2
    tid = live.create(game="doudizhu", bots=1)["id"]
    argv = ["bot", "connect", live.url, "--table", tid, "--seat", "5", "--", "node", "x.js"]
    assert main(argv) == 2
    assert main(["bot", "connect", "ftp://x", "--table", tid, "--seat", "0", "--", "x"]) == 2
    assert main(["bot", "connect", live.url, "--table", tid, "--seat", "0"]) == 2
    argv = ["bot", "connect", live.url, "--table", tid, "--seat", "0", "--", "./no-such-bot"]
    assert main(argv) == 2
    assert main(["bot"]) == 2


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_bot_plays_a_deal_against_a_browser_player_and_greedy(
    db: str, tmp_path: Path
) -> None:
    from tests.server import browser as ui

    if not os.path.exists(ui.CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make test does)")
    from playwright.sync_api import sync_playwright

    with LiveServer(db, bot_delay=0.02) as live, sync_playwright() as p:
        tid = live.create(game="doudizhu", bots=1, deals=1, seed=7)["id"]
        program = ["node", str(NODE_BOT)]
        proc = bridge(live, tid, 1, program, "--name", "Nodebot", "--bot-logs", str(tmp_path))
        try:
            seated = lambda: live.table(tid).seats[1].token_hash is not None  # noqa: E731
            wait(lambda: seated() or proc.poll() is not None, timeout=60)
            assert seated(), proc.stderr.read() if proc.stderr else ""
            lobby = live.http.get("/api/tables").json()
            row = next(t for t in lobby if t["id"] == tid)
            assert row["bot_seats"] == [1] and row["seats"][1]["name"] == "Nodebot"
            browser = p.chromium.launch(executable_path=ui.CHROMIUM, args=ui.FLAGS)
            try:
                page = browser.new_context().new_page()
                ui.take_seat(page, live.url, tid, "Ana", seat=0)
                table = live.table(tid)
                checked: dict[str, bool] = {}
                deadline = time.monotonic() + 180
                while not (table.state is not None and table.state.is_over):
                    assert time.monotonic() < deadline, "the deal did not finish"
                    played = len(table.state.record()["moves"])
                    if ui.my_turn(page) and ui.moves_seen(page) == played:
                        ui.take_turn(page, checked)
                    page.wait_for_timeout(20)
                page.wait_for_selector("#score-screen")
            finally:
                browser.close()
            assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        moves = live.table(tid).state.record()["moves"]
        assert len(moves) > 10 and live.table(tid).status == "finished"
        log = next(tmp_path.glob("node-*.log"))
        assert log.read_text() == ""  # the bot wrote nothing to stderr


def test_bridge_program_quoting() -> None:
    # The program after -- is passed as it is, spaces in paths included.
    assert shlex.split(shlex.join(["node", "/a b/bot.js"])) == ["node", "/a b/bot.js"]


def test_a_table_id_never_reads_as_a_command_line_option(monkeypatch: pytest.MonkeyPatch) -> None:
    # One id in 32 drawn by token_urlsafe starts with "-" or "_": "--table -x3Fq9aB"
    # would then be two options to ``shedkit bot connect``.
    from shedkit.server import lobby

    drawn = iter(["-x3Fq9aB", "_k2mP0aZ", "Qx3Fq9aB"])
    monkeypatch.setattr(lobby.secrets, "token_urlsafe", lambda n: next(drawn))
    assert lobby.new_table_id() == "Qx3Fq9aB"
    monkeypatch.undo()
    assert all(lobby.new_table_id()[0] not in "-_" for _ in range(2000))
