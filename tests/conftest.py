"""Fixtures shared by the test folders: a headless Debian chromium for the browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import CHROMIUM, FLAGS

#: Test files that take minutes, slowest first: they start first, so that the workers of
#: ``pytest -n`` (each file on one worker) end together instead of one waiting on another.
SLOW_FIRST = (
    "tests/server/test_cluster.py",
    "tests/server/test_faults.py",
    "tests/client/test_layout.py",
    "tests/server/test_crash.py",
    "tests/client/test_table_room.py",
    "tests/server/test_browser.py",
    "tests/arena/test_bot_programs.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the `SLOW_FIRST` files ahead of the rest (the order within a file is kept)."""
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_configure(config: pytest.Config) -> None:
    """Under ``pytest -n`` (xdist), give each worker a PostgreSQL database and Redis
    databases of its own, before any test module reads their URLs.

    Worker ``gwN`` gets the database ``<name>_gwN`` (made afresh) and Redis database N
    (its clusters use N + 7); its cluster nodes are named ``gwN-…`` because Redis channels
    are shared by all databases.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    index = int(worker.removeprefix("gw"))
    redis = os.environ.get("SHEDKIT_TEST_REDIS_URL")
    if redis:
        if index > 7:
            raise pytest.UsageError("the server tests run on at most 8 workers (Redis has 16 dbs)")
        os.environ["SHEDKIT_TEST_REDIS_URL"] = f"{redis.rsplit('/', 1)[0]}/{index}"
    pg = os.environ.get("SHEDKIT_TEST_PG_URL")
    if pg:
        from sqlalchemy.engine import make_url

        # Not from cluster_nodes: it reads the URLs when imported.
        from tests.server.databases import fresh_database

        name = f"{make_url(pg).database}_{worker}"
        os.environ["SHEDKIT_TEST_PG_URL"] = fresh_database(pg, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (no browser download), one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()
