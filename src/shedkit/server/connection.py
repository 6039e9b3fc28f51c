"""One WebSocket as the rooms see it: the seat it speaks for, its rate and its outbox.

A `Connection` is the same for a browser's socket on this node and, on a cluster, for a
socket another node holds (its `Sender` relays). What a room posts goes to the outbox;
`write_out` sends it, in order, and closes a connection that fell too far behind.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Final, Protocol

from starlette.websockets import WebSocketDisconnect

from shedkit.server.settings import TokenBucket

__all__ = [
    "BURST",
    "MAX_MESSAGE",
    "OUTBOX",
    "RATE",
    "Connection",
    "Sender",
    "stop_writing",
    "write_out",
]

#: Largest client message accepted, in characters.
MAX_MESSAGE: Final = 4096
#: A connection may send this many messages at once, refilled at RATE per second.
BURST: Final = 30
RATE: Final = 10.0
#: Messages waiting for a slow client beyond this close its connection (it reconnects,
#: resyncs).
OUTBOX: Final = 256


class Sender(Protocol):
    """What a room needs of a WebSocket: send one JSON text, close with a code.

    A browser's WebSocket, or on a cluster the relay to a socket held by another node.
    """

    async def send_text(self, data: str) -> None:
        """Send one text message."""
        ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the connection with ``code``."""
        ...


@dataclass(slots=True)
class Connection:
    """One WebSocket: the seat it speaks for (``None``: a spectator) and its outbox."""

    sender: Sender
    table_id: str
    seat: int | None = None
    # Who opened it (cookie, else address) and from where: the connection caps count both.
    client: str = ""
    address: str = ""
    # The close code sent once the outbox is empty after ``closed`` is set.
    close_code: int = 4408
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    rate: TokenBucket = field(default_factory=lambda: TokenBucket(float(BURST), RATE))
    flood_warned: bool = False
    closed: bool = False
    # A state asked for while writes were pending goes out once they are committed.
    pending_state: bool = False

    def allow(self) -> bool:
        """True if this message is within the connection's rate (`BURST`, `RATE`)."""
        if self.rate.allow():
            self.flood_warned = False
            return True
        return False

    def post(self, message: str) -> None:
        """Queue a message; a client too slow to take it is dropped (it will resync)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.closed = True

    def shut(self, code: int) -> None:
        """Close with ``code`` once what is queued is sent (an empty text wakes the writer)."""
        if self.closed:
            return
        self.close_code, self.closed = code, True
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait("")


async def write_out(conn: Connection) -> None:
    """Send a connection's queued messages in order; close it once it is ``closed``."""
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


async def stop_writing(conn: Connection, writer: asyncio.Task[None]) -> None:
    """End a connection's writer (`write_out`); a closed connection's gets a second to
    send what is queued (a closing error) and the close frame."""
    if conn.closed and not writer.done():
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(writer), 1.0)
    writer.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await writer
