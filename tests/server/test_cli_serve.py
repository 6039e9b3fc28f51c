"""``shedkit serve``: the options reach uvicorn and the app, and the address is printed."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import uvicorn

from shedkit.cli.main import main
from shedkit.server.run import AnnouncingServer, GuardedH11Protocol


def test_serve_passes_host_port_and_database(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    configs: list[uvicorn.Config] = []

    def fake_run(self: AnnouncingServer) -> None:
        configs.append(self.config)
        self.announce(self.config.port)  # as after a successful bind

    monkeypatch.setattr(AnnouncingServer, "run", fake_run)
    url = f"sqlite:///{tmp_path / 'x.db'}"
    argv = ["serve", "--host", "127.0.0.1", "--port", "8123", "--db", url, "--bot-delay", "0"]
    argv += ["--ws-per-client", "5", "--max-connections", "300", "--request-timeout", "4"]
    assert main(argv) == 0
    assert len(configs) == 1
    config = configs[0]
    assert (config.host, config.port, config.ws_max_size) == ("127.0.0.1", 8123, 64 * 1024)
    # The edge: uvicorn's h11 parser with its head limit, the head deadline, the caps.
    assert isinstance(config.http, type) and issubclass(config.http, GuardedH11Protocol)
    assert config.http.edge.head_timeout == 4.0
    assert config.h11_max_incomplete_event_size == 16 * 1024
    assert config.limit_concurrency == 300
    assert config.timeout_graceful_shutdown is not None
    out = capsys.readouterr().out
    assert "http://localhost:8123/" in out and url in out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--cluster", "http://127.0.0.1:6379"], "--cluster is a Redis URL"),
        (["--cluster", "redis://127.0.0.1:6379/0"], "add --db postgresql://"),
        (
            [
                "--cluster",
                "redis://127.0.0.1:6379/0",
                "--db",
                "postgresql://h/db",
                "--node-id",
                "a b",
            ],
            "--node-id is 1 to 32 letters",
        ),
        (
            [
                "--cluster",
                "redis://127.0.0.1:6379/0",
                "--db",
                "postgresql://h/db",
                "--lease",
                "0.1",
            ],
            "--lease is 0.5 to 300 seconds",
        ),
    ],
)
def test_serve_explains_a_bad_cluster_setting(
    capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    assert main(["serve", *extra]) == 2
    assert said in capsys.readouterr().err


def test_serve_as_a_cluster_node_says_so_and_hides_passwords(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(AnnouncingServer, "run", lambda self: self.announce(self.config.port))
    db = "postgresql://shedkit:secret@db.example/shedkit"
    argv = ["serve", "--port", "8124", "--db", db, "--cluster", "redis://:hush@redis:6379/0"]
    assert main([*argv, "--node-id", "n-1"]) == 0
    out = capsys.readouterr().out
    assert "node n-1 of the cluster" in out and "http://localhost:8124/" in out
    assert "secret" not in out and "hush" not in out


def test_serve_on_port_0_announces_the_port_the_system_picked() -> None:
    """``--port 0`` binds a free port, race-free, and the announcement names it."""
    said: list[int] = []
    config = uvicorn.Config(_hello, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = AnnouncingServer(config, said.append)

    async def up_and_down() -> tuple[int, bytes]:
        serving = asyncio.create_task(server.serve())
        try:
            while not server.started:
                await asyncio.sleep(0.01)
            reader, writer = await asyncio.open_connection("127.0.0.1", said[0])
            writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await writer.drain()
            answer = await reader.read(200)
            writer.close()
            bound = server.bound_port()
        finally:
            server.should_exit = True
            await serving
        return bound, answer

    bound, answer = asyncio.run(up_and_down())
    assert said == [bound] and bound > 0
    assert answer.startswith(b"HTTP/1.1 200")


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "eighty"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_serve_on_a_busy_port_prints_no_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"sqlite:///{tmp_path / 'x.db'}"
        assert main(["serve", "--port", str(port), "--db", url]) == 1
    out = capsys.readouterr().out
    # The link is printed once the port is bound, so never here; the failure is named.
    assert "http://" not in out
    assert f"could not listen on 127.0.0.1:{port}" in out


def test_serve_help_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    for shown in (
        "--host HOST address to listen on (default: 127.0.0.1)",
        "(default: 0.6)",
        "for it (default: 20.0)",
        "(default: 1000)",
    ):
        assert shown in flat, shown
