"""The WebSocket ``/ws/{id}``: the socket edge.

A socket's page must be of this site (the Origin check); the socket is then handed to
the node (`Node.connect`), which serves it at the table's room or relays it to the node
that holds the table.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from fastapi import WebSocket

from shedkit.server.identity import address_of, client_of
from shedkit.server.node import Node

__all__ = ["origin_allowed", "serve_socket"]

DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """Scheme, host and port of an origin, the default port written out; None if unreadable."""
    try:
        parts = urlsplit(url)
        port = parts.port or DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def origin_allowed(
    origin: str | None, host: str | None, allowed: tuple[str, ...], scheme: str = "ws"
) -> bool:
    """True for no ``Origin`` (not a browser), the page's own origin, or an allowed one.

    Scheme, host and port are compared: a page served over ``http`` (its socket ``ws``)
    has the origin ``http://host``, one over ``https`` (``wss``, behind a TLS proxy)
    ``https://host``; an ``https`` origin for an ``http`` page is another site.
    """
    if origin is None or "*" in allowed:
        return True
    seen = _origin(origin)
    if seen is None:
        return False
    if any(_origin(a) == seen for a in allowed):
        return True
    page = "https" if scheme in ("wss", "https") else "http"
    return host is not None and _origin(f"{page}://{host}") == seen


async def serve_socket(
    websocket: WebSocket, table_id: str, allowed_origins: tuple[str, ...]
) -> None:
    """Serve one WebSocket of table ``table_id`` until it closes (`Node.connect`).

    A page of another site is refused (4403) before the socket is accepted.
    """
    host = websocket.headers.get("host")
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, host, allowed_origins, websocket.url.scheme):
        await websocket.close(code=4403)  # a page of another site may not play here
        return
    await websocket.accept()
    node: Node = websocket.app.state.node
    client, address = client_of(websocket), address_of(websocket)

    async def receive() -> str | None:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        raw = message.get("text")
        if raw is None:
            data = message.get("bytes") or b""
            raw = data.decode("utf-8", "replace")
        return str(raw)

    await node.connect(websocket, table_id, client, address, receive)
