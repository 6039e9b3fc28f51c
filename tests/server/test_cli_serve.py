"""``shedkit serve``: the options reach uvicorn and the app, and the address is printed."""

from __future__ import annotations

from typing import Any

import pytest

from shedkit.cli.main import main


def test_serve_passes_host_port_and_database(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    calls: list[dict[str, Any]] = []

    def fake_run(app: Any, **kwargs: Any) -> None:
        calls.append({"app": app, **kwargs})

    monkeypatch.setattr("shedkit.server.run.uvicorn.run", fake_run)
    url = f"sqlite:///{tmp_path / 'x.db'}"
    argv = ["serve", "--host", "127.0.0.1", "--port", "8123", "--db", url, "--bot-delay", "0"]
    assert main(argv) == 0
    assert len(calls) == 1
    call = calls[0]
    assert (call["host"], call["port"], call["ws_max_size"]) == ("127.0.0.1", 8123, 64 * 1024)
    out = capsys.readouterr().out
    assert "http://localhost:8123/" in out and url in out


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "eighty"]) == 2
    assert "invalid int value" in capsys.readouterr().err
