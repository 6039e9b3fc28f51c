"""Running the server under uvicorn (``shedkit serve``), with limits at the edge.

The HTTP edge is uvicorn's h11 protocol, whose parser bounds a request's head
(``Settings.max_head``: a huge header, or thousands of them, is answered 400 and the
connection closed), with these additions, shared by its WebSocket protocol:

- a deadline for each request's head (``Settings.request_timeout``), so a socket that
  sends nothing, or a header line now and then, is closed instead of held for ever;
- a send deadline (``Settings.send_timeout``): a peer that leaves what it was sent
  unread for that long, an answer or WebSocket messages, is disconnected, so nobody
  holds a connection (and its buffers) by not reading;
- a cap on the connections one address holds (``Settings.connections_per_address``:
  429 past it), below the global one, so one address cannot fill the server; the
  addresses trusted for forwarded headers (a reverse proxy) are left to the proxy;
- WebSocket pings counted like messages (`BURST` at once, `RATE` a second) and their
  pongs written with back-pressure: a socket that sends pings and never reads the
  pongs is closed, and while a socket's writes do not drain its reads wait too;
- a text frame that is not UTF-8 closes its socket with 1007 and one log line, not a
  traceback.

uvicorn's own settings do the rest: connections at once (``limit_concurrency``: 503
past it), idle keep-alive, WebSocket frame size, and a bounded graceful shutdown.

Its log lines (time, level, node, table, message; or JSON) are set up by
`shedkit.server.logs` for as long as the server runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import json
import logging
import math
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, cast

import uvicorn
from sqlalchemy.engine import make_url
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

import shedkit
from shedkit.server.app import create_app
from shedkit.server.connection import BURST, RATE
from shedkit.server.logs import configured
from shedkit.server.node import announcement, log_name
from shedkit.server.settings import LOOPBACK_HOSTS, Settings, TokenBucket
from shedkit.server.storage import DEFAULT_URL

__all__ = [
    "WS_MAX_SIZE",
    "AnnouncingServer",
    "Edge",
    "GuardedH11Protocol",
    "GuardedWebSocketProtocol",
    "serve",
    "uvicorn_config",
]

log = logging.getLogger("shedkit.server")

#: WebSocket frames above this size close the connection; the app answers anything over
#: its own 4 KiB limit with an error, so this only stops abuse at the protocol level.
WS_MAX_SIZE = 64 * 1024
#: Bytes a WebSocket may have waiting in its write buffer when a ping comes: a pong is
#: at most 127 bytes and the app waits for the buffer to drain before each message, so
#: more than this means the peer is not reading.
WS_MAX_PENDING: Final = 256 * 1024
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _networks(trusted: list[str] | str) -> tuple[Network, ...] | None:
    """uvicorn's ``forwarded_allow_ips`` as networks; ``None`` for "*" (every address)."""
    items = trusted.split(",") if isinstance(trusted, str) else list(trusted)
    names = [item.strip() for item in items if item.strip()]
    if "*" in names:
        return None
    networks: list[Network] = []
    for name in names:
        with contextlib.suppress(ValueError):  # a unix socket's name: no address to match
            networks.append(ipaddress.ip_network(name, strict=False))
    return tuple(networks)


@dataclass
class Edge:
    """What the edge's protocols share: its deadlines, and the connections per address."""

    head_timeout: float = 10.0
    send_timeout: float = 10.0
    per_address: int = 256
    #: Addresses without a cap (a reverse proxy: its own limits apply); ``None``: all.
    exempt: tuple[Network, ...] | None = ()
    open: dict[str, set[asyncio.BaseTransport]] = field(default_factory=dict)

    def admit(self, host: str | None, transport: asyncio.BaseTransport) -> bool:
        """Count ``transport`` against ``host``; False (not counted) past the cap."""
        if host is None or self._exempt(host):
            return True
        held = self.open.setdefault(host, set())
        if transport not in held and len(held) >= self.per_address:
            return False
        held.add(transport)
        return True

    def release(self, host: str | None, transport: asyncio.BaseTransport) -> None:
        """Stop counting ``transport`` (a connection closed, or handed to another protocol)."""
        held = self.open.get(host or "")
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[host or ""]

    def _exempt(self, host: str) -> bool:
        if self.exempt is None:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.exempt)


def _reset(transport: asyncio.BaseTransport) -> None:
    """Drop a connection at once, unsent data included (a peer that does not read)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            # Linger 0: the kernel discards the send queue and answers with a reset,
            # instead of keeping the data for a peer that will not take it.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    # uvloop's transports (the event loop `uvicorn[standard]` runs) are not subclasses of
    # asyncio's, but have the same methods.
    cast(asyncio.WriteTransport, transport).abort()


def _too_many_connections(limit: int) -> bytes:
    """The answer to a connection past its address's cap."""
    error = {
        "code": "rate_limited",
        "message": f"at most {limit} connections from one address",
        "data": {"limit": limit, "reason": "connections"},
    }
    body = json.dumps({"error": error}).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class SendDeadline:
    """A timer that resets a connection whose writes stay paused ``send_timeout`` seconds.

    The transport's high-water mark is 0, so asyncio pauses writing as soon as it holds
    a byte the kernel would not take (the kernel's buffer for this peer is full: the
    peer reads nothing, or too little), and resumes it once all is handed over. A peer
    must so take what it was sent, a chunk at a time, within the deadline, and a
    connection being closed with unsent data is reset when it passes. Each protocol
    below holds one, and tells it when writing pauses, resumes, and the connection ends.
    """

    def __init__(self, edge: Edge, transport: asyncio.BaseTransport, host: str | None) -> None:
        self.edge, self.transport, self.host = edge, transport, host
        self.timer: asyncio.TimerHandle | None = None
        cast(asyncio.WriteTransport, transport).set_write_buffer_limits(high=0)

    def paused(self) -> None:
        """The peer is not reading: start the deadline."""
        if self.timer is None:
            loop = asyncio.get_running_loop()
            self.timer = loop.call_later(self.edge.send_timeout, self._passed)

    def resumed(self) -> None:
        """The peer read: stop the deadline."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def lost(self) -> None:
        """The connection ended: stop the deadline and the count of its address."""
        self.resumed()
        self.edge.release(self.host, self.transport)

    def _passed(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            log.info("a peer read nothing for %g s: disconnected", self.edge.send_timeout)
        _reset(self.transport)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with deadlines on every request's head and every answer,
    and a cap on the connections of one address.

    uvicorn's keep-alive timer restarts on any byte received, and no timer runs before
    the first request, so a client trickling a header line every few seconds would
    hold its connection (and its buffer) for ever. Here a connection whose next
    request head is not complete ``head_timeout`` seconds after the connection opened
    or the last response ended is closed. A request in progress and a WebSocket (the
    protocol has been swapped for uvicorn's WebSocket one by then) are left alone by
    that deadline; the send deadline (`SendDeadline`) covers an answer nobody reads.
    """

    edge: Edge = Edge()
    sending: SendDeadline | None = None

    @property
    def head_timeout(self) -> float:
        """Seconds a request's head may take to arrive."""
        return self.edge.head_timeout

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection against its address, then start the head's deadline."""
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        self.sending = SendDeadline(self.edge, transport, host)
        if not self.edge.admit(host, transport):
            # Answered at once and closed; its request, if any, is not read.
            transport.write(_too_many_connections(self.edge.per_address))
            transport.close()
            return
        self._arm_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the send deadline and the count of the connection's address."""
        if self.sending is not None:
            self.sending.lost()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The peer is not reading: start the send deadline."""
        super().pause_writing()
        if self.sending is not None:
            self.sending.paused()

    def resume_writing(self) -> None:
        """The peer read: stop the send deadline."""
        super().resume_writing()
        if self.sending is not None:
            self.sending.resumed()

    def on_response_complete(self) -> None:
        """Start the deadline for the next request's head."""
        super().on_response_complete()
        self._arm_head_deadline()

    def _arm_head_deadline(self) -> None:
        if not self.transport.is_closing():
            self.loop.call_later(self.head_timeout, self._head_deadline, self.cycle)

    def _head_deadline(self, cycle: Any) -> None:
        transport = self.transport
        if transport.is_closing() or self.cycle is not cycle:
            return  # closed already, or a new request's head arrived in time
        if transport.get_protocol() is not self:
            return  # upgraded to a WebSocket
        if cycle is not None and not cycle.response_complete:
            return  # a request is being answered
        transport.close()


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (on the `websockets` library's state machine) with
    pings under the same discipline as messages.

    A ping is answered at once, with no flow control, so a client sending pings and
    never reading the pongs made the server's memory grow without bound. Here pings
    are counted like messages (`BURST` at once, `RATE` a second; past that the socket
    is closed with 1008), a ping that finds more than `WS_MAX_PENDING` bytes unsent
    resets the connection, and while writes do not drain nothing more is read; writes
    that stay stuck for ``send_timeout`` reset it too. The connection stays counted
    against its address (`Edge`) until it is lost.
    """

    edge: Edge = Edge()
    sending: SendDeadline | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pings = TokenBucket(float(BURST), RATE)
        self._stalled = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the connection counted (the HTTP protocol counted it before the upgrade)."""
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        self.sending = SendDeadline(self.edge, transport, host)
        self.edge.admit(host, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the send deadline and the count of the connection's address."""
        if self.sending is not None:
            self.sending.lost()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The peer is not reading: read nothing more from it, and start the deadline."""
        super().pause_writing()
        self._stalled = True
        if self.sending is not None:
            self.sending.paused()
        if not self.transport.is_closing():
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        """The peer read: read again, unless the app's queue holds a message."""
        super().resume_writing()
        self._stalled = False
        if self.sending is not None:
            self.sending.resumed()
        if not self.read_paused and not self.transport.is_closing():
            self.transport.resume_reading()

    async def receive(self) -> Any:
        """The next event for the app; reading resumes once it is taken, unless stalled."""
        message = await self.queue.get()
        if self.read_paused and self.queue.empty():
            self.read_paused = False
            if not self._stalled and not self.transport.is_closing():
                self.transport.resume_reading()
        return message

    def handle_ping(self) -> None:
        """Answer a ping within the rate, with room in the buffer; else close."""
        if self.close_sent or self.transport.is_closing():
            return
        if self.transport.get_write_buffer_size() > WS_MAX_PENDING:
            log.info("a WebSocket sent pings and read no pongs: disconnected")
            _reset(self.transport)
            return
        if not self._pings.allow():
            log.info("a WebSocket sent pings past the rate: closed")
            self._fail(1008, "too many pings")
            return
        super().handle_ping()

    def send_receive_event_to_app(self) -> None:
        """Hand a whole message to the app; a text one that is not UTF-8 closes with 1007."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.info("a WebSocket sent a text message that is not UTF-8: closed")
                self._fail(1007, "invalid UTF-8")
                return
        super().send_receive_event_to_app()

    def _fail(self, code: int, reason: str) -> None:
        """Send a close frame, tell the app, and close the transport."""
        self.conn.send_close(code, reason)
        self.handle_parser_exception()


def uvicorn_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """The uvicorn configuration of ``app`` with the edge limits of ``settings``."""
    # No permessage-deflate: a state message is a few kilobytes sent after every move, and
    # compressing each one cost the event loop a sixth of its time under load (profiled in
    # the soak benchmark); the server's latency is the CPU it gets.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=GuardedH11Protocol,
        ws=GuardedWebSocketProtocol,
        h11_max_incomplete_event_size=settings.max_head,
        limit_concurrency=settings.max_connections,
        timeout_keep_alive=settings.keep_alive,
        timeout_graceful_shutdown=math.ceil(settings.shutdown_grace),
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
    )
    # The addresses trusted for forwarded headers (a reverse proxy) speak for many clients.
    exempt = _networks(config.forwarded_allow_ips) if config.proxy_headers else ()
    edge = Edge(
        head_timeout=settings.request_timeout,
        send_timeout=settings.send_timeout,
        per_address=settings.connections_per_address,
        exempt=exempt,
    )
    # Classes of this server's own, sharing its edge (uvicorn makes one protocol object
    # per connection from them when it starts).
    config.http = type("GuardedH11Protocol", (GuardedH11Protocol,), {"edge": edge})
    config.ws = type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), {"edge": edge})
    return config


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    settings: Settings | None = None,
    trusted_hosts: tuple[str, ...] = (),
    out: Any = None,
) -> int:
    """Serve until interrupted; return the exit status.

    The ``Host`` names answered are ``trusted_hosts`` if given, else the loopback names
    and ``host``; a server bound to every address (``0.0.0.0``) answers any name unless
    told which (behind a reverse proxy, name the site).
    """
    url = db or DEFAULT_URL
    base = settings or Settings()
    if trusted_hosts:
        names = trusted_hosts
    elif host in ("0.0.0.0", "::"):
        names = ("*",)
    else:
        names = tuple(dict.fromkeys((*LOOPBACK_HOSTS, host)))
    base = dataclasses.replace(base, trusted_hosts=names)
    app = create_app(url, tune_gc=True, settings=base)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    # Passwords in the URLs stay out of the terminal and the logs.
    where = make_url(url).render_as_string(hide_password=True)
    # The bots play the same moves on both builds; the compiled one plays them faster.
    build = " (compiled build)" if shedkit.compiled else ""

    def say(text: str) -> None:
        if out is not None:
            out.print(text, markup=False, soft_wrap=True)
        else:
            print(text, flush=True)

    def announce(bound: int) -> None:
        # The port bound, which --port 0 leaves to the system: a script reads it here.
        say(f"shedkit{build}: {announcement(base, f'http://{shown}:{bound}/', where)}")

    server = AnnouncingServer(uvicorn_config(app, base, host, port), announce)
    # After the uvicorn configuration, which sets up uvicorn's loggers as it is made.
    try:
        with configured(log_name(base), base.log_format):
            server.run()
    except SystemExit:
        if getattr(getattr(server, "lifespan", None), "startup_failed", False):
            # The app could not start (its database or, on a cluster, Redis): logged above.
            say("shedkit serve: the server could not start; the error is above")
        else:
            # uvicorn has logged why it could not listen (a busy port, a bad address).
            say(f"shedkit serve: could not listen on {host}:{port}; try another --port or --host")
        return 1
    return 0


class AnnouncingServer(uvicorn.Server):
    """A uvicorn server that says where to go only once its port is bound, so a busy
    port shows its error and no link."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[int], None]) -> None:
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets: Any = None) -> None:
        """Bind as uvicorn does, then announce the address with the port bound."""
        await super().startup(sockets)
        if self.started:
            self.announce(self.bound_port())

    def bound_port(self) -> int:
        """The port the server listens on: the one asked for, or the system's pick for 0."""
        for server in getattr(self, "servers", ()):
            for sock in server.sockets:
                return int(sock.getsockname()[1])
        return int(self.config.port)
