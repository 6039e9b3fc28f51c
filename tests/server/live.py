"""A real server on a loopback port (uvicorn in a thread) and WebSocket clients for tests."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from shedkit.server import create_app
from shedkit.server.node import Node
from shedkit.server.room import Room
from shedkit.server.run import uvicorn_config
from shedkit.server.settings import Settings
from shedkit.server.table import Table

Json = dict[str, Any]


#: Tests create, join and watch many tables from one address: quotas and connection caps
#: high, the rest as served.
TEST_SETTINGS = Settings(
    creates_per_minute=10_000,
    joins_per_minute=10_000,
    tables_per_client=1000,
    ws_per_client=1000,
    ws_per_address=1000,
    replays_per_minute=10_000,
)


def wait(predicate: Callable[[], Any], timeout: float = 60.0) -> None:
    """Poll ``predicate`` until it holds (the deadline is a safety net, not a measurement)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not hold in time")
        time.sleep(0.02)


#: The link ``shedkit serve`` prints once its port is bound.
ANNOUNCED = re.compile(r"http://[^/\s]+:(\d+)/")


def announced_port(
    process: subprocess.Popen[bytes], log: Path, offset: int = 0, timeout: float = 180.0
) -> int:
    """The port a ``shedkit serve --port 0`` process names in ``log`` after ``offset`` bytes.

    The system picks the port as the server binds it, so no other process can take it
    between a choice and the bind. A start takes seconds; on a loaded machine, minutes.
    """
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_bytes()[offset:].decode(errors="replace") if log.exists() else ""
        found = ANNOUNCED.search(text)
        if found:
            return int(found.group(1))
        if process.poll() is not None:
            raise RuntimeError(f"the server exited before it listened:\n{text[-2000:]}")
        if time.monotonic() > deadline:
            process.kill()
            raise TimeoutError(f"the server did not listen within {timeout} s:\n{text[-2000:]}")
        time.sleep(0.05)


class LiveServer:
    """``create_app(db)`` served by uvicorn on 127.0.0.1 until :meth:`stop`."""

    def __init__(
        self,
        db: str,
        bot_delay: float = 0.0,
        away_after: float = 20.0,
        port: int = 0,
        settings: Settings = TEST_SETTINGS,
    ) -> None:
        self.db = db
        self.app = create_app(db, bot_delay=bot_delay, away_after=away_after, settings=settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = self.sock.getsockname()[1]
        # The edge as `shedkit serve` sets it up (h11 limits, head deadline, caps).
        config = uvicorn_config(self.app, settings, "127.0.0.1", self.port)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.url, timeout=20)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def node(self) -> Node:
        node: Node = self.app.state.node
        return node

    def room(self, table_id: str) -> Room:
        return self.node.lobby.rooms[table_id]

    def table(self, table_id: str) -> Table:
        return self.room(table_id).table

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def create(self, **body: Any) -> Json:
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        data: Json = response.json()
        return data

    def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        client: str | None = None,
        token: str | None = None,
    ) -> str:
        """Take a seat as a browser of its own (``client``: its cookie; default one per name)."""
        response = self.try_join(table_id, seat, name, client=client, token=token)
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    def try_join(
        self,
        table_id: str,
        seat: int,
        name: str,
        client: str | None = None,
        token: str | None = None,
    ) -> httpx.Response:
        """``POST /join`` as the browser ``client``, with the token it holds if any."""
        body: Json = {"seat": seat, "name": name}
        if token is not None:
            body["token"] = token
        cookie = f"sk_client={client or 'browser-' + name.encode().hex()[:40]}"
        return self.http.post(f"/api/tables/{table_id}/join", json=body, headers={"Cookie": cookie})

    def client(self, table_id: str, token: str | None = None) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table_id}", token)


class Client:
    """A WebSocket client that keeps every message it received."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            # No keepalive pings: on a loaded machine a ping unanswered for its timeout is
            # logged as an error the tests would take for the server's.
            connect(url, open_timeout=20, max_size=2**22, ping_interval=None)
        )
        self.messages: list[Json] = []
        self.raw: list[str] = []
        self.state: Json | None = None
        self.wait_for(lambda m: m["type"] == "state")
        if token is not None:
            self.send({"type": "hello", "token": token})
            self.wait_for(lambda m: m["type"] == "state" and m["you"] is not None)

    def send(self, message: Json | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 20.0) -> Json:
        raw = self.ws.recv(timeout=timeout)
        assert isinstance(raw, str)
        self.raw.append(raw)
        message: Json = json.loads(raw)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def wait_for(self, predicate: Callable[[Json], bool], timeout: float = 20.0) -> Json:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message matched in time")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def move(self, text: str) -> None:
        """Send a move on the newest state this client has seen."""
        state_id = self.state["state_id"] if self.state is not None else None
        self.send({"type": "move", "move": text, "state_id": state_id})

    def error(self, message: Json | str) -> Json:
        """Send a message expected to be refused; return the error."""
        self.send(message)
        return self.wait_for(lambda m: m["type"] == "error")

    def close(self) -> None:
        self._stack.close()


def play_until(
    server: LiveServer,
    table_id: str,
    clients: list[Client],
    done: Callable[[Table], bool],
    pick: Callable[[Json], str] = lambda view: view["legal"][0]["m"],
    timeout: float = 60.0,
) -> int:
    """Seated clients play ``pick(view)`` on their turn until ``done(table)``; moves sent."""
    table = server.table(table_id)
    sent = 0
    deadline = time.monotonic() + timeout
    while not done(table):
        if time.monotonic() > deadline:
            raise TimeoutError("the deal did not progress")
        moved = False
        for client in clients:
            client.drain(0.0 if moved else 0.01)
            state = client.state
            if state is None or state["view"] is None or state["you"] is None:
                continue
            view = state["view"]
            live = table.state
            # Act only on the newest view: the server's state has this many moves.
            if live is None or len(view["history"]) != len(live.record()["moves"]):
                continue
            if view["current_player"] == state["you"] and view["legal"]:
                client.move(pick(view))
                # Wait until the move shows (or is refused): no move is in flight afterwards.
                client.wait_for(_answer_to(len(view["history"])))
                sent += 1
                moved = True
    return sent


def _answer_to(seen: int) -> Callable[[Json], bool]:
    """Matches an error, or a state showing more than ``seen`` moves."""

    def match(m: Json) -> bool:
        if m["type"] == "error":
            return True
        return m["type"] == "state" and m["view"] is not None and len(m["view"]["history"]) > seen

    return match
