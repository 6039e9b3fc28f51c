"""Running the server under uvicorn (``shedkit serve``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import uvicorn

from shedkit.server.app import create_app
from shedkit.server.settings import LOOPBACK_HOSTS, Settings
from shedkit.server.storage import DEFAULT_URL

__all__ = ["WS_MAX_SIZE", "serve"]

#: WebSocket frames above this size close the connection; the app answers anything over
#: its own 4 KiB limit with an error, so this only stops abuse at the protocol level.
WS_MAX_SIZE = 64 * 1024


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
    app = create_app(url, tune_gc=True, settings=dataclasses.replace(base, trusted_hosts=names))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    message = f"shedkit: open http://{shown}:{port}/ in a browser (database {url}); Ctrl-C stops"
    if out is not None:
        out.print(message, markup=False, soft_wrap=True)
    else:
        print(message)
    # No permessage-deflate: a state message is a few kilobytes sent after every move, and
    # compressing each one cost the event loop a sixth of its time under load (profiled in
    # the soak benchmark); the server's latency is the CPU it gets.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    return 0
