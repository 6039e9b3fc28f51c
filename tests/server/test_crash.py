"""Commit, then acknowledge: a server killed at random moments loses no acknowledged move.

A ``shedkit serve`` process hosts a Dou Di Zhu table of three people, each a WebSocket
client that moves when it is its turn. The server is SIGKILLed at a random moment of the
stream of moves, again and again; after each restart every move a client saw
acknowledged (a state message showing it) is still there, in the deal in progress or in
the stored record of a finished deal.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.live import announced_port

KILLS = 25
Ack = tuple[int, int, str]  # (deal number, index in the deal, the move as shown)


def start(db: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``shedkit serve`` without clocks or bot delays on a port the system picks; returns
    the process and its port once it answers.

    Its output goes to ``log`` (appended), whose end a failed start shows.
    """
    run = "import sys; from shedkit.cli.main import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", run, "serve", "--port", "0", "--db", db]
    cmd += ["--bot-delay", "0", "--turn-clock", "0", "--away-after", "3600"]
    offset = log.stat().st_size if log.exists() else 0
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    port = announced_port(proc, log, offset)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/stats", timeout=1).raise_for_status()
            return proc, port
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    tail = log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"the server did not answer on port {port}:\n{tail}")


def play_until_killed(
    proc: subprocess.Popen[bytes],
    port: int,
    tid: str,
    tokens: list[str],
    rng: random.Random,
    kill_after: float,
) -> set[Ack]:
    """Three players move as fast as the server answers; after ``kill_after`` seconds the
    server is killed the moment a state arrives (when an ack-before-commit server would
    still be writing). Return the moves acknowledged."""
    acked: set[Ack] = set()
    url = f"ws://127.0.0.1:{port}/ws/{tid}"
    sockets: list[ClientConnection] = []
    with contextlib.ExitStack() as stack:
        for token in tokens:
            ws = stack.enter_context(connect(url, open_timeout=20, close_timeout=1))
            ws.send(json.dumps({"type": "hello", "token": token}))
            sockets.append(ws)
        stop = time.monotonic() + kill_after
        while True:
            if time.monotonic() > stop + 2:  # nothing arrived lately: kill all the same
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                return acked
            for i, ws in enumerate(sockets):
                try:
                    raw = ws.recv(timeout=0.01)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] != "state" or message["you"] != i:
                    continue
                view = message["view"]
                if view is None:
                    continue
                deal = message["table"]["deal_number"]
                # Every move a state shows is acknowledged: it left the server.
                acked |= {(deal, n, e["move"]) for n, e in enumerate(view["history"])}
                if time.monotonic() >= stop:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(timeout=30)
                    return acked
                if message["table"]["status"] in ("scored", "finished"):
                    ws.send(json.dumps({"type": "next"}))
                elif view["current_player"] == i and view["legal"]:
                    move = view["legal"][rng.randrange(len(view["legal"]))]["m"]
                    sid = message["state_id"]
                    ws.send(json.dumps({"type": "move", "move": move, "state_id": sid}))


def stored_moves(port: int, tid: str, wanted: set[int]) -> dict[int, list[str]]:
    """The moves of the ``wanted`` deals as the restarted server has them (those finished,
    from their stored records), and of the live deal."""
    base = f"http://127.0.0.1:{port}"
    out: dict[int, list[str]] = {}
    with httpx.Client(base_url=base, timeout=30) as http:
        for line in http.get(f"/api/tables/{tid}/deals").json():
            number = line["number"]
            if number in wanted:
                record = http.get(f"/api/tables/{tid}/deals/{number}").json()["record"]
                out[number] = record["moves"]
    with connect(f"ws://127.0.0.1:{port}/ws/{tid}", open_timeout=20) as ws:
        message = json.loads(ws.recv(timeout=20))
        if message["view"] is not None:
            deal = message["table"]["deal_number"]
            out.setdefault(deal, [e["move"] for e in message["view"]["history"]])
    return out


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is a POSIX signal")
def test_no_acknowledged_move_is_lost_when_the_server_is_killed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    log = tmp_path / "server.log"
    rng = random.Random(2026)
    proc, port = start(db, log)
    try:
        base = f"http://127.0.0.1:{port}"
        table = httpx.post(f"{base}/api/tables", json={"game": "doudizhu", "deals": 1000})
        tid = table.json()["id"]
        tokens = []
        for seat in range(3):
            joined = httpx.post(
                f"{base}/api/tables/{tid}/join",
                json={"seat": seat, "name": f"P{seat}"},
                headers={"Cookie": f"sk_client=crash-{seat}"},
            )
            tokens.append(joined.json()["token"])
        acked: set[Ack] = set()
        # A finished deal's record never changes once stored: each acknowledged move is
        # looked up after the kill that follows it (the live deal's, after every kill).
        checked, verified = 0, set()
        for _ in range(KILLS):
            acked |= play_until_killed(proc, port, tid, tokens, rng, rng.uniform(0.05, 0.5))
            # A port of its own each time: the old one may serve another connection by now
            # (the system hands loopback ports out again), and the clients follow anyway.
            proc, port = start(db, log)
            stored = stored_moves(port, tid, {a[0] for a in acked - verified})
            live = max(stored, default=0)
            pending = {a for a in acked if a not in verified or a[0] == live}
            lost = [a for a in pending if stored.get(a[0], [])[a[1] : a[1] + 1] != [a[2]]]
            assert not lost, f"acknowledged moves lost after a kill: {sorted(lost)[:5]}"
            verified |= pending
            checked += 1
        print(f"\n{checked} kills, {len(acked)} acknowledged moves, none lost")
        assert checked == KILLS and len(acked) > KILLS  # the stream really moved
    finally:
        proc.kill()
        proc.wait(timeout=30)
