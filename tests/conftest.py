"""Fixtures shared by the test folders: a headless Debian chromium for the browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import CHROMIUM, FLAGS


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
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        url = make_url(pg)
        name = f"{url.database}_{worker}"
        admin = create_engine(
            url.set(drivername="postgresql+psycopg", database="postgres"),
            isolation_level="AUTOCOMMIT",
        )
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        os.environ["SHEDKIT_TEST_PG_URL"] = url.set(database=name).render_as_string(
            hide_password=False
        )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (no browser download), one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()
