"""Running the server under uvicorn (``shedkit serve``), with limits at the edge.

The HTTP edge is uvicorn's h11 protocol, whose parser bounds a request's head
(``Settings.max_head``: a huge header, or thousands of them, is answered 400 and the
connection closed), with one addition: a deadline for each request's head
(``Settings.request_timeout``), so a socket that sends nothing, or a header line now
and then, is closed instead of held for ever. uvicorn's own settings do the rest:
connections at once (``limit_concurrency``: 503 past it), idle keep-alive, WebSocket
frame size, and a bounded graceful shutdown.

Its log lines (time, level, node, table, message; or JSON) are set up by
`shedkit.server.logs` for as long as the server runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

import uvicorn
from sqlalchemy.engine import make_url
from uvicorn.protocols.http.h11_impl import H11Protocol

import shedkit
from shedkit.server.app import create_app
from shedkit.server.logs import configured
from shedkit.server.settings import LOOPBACK_HOSTS, Settings
from shedkit.server.storage import DEFAULT_URL

__all__ = ["WS_MAX_SIZE", "AnnouncingServer", "GuardedH11Protocol", "serve", "uvicorn_config"]

#: WebSocket frames above this size close the connection; the app answers anything over
#: its own 4 KiB limit with an error, so this only stops abuse at the protocol level.
WS_MAX_SIZE = 64 * 1024


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on every request's head.

    uvicorn's keep-alive timer restarts on any byte received, and no timer runs before
    the first request, so a client trickling a header line every few seconds would
    hold its connection (and its buffer) for ever. Here a connection whose next
    request head is not complete ``head_timeout`` seconds after the connection opened
    or the last response ended is closed. A request in progress and a WebSocket (the
    protocol has been swapped for uvicorn's WebSocket one by then) are left alone.
    """

    head_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the deadline for the first request's head."""
        super().connection_made(transport)
        self._arm_head_deadline()

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


def uvicorn_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """The uvicorn configuration of ``app`` with the edge limits of ``settings``."""
    guarded = type(
        "GuardedH11Protocol", (GuardedH11Protocol,), {"head_timeout": settings.request_timeout}
    )
    # No permessage-deflate: a state message is a few kilobytes sent after every move, and
    # compressing each one cost the event loop a sixth of its time under load (profiled in
    # the soak benchmark); the server's latency is the CPU it gets.
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded,
        h11_max_incomplete_event_size=settings.max_head,
        limit_concurrency=settings.max_connections,
        timeout_keep_alive=settings.keep_alive,
        timeout_graceful_shutdown=math.ceil(settings.shutdown_grace),
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
    )


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
    redis = re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", base.cluster_url or "")

    def say(text: str) -> None:
        if out is not None:
            out.print(text, markup=False, soft_wrap=True)
        else:
            print(text, flush=True)

    def announce(bound: int) -> None:
        # The port bound, which --port 0 leaves to the system: a script reads it here.
        if base.cluster_url is None:
            say(
                f"shedkit{build}: open http://{shown}:{bound}/ in a browser "
                f"(database {where}); Ctrl-C stops"
            )
        else:
            say(
                f"shedkit{build}: node {base.node_id} of the cluster at {redis}, serving "
                f"http://{shown}:{bound}/ (database {where}); Ctrl-C stops this node"
            )

    server = AnnouncingServer(uvicorn_config(app, base, host, port), announce)
    # After the uvicorn configuration, which sets up uvicorn's loggers as it is made.
    node = base.node_id if base.cluster_url is not None else "-"
    try:
        with configured(node, base.log_format):
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
