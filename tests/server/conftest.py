"""Fixtures of the server tests: an app on a fresh SQLite file, a TestClient, a live server."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shedkit.server import create_app
from shedkit.server.settings import LOOPBACK_HOSTS
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
