"""Load on the web server: many bot-only tables and many WebSocket players at once, on loopback.

The server runs in its own process (``shedkit serve`` on a fresh SQLite file).
The benchmark creates ``--tables`` bot-only tables that play deal after deal,
and ``--clients`` WebSocket players, each at its own table with bots, who move
the moment it is their turn. It reports:

- moves per second over the whole server (bots and players; from ``/api/stats``),
- player move latency: from sending a move to receiving the state that shows
  it (p50, p99, max),
- errors: error messages received, failed connections, server error count.

Usage: ``python benchmarks/load.py [--tables 200] [--clients 50] [--seconds 30]
[--bot-delay 0.5] [--game doudizhu]``. Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

#: The project's root: the server tests' harness reads the port a server names.
ROOT = Path(__file__).resolve().parent.parent


def start_server(
    db: str, log: Path, bot_delay: float, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], int]:
    """``shedkit serve --port 0`` in a child process (``extra``: more flags), its output in
    ``log``; returns it and the port it names once it listens (``announced_port``, which
    the server tests use too: nothing can take the port between a choice and the bind).
    """
    run = "import sys; from shedkit.cli.main import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", run, "serve", "--port", "0"]
    cmd += ["--db", db, "--bot-delay", str(bot_delay), *extra]
    # One address creates every table here: lift the per-client quotas, keep the rest.
    cmd += ["--tables-per-client", "100000", "--creates-per-minute", "100000"]
    cmd += ["--max-tables", "100000", "--joins-per-minute", "100000"]
    cmd += ["--ws-per-client", "100000", "--ws-per-address", "100000"]
    sys.path.insert(0, str(ROOT))
    from tests.server.live import announced_port

    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out)
    return proc, announced_port(proc, log, timeout=60)


class Player:
    """One WebSocket player at its own table; moves at once, measures each move's latency."""

    def __init__(self, base: str, game: str, rng: random.Random) -> None:
        self.base = base
        self.game = game
        self.rng = rng
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def run(self, http: httpx.AsyncClient, until: float, bots: int) -> None:
        created = await http.post("/api/tables", json={"game": self.game, "bots": bots})
        created.raise_for_status()
        table_id = created.json()["id"]
        joined = await http.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "load"})
        joined.raise_for_status()
        token = joined.json()["token"]
        url = self.base.replace("http", "ws", 1) + f"/ws/{table_id}"
        async with connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            pending: tuple[float, int] | None = None
            asked_next = -1
            while time.monotonic() < until:
                try:
                    left = max(0.01, until - time.monotonic())
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    break
                message = json.loads(raw)
                if message["type"] == "error":
                    self.errors.append(message["code"])
                    pending = None
                    continue
                if message["type"] != "state" or message["you"] != 0:
                    continue
                view = message["view"]
                if view is None:
                    continue
                moves = len(view["history"])
                if pending is not None and moves > pending[1]:
                    self.latencies.append(time.perf_counter() - pending[0])
                    pending = None
                status = message["table"]["status"]
                deal = message["table"]["deal_number"]
                if status in ("scored", "finished"):
                    if asked_next != deal:
                        asked_next = deal
                        await ws.send(json.dumps({"type": "next"}))
                    continue
                if (
                    pending is None
                    and status == "playing"
                    and view["current_player"] == 0
                    and view["legal"]
                ):
                    move = view["legal"][self.rng.randrange(len(view["legal"]))]["m"]
                    pending = (time.perf_counter(), moves)
                    sid = message["state_id"]
                    await ws.send(json.dumps({"type": "move", "move": move, "state_id": sid}))


async def load(args: argparse.Namespace, base: str) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        players_per_table = {"doudizhu": 3, "president": 4, "dominoes": 4}[args.game]
        for i in range(args.tables):
            body: dict[str, Any] = {"game": args.game, "bots": players_per_table, "deals": 200}
            if i < args.hard_tables:
                body["bot"] = "hard"  # searches in the server's bot processes
            r = await http.post("/api/tables", json=body)
            r.raise_for_status()
        rng = random.Random(args.seed)
        players = [
            Player(base, args.game, random.Random(rng.random())) for _ in range(args.clients)
        ]
        await asyncio.sleep(1.0)  # let the bot tables get going
        before = (await http.get("/api/stats")).json()
        start = time.monotonic()
        until = start + args.seconds
        results = await asyncio.gather(
            *(p.run(http, until, players_per_table - 1) for p in players), return_exceptions=True
        )
        elapsed = time.monotonic() - start
        after = (await http.get("/api/stats")).json()
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    latencies = sorted(x for p in players for x in p.latencies)
    errors = [e for p in players for e in p.errors]

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    return {
        "tables": after["tables"],
        "seconds": round(elapsed, 1),
        "moves_per_second": round((after["moves"] - before["moves"]) / elapsed, 1),
        "player_moves": len(latencies),
        "latency_ms_p50": round(pct(0.50), 2),
        "latency_ms_p99": round(pct(0.99), 2),
        "latency_ms_max": round(1000 * latencies[-1], 2) if latencies else None,
        "latency_ms_mean": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "client_errors": len(errors),
        "error_codes": sorted(set(errors)),
        "failed_clients": failures,
        "server_errors": after["errors"] - before["errors"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="bot-only tables")
    parser.add_argument("--clients", type=int, default=50, help="WebSocket players")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds a bot waits")
    parser.add_argument("--game", default="doudizhu", choices=["doudizhu", "president", "dominoes"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temporary file)")
    parser.add_argument(
        "--hard-tables", type=int, default=0, help="of the bot-only tables, how many seat hard bots"
    )
    parser.add_argument("--bot-workers", type=int, default=0, help="the server's bot processes")
    args = parser.parse_args()
    # Other work on the machine shows in the tail latency: report the load around the run.
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        workers = ("--bot-workers", str(args.bot_workers))
        server, port = start_server(db, Path(tmp) / "server.log", args.bot_delay, workers)
        try:
            report = asyncio.run(load(args, f"http://127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"load: {args.tables} bot-only tables ({args.hard_tables} with hard bots) + "
        f"{args.clients} WebSocket players, {args.game}, "
        f"bot delay {args.bot_delay} s, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average before/after {load_before:.2f}/{os.getloadavg()[0]:.2f}"
    )
    print(json.dumps(report, indent=1))
    ok = not report["failed_clients"] and report["client_errors"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
