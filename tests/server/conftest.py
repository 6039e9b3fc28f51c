"""Fixtures of the server tests: an app on a fresh SQLite file, a TestClient, a live server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shedkit.server import create_app
from tests.server.live import LiveServer


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shedkit.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0.0)) as c:
        yield c


@pytest.fixture
def live(db: str) -> Iterator[LiveServer]:
    with LiveServer(db) as server:
        yield server
