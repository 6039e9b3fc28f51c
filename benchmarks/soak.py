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

Cluster mode (``--nodes``): the same people against ``shedkit serve --cluster`` nodes on
loopback (each its own process), sharing one fresh PostgreSQL database on the server of
``--pg`` (default: ``$SHEDKIT_TEST_PG_URL``, else the URL in ``build/pg-url``) and database
8 of the Redis server of ``--redis`` (default: ``$SHEDKIT_TEST_REDIS_URL``, else the URL in
``build/redis-url``, else ``redis://127.0.0.1:63790``), emptied first. ``--nodes 1,2`` runs
the soak once per count, one after the other, each on a database of its own. Tables are
created round-robin over the nodes; each person connects to a node drawn at random each
time it connects, so with N nodes about (N-1)/N of the sockets are relayed to the
table's owner; a person whose connection drops reconnects to a live node, as the web page
does. Per count it reports moves per second over the cluster (the sum of the nodes'
``/api/stats`` counters), the move latency, stalled tables, errors, the nodes' memory,
and a check of every state a person was sent against the stored history, made once the
nodes have stopped cleanly: its state id is in the table's stored history and its view
is the stored state's view for that seat; a state that is not is an acknowledged move
lost (target 0). It prints one table comparing the counts, with each count's ratio to
the first, and writes every figure, with the machine, as JSON to ``--out`` (default
``build/soak-cluster.json``).

``--kill-one``: at half time the node holding the most tables is killed (``kill -9``)
and a replacement started. It reports the failover window (from the kill until every
table the dead node held has shown some person a state newer than the last one before
the kill), the latency p99 of the moves whose send-to-answer lies outside that window
(and of those inside it), the tables stalled outside it, and the states lost.

``--freeze-one``: at half time the node holding the most tables is frozen (SIGSTOP) for
``--freeze-for`` seconds (default 1.6 leases, past its lease, so its tables move), then
woken (SIGCONT): it must find it lost them, and nothing it had queued may be stored. The
same figures, the window running from the freeze and lasting it at the least (the people
connected to the frozen node hear nothing until it wakes), and how many of its tables
changed owner (a table stays if the node wakes before another takes it).

Usage: ``python benchmarks/soak.py --nodes 1,2 [--minutes 2] [--tables 60]``,
``python benchmarks/soak.py --nodes 3 --kill-one [--minutes 2] [--tables 60]`` and
``python benchmarks/soak.py --nodes 3 --freeze-one [--minutes 2] [--tables 60]``
(``--lease``: the nodes' lease in seconds, default 5 as ``shedkit serve``). Node logs go
to ``build/soak-cluster-logs/``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import platform
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from load import ROOT, start_server

if TYPE_CHECKING:
    from tests.server.cluster_nodes import Node, Nodes

GAMES = ("doudizhu", "president", "dominoes")
KINDS = ("normal", "normal", "normal", "silent", "leaver", "flooder")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def digest(view: Any) -> bytes:
    """A short fingerprint of a view's JSON (keys sorted): two views are equal when theirs are."""
    return hashlib.blake2b(orjson.dumps(view, option=orjson.OPT_SORT_KEYS), digest_size=12).digest()


class Room:
    """What the people of a cluster soak share: the nodes that answer now, and the newest
    state id any person has seen at each table."""

    def __init__(self, bases: list[str]) -> None:
        self.bases = bases
        self.tops: dict[str, int] = {}

    def pick(self, rng: random.Random) -> str:
        """A live node's base URL, at random."""
        return rng.choice(self.bases)


class Person:
    """One simulated person at one seat of a table.

    With a ``room`` (cluster mode), each connection goes to a node drawn at random, a
    dropped connection is retried at once, and every state message is kept as its state
    id, seat and view fingerprint, for the check against the stored history.
    """

    def __init__(
        self,
        base: str,
        table: str,
        seat: int,
        token: str,
        kind: str,
        seed: int,
        room: Room | None = None,
    ):
        self.url = base.replace("http", "ws", 1) + f"/ws/{table}"
        self.table, self.seat, self.token, self.kind = table, seat, token, kind
        self.rng = random.Random(seed)
        self.room = room
        self.latencies: list[float] = []
        self.sent: list[float] = []  # when each move of `latencies` was sent (monotonic)
        self.states: list[tuple[int, int | None, bytes]] = []
        self.errors: dict[str, int] = {}
        self.failures = 0

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            try:
                await self.session(until)
            except (OSError, WebSocketException, TimeoutError):
                self.failures += 1
                if self.room is not None:
                    # As the page does: back at once, to whichever node answers.
                    await asyncio.sleep(min(0.2, max(0.0, until - time.monotonic())))
                    continue
            if self.kind != "leaver":
                return
            # Away a while, then back (never past the end).
            await asyncio.sleep(min(self.rng.uniform(2, 20), max(0.0, until - time.monotonic())))

    async def session(self, until: float) -> None:
        leave_at = time.monotonic() + self.rng.uniform(10, 60)
        url = self.url
        if self.room is not None:
            url = self.room.pick(self.rng).replace("http", "ws", 1) + f"/ws/{self.table}"
        async with connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            pending: tuple[float, int, float] | None = None
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
                if self.room is not None and message["type"] == "state":
                    self.keep(message)
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
                    self.sent.append(pending[2])
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
                    pending = (time.perf_counter(), message["state_id"], time.monotonic())
                    body = {"type": "move", "move": move, "state_id": message["state_id"]}
                    await ws.send(json.dumps(body))

    def keep(self, message: dict[str, Any]) -> None:
        """Keep a state message for the check (a fingerprint, not the view: memory)."""
        sid = message["state_id"]
        self.states.append((sid, message["you"], digest(message["view"])))
        assert self.room is not None
        if sid > self.room.tops.get(self.table, 0):
            self.room.tops[self.table] = sid

    async def flood(self, ws: ClientConnection) -> None:
        for i in range(60):
            await ws.send("{not json" if i % 3 == 0 else json.dumps({"type": "ping"}))


async def watch(
    pick: Callable[[], str], tables: list[str], until: float, stall: float
) -> dict[str, Any]:
    """Poll every table (each request to the node ``pick`` names); a table whose state stays
    the same for ``stall`` s mid-deal stalls. Each stall is kept as [since, last seen]."""
    last: dict[str, tuple[Any, float]] = {}
    stalls: dict[str, list[list[float]]] = {}
    failed = 0
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < until:
            for tid in tables:
                try:
                    got = (await http.get(f"{pick()}/api/tables/{tid}")).raise_for_status().json()
                except httpx.HTTPError:
                    failed += 1  # a node going down, or a table moving between nodes
                    continue
                key = (got["state_id"], got["status"])
                now = time.monotonic()
                seen = last.get(tid)
                if seen is None or seen[0] != key:
                    last[tid] = (key, now)
                elif got["status"] == "playing" and now - seen[1] > stall:
                    periods = stalls.setdefault(tid, [])
                    if periods and periods[-1][0] == seen[1]:
                        periods[-1][1] = now
                    else:
                        periods.append([seen[1], now])
            await asyncio.sleep(min(5.0, max(0.0, until - time.monotonic())))
    return {"stalled": sorted(stalls), "stalls": stalls, "failed_polls": failed}


def percentile(q: float, values: list[float]) -> float:
    """The ``q`` quantile of sorted ``values`` in milliseconds (NaN for none)."""
    if not values:
        return float("nan")
    return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 2)


def latency_report(people: list[Person]) -> dict[str, Any]:
    """Move latency of the people who move: overall and by kind."""
    latencies = sorted(x for p in people for x in p.latencies)
    by_kind: dict[str, dict[str, float]] = {}
    for kind in sorted(set(KINDS)):
        mine = sorted(x for p in people if p.kind == kind for x in p.latencies)
        if mine:
            by_kind[kind] = {
                "p50": percentile(0.5, mine),
                "p99": percentile(0.99, mine),
                "max": percentile(1, mine),
            }
    return {
        "people_moves": len(latencies),
        "latency_ms_p50": percentile(0.50, latencies),
        "latency_ms_p99": percentile(0.99, latencies),
        "latency_ms_max": round(1000 * latencies[-1], 2) if latencies else None,
        "latency_ms_by_kind": by_kind,
    }


def errors_of(people: list[Person]) -> dict[str, int]:
    """Error messages the people received, by code."""
    errors: dict[str, int] = {}
    for p in people:
        for code, n in p.errors.items():
            errors[code] = errors.get(code, 0) + n
    return errors


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
        watcher = asyncio.create_task(watch(lambda: base, tables, until, args.stall))
        await asyncio.gather(*(p.run(until) for p in people))
        watched = await watcher
        elapsed = time.monotonic() - start
        after = (await http.get("/api/stats")).json()
        memory_end = rss_mb(pid)
    kinds = {k: sum(1 for p in people if p.kind == k) for k in sorted(set(KINDS))}
    return {
        "minutes": round(elapsed / 60, 2),
        "tables": len(tables),
        "people": kinds,
        "moves_per_second": round((after["moves"] - before["moves"]) / elapsed, 1),
        **latency_report(people),
        "timeouts": after["timeouts"] - before["timeouts"],
        "stalled_tables": len(watched["stalled"]),
        "errors_received": errors_of(people),
        "connection_failures": sum(p.failures for p in people),
        "memory_mb_start": round(memory_start, 1),
        "memory_mb_end": round(memory_end, 1),
    }


# -- cluster mode ----------------------------------------------------------------------------


async def node_stats(http: httpx.AsyncClient, nodes: list[Node]) -> dict[str, dict[str, Any]]:
    """Each node's ``/api/stats``, by node name."""
    got = await asyncio.gather(*(http.get(f"{n.url}/api/stats") for n in nodes))
    return {n.name: r.raise_for_status().json() for n, r in zip(nodes, got, strict=True)}


def total(stats: dict[str, dict[str, Any]], field: str) -> int:
    """A counter summed over the nodes."""
    return sum(int(s[field]) for s in stats.values())


async def sockets_at(http: httpx.AsyncClient, live: list[Node], at: float) -> dict[str, int]:
    """At ``at``: the people's sockets over the nodes, and how many of them a node relays to
    the table's owner on another node."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    stats = await node_stats(http, live)
    return {
        "relayed_sockets_at_half": sum(int(s["cluster"]["relayed_here"]) for s in stats.values()),
        "sockets_at_half": total(stats, "connections"),
    }


async def busiest_at(nodes: Nodes, live: list[Node], at: float) -> tuple[Node, list[str]]:
    """At ``at``, the live node holding the most tables, and those tables."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    owners = await asyncio.to_thread(nodes.owners)
    held: dict[str, list[str]] = {}
    for tid, name in owners.items():
        held.setdefault(name, []).append(tid)
    victim = max(live, key=lambda n: len(held.get(n.name, [])))
    return victim, sorted(held.get(victim.name, []))


async def until_resumed(
    room: Room,
    busy: list[str],
    since: float,
    until: float,
    step: Callable[[float], Awaitable[bool]],
) -> dict[str, float]:
    """Each table of ``busy``: seconds from ``since`` until a person is shown a newer state
    than now. Polls until all have one (or ``until`` passes), and in any case until
    ``step``, called each round with the seconds since ``since``, says its part is done."""
    before = {tid: room.tops.get(tid, 0) for tid in busy}
    resumed: dict[str, float] = {}
    done = False
    while not done or (len(resumed) < len(busy) and time.monotonic() < until):
        for tid in busy:
            if tid not in resumed and room.tops.get(tid, 0) > before[tid]:
                resumed[tid] = round(time.monotonic() - since, 3)
        done = done or await step(time.monotonic() - since)
        await asyncio.sleep(0.05)
    return resumed


def fault_figures(
    victim: Node,
    busy: list[str],
    resumed: dict[str, float],
    at: float,
    until: float,
    least: float = 0.0,
) -> dict[str, Any]:
    """A fault at ``at`` to ``victim``: its window (``least`` s at the least) lasts until
    every table of ``busy`` resumed, or to ``until`` if one never did."""
    window = max(resumed.values(), default=0.0) if len(resumed) == len(busy) else until - at
    times = sorted(resumed.values())
    return {
        "victim": victim.name,
        "victim_tables": len(busy),
        "fault_at": at,
        "window_s": round(max(window, least), 2),
        "resumed_median_s": times[len(times) // 2] if times else None,
        "resumed_max_s": times[-1] if times else None,
        "not_resumed": sorted(set(busy) - set(resumed)),
        "resumed_s": resumed,
    }


async def kill_one(
    nodes: Nodes,
    room: Room,
    live: list[Node],
    http: httpx.AsyncClient,
    at: float,
    until: float,
) -> dict[str, Any]:
    """At ``at``, ``kill -9`` the node holding the most tables and start a replacement; then
    wait until every table it held has shown some person a newer state."""
    victim, busy = await busiest_at(nodes, live, at)
    # Its counters die with it: the last reading stands for its share of the moves.
    last = (await node_stats(http, [victim]))[victim.name]
    sockets = await sockets_at(http, live, at)
    live.remove(victim)
    room.bases[:] = [n.url for n in live]
    nodes.kill(victim.name)
    killed_at = time.monotonic()
    replacement = nodes.start(wait=False)
    ready = asyncio.create_task(asyncio.to_thread(nodes.wait_ready, replacement))

    async def joined(_: float) -> bool:
        # People are sent to the replacement only once it answers.
        if not ready.done():
            return False
        await ready
        live.append(replacement)
        room.bases[:] = [n.url for n in live]
        return True

    resumed = await until_resumed(room, busy, killed_at, until, joined)
    return {
        **fault_figures(victim, busy, resumed, killed_at, until),
        "replacement": replacement.name,
        "victim_stats": last,
        **sockets,
    }


async def freeze_one(
    nodes: Nodes,
    room: Room,
    live: list[Node],
    http: httpx.AsyncClient,
    at: float,
    until: float,
    freeze_for: float,
) -> dict[str, Any]:
    """At ``at``, freeze the node holding the most tables (SIGSTOP) and wake it (SIGCONT)
    ``freeze_for`` seconds later; then wait until every table it held has shown some person
    a newer state, wherever the table lives by then. The window lasts the freeze at the
    least: the people connected to the frozen node hear nothing until it wakes."""
    victim, busy = await busiest_at(nodes, live, at)
    sockets = await sockets_at(http, live, at)
    # People who connect meanwhile go to the other nodes, as a load balancer whose health
    # check no longer hears from the frozen one would send them.
    room.bases[:] = [n.url for n in live if n is not victim]
    victim.process.send_signal(signal.SIGSTOP)
    frozen_at = time.monotonic()

    async def wake(frozen: float) -> bool:
        if frozen < freeze_for:
            return False
        victim.process.send_signal(signal.SIGCONT)
        room.bases[:] = [n.url for n in live]
        return True

    try:
        resumed = await until_resumed(room, busy, frozen_at, until, wake)
    finally:
        # Whatever failed, a node left stopped would never stop cleanly.
        victim.process.send_signal(signal.SIGCONT)
        room.bases[:] = [n.url for n in live]
    owners = await asyncio.to_thread(nodes.owners)
    return {
        **fault_figures(victim, busy, resumed, frozen_at, until, least=freeze_for),
        "frozen_s": freeze_for,
        "moved": sum(1 for tid in busy if owners.get(tid) != victim.name),
        **sockets,
    }


async def cluster_soak(
    args: argparse.Namespace, nodes: Nodes
) -> tuple[dict[str, Any], list[Person], dict[str, str]]:
    """The soak against the nodes that run now; the report, the people, each table's game."""
    rng = random.Random(args.seed)
    live = nodes.alive()
    room = Room([n.url for n in live])
    people: list[Person] = []
    games: dict[str, str] = {}
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(args.tables):
            base = live[i % len(live)].url  # round-robin over the nodes
            game = GAMES[i % len(GAMES)]
            players = {"doudizhu": 3, "president": 4, "dominoes": 4}[game]
            body = {"game": game, "bots": players - 2, "deals": 1000}
            made = await http.post(f"{base}/api/tables", json=body)
            tid = made.raise_for_status().json()["id"]
            games[tid] = game
            for seat in (0, 1):
                joined = await http.post(
                    f"{base}/api/tables/{tid}/join",
                    json={"seat": seat, "name": f"p{seat}"},
                    headers={"Cookie": f"sk_client=soak-{i}-{seat}"},
                )
                token = joined.raise_for_status().json()["token"]
                kind = rng.choice(KINDS)
                people.append(Person(base, tid, seat, token, kind, rng.randrange(2**32), room))
        memory_start = {n.name: round(rss_mb(n.process.pid), 1) for n in live}
        before = await node_stats(http, live)
        start = time.monotonic()
        until = start + 60 * args.minutes
        pick = random.Random(args.seed + 1)
        watcher = asyncio.create_task(
            watch(lambda: room.pick(pick), list(games), until, args.stall)
        )
        half = start + 30 * args.minutes
        fault = args.kill_one or args.freeze_one
        if args.kill_one:
            midway = kill_one(nodes, room, live, http, half, until)
        elif args.freeze_one:
            midway = freeze_one(nodes, room, live, http, half, until, args.freeze_for)
        else:
            midway = sockets_at(http, live, half)
        middle = asyncio.create_task(midway)
        await asyncio.gather(*(p.run(until) for p in people))
        watched = await watcher
        found = await middle
        failover = found if fault else None
        elapsed = time.monotonic() - start
        after = await node_stats(http, live)
        memory_end = {n.name: round(rss_mb(n.process.pid), 1) for n in live}
    if failover is not None and "victim_stats" in failover:
        after[failover["victim"]] = failover.pop("victim_stats")
    relayed, sockets = found.pop("relayed_sockets_at_half"), found.pop("sockets_at_half")
    kinds = {k: sum(1 for p in people if p.kind == k) for k in sorted(set(KINDS))}
    report: dict[str, Any] = {
        "nodes": len(before),
        "minutes": round(elapsed / 60, 2),
        "tables": len(games),
        "people": kinds,
        "moves_per_second": round((total(after, "moves") - total(before, "moves")) / elapsed, 1),
        "moves_per_second_by_node": {
            name: round((s["moves"] - before.get(name, {}).get("moves", 0)) / elapsed, 1)
            for name, s in sorted(after.items())
        },
        **latency_report(people),
        "timeouts": total(after, "timeouts") - total(before, "timeouts"),
        "server_errors": total(after, "errors") - total(before, "errors"),
        "stalled_tables": len(watched["stalled"]),
        "failed_polls": watched["failed_polls"],
        "errors_received": errors_of(people),
        "connection_failures": sum(p.failures for p in people),
        "memory_mb_start": memory_start,
        "memory_mb_end": memory_end,
        "relayed_sockets_at_half": relayed,
        "sockets_at_half": sockets,
    }
    if failover is not None:
        report["failover"] = outside_window(failover, people, watched["stalls"])
    return report, people, games


def outside_window(
    failover: dict[str, Any],
    people: list[Person],
    stalls: dict[str, list[list[float]]],
) -> dict[str, Any]:
    """The failover's figures, with the latency and the stalls outside its window."""
    begin = failover.pop("fault_at")
    end = begin + failover["window_s"]
    outside: list[float] = []
    inside: list[float] = []
    for p in people:
        for sent, latency in zip(p.sent, p.latencies, strict=True):
            clear = sent + latency < begin or sent > end
            (outside if clear else inside).append(latency)
    outside.sort()
    inside.sort()
    stalled = sorted(
        tid
        for tid, periods in stalls.items()
        if any(last < begin or since > end for since, last in periods)
    )
    return {
        **failover,
        "latency_ms_p50_outside": percentile(0.5, outside),
        "latency_ms_p99_outside": percentile(0.99, outside),
        "latency_ms_max_outside": percentile(1, outside),
        "moves_outside": len(outside),
        "latency_ms_p99_inside": percentile(0.99, inside),
        "latency_ms_max_inside": percentile(1, inside),
        "moves_inside": len(inside),
        "stalled_tables_outside": len(stalled),
        "stalled_outside": stalled,
    }


def check_states(nodes: Nodes, games: dict[str, str], people: list[Person]) -> dict[str, Any]:
    """Every state a person was sent, against the stored history (nodes stopped): its id is
    stored and its view is the stored state's view for that seat."""
    import shedkit
    from shedkit.protocol.views import serialize_view
    from tests.server.cluster_nodes import states_by_id

    kept: dict[str, list[tuple[int, int | None, bytes]]] = {}
    for p in people:
        kept.setdefault(p.table, []).extend(p.states)
    checked = missing = differ = 0
    unreadable: list[str] = []
    for tid, states in kept.items():
        game = games[tid]
        row, deals = nodes.stored(tid)
        try:
            history = states_by_id(game, row, deals)
        except (AssertionError, ValueError) as err:
            unreadable.append(f"{tid}: {err}")
            continue
        replayed: dict[int, Any] = {}
        expected: dict[tuple[int, int | None], bytes] = {}
        for sid, seat, mark in states:
            checked += 1
            if sid not in history:
                missing += 1  # shown to a person, never stored: a lost move
                continue
            if (sid, seat) not in expected:
                if sid not in replayed:
                    start, moves, _, _ = history[sid]
                    replayed[sid] = shedkit.replay({**start, "moves": moves})
                view = serialize_view(game, replayed[sid].view(seat))
                expected[sid, seat] = digest(orjson.loads(orjson.dumps(view)))
            if expected[sid, seat] != mark:
                differ += 1
    return {
        "states_checked": checked,
        "states_not_stored": missing,
        "states_differing": differ,
        "moves_lost": missing + differ,
        "tables_unreadable": unreadable,
    }


def default_pg() -> str | None:
    """The PostgreSQL server the tests use."""
    path = ROOT / "build" / "pg-url"
    found = os.environ.get("SHEDKIT_TEST_PG_URL")
    return found or (path.read_text().strip() if path.exists() else None)


def default_redis() -> str:
    """The Redis server the tests use."""
    path = ROOT / "build" / "redis-url"
    found = os.environ.get("SHEDKIT_TEST_REDIS_URL")
    return found or (path.read_text().strip() if path.exists() else "redis://127.0.0.1:63790/0")


def redis_db(url: str, db: int) -> str:
    """``url`` with its database index set to ``db``."""
    head, _, tail = url.rpartition("/")
    return f"{head}/{db}" if head.count("/") >= 2 and tail.isdigit() else f"{url}/{db}"


def run_cluster(args: argparse.Namespace, counts: list[int]) -> dict[str, Any]:
    """The soak once per node count, each on a fresh database and an emptied Redis DB."""
    sys.path.insert(0, str(ROOT))  # the nodes' harness lives with the tests
    from redis import Redis

    from tests.server.cluster_nodes import Nodes
    from tests.server.databases import drop_database, fresh_database

    if not args.pg:
        raise SystemExit("no PostgreSQL server: give --pg or set SHEDKIT_TEST_PG_URL")
    redis_url = redis_db(args.redis, 8)
    clocks = ("--turn-clock", str(args.turn_clock), "--time-bank", "2", "--away-after", "5")
    runs: list[dict[str, Any]] = []
    for count in counts:
        db = fresh_database(args.pg)
        Redis.from_url(redis_url).flushdb()
        logs = ROOT / "build" / "soak-cluster-logs" / f"{count}-nodes"
        shutil.rmtree(logs, ignore_errors=True)
        nodes = Nodes(db, redis_url, logs, args.lease, args.bot_delay, clocks)
        try:
            for _ in range(count):
                nodes.start(wait=False)
            for node in nodes.alive():
                nodes.wait_ready(node)
            load_before = os.getloadavg()[0]
            report, people, games = asyncio.run(cluster_soak(args, nodes))
            report["load_average_before_after"] = [load_before, os.getloadavg()[0]]
            nodes.stop()  # cleanly: they commit and hand their tables back
            report |= check_states(nodes, games, people)
            if "failover" in report:
                report["failover"]["moves_lost"] = report["moves_lost"]
            runs.append(report)
            print(f"{count} node(s): done", file=sys.stderr)
        finally:
            nodes.stop()
            drop_database(db)
    return {
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
        },
        "settings": {
            "minutes": args.minutes,
            "tables": args.tables,
            "turn_clock": args.turn_clock,
            "bot_delay": args.bot_delay,
            "stall": args.stall,
            "lease": args.lease,
            "seed": args.seed,
            "kill_one": args.kill_one,
            "freeze_one": args.freeze_one,
            "freeze_for": args.freeze_for,
        },
        "runs": runs,
    }


def print_cluster(figures: dict[str, Any]) -> None:
    """One table comparing the node counts (ratios to the first), and the failovers."""
    runs = figures["runs"]
    header = (
        f"{'nodes':>5} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>9} "
        f"{'stalled':>7} {'errors':>6} {'drops':>5} {'lost':>4} {'states':>7}"
    )
    print(header)
    for r in runs:
        print(
            f"{r['nodes']:>5} {r['moves_per_second']:>8} {r['latency_ms_p50']:>8} "
            f"{r['latency_ms_p99']:>8} {r['latency_ms_max']!s:>9} {r['stalled_tables']:>7} "
            f"{sum(r['errors_received'].values()):>6} {r['connection_failures']:>5} "
            f"{r['moves_lost']:>4} {r['states_checked']:>7}"
        )
    first = runs[0]
    for r in runs[1:]:
        ratio = {
            "moves_per_second": r["moves_per_second"] / first["moves_per_second"],
            "latency_ms_p50": r["latency_ms_p50"] / first["latency_ms_p50"],
            "latency_ms_p99": r["latency_ms_p99"] / first["latency_ms_p99"],
        }
        r["ratio_to_first"] = {k: round(v, 2) for k, v in ratio.items()}
        print(
            f"{str(r['nodes']) + '/' + str(first['nodes']):>5} "
            f"{ratio['moves_per_second']:>8.2f} {ratio['latency_ms_p50']:>8.2f} "
            f"{ratio['latency_ms_p99']:>8.2f}"
        )
    for r in runs:
        f = r.get("failover")
        if f is None:
            continue
        what = (
            f"froze {f['victim']} for {f['frozen_s']:g} s holding {f['victim_tables']} tables "
            f"({f['moved']} moved)"
            if "frozen_s" in f
            else f"killed {f['victim']} holding {f['victim_tables']} tables, replaced by "
            f"{f['replacement']}"
        )
        print(
            f"failover ({r['nodes']} nodes): {what}; window {f['window_s']} s (resumed median "
            f"{f['resumed_median_s']} s, max {f['resumed_max_s']} s, not resumed "
            f"{len(f['not_resumed'])})"
        )
        print(
            f"  outside the window: {f['moves_outside']} moves, p50 "
            f"{f['latency_ms_p50_outside']} ms, p99 {f['latency_ms_p99_outside']} ms, max "
            f"{f['latency_ms_max_outside']} ms; stalled tables {f['stalled_tables_outside']}"
        )
        print(
            f"  inside the window: {f['moves_inside']} moves, p99 "
            f"{f['latency_ms_p99_inside']} ms, max {f['latency_ms_max_inside']} ms; "
            f"acknowledged moves lost {f['moves_lost']} of {r['states_checked']} states checked"
        )


def cluster_main(args: argparse.Namespace) -> int:
    """``--nodes``: the soak on a cluster of nodes, per node count."""
    try:
        counts = [int(c) for c in args.nodes.split(",")]
    except ValueError:
        raise SystemExit(f"--nodes is a comma list of counts, not {args.nodes!r}") from None
    if not counts or min(counts) < 1:
        raise SystemExit("--nodes: each count is at least 1")
    if (args.kill_one or args.freeze_one) and min(counts) < 2:
        raise SystemExit(
            "--kill-one and --freeze-one need at least 2 nodes (another must take the tables)"
        )
    if args.kill_one and args.freeze_one:
        raise SystemExit("--kill-one or --freeze-one: one fault a run")
    if args.freeze_for is not None and (not args.freeze_one or args.freeze_for <= 0):
        raise SystemExit("--freeze-for: a positive number of seconds, with --freeze-one")
    if args.freeze_one and args.freeze_for is None:
        args.freeze_for = round(1.6 * args.lease, 3)  # past the lease: its tables move
    figures = run_cluster(args, counts)
    print(
        f"soak on a cluster: {args.tables} tables of 2 people and bots for {args.minutes} min "
        f"per count, turn clock {args.turn_clock} s, lease {args.lease} s, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.platform()}"
    )
    print_cluster(figures)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=1) + "\n")
    print(f"figures: {out}")
    ok = True
    for r in figures["runs"]:
        ok = ok and r["moves_lost"] == 0 and not r["tables_unreadable"]
        f = r.get("failover")
        if f is None:
            ok = ok and r["stalled_tables"] == 0 and r["connection_failures"] == 0
        else:
            ok = ok and f["stalled_tables_outside"] == 0 and not f["not_resumed"]
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long (default: 10)")
    parser.add_argument("--tables", type=int, default=200, help="tables of people (200)")
    parser.add_argument("--turn-clock", type=float, default=3.0, help="seconds per move (3)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot waits")
    parser.add_argument("--stall", type=float, default=60.0, help="seconds without change")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--nodes", help="cluster mode: node counts, a comma list (1,2), one soak each"
    )
    parser.add_argument(
        "--kill-one", action="store_true", help="cluster mode: kill -9 a node at half time"
    )
    parser.add_argument(
        "--freeze-one",
        action="store_true",
        help="cluster mode: freeze a node (SIGSTOP) past its lease at half time, then wake it",
    )
    parser.add_argument(
        "--freeze-for", type=float, help="cluster mode: seconds frozen (default 1.6 leases)"
    )
    parser.add_argument("--pg", default=default_pg(), help="cluster mode: PostgreSQL server URL")
    parser.add_argument("--redis", default=default_redis(), help="cluster mode: Redis URL")
    parser.add_argument("--lease", type=float, default=5.0, help="cluster mode: lease (5 s)")
    parser.add_argument(
        "--out", default="build/soak-cluster.json", help="cluster mode: where the JSON goes"
    )
    args = parser.parse_args()
    if args.nodes is not None:
        return cluster_main(args)
    if args.kill_one or args.freeze_one:
        parser.error("--kill-one and --freeze-one need --nodes")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        clocks = ("--turn-clock", str(args.turn_clock), "--time-bank", "2", "--away-after", "5")
        db = f"sqlite:///{Path(tmp) / 'soak.db'}"
        server, port = start_server(db, Path(tmp) / "server.log", args.bot_delay, clocks)
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
