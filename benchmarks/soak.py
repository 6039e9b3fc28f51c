"""Soak test of the web server: many tables of simulated people for minutes, on loopback.

The server runs in its own process (``shedkit serve`` on a fresh SQLite file, a short
turn clock so that silent players are timed out). ``--tables`` tables are created,
cycling through the three games, each with two people over WebSockets and bots in the
other seats. Each person is, at random (seeded):

- ``normal``: moves after a short think, presses "next" after a deal;
- ``silent``: connected, never moves (the turn clock plays for them);
- ``leaver``: plays a while, disconnects, and comes back later (or not);
- ``flooder``: plays, and now and then sends a burst of pings and garbage.

It reports moves per second over the server, the move latency of the people who move
(send to the state showing the move: p50, p99, max; also by kind of person, since a
flooder's move sent while its message allowance is spent is dropped by the rate limit
and shows the turn clock's seconds instead), the tables that stalled (no
change for ``--stall`` seconds while a deal was on), errors, and the server's memory
at the start and the end. Everything stops by itself after ``--minutes``.

Usage: ``python benchmarks/soak.py [--minutes 10] [--tables 200] [--seed 1]``. Not a
test: the figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from load import free_port, start_server

GAMES = ("doudizhu", "president", "dominoes")
KINDS = ("normal", "normal", "normal", "silent", "leaver", "flooder")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Person:
    """One simulated person at one seat of a table."""

    def __init__(self, base: str, table: str, seat: int, token: str, kind: str, seed: int):
        self.url = base.replace("http", "ws", 1) + f"/ws/{table}"
        self.table, self.seat, self.token, self.kind = table, seat, token, kind
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.failures = 0

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            try:
                await self.session(until)
            except (OSError, WebSocketException, TimeoutError):
                self.failures += 1
            if self.kind != "leaver":
                return
            # Away a while, then back (never past the end).
            await asyncio.sleep(min(self.rng.uniform(2, 20), max(0.0, until - time.monotonic())))

    async def session(self, until: float) -> None:
        leave_at = time.monotonic() + self.rng.uniform(10, 60)
        async with connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            pending: tuple[float, int] | None = None
            asked_next = -1
            while True:
                now = time.monotonic()
                if now >= until or (self.kind == "leaver" and now >= leave_at):
                    return
                if self.kind == "flooder" and self.rng.random() < 0.02:
                    await self.flood(ws)
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=min(1.0, until - now))
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] == "error":
                    code = message["code"]
                    self.errors[code] = self.errors.get(code, 0) + 1
                    if code != "rate_limited":
                        pending = None
                    continue
                if message["type"] != "state" or message["you"] != self.seat:
                    continue
                view = message["view"]
                if view is None:
                    continue
                if pending is not None and message["state_id"] > pending[1]:
                    self.latencies.append(time.perf_counter() - pending[0])
                    pending = None
                if self.kind == "silent":
                    continue
                table = message["table"]
                if table["status"] in ("scored", "finished"):
                    if asked_next != table["deal_number"]:
                        asked_next = table["deal_number"]
                        await ws.send(json.dumps({"type": "next"}))
                    continue
                if pending is None and view["current_player"] == self.seat and view["legal"]:
                    await asyncio.sleep(self.rng.uniform(0.05, 0.6))  # thinking
                    move = view["legal"][self.rng.randrange(len(view["legal"]))]["m"]
                    pending = (time.perf_counter(), message["state_id"])
                    body = {"type": "move", "move": move, "state_id": message["state_id"]}
                    await ws.send(json.dumps(body))

    async def flood(self, ws: ClientConnection) -> None:
        for i in range(60):
            await ws.send("{not json" if i % 3 == 0 else json.dumps({"type": "ping"}))


async def watch(base: str, tables: list[str], until: float, stall: float) -> dict[str, Any]:
    """Poll every table; a table whose state stays the same for ``stall`` s mid-deal stalls."""
    last: dict[str, tuple[Any, float]] = {}
    stalled: set[str] = set()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.monotonic() < until:
            for tid in tables:
                got = (await http.get(f"/api/tables/{tid}")).json()
                key = (got["state_id"], got["status"])
                now = time.monotonic()
                seen = last.get(tid)
                if seen is None or seen[0] != key:
                    last[tid] = (key, now)
                elif got["status"] == "playing" and now - seen[1] > stall:
                    stalled.add(tid)
            await asyncio.sleep(min(5.0, max(0.0, until - time.monotonic())))
    return {"stalled": sorted(stalled)}


async def soak(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    rng = random.Random(args.seed)
    people: list[Person] = []
    tables: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(args.tables):
            game = GAMES[i % len(GAMES)]
            players = {"doudizhu": 3, "president": 4, "dominoes": 4}[game]
            body = {"game": game, "bots": players - 2, "deals": 1000}
            tid = (await http.post("/api/tables", json=body)).raise_for_status().json()["id"]
            tables.append(tid)
            for seat in (0, 1):
                joined = await http.post(
                    f"/api/tables/{tid}/join",
                    json={"seat": seat, "name": f"p{seat}"},
                    headers={"Cookie": f"sk_client=soak-{i}-{seat}"},
                )
                token = joined.raise_for_status().json()["token"]
                kind = rng.choice(KINDS)
                people.append(Person(base, tid, seat, token, kind, rng.randrange(2**32)))
        memory_start = rss_mb(pid)
        before = (await http.get("/api/stats")).json()
        start = time.monotonic()
        until = start + 60 * args.minutes
        watcher = asyncio.create_task(watch(base, tables, until, args.stall))
        await asyncio.gather(*(p.run(until) for p in people))
        watched = await watcher
        elapsed = time.monotonic() - start
        after = (await http.get("/api/stats")).json()
        memory_end = rss_mb(pid)
    latencies = sorted(x for p in people for x in p.latencies)

    def pct(q: float, values: list[float] = latencies) -> float:
        if not values:
            return float("nan")
        return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 2)

    by_kind: dict[str, dict[str, float]] = {}
    for kind in sorted(set(KINDS)):
        mine = sorted(x for p in people if p.kind == kind for x in p.latencies)
        if mine:
            by_kind[kind] = {"p50": pct(0.5, mine), "p99": pct(0.99, mine), "max": pct(1, mine)}

    errors: dict[str, int] = {}
    for p in people:
        for code, n in p.errors.items():
            errors[code] = errors.get(code, 0) + n
    kinds = {k: sum(1 for p in people if p.kind == k) for k in sorted(set(KINDS))}
    return {
        "minutes": round(elapsed / 60, 2),
        "tables": len(tables),
        "people": kinds,
        "moves_per_second": round((after["moves"] - before["moves"]) / elapsed, 1),
        "people_moves": len(latencies),
        "latency_ms_p50": pct(0.50),
        "latency_ms_p99": pct(0.99),
        "latency_ms_max": round(1000 * latencies[-1], 2) if latencies else None,
        "latency_ms_by_kind": by_kind,
        "timeouts": after["timeouts"] - before["timeouts"],
        "stalled_tables": len(watched["stalled"]),
        "errors_received": errors,
        "connection_failures": sum(p.failures for p in people),
        "memory_mb_start": round(memory_start, 1),
        "memory_mb_end": round(memory_end, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long (default: 10)")
    parser.add_argument("--tables", type=int, default=200, help="tables of people (200)")
    parser.add_argument("--turn-clock", type=float, default=3.0, help="seconds per move (3)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot waits")
    parser.add_argument("--stall", type=float, default=60.0, help="seconds without change")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        clocks = ("--turn-clock", str(args.turn_clock), "--time-bank", "2", "--away-after", "5")
        server = start_server(f"sqlite:///{Path(tmp) / 'soak.db'}", port, args.bot_delay, clocks)
        try:
            report = asyncio.run(soak(args, f"http://127.0.0.1:{port}", server.pid))
        finally:
            server.terminate()
            with contextlib.suppress(Exception):
                server.wait(timeout=30)
    print(
        f"soak: {args.tables} tables of 2 people and bots for {args.minutes} min, turn clock "
        f"{args.turn_clock} s, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average before/after {load_before:.2f}/{os.getloadavg()[0]:.2f}"
    )
    print(json.dumps(report, indent=1))
    return 0 if report["stalled_tables"] == 0 and report["connection_failures"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
