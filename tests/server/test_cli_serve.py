"""``shedkit serve``: the options reach uvicorn and the app, and the address is printed."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn

from shedkit.cli.main import main
from shedkit.server.run import GuardedH11Protocol


def test_serve_passes_host_port_and_database(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    configs: list[uvicorn.Config] = []

    class FakeServer:
        def __init__(self, config: uvicorn.Config) -> None:
            configs.append(config)

        def run(self) -> None:
            pass

    monkeypatch.setattr("shedkit.server.run.uvicorn.Server", FakeServer)
    url = f"sqlite:///{tmp_path / 'x.db'}"
    argv = ["serve", "--host", "127.0.0.1", "--port", "8123", "--db", url, "--bot-delay", "0"]
    argv += ["--ws-per-client", "5", "--max-connections", "300", "--request-timeout", "4"]
    assert main(argv) == 0
    assert len(configs) == 1
    config = configs[0]
    assert (config.host, config.port, config.ws_max_size) == ("127.0.0.1", 8123, 64 * 1024)
    # The edge: uvicorn's h11 parser with its head limit, the head deadline, the caps.
    assert isinstance(config.http, type) and issubclass(config.http, GuardedH11Protocol)
    assert config.http.head_timeout == 4.0
    assert config.h11_max_incomplete_event_size == 16 * 1024
    assert config.limit_concurrency == 300
    assert config.timeout_graceful_shutdown is not None
    out = capsys.readouterr().out
    assert "http://localhost:8123/" in out and url in out


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "eighty"]) == 2
    assert "invalid int value" in capsys.readouterr().err
