"""The hub: the WebSockets of every table, their caps, and the fan-out of messages.

A change at a table goes out as one ``state`` message per seat (the table's public
part encoded once), queued behind the writes that hold it and posted to each
connection's outbox once they are committed, in order. Chat lines travel the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, Protocol

from shedkit.protocol.views import serialize_view
from shedkit.server.base import RoomBase
from shedkit.server.errors import ServerError
from shedkit.server.storage import json_text as _dumps  # one encoder for rows and messages
from shedkit.server.table import TableRuntime

__all__ = ["BURST", "EMOTES", "MAX_MESSAGE", "QUICK_PHRASES", "Connection", "Hub", "Sender"]

#: Largest client message accepted, in characters.
MAX_MESSAGE: Final = 4096
MAX_CHAT: Final = 300
#: The quick phrases and emotes a seat may send as codes: each client words a phrase in its
#: own language (``table.quick.phrase.<code>`` in the catalogues) and draws an emote.
QUICK_PHRASES: Final = (
    "well_played",
    "good_luck",
    "hurry_up",
    "thanks",
    "oops",
    "nice_bomb",
    "good_game",
    "one_more",
)
EMOTES: Final = ("thumbs_up", "laugh", "wow", "sad", "fire", "clap")
# A connection may send this many messages at once, refilled at RATE per second.
BURST: Final = 30
RATE: Final = 10.0
# Messages waiting for a slow client beyond this close its connection (it reconnects, resyncs).
OUTBOX: Final = 256


class Sender(Protocol):
    """What the manager needs of a WebSocket: send one JSON text, close with a code.

    A browser's WebSocket, or on a cluster the relay to a socket held by another node.
    """

    async def send_text(self, data: str) -> None:
        """Send one text message."""
        ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the connection with ``code``."""
        ...


@dataclass
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
    tokens: float = float(BURST)
    refilled: float = field(default_factory=time.monotonic)
    flood_warned: bool = False
    closed: bool = False
    # A state asked for while writes were pending goes out once they are committed.
    pending_state: bool = False
    # On a cluster the node the socket reached counts it against the client and address
    # caps; the table's owner counts it against the table's cap only.
    caps_elsewhere: bool = False

    def allow(self) -> bool:
        """Token bucket: True if this message is within the rate limit."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
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


class Hub(RoomBase):
    """Connections: admitted under caps, bound to seats, sent each change once committed."""

    def admit(self, table: TableRuntime, conn: Connection) -> None:
        """Count a new WebSocket against the caps, or refuse it (``too_many_connections``).

        Caps per table, per client (its cookie) and per address: one script cannot hold
        a thousand sockets, and forged cookies still share their address's cap.
        """
        s = self.settings
        checks = [(len(table.connections), s.ws_per_table, "table")]
        if not conn.caps_elsewhere:
            checks += [
                (self.sockets.get(conn.client, 0), s.ws_per_client, "client"),
                (self.sockets.get(conn.address, 0), s.ws_per_address, "address"),
            ]
        for count, limit, reason in checks:
            if count >= limit:
                raise ServerError(
                    "too_many_connections",
                    f"at most {limit} connections per {reason}; close some first",
                    429,
                    {"limit": limit, "reason": reason},
                )
        if conn.caps_elsewhere:
            return
        for key in {conn.client, conn.address}:
            self.sockets[key] = self.sockets.get(key, 0) + 1

    def release(self, conn: Connection) -> None:
        """Uncount a WebSocket that `admit` counted."""
        if conn.caps_elsewhere:
            return
        for key in {conn.client, conn.address}:
            left = self.sockets.get(key, 0) - 1
            if left > 0:
                self.sockets[key] = left
            else:
                self.sockets.pop(key, None)

    def connect(self, table: TableRuntime, conn: Connection) -> None:
        """Register a connection (a spectator until it says hello with a token)."""
        table.connections.append(conn)
        table.last_activity = time.monotonic()
        self.send_state(table, conn)
        # Marked as past: a client shows them in the chat but pops no emote for them.
        for line in table.chat:
            conn.post(_dumps({"type": "chat", **line, "past": True}))

    def hello(self, table: TableRuntime, conn: Connection, token: Any) -> None:
        """Bind the connection to the seat ``token`` holds; a player back from away resumes."""
        if token is None:
            self._unbind(table, conn)
            self.send_state(table, conn)
            return
        seat = self.seat_of(table, token)
        info = table.seats[seat]
        if conn.seat != seat:
            self._unbind(table, conn)
            conn.seat = seat
            info.connections += 1
            timer = table.away_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
        # Back from away, but the timeouts stand until a move: a player who only says
        # hello after each timeout is away again at the next one, on a shorter clock.
        info.away = False
        self._changed(table, save=False)

    def disconnect(self, table: TableRuntime, conn: Connection) -> None:
        """Forget a connection; a seat left with none is played by its bot after a while."""
        conn.closed = True
        if conn in table.connections:
            table.connections.remove(conn)
        self._unbind(table, conn)
        if self.tables.get(table.id) is table:
            self._changed(table, save=False)

    def _unbind(self, table: TableRuntime, conn: Connection) -> None:
        seat = conn.seat
        if seat is None:
            return
        conn.seat = None
        info = table.seats[seat]
        info.connections = max(0, info.connections - 1)
        self._away_later(table, seat)

    def chat(
        self,
        table: TableRuntime,
        conn: Connection,
        text: Any,
        phrase: Any = None,
        emote: Any = None,
    ) -> None:
        """Post a chat line under the seat's name (spectators may not chat).

        A line is free ``text``, or a quick ``phrase`` or an ``emote`` by its code (one of
        `QUICK_PHRASES`, `EMOTES`): the code travels, each client words it.
        """
        if conn.seat is None:
            raise ServerError("not_seated", "take a seat to chat", data={"reason": "chat"})
        if sum(v is not None for v in (text, phrase, emote)) > 1:
            raise ServerError(
                "bad_message", "a chat message has one of 'text', 'phrase' or 'emote'"
            )
        said: dict[str, str]
        if phrase is not None:
            if not isinstance(phrase, str) or phrase not in QUICK_PHRASES:
                raise ServerError(
                    "bad_phrase",
                    f"unknown quick phrase; valid: {', '.join(QUICK_PHRASES)}",
                    data={"valid": list(QUICK_PHRASES)},
                )
            said = {"phrase": phrase}
        elif emote is not None:
            if not isinstance(emote, str) or emote not in EMOTES:
                raise ServerError(
                    "bad_emote",
                    f"unknown emote; valid: {', '.join(EMOTES)}",
                    data={"valid": list(EMOTES)},
                )
            said = {"emote": emote}
        else:
            if not isinstance(text, str) or not text.strip():
                raise ServerError("bad_message", "a chat message needs 'text'")
            if len(text) > MAX_CHAT:
                raise ServerError(
                    "too_long",
                    f"chat lines are at most {MAX_CHAT} characters",
                    data={"limit": MAX_CHAT},
                )
            said = {"text": text.strip()}
        line = {
            "seat": conn.seat,
            "name": table.seats[conn.seat].name,
            **said,
            "at": time.time(),
        }
        table.chat.append(line)
        message = _dumps({"type": "chat", **line})
        self._save(table)
        self._publish(table, [(other, message) for other in table.connections])

    # -- sending ---------------------------------------------------------------------

    def state_message(
        self, table: TableRuntime, seat: int | None, public: str | None = None
    ) -> str:
        """The ``state`` message for ``seat``: the table and that seat's view only.

        ``public``, the table's JSON, is the same for every seat: a change encodes it once.
        """
        view = None
        if table.state is not None:
            view = serialize_view(table.game_name, table.state.view(seat))
        shown = public if public is not None else _dumps(table.public())
        head = _dumps({"type": "state", "you": seat, "state_id": table.state_id})
        return f'{head[:-1]},"table":{shown},"view":{_dumps(view)}}}'

    def send_state(self, table: TableRuntime, conn: Connection) -> None:
        """Queue the current state for one connection, once what it shows is committed."""
        if table.outq:
            conn.pending_state = True
        else:
            conn.post(self.state_message(table, conn.seat))

    def _changed(self, table: TableRuntime, save: bool = True) -> None:
        if save:
            self._save(table)
        self._arm_clocks(table)
        by_seat: dict[int | None, str] = {}
        batch = []
        public = _dumps(table.public()) if table.connections else None
        for conn in table.connections:
            message = by_seat.get(conn.seat)
            if message is None:
                message = by_seat[conn.seat] = self.state_message(table, conn.seat, public)
            batch.append((conn, message))
        self._publish(table, batch)
        self._kick(table)

    def _publish(self, table: TableRuntime, batch: list[tuple[Connection, str]]) -> None:
        """Send ``batch`` once every write queued so far is committed, in order."""
        if table.lost:
            return  # not stored, so never sent
        table.seq += 1
        table.outq.append((table.seq, batch))
        self.storage.on_commit(partial(self._committed, table, table.seq))

    def _committed(self, table: TableRuntime, seq: int) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            self._drain(table, seq)
        else:
            loop.call_soon_threadsafe(self._drain, table, seq)

    def _drain(self, table: TableRuntime, upto: int) -> None:
        outq = table.outq
        while outq and outq[0][0] <= upto:
            for conn, message in outq.popleft()[1]:
                conn.post(message)
        if not outq:
            for conn in table.connections:
                if conn.pending_state:
                    conn.pending_state = False
                    conn.post(self.state_message(table, conn.seat))
