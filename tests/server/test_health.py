"""``GET /api/health``: what the node holds, whether its database and Redis answer, in time."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

import shedkit.server.health as health_module
from shedkit.server.cluster import Cluster
from shedkit.server.health import Health


def test_a_single_node_counts_its_tables_and_checks_its_database(client: TestClient) -> None:
    first = client.get("/api/health")
    assert first.status_code == 200
    assert first.json() == {"ok": True, "node": "", "tables": 0, "database": True}
    made = client.post("/api/tables", json={"game": "doudizhu", "bots": 2})
    assert made.status_code == 201
    assert client.get("/api/health").json()["tables"] == 1


def test_a_database_that_fails_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(engine: Any) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(health_module, "select_one", fail)
    answer = client.get("/api/health")
    assert answer.status_code == 503
    assert answer.json() == {"ok": False, "node": "", "tables": 0, "database": False}


def test_a_database_that_hangs_is_503_in_time_and_probed_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    calls: list[float] = []

    def hang(engine: Any) -> None:
        calls.append(time.monotonic())
        release.wait(30)

    monkeypatch.setattr(health_module, "select_one", hang)
    try:
        for _ in range(2):
            started = time.monotonic()
            answer = client.get("/api/health")
            assert answer.status_code == 503 and answer.json()["database"] is False
            assert time.monotonic() - started < 1.5
        # The second check waited on the probe still under way rather than start another.
        assert len(calls) == 1
    finally:
        release.set()


class SlowRedis:
    """A Redis client whose PING answers after ``delay`` seconds (or fails)."""

    def __init__(self, delay: float, fail: bool = False) -> None:
        self.delay, self.fail = delay, fail

    async def ping(self) -> bool:
        await asyncio.sleep(self.delay)
        if self.fail:
            raise ConnectionError("Redis is down")
        return True


@pytest.mark.parametrize(
    ("redis", "answers"),
    [(SlowRedis(0.0), True), (SlowRedis(5.0), False), (SlowRedis(0.0, fail=True), False)],
)
def test_a_cluster_node_reports_redis_and_stays_200_without_it(
    redis: SlowRedis, answers: bool
) -> None:
    engine = create_engine("sqlite://")
    cluster: Any = SimpleNamespace(redis=redis, fences={"t1": ("a.1", 1), "t2": ("a.1", 4)})
    node: Any = SimpleNamespace(
        storage=SimpleNamespace(engine=engine),
        lobby=SimpleNamespace(rooms={"t1": None}),
        bus=SimpleNamespace(health=lambda: Cluster.health(cluster)),
    )

    async def check() -> tuple[int, dict[str, Any], float]:
        started = time.monotonic()
        status, body = await Health().report(node, "a")
        return status, body, time.monotonic() - started

    status, body, took = asyncio.run(check())
    engine.dispose()
    assert status == 200 and took < 1.5
    assert body == {
        "ok": True,
        "node": "a",
        "tables": 1,
        "held": 2,
        "redis": answers,
        "database": True,
    }
