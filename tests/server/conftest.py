"""Fixtures of the server tests: an app on a fresh SQLite file, a TestClient, a live server."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shedkit.server import create_app
from shedkit.server.settings import LOOPBACK_HOSTS
from tests.server.cluster_nodes import PG_URL, REDIS_URL, Nodes, cluster
from tests.server.live import TEST_SETTINGS, LiveServer


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shedkit.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    settings = dataclasses.replace(TEST_SETTINGS, trusted_hosts=(*LOOPBACK_HOSTS, "testserver"))
    with TestClient(create_app(db, bot_delay=0.0, settings=settings)) as c:
        yield c


@pytest.fixture
def live(db: str) -> Iterator[LiveServer]:
    with LiveServer(db) as server:
        yield server


@pytest.fixture(scope="module")
def two_nodes(request: pytest.FixtureRequest) -> Iterator[Nodes]:
    """Two cluster nodes shared by one test module's tests (their logs named after it)."""
    if not (PG_URL and REDIS_URL):
        pytest.skip("SHEDKIT_TEST_PG_URL and SHEDKIT_TEST_REDIS_URL are not set")
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    # A lease longer than the failover tests' 1.5 s: a pause of a busy machine must not
    # move a table between nodes in the middle of a test that does not expect it.
    with cluster(name, 2, lease=5.0) as nodes:
        yield nodes
