"""Nothing acknowledged is lost, whatever fails: the cluster under faults, as Jepsen tests.

Three nodes, six busy tables of the three games and a person at each, always connected
through a node that does not hold the table (so every message is relayed). While they
play, one fault is injected, then healed:

- ``kill``: ``kill -9`` of the node holding the most tables (a replacement starts);
- ``pause``: that node frozen (SIGSTOP) for longer than its lease, then woken (SIGCONT):
  it wakes up holding tables that other nodes have taken over;
- ``redis``: Redis killed for longer than a lease, then started again (empty);
- ``postgres``: PostgreSQL restarted, cutting every node's connections;
- ``cut``: the node behind a TCP proxy to PostgreSQL (node 1) cut off from it for longer
  than its lease, then reconnected.

Then every state any person was sent is checked against the stored history (an
acknowledged move lost would be a state sent but not stored), every table must move again
within `RESUME_WITHIN` seconds of the heal, none may be closed, and no node may log a
traceback. Every problem found is reported at once. What each person saw is written to
``build/test-artifacts/faults/FAULT.json`` (the docs' failure table quotes it), pass or
fail; the nodes' logs are in ``build/test-artifacts/faults/FAULT/``.

PostgreSQL and Redis here are the module's own (`tests.server.faults.Private`), so the
faults touch no other test.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest
from redis import Redis
from websockets.exceptions import InvalidHandshake

import shedkit
from shedkit.protocol.views import serialize_view
from tests.server.cluster_nodes import Nodes, states_by_id
from tests.server.databases import drop_database, fresh_database
from tests.server.faults import Private, Proxy, Unavailable
from tests.server.test_cluster import Player, busy_tables, check_history

ARTIFACTS = Path("build/test-artifacts/faults")
LEASE = 1.5
#: How long a fault lasts: longer than a lease, so the tables of the node it hits lapse.
FAULT_FOR = 2.5 * LEASE
#: Play before the fault, and after every table moved again.
PLAY_BEFORE = 3.0
PLAY_AFTER = 2.0
#: Every table shows its person a new state this soon after the heal.
RESUME_WITHIN = 10.0
#: A bound on one fault's whole run, so that a hang fails the test instead of the CI job.
RUN_AT_MOST = 120.0
FAULTS = ("kill", "pause", "redis", "postgres", "cut")
#: What a node's log must never hold.
UNHANDLED = ("Traceback", "Exception in ASGI application")


@pytest.fixture(scope="module")
def private() -> Iterator[Private]:
    servers = Private(logs=ARTIFACTS / "servers")
    try:
        servers.start()
    except (Unavailable, PermissionError, KeyError) as err:
        servers.close()
        pytest.skip(f"the fault suite needs PostgreSQL and Redis of its own: {err}")
    except BaseException:
        servers.close()
        raise
    try:
        yield servers
    finally:
        servers.close()


class FaultPlayer(Player):
    """A `Player` that keeps playing while the database or Redis is down: where the owners
    cannot be read, any live node will do. Each new state is timed."""

    def __init__(self, nodes: Nodes, table_id: str, token: str, seed: int) -> None:
        super().__init__(nodes, table_id, token, seed)
        self.seen: list[tuple[float, int]] = []  # (monotonic time, state id) of each new top
        self.closed = False

    async def run(self) -> None:
        while not self.stop:
            try:
                await super().run()
            except InvalidHandshake:
                # A node killed or cut off during the handshake (not only a refusal, which
                # `Player` takes): a browser retries as after any other failed connection.
                self.reconnects += 1
                await asyncio.sleep(0.1)

    async def owner(self) -> str:
        """The node that holds the table, or '' while PostgreSQL is down (any node)."""
        try:
            return await super().owner()
        except Exception:
            return ""

    async def take(self, ws: Any, message: dict[str, Any]) -> None:
        if message["type"] == "error" and message.get("code") == "table_closed":
            self.closed = True
        if message["type"] == "state" and message["state_id"] > self.top:
            self.seen.append((time.monotonic(), message["state_id"]))
        await super().take(ws, message)

    def longest_gap(self, start: float, end: float) -> float:
        """The longest time without a new state between ``start`` and ``end``."""
        times = [start] + [t for t, _ in self.seen if start < t < end] + [end]
        return max(b - a for a, b in itertools.pairwise(times))


@dataclass
class Run:
    """What happened around one fault, on the monotonic clock."""

    victim: str = ""
    victim_tables: list[str] = field(default_factory=list)
    began: float = 0.0
    healed: float = 0.0
    ended: float = 0.0
    reconnects_before: dict[str, int] = field(default_factory=dict)
    resumed: dict[str, float] = field(default_factory=dict)  # seconds after the heal
    stuck: list[str] = field(default_factory=list)


def held_by(nodes: Nodes) -> dict[str, list[str]]:
    """Each node's tables now."""
    held: dict[str, list[str]] = {}
    for tid, owner in nodes.owners().items():
        held.setdefault(owner, []).append(tid)
    return held


@contextlib.contextmanager
def faulty_cluster(private: Private, fault: str) -> Iterator[tuple[Nodes, Proxy | None]]:
    """Three nodes on a fresh database of the private server; for ``cut``, the first
    reaches PostgreSQL through a proxy."""
    if private.redis is None:
        private.start_redis()  # a test before this one failed with Redis down
    db = fresh_database(private.pg_url)
    Redis.from_url(private.redis_url).flushdb()
    proxy = Proxy(private.pg_port) if fault == "cut" else None
    nodes = Nodes(db, private.redis_url, ARTIFACTS / fault, lease=LEASE)
    try:
        for i in range(3):
            via = None
            if proxy is not None and i == 0:
                via = db.replace(f":{private.pg_port}/", f":{proxy.port}/")
            nodes.start(wait=False, db=via)
        for node in nodes.alive():
            nodes.wait_ready(node)
        yield nodes, proxy
    finally:
        # Whatever failed, nothing stays frozen, cut off or running.
        for node in nodes.nodes.values():
            with contextlib.suppress(ProcessLookupError):
                node.process.send_signal(signal.SIGCONT)
        if proxy is not None:
            proxy.close()
        nodes.stop()
        with contextlib.suppress(Exception):
            drop_database(db)


async def inject(
    fault: str,
    nodes: Nodes,
    proxy: Proxy | None,
    private: Private,
    run: Run,
) -> None:
    """Inject ``fault`` and heal it; note the node it was aimed at and that node's tables."""
    held = await asyncio.to_thread(held_by, nodes)
    if fault in ("kill", "pause"):
        run.victim = max((n.name for n in nodes.alive()), key=lambda n: len(held.get(n, [])))
    elif fault == "cut":
        run.victim = next(iter(nodes.nodes))
    run.victim_tables = sorted(held.get(run.victim, []))
    run.began = time.monotonic()
    if fault == "kill":
        nodes.kill(run.victim)
        replacement = nodes.start(wait=False)
        await asyncio.to_thread(nodes.wait_ready, replacement)
    elif fault == "pause":
        process = nodes.nodes[run.victim].process
        process.send_signal(signal.SIGSTOP)
        try:
            await asyncio.sleep(FAULT_FOR)
        finally:
            process.send_signal(signal.SIGCONT)
    elif fault == "redis":
        private.stop_redis()
        await asyncio.sleep(FAULT_FOR)
        await asyncio.to_thread(private.start_redis)
    elif fault == "postgres":
        await asyncio.to_thread(private.restart_pg)
    else:
        assert fault == "cut" and proxy is not None
        proxy.cut()
        try:
            await asyncio.sleep(FAULT_FOR)
        finally:
            proxy.heal()
    run.healed = time.monotonic()


async def play_through(
    fault: str, nodes: Nodes, proxy: Proxy | None, private: Private, players: list[FaultPlayer]
) -> Run:
    """Play, inject ``fault``, heal it, wait for every table to move (or `RESUME_WITHIN`),
    play on a little, and stop the players."""
    run = Run()
    tasks = [asyncio.create_task(p.run()) for p in players]
    ended: list[Any] = []
    try:
        await asyncio.sleep(PLAY_BEFORE)
        run.reconnects_before = {p.table_id: p.reconnects for p in players}
        await inject(fault, nodes, proxy, private, run)
        at_heal = {p.table_id: p.top for p in players}
        waiting = {p.table_id: p for p in players}
        while waiting and time.monotonic() - run.healed <= RESUME_WITHIN:
            for tid, p in list(waiting.items()):
                if p.top > at_heal[tid]:
                    del waiting[tid]
                    run.resumed[tid] = time.monotonic() - run.healed
            await asyncio.sleep(0.05)
        run.stuck = sorted(waiting)
        await asyncio.sleep(PLAY_AFTER)
        run.ended = time.monotonic()
    finally:
        for p in players:
            p.stop = True
        ended = await asyncio.gather(*tasks, return_exceptions=True)
    # A player that died of its own error would look like a stuck table: say so instead.
    for outcome in ended:
        if isinstance(outcome, BaseException):
            raise outcome
    return run


def not_stored(nodes: Nodes, game: str, player: FaultPlayer) -> tuple[int, int, str]:
    """How many states ``player`` was sent that are not in the stored history (a lost
    move), how many differ from the stored state of their id, and the first such."""
    row, deals = nodes.stored(player.table_id)
    history = states_by_id(game, row, deals)
    missing = differ = 0
    first = ""
    for message in player.messages:
        if message["type"] != "state":
            continue
        sid, seat = message["state_id"], message["you"]
        if sid not in history:
            missing += 1
            first = first or f"state {sid} was sent but is not stored (stored up to {len(history)})"
            continue
        start, moves, _final, _record = history[sid]
        state = shedkit.replay({**start, "moves": moves})
        expected = orjson.loads(orjson.dumps(serialize_view(game, state.view(seat))))
        if message["view"] != expected:
            differ += 1
            first = first or f"state {sid} was sent but differs from the stored state {sid}"
    return missing, differ, first


def unhandled(node_log: str) -> str:
    """The first unhandled exception in a node's log, in one line ('' if none)."""
    at = min((i for i in (node_log.find(bad) for bad in UNHANDLED) if i >= 0), default=-1)
    if at < 0:
        return ""
    lines = node_log[at:].splitlines()
    # The exception's own line: the first after the stack that is not indented.
    error = next(
        (s for s in lines[1:] if s and not s[0].isspace() and not s.startswith("Traceback")),
        lines[0],
    )
    return f"{lines[0][:120]} ... {error[:300]}"


def findings(
    nodes: Nodes,
    tables: dict[str, str],
    players: list[FaultPlayer],
    run: Run,
    owners_after: dict[str, str],
) -> tuple[list[str], dict[str, Any]]:
    """Every problem found once the nodes stopped, and what each person saw, by table."""
    problems: list[str] = []
    by_table: dict[str, Any] = {}
    for p in players:
        tid, game = p.table_id, tables[p.table_id]
        missing = wrong = 0
        try:
            missing, wrong, first = not_stored(nodes, game, p)
            if first:
                problems.append(
                    f"{tid} ({game}): {missing} sent not stored, {wrong} differ; {first}"
                )
            else:
                # The model's own check on top: the views seat by seat, no hidden card shown.
                check_history(nodes, tables, [p])
        except AssertionError as err:
            problems.append(f"{tid} ({game}): {str(err).splitlines()[0]}")
        row, _deals = nodes.stored(tid)
        if row["status"] == "closed":
            problems.append(f"{tid} ({game}): stored closed")
        if p.closed:
            problems.append(f"{tid} ({game}): its person was told table_closed")
        if tid not in owners_after:
            problems.append(f"{tid} ({game}): no lease after the fault")
        if tid in run.stuck:
            last = [m.get("code", m["type"]) for m in p.messages[-3:]]
            problems.append(
                f"{tid} ({game}): no new state within {RESUME_WITHIN:g} s of the heal "
                f"(newest {p.top}; last messages {last})"
            )
        resumed = run.resumed.get(tid)
        by_table[tid] = {
            "game": game,
            "held_by_victim": tid in run.victim_tables,
            "longest_gap_s": round(p.longest_gap(run.began - 1, run.ended), 2),
            "resumed_after_heal_s": None if resumed is None else round(resumed, 2),
            "reconnects": p.reconnects - run.reconnects_before.get(tid, 0),
            "newest_state": p.top,
            "states_not_stored": missing,
            "states_differing": wrong,
        }
    for node in nodes.nodes.values():
        text = node.log.read_bytes()[node.offset :].decode("utf-8", "replace")
        if found := unhandled(text):
            problems.append(f"node {node.name} logged {found}")
    return problems, by_table


def summary(
    fault: str, run: Run, players: list[FaultPlayer], by_table: dict[str, Any], problems: list[str]
) -> dict[str, Any]:
    """The figures of one fault, as the docs quote them."""
    rows = list(by_table.values())
    gaps = [t["longest_gap_s"] for t in rows]
    victims = [t["longest_gap_s"] for t in rows if t["held_by_victim"]]
    others = [t["longest_gap_s"] for t in rows if not t["held_by_victim"]]
    return {
        "fault": fault,
        "lease_s": LEASE,
        "victim": run.victim,
        "fault_s": round(run.healed - run.began, 2),
        "resumed_after_heal_max_s": round(max(run.resumed.values()), 2) if run.resumed else None,
        "longest_gap_max_s": max(gaps),
        "longest_gap_median_s": round(statistics.median(gaps), 2),
        "longest_gap_victim_tables_max_s": max(victims, default=None),
        "longest_gap_other_tables_median_s": (
            round(statistics.median(others), 2) if others else None
        ),
        "reconnects_per_person_max": max(t["reconnects"] for t in rows),
        "reconnects_total": sum(t["reconnects"] for t in rows),
        "messages": sum(len(p.messages) for p in players),
        "states": sum(1 for p in players for m in p.messages if m["type"] == "state"),
        "states_not_stored": sum(t["states_not_stored"] for t in rows),
        "states_differing": sum(t["states_differing"] for t in rows),
        "tables": len(rows),
        "tables_stuck": len(run.stuck),
        "problems": problems,
        "per_table": by_table,
    }


@pytest.mark.parametrize("fault", FAULTS)
def test_nothing_acknowledged_is_lost(private: Private, fault: str) -> None:
    with faulty_cluster(private, fault) as (nodes, proxy):
        tables, players = busy_tables(nodes, 500, FaultPlayer)
        run = asyncio.run(
            asyncio.wait_for(play_through(fault, nodes, proxy, private, players), RUN_AT_MOST)
        )
        owners_after = nodes.owners()
        nodes.stop()
        problems, by_table = findings(nodes, tables, players, run, owners_after)
    figures = summary(fault, run, players, by_table, problems)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{fault}.json").write_bytes(orjson.dumps(figures, option=orjson.OPT_INDENT_2))
    print(
        f"{fault}: victim {run.victim or '-'}, fault {figures['fault_s']} s, all moving "
        f"{figures['resumed_after_heal_max_s']} s after the heal, longest gap "
        f"{figures['longest_gap_max_s']} s, {figures['reconnects_total']} reconnects, "
        f"{figures['states']} states, {figures['states_not_stored']} not stored, "
        f"{figures['states_differing']} differing, {len(problems)} problems"
    )
    assert not problems, (
        f"{fault}: {len(problems)} problems (node logs in {ARTIFACTS / fault}):\n"
        + "\n".join(problems)
    )
