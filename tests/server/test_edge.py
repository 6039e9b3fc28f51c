"""No single client can exhaust the server, second pass: control frames, slow readers,
costly replays, tracebacks an attacker can print.

Each finding of the second attack on ``shedkit serve`` replayed against a real server
on loopback: a WebSocket that floods pings and never reads the pongs, HTTP clients
that pipeline requests and never read the answers, replays asked for in parallel,
bodies sent in part before hanging up, and text frames that are not UTF-8. The
attacker speaks from 127.0.0.2, so that the checks made meanwhile come from another
address (Linux routes the whole of 127/8 to loopback).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
import statistics
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.protocol import State

from shedkit.server.run import WS_MAX_PENDING, Edge, GuardedWebSocketProtocol, _networks
from shedkit.server.settings import Settings
from tests.server.live import TEST_SETTINGS, LiveServer, announced_port, wait

ATTACKER = "127.0.0.2"
#: A fixed Sec-WebSocket-Key (RFC 6455's example): the handshake needs no randomness.
WS_KEY = b"dGhlIHNhbXBsZSBub25jZQ=="
MASK = b"\x37\xfa\x21\x3d"


def attacker_can_bind() -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((ATTACKER, 0))
        except OSError:
            return False
    return True


needs_second_address = pytest.mark.skipif(
    not attacker_can_bind(), reason="this system does not route 127.0.0.2 to loopback"
)


def attacker_socket(port: int, rcvbuf: int = 2048) -> socket.socket:
    """A connection from the attacker's address with a tiny receive buffer."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((ATTACKER, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (payload under 126 bytes)."""
    masked = bytes(b ^ MASK[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + MASK + masked


def ws_open(port: int, path: str) -> socket.socket:
    """A WebSocket from the attacker, opened by hand; the answer's head is read, no more."""
    sock = attacker_socket(port)
    sock.sendall(
        b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: " + WS_KEY + b"\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # byte by byte: nothing after the head is taken
        assert chunk, "the server closed the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def rss(pid: int) -> int:
    """A process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


@contextlib.contextmanager
def served(tmp_path: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``shedkit serve`` in a process of its own (its memory is its own), with ``flags``."""
    run = "import sys; from shedkit.cli.main import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", run, "serve", "--port", "0"]
    cmd += ["--db", f"sqlite:///{tmp_path / 'edge.db'}", "--bot-delay", "0", *flags]
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        port = announced_port(proc, log)
        wait(lambda: _answers(port), timeout=60)
        yield proc, port
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        if proc.poll() is None:
            proc.kill()
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]


def _answers(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


# -- 1. a ping flood from a socket that never reads --------------------------------------------


def flood_pings(port: int, path: str, until: float) -> int:
    """Send 125-byte pings as fast as the kernel takes them, never reading; the pings sent
    before the server closed the socket (or ``until`` passed)."""
    sock = ws_open(port, path)
    ping = frame(0x9, bytes(range(125)))
    batch = ping * 64
    sent = 0
    sock.settimeout(0.5)
    try:
        while time.monotonic() < until:
            try:
                sent += sock.send(batch) // len(ping)
            except TimeoutError:
                continue  # the server reads nothing more: wait until it gives up on us
    except OSError:
        return sent  # reset or closed by the server
    finally:
        sock.close()
    return sent


@needs_second_address
def test_a_ping_flood_from_a_socket_that_never_reads_is_closed_and_memory_stays_flat(
    tmp_path: Path,
) -> None:
    with served(tmp_path) as (proc, port):
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20)
        table = http.post("/api/tables", json={"game": "doudizhu", "bots": 3, "deals": 1})
        path = f"/ws/{table.json()['id']}"
        # Warm up what one socket costs, then measure 15 s of floods, one socket after
        # another as each is closed.
        flood_pings(port, path, time.monotonic() + 1)
        before = rss(proc.pid)
        until = time.monotonic() + 15
        sockets, pings = 0, 0
        while time.monotonic() < until:
            pings += flood_pings(port, path, until)
            sockets += 1
            time.sleep(0.5)
        grown = rss(proc.pid) - before
        assert http.get("/api/health").status_code == 200
        # Each socket was closed by the server (not by the clock), after few pings.
        assert sockets >= 10, (sockets, pings)
        assert grown < 20 * 2**20, f"RSS grew {grown / 2**20:.1f} MB over {sockets} floods"


def fake_ws(buffered: int) -> tuple[GuardedWebSocketProtocol, list[str]]:
    """The WebSocket protocol on a transport that records what happens to it."""
    calls: list[str] = []

    class Transport(asyncio.WriteTransport):
        def get_write_buffer_size(self) -> int:
            return buffered

        def is_closing(self) -> bool:
            return "abort" in calls or "close" in calls

        def abort(self) -> None:
            calls.append("abort")

        def close(self) -> None:
            calls.append("close")

        def write(self, data: Any) -> None:
            calls.append("write")

        def get_extra_info(self, name: str, default: Any = None) -> Any:
            return default

        def pause_reading(self) -> None:
            calls.append("pause_reading")

        def resume_reading(self) -> None:
            calls.append("resume_reading")

    async def app(scope: Any, receive: Any, send: Any) -> None:
        return None

    loop = asyncio.new_event_loop()
    protocol = GuardedWebSocketProtocol(
        config=Config(app=app), server_state=ServerState(), app_state={}, _loop=loop
    )
    loop.close()
    protocol.conn.state = State.OPEN  # as after the handshake
    protocol.transport = Transport()
    return protocol, calls


def test_pings_past_the_rate_close_the_socket_and_a_full_buffer_resets_it() -> None:
    protocol, calls = fake_ws(buffered=0)
    for _ in range(30):  # the burst a connection may send, like messages
        protocol.handle_ping()
    assert "close" not in calls and "abort" not in calls
    protocol.handle_ping()
    assert "close" in calls and protocol.conn.close_sent is not None
    assert protocol.conn.close_sent.code == 1008
    protocol, calls = fake_ws(buffered=WS_MAX_PENDING + 1)
    protocol.handle_ping()
    assert calls[-1] == "abort"


# -- 2. HTTP clients that never read their answers ------------------------------------------


@needs_second_address
def test_clients_that_never_read_are_disconnected_and_others_are_still_served(db: str) -> None:
    edge = dataclasses.replace(
        TEST_SETTINGS, max_connections=64, connections_per_address=16, send_timeout=2.0
    )
    with LiveServer(db, settings=edge) as live:
        request = b"GET /static/vendor/i18next.mjs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        held: list[socket.socket] = []
        refused = 0
        for _ in range(64):
            sock = attacker_socket(live.port)
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError, OSError):
                sock.send(request * 200)
            held.append(sock)
        opened = time.monotonic()
        statuses = []
        # Meanwhile another address is served, never 503.
        for _ in range(20):
            statuses.append(live.http.get("/api/health").status_code)
        # The cap per address holds: 16 of the attacker's connections are served.
        counted = live.server.config.http.edge.open
        assert len(counted.get(ATTACKER, ())) <= 16
        # And each is reset once it has left its answers unread for send_timeout.
        wait(lambda: not counted.get(ATTACKER), timeout=30)
        gone = time.monotonic() - opened
        for sock in held:
            with contextlib.suppress(OSError):
                refused += b"429" in sock.recv(65536)[:12]
            sock.close()
        assert set(statuses) == {200}, statuses
        assert refused > 0  # those past the cap were told why
        # The documented bound: the send deadline, plus the head's for a connection that
        # had nothing left to answer.
        assert gone < edge.send_timeout + edge.request_timeout + 5


# -- 3. replays --------------------------------------------------------------------------


def finished_deals(http: httpx.Client, deals: int) -> tuple[str, list[int]]:
    """A table of bots that has played ``deals`` deals, all stored; its id and their numbers.

    One more deal is played, and its replay asked for until it is there: the writer
    stores deals in order, so the others are stored too.
    """
    body = {"game": "president", "options": {"players": 5}, "bots": 5, "deals": deals + 1}
    body |= {"seed": 7, "turn_clock": 0}
    tid: str = http.post("/api/tables", json=body).json()["id"]
    path = f"/api/tables/{tid}/deals"
    wait(lambda: len(http.get(path).json()) > deals, timeout=120)
    numbers = [d["number"] for d in http.get(path).json()]
    wait(lambda: http.get(f"{path}/{numbers[deals]}").status_code == 200, timeout=60)
    return tid, numbers[:deals]


#: Fetches the URLs it is given, one thread each, and prints each answer's status.
FETCHER = """
import sys, threading, httpx
def fetch(url):
    print(httpx.get(url, timeout=120).status_code, flush=True)
threads = [threading.Thread(target=fetch, args=(url,)) for url in sys.argv[1:]]
for thread in threads: thread.start()
for thread in threads: thread.join()
"""


def probe_health(http: httpx.Client, going: Callable[[], bool]) -> list[float]:
    """Seconds each ``GET /api/health`` took, one after the other while ``going()``."""
    probes = []
    while going():
        started = time.perf_counter()
        assert http.get("/api/health").status_code == 200
        probes.append(time.perf_counter() - started)
    return probes


def test_sixteen_replays_at_once_leave_the_server_answering(tmp_path: Path) -> None:
    with served(tmp_path, "--replays-per-minute", "1000") as (_proc, port):
        base = f"http://127.0.0.1:{port}"
        http = httpx.Client(base_url=base, timeout=60)
        tid, numbers = finished_deals(http, 16)
        # The replays are asked for by another process, so that the probes' own timing
        # does not wait on the fetchers' threads in this one.
        urls = [f"{base}/api/tables/{tid}/deals/{n}" for n in numbers]
        fetchers = subprocess.Popen(
            [sys.executable, "-c", FETCHER, *urls], stdout=subprocess.PIPE, text=True
        )
        started = time.monotonic()
        during = probe_health(http, lambda: fetchers.poll() is None)
        took = time.monotonic() - started
        assert fetchers.stdout is not None
        assert fetchers.stdout.read().split() == ["200"] * 16
        # The same probes as long again with no replay: what this machine's load alone
        # costs them (the tests run two at a time on two cores).
        until = time.monotonic() + took
        alone = probe_health(http, lambda: time.monotonic() < until)
        slow, slow_alone = sum(p >= 0.1 for p in during), sum(p >= 0.1 for p in alone)
        print(
            f"\n/api/health during 16 replays: {len(during)} probes, median "
            f"{1000 * statistics.median(during):.1f} ms, max {1000 * max(during):.1f} ms, "
            f"{slow} of 100 ms or more ({slow_alone} of {len(alone)} with no replay)"
        )
        # Built in a thread of the server, two or three probes of each run took 110-300 ms
        # on an idle machine; built in a process of their own, none. A probe held up by
        # the machine's other work is counted in both runs, and one more is let pass.
        assert slow <= slow_alone + 1, (sorted(during)[-5:], sorted(alone)[-5:])


def test_replays_are_encoded_once_and_limited_per_address(db: str) -> None:
    settings = dataclasses.replace(TEST_SETTINGS, replays_per_minute=3)
    with LiveServer(db, settings=settings) as live:
        tid = live.create(game="president", bots=4, deals=4, seed=7, turn_clock=0)["id"]
        storage = live.node.storage
        wait(lambda: len(live.table(tid).summaries) == 4, timeout=120)
        n0, n1, n2, n3 = (d["number"] for d in live.table(tid).summaries)
        wait(lambda: storage.get_deal(tid, n3) is not None, timeout=60)
        first = live.http.get(f"/api/tables/{tid}/deals/{n0}")
        assert first.status_code == 200 and first.headers["content-type"] == "application/json"
        cache = live.app.state.replays.cache
        assert isinstance(cache[(tid, n0)], bytes)
        # Cached: served again as stored, without counting against the limit.
        for _ in range(5):
            assert live.http.get(f"/api/tables/{tid}/deals/{n0}").content == first.content
        assert live.http.get(f"/api/tables/{tid}/deals/{n1}").status_code == 200
        assert live.http.get(f"/api/tables/{tid}/deals/{n2}").status_code == 200
        limited = live.http.get(f"/api/tables/{tid}/deals/{n3}")
        assert limited.status_code == 429
        assert limited.json()["error"]["data"] == {"limit": 3, "reason": "replay"}


# -- 4. no traceback from a client's behaviour ----------------------------------------------


def test_half_sent_bodies_and_bad_utf8_print_no_traceback(
    live: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    tid = live.create(game="doudizhu", bots=3, deals=1)["id"]
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", live.port)) as sock:
            sock.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n" + b'{"game"'
            )
            time.sleep(0.02)
    codes = []
    for _ in range(5):
        sock = socket.create_connection(("127.0.0.1", live.port), timeout=10)
        sock.sendall(
            b"GET /ws/" + tid.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket"
            b"\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + WS_KEY + b"\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 101")
        sock.sendall(frame(0x1, b'{"type": "chat", "text": "\xff\xfe"}'))
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                answer += chunk
        sock.close()
        # The close frame (opcode 0x88, a length, then the code) ends what was sent.
        at = answer.rfind(b"\x88")
        codes.append(struct.unpack("!H", answer[at + 2 : at + 4])[0] if at >= 0 else None)
    time.sleep(0.2)
    assert codes == [1007] * 5
    stacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not stacks, [r.getMessage() for r in stacks]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# -- the edge's own parts -------------------------------------------------------------------


def test_the_cap_per_address_spares_the_proxy_and_counts_each_connection_once() -> None:
    edge = Edge(per_address=2, exempt=_networks("127.0.0.1,::1,10.0.0.0/8"))
    a, b, c = object(), object(), object()
    assert edge.admit("192.0.2.1", a) and edge.admit("192.0.2.1", b)  # type: ignore[arg-type]
    assert edge.admit("192.0.2.1", a)  # type: ignore[arg-type]  # the upgrade: still one
    assert not edge.admit("192.0.2.1", c)  # type: ignore[arg-type]
    assert all(edge.admit("10.1.2.3", object()) for _ in range(10))  # type: ignore[arg-type]
    edge.release("192.0.2.1", a)  # type: ignore[arg-type]
    assert edge.admit("192.0.2.1", c)  # type: ignore[arg-type]
    assert _networks("*") is None and _networks(["unix:/run/x", "::1"]) is not None
    assert Edge(exempt=None).admit("192.0.2.9", a)  # type: ignore[arg-type]


def test_the_edge_settings_are_checked() -> None:
    for bad in ({"send_timeout": 0}, {"connections_per_address": 0}, {"replays_per_minute": 0}):
        with pytest.raises(ValueError):
            Settings(**bad)  # type: ignore[arg-type]
