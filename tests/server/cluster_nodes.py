"""Cluster nodes for tests and benchmarks: ``shedkit serve --cluster`` processes on loopback.

Each node is its own process (so that ``kill -9`` is a real crash), on a port of its own,
sharing one fresh PostgreSQL database and one Redis database with the others.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from redis import Redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import shedkit
from tests.server.databases import drop_database, fresh_database
from tests.server.live import LiveServer, announced_port

PG_URL = os.environ.get("SHEDKIT_TEST_PG_URL")
REDIS_URL = os.environ.get("SHEDKIT_TEST_REDIS_URL")
#: The nodes' logs and the failover summary.
ARTIFACTS = Path("build/test-artifacts/cluster")


@dataclass
class Node:
    """One running node, on the port it announces once bound (``--port 0``)."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path
    offset: int
    bound: int = 0

    @property
    def port(self) -> int:
        if not self.bound:
            self.bound = announced_port(self.process, self.log, self.offset)
        return self.bound

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class Nodes:
    """Nodes started and killed on demand, sharing ``db`` and ``redis``."""

    def __init__(
        self,
        db: str,
        redis: str,
        logs: Path,
        lease: float = 1.5,
        bot_delay: float = 0.05,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.db, self.redis, self.logs = db, redis, logs
        self.lease, self.bot_delay, self.extra = lease, bot_delay, extra
        self.nodes: dict[str, Node] = {}
        self.started = 0
        # Pinged before use: a test that restarts PostgreSQL reads through the restart.
        self.engine = create_engine(
            make_url(db).set(drivername="postgresql+psycopg"), pool_pre_ping=True
        )
        logs.mkdir(parents=True, exist_ok=True)

    def start(self, name: str | None = None, wait: bool = True, db: str | None = None) -> Node:
        """Start a node (named ``n1``, ``n2``… unless ``name``); wait until it answers.

        ``db``: the node's own URL of the shared database (through a proxy, say)."""
        self.started += 1
        # Redis channels are shared by all its databases: parallel test workers' nodes
        # must not share names.
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        name = name or (f"{worker}-" if worker else "") + f"n{self.started}"
        command = [
            str(Path(sys.executable).with_name("shedkit")),
            "serve",
            "--port",
            "0",
            "--db",
            db or self.db,
            "--cluster",
            self.redis,
            "--node-id",
            name,
            "--lease",
            str(self.lease),
            "--bot-delay",
            str(self.bot_delay),
            "--turn-clock",
            "0",
            # One test address opens every table and socket.
            "--tables-per-client",
            "1000",
            "--creates-per-minute",
            "100000",
            "--joins-per-minute",
            "100000",
            "--ws-per-client",
            "10000",
            "--ws-per-address",
            "10000",
            *self.extra,
        ]
        path = self.logs / f"node-{name}.log"
        offset = path.stat().st_size if path.exists() else 0
        log = open(path, "ab")  # noqa: SIM115 (the process holds it)
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        node = self.nodes[name] = Node(name, process, path, offset)
        if wait:
            self.wait_ready(node)
        return node

    def wait_ready(self, node: Node, timeout: float = 180.0) -> None:
        """Wait until ``node`` answers its health check."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not node.alive:
                raise RuntimeError(f"node {node.name} exited; see its log in {self.logs}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{node.url}/api/health", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.05)
        raise TimeoutError(f"node {node.name} did not start")

    def alive(self) -> list[Node]:
        """The nodes running now."""
        return [n for n in self.nodes.values() if n.alive]

    def kill(self, name: str) -> None:
        """``kill -9`` a node: no flush, no goodbye."""
        node = self.nodes[name]
        node.process.send_signal(signal.SIGKILL)
        node.process.wait()

    def stop(self) -> None:
        """Stop every node that still runs, cleanly (they commit and hand their tables back)."""
        for node in self.alive():
            node.process.send_signal(signal.SIGTERM)
        for node in self.nodes.values():
            try:
                node.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                node.process.kill()
        self.engine.dispose()

    def owners(self) -> dict[str, str]:
        """Each open table's owner now, by node name ('' for a lease nobody holds yet)."""
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT table_id, owner FROM shedkit_leases"))
            return {r.table_id: r.owner.split(".")[0] for r in rows}

    def stored(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A table's stored row and its finished deals' records, in order."""
        with self.engine.connect() as conn:
            row = conn.execute(
                text("SELECT data FROM shedkit_tables WHERE id = :id"), {"id": table_id}
            ).one()
            deals = conn.execute(
                text("SELECT record FROM shedkit_deals WHERE table_id = :id ORDER BY number"),
                {"id": table_id},
            )
            return dict(row.data), [dict(d.record) for d in deals]


class RoundRobin(httpx.BaseTransport):
    """Each request to the next node in turn: a load balancer with no stickiness."""

    def __init__(self, nodes: Nodes) -> None:
        self.nodes = nodes
        self.turn = 0
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` to the next live node."""
        alive = self.nodes.alive()
        node = alive[self.turn % len(alive)]
        self.turn += 1
        request.url = request.url.copy_with(host="127.0.0.1", port=node.port)
        return self.inner.handle_request(request)


def round_robin_client(nodes: Nodes) -> httpx.Client:
    """An HTTP client whose requests go to the nodes in turn (see `RoundRobin`).

    Its timeout is generous: a request another node answers may wait out one lost relay
    call and its retry on a loaded machine, and the tests never assert on time.
    """
    return httpx.Client(base_url="http://127.0.0.1", transport=RoundRobin(nodes), timeout=60)


@contextlib.contextmanager
def cluster(name: str, count: int, lease: float = 1.5, *extra: str) -> Iterator[Nodes]:
    """``count`` nodes on a fresh database and an emptied Redis database."""
    assert PG_URL and REDIS_URL
    db = fresh_database(PG_URL)
    base, number = REDIS_URL.rsplit("/", 1)
    redis_url = f"{base}/{int(number or 0) + 7}"
    Redis.from_url(redis_url).flushdb()
    nodes = Nodes(db, redis_url, ARTIFACTS / name, lease=lease, extra=extra)
    try:
        for _ in range(count):
            nodes.start(wait=False)
        for node in nodes.alive():
            nodes.wait_ready(node)
        yield nodes
    finally:
        nodes.stop()
        drop_database(db)


def states_by_id(game: str, row: dict[str, Any], deals: list[dict[str, Any]]) -> dict[int, Any]:
    """Every state of a table's history by its state id, as ``(start, moves, final, record)``.

    A deal's start takes the next id, then each move one more: the server counts so. The
    state itself is the replay of ``start`` with ``moves``; ``final`` ends that deal.
    """
    out: dict[int, Any] = {}
    deals_in_order = [({**d, "moves": []}, list(d["moves"])) for d in deals]
    current = row.get("current")
    # Between deals the last one is still shown: it is already among the finished deals.
    if current is not None and row["status"] == "playing":
        deals_in_order.append((current["start"], list(current["moves"])))
    sid = 0
    for start, moves in deals_in_order:
        # Replaying the whole deal checks every stored move is legal where it stands.
        final = shedkit.replay({**start, "moves": moves})
        record = final.record()
        for k in range(len(moves) + 1):
            sid += 1
            out[sid] = (start, moves[:k], final, record)
    assert sid == row["state_id"], "the stored history does not add up to the table's state id"
    return out


class LiveCluster:
    """The parts of `tests.server.live.LiveServer` a test of the protocol uses, on a cluster:
    requests go to the nodes in turn, and each WebSocket to a node that does not hold its
    table, so that every message is relayed. A test that looks into one node's memory
    (``table``, ``room``, ``node``) is skipped here."""

    def __init__(self, nodes: Nodes) -> None:
        self.nodes = nodes
        self.http = round_robin_client(nodes)

    # The same requests as on one node, through the round-robin client.
    create = LiveServer.create
    try_join = LiveServer.try_join
    join = LiveServer.join

    def client(self, table_id: str, token: str | None = None) -> Any:
        """A WebSocket client on a node that does not hold ``table_id``."""
        from tests.server.live import Client

        owner = self.nodes.owners().get(table_id)
        node = next((n for n in self.nodes.alive() if n.name != owner), self.nodes.alive()[0])
        return Client(f"ws://127.0.0.1:{node.port}/ws/{table_id}", token)

    def table(self, table_id: str) -> Any:
        """Not on a cluster: the table is in another process's memory."""
        import pytest

        pytest.skip("looks into one node's memory")

    def room(self, table_id: str) -> Any:
        """Not on a cluster (see `table`)."""
        import pytest

        pytest.skip("looks into one node's memory")

    @property
    def node(self) -> Any:
        """Not on a cluster (see `table`)."""
        import pytest

        pytest.skip("looks into one node's memory")
