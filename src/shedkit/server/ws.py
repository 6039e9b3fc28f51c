"""The WebSocket ``/ws/{id}``: one connection's messages in, its outbox out.

Every client message comes through `handle`, which checks it and hands it to the
manager; what the manager posts to the connection's outbox, `_writer` sends, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Final
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from shedkit.core.errors import ShedkitError
from shedkit.server.errors import ServerError, error_message, try_again
from shedkit.server.inputs import check_json
from shedkit.server.manager import MAX_MESSAGE, Connection, Manager, TableRuntime

__all__ = ["CLIENT_COOKIE", "handle", "origin_allowed", "serve_socket", "session"]

log = logging.getLogger("shedkit.server")

CLIENT_COOKIE: Final = "sk_client"
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
    """Serve one WebSocket of table ``table_id`` until it closes.

    On a cluster, a table held by another node is reached through the relay
    (`shedkit.server.cluster`): the socket is counted here against the client and
    address caps, and the owner sees it as one of its connections.
    """
    host = websocket.headers.get("host")
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, host, allowed_origins, websocket.url.scheme):
        await websocket.close(code=4403)  # a page of another site may not play here
        return
    await websocket.accept()
    manager: Manager = websocket.app.state.manager
    cookie = websocket.cookies.get(CLIENT_COOKIE)
    address = "a:" + (websocket.client.host if websocket.client else "")
    client = "c:" + cookie if cookie and len(cookie) <= 64 else address
    cluster = manager.cluster
    table = manager.tables.get(table_id)
    owner = None
    # Counted against the cluster's caps in Redis (else by this node, as on a single one).
    counted = False
    try:
        if table is None and cluster is not None:
            owner = await cluster.locate(table_id)
            table = manager.tables.get(table_id)
        if table is None and owner is None:
            raise ServerError("not_found", f"no table {table_id!r}", 404, {"table": table_id})
        if cluster is not None:
            counted = await cluster.admit_socket(client, address)
            if not counted and table is None:
                # A relayed socket needs Redis: the browser tries again (any node).
                raise try_again()
    except ServerError as err:
        await websocket.send_text(error_message(err))
        await websocket.close(code=4404 if err.code == "not_found" else 4429)
        return

    async def receive() -> str | None:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        raw = message.get("text")
        if raw is None:
            data = message.get("bytes") or b""
            raw = data.decode("utf-8", "replace")
        return str(raw)

    try:
        if owner is not None and table is None:
            assert cluster is not None
            await cluster.relay.serve(websocket, receive, table_id, owner, client, address)
        else:
            assert table is not None
            conn = Connection(
                websocket, table_id, client=client, address=address, caps_elsewhere=counted
            )
            await session(manager, table, conn, receive)
    except WebSocketDisconnect:
        pass
    finally:
        if cluster is not None and counted:
            cluster.release_socket(client, address)


async def session(
    manager: Manager,
    table: TableRuntime,
    conn: Connection,
    receive: Callable[[], Awaitable[str | None]],
) -> None:
    """One connection at a table it holds: admitted, fed ``receive``'s messages, released.

    ``receive`` gives each message as text, ``None`` once the socket closed. The same for
    a browser's socket and, on a cluster, a socket held by another node.
    """
    try:
        manager.admit(table, conn)
    except ServerError as err:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await conn.sender.send_text(error_message(err))
            await conn.sender.close(code=4429)
        return
    writer = asyncio.create_task(_writer(conn))
    try:
        manager.connect(table, conn)
        while not conn.closed:
            raw = await receive()
            if raw is None:
                break
            handle(manager, table, conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        manager.release(conn)
        manager.disconnect(table, conn)
        if conn.closed and not writer.done():
            # Let the writer send what is queued (a closing error) and the close frame.
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(writer), 1.0)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def _writer(conn: Connection) -> None:
    """Send a connection's queued messages in order; close it when it fell too far behind."""
    try:
        while True:
            message = await conn.outbox.get()
            if message:
                await conn.sender.send_text(message)
            if conn.closed and conn.outbox.empty():
                await conn.sender.close(code=conn.close_code)
                return
    except (WebSocketDisconnect, RuntimeError):
        conn.closed = True


def handle(manager: Manager, table: TableRuntime, conn: Connection, raw: str) -> None:
    """Validate and carry out one client message; answer any problem with an error."""
    if not conn.allow():
        manager.errors += 1
        if not conn.flood_warned:
            conn.flood_warned = True
            slow = {"reason": "messages"}
            conn.post(
                error_message(
                    ServerError("rate_limited", "too many messages; slow down", data=slow)
                )
            )
        return
    if len(raw) > MAX_MESSAGE:
        manager.errors += 1
        limit = {"limit": MAX_MESSAGE}
        text = f"messages are at most {MAX_MESSAGE} characters"
        conn.post(error_message(ServerError("too_large", text, data=limit)))
        return
    try:
        message = json.loads(raw)
    except ValueError:
        manager.errors += 1
        conn.post(error_message(ServerError("bad_json", "the message is not JSON")))
        return
    except RecursionError:
        manager.errors += 1
        conn.post(error_message(ServerError("bad_json", "the message is nested too deeply")))
        return
    if not isinstance(message, dict):
        manager.errors += 1
        conn.post(
            error_message(ServerError("bad_message", "a message is a JSON object with a 'type'"))
        )
        return
    try:
        # The one door for WebSocket input: every string and number of the message.
        check_json(message, "message")
    except ServerError as err:
        manager.errors += 1
        conn.post(error_message(err))
        return
    kind = message.get("type")
    ref = message.get("id") if isinstance(message.get("id"), (int, str)) else None
    try:
        if kind == "hello":
            manager.hello(table, conn, message.get("token"))
        elif kind == "move":
            manager.move(table, conn.seat, message.get("move"), message.get("state_id"))
        elif kind == "chat":
            manager.chat(
                table, conn, message.get("text"), message.get("phrase"), message.get("emote")
            )
        elif kind == "next":
            _seated(conn)
            manager.next_deal(table)
        elif kind == "start":
            _seated(conn)
            manager.fill_with_bots(table)
        elif kind == "leave":
            seat = _seated(conn)
            manager.leave_seat(table, seat)
            manager.send_state(table, conn)
        elif kind == "sync":
            manager.send_state(table, conn)
        elif kind == "ping":
            conn.post(json.dumps({"type": "pong", "ref": ref}))
        else:
            raise ServerError(
                "unknown_type",
                f"unknown message type {kind!r}; "
                "valid: hello, move, chat, next, start, leave, sync, ping",
                data={"type": str(kind)[:40]},
            )
    except ServerError as err:
        manager.errors += 1
        conn.post(error_message(err, ref))
    except ShedkitError as err:
        manager.errors += 1
        conn.post(error_message(ServerError("bad_request", str(err)), ref))
    except Exception:
        # A bug, not the client's fault: logged, answered, and the connection kept.
        log.exception("message %r failed at table %s", str(kind)[:40], table.id)
        manager.errors += 1
        conn.post(
            error_message(ServerError("server_error", "the server failed on that message"), ref)
        )


def _seated(conn: Connection) -> int:
    if conn.seat is None:
        raise ServerError("not_seated", "take a seat first")
    return conn.seat
