"""The relay between nodes: sockets and calls carried over Redis pub/sub.

Each node listens on its own channel. A browser's socket that reached a node (the
*edge*) other than its table's owner is relayed, as lila-ws relays for lila: the edge
forwards each message the browser sends to the owner's channel, and the owner, which
sees the socket as one of its table's connections, posts that connection's messages to
the edge's channel. Every frame a node sends goes through one publisher, in the order it
was queued, so a browser gets the same messages in the same order as on a single node.
A request about a table (join, leave, its public state) is a call to its owner over the
same channels, answered once what it changed is stored.

A frame is text: its kind, a connection or call id, and a payload, apart by ``SEP``.
Kinds: ``open`` (edge → owner: a socket joins a table), ``m`` (a browser's message),
``e`` (the browser left), ``o`` (owner → edge: a message for the browser), ``x`` (close
the browser's socket with a code), ``q`` and ``r`` (a call and its answer).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from shedkit.protocol.views import Json
from shedkit.server.connection import (
    MAX_MESSAGE,
    OUTBOX,
    Connection,
    stop_writing,
    write_out,
)
from shedkit.server.errors import ServerError, error_message, try_again
from shedkit.server.member import Member
from shedkit.server.ports import HeldRoom, Receive, Rooms
from shedkit.server.settings import TokenBucket

if TYPE_CHECKING:
    from starlette.websockets import WebSocket


__all__ = ["MOVED", "Relay", "channel", "soon"]

log = logging.getLogger("shedkit.server")

#: The close code of a socket whose table moved to another node: the browser reconnects.
MOVED: Final = 4503
#: Seconds a call to a table's owner may take before the caller looks for it again.
CALL_TIMEOUT: Final = 5.0
# The parts of a frame: kind, connection or call id, payload.
SEP: Final = "\x1f"


@dataclass
class _Remote:
    """At the owner: a socket held by another node (``edge``), fed through ``inbox``."""

    edge: str
    conn: Connection
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


@dataclass
class _Relay:
    """At the edge: a browser's socket whose table another node (``owner``) holds."""

    owner: str
    conn: Connection


class _RemoteSender:
    """How the owner writes to a socket held by another node: frames on that node's channel."""

    def __init__(self, relay: Relay, edge: str, cid: str) -> None:
        self.relay, self.edge, self.cid = relay, edge, cid

    async def send_text(self, data: str) -> None:
        """Relay one message."""
        self.relay.send(self.edge, "o", self.cid, data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Ask the edge to close the browser's socket with ``code``."""
        self.relay.send(self.edge, "x", self.cid, str(code))


class Relay:
    """This node's channel: the sockets it relays to owners, and those relayed to it."""

    def __init__(self, cluster: Member, redis: Redis) -> None:
        self.cluster = cluster
        self.rooms: Rooms = cluster.rooms
        self.me = cluster.me
        self.redis = redis
        self.relays: dict[str, _Relay] = {}
        self.remotes: dict[str, _Remote] = {}
        self.calls: dict[str, asyncio.Future[Json]] = {}
        self.outgoing: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    async def start(self) -> list[asyncio.Task[None]]:
        """Listen on this node's channel; return the listener and publisher tasks."""
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(channel(self.me))
        return [asyncio.create_task(self._listen()), asyncio.create_task(self._publish())]

    def close_all(self) -> None:
        """Close every relayed socket: their browsers reconnect to another node."""
        for relay in list(self.relays.values()):
            relay.conn.shut(MOVED)
        for remote in list(self.remotes.values()):
            remote.conn.shut(MOVED)

    def moved_here(self, table_id: str) -> None:
        """This node took ``table_id`` over: its sockets relayed to the old owner reconnect."""
        for relay in list(self.relays.values()):
            if relay.conn.table_id == table_id:
                relay.conn.shut(MOVED)

    def drop_dead(self, alive: set[str]) -> None:
        """Close the relays whose owner, and end the sessions whose edge, is not ``alive``."""
        for relay in list(self.relays.values()):
            if relay.owner not in alive:
                relay.conn.shut(MOVED)  # the owner is gone: the browser reconnects
        for remote in list(self.remotes.values()):
            if remote.edge not in alive:
                remote.inbox.put_nowait(None)

    def send(self, node: str, kind: str, cid: str, payload: str) -> None:
        """Queue a frame for ``node``'s channel; one publisher keeps them in order."""
        self.outgoing.put_nowait((channel(node), f"{kind}{SEP}{cid}{SEP}{payload}"))

    async def _publish(self) -> None:
        while True:
            batch = [await self.outgoing.get()]
            while not self.outgoing.empty() and len(batch) < 512:
                batch.append(self.outgoing.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, frame in batch:
                        pipe.publish(channel, frame)
                    await pipe.execute()
            except RedisError as err:
                # Lost frames: the sockets concerned resync when they reconnect.
                self.cluster.redis_failed(err)
                await asyncio.sleep(0.2)
            except Exception:
                log.exception("cluster: publishing %d frame(s) failed", len(batch))
                await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except RedisError as err:
                # The subscription is made again when Redis answers (redis-py resubscribes).
                self.cluster.redis_failed(err)
                await asyncio.sleep(0.2)
                continue
            except Exception:
                log.exception("cluster: reading the node's channel failed")
                await asyncio.sleep(0.2)
                continue
            if message is None:
                continue
            data = message["data"]
            frame = data.decode() if isinstance(data, bytes) else str(data)
            kind, cid, payload = frame.split(SEP, 2)
            try:
                self._on_frame(kind, cid, payload)
            except Exception:
                log.exception("cluster: frame %r failed", kind)

    def _on_frame(self, kind: str, cid: str, payload: str) -> None:
        if kind == "o":  # owner → edge: a message for a browser
            relay = self.relays.get(cid)
            if relay is not None:
                relay.conn.post(payload)
        elif kind == "x":  # owner → edge: close that socket
            relay = self.relays.get(cid)
            if relay is not None:
                relay.conn.shut(int(payload))
        elif kind == "m":  # edge → owner: a browser's message
            remote = self.remotes.get(cid)
            if remote is not None:
                remote.inbox.put_nowait(payload)
        elif kind == "e":  # edge → owner: the browser left
            remote = self.remotes.get(cid)
            if remote is not None:
                remote.inbox.put_nowait(None)
        elif kind == "open":
            self._open(cid, orjson.loads(payload))
        elif kind == "q":
            self._answer(cid, orjson.loads(payload))
        elif kind == "r":
            future = self.calls.get(cid)
            if future is not None and not future.done():
                future.set_result(orjson.loads(payload))

    async def serve(
        self,
        websocket: WebSocket,
        receive: Receive,
        table_id: str,
        owner: str,
        client: str,
        address: str,
    ) -> None:
        """Serve a browser's socket whose table ``owner`` holds, until either side closes."""
        cid = secrets.token_hex(8)
        conn = Connection(websocket, table_id, client=client, address=address)
        self.relays[cid] = _Relay(owner, conn)
        hello = {"n": self.me, "t": table_id, "client": client, "address": address}
        self.send(owner, "open", cid, orjson.dumps(hello).decode())
        writer = asyncio.create_task(write_out(conn))
        # Only a guard for Redis: the owner applies the table's own limits to every message.
        guard = TokenBucket(4 * 30.0, 4 * 10.0)
        try:
            while not conn.closed:
                raw = await receive()
                if raw is None:
                    break
                if len(raw) > MAX_MESSAGE:  # answered here as the owner would, kept off Redis
                    text = f"messages are at most {MAX_MESSAGE} characters"
                    limit = {"limit": MAX_MESSAGE}
                    conn.post(error_message(ServerError("too_large", text, data=limit)))
                    continue
                if not guard.allow():
                    continue  # far past the owner's own limit, which has said so already
                self.send(owner, "m", cid, raw)
        finally:
            self.relays.pop(cid, None)
            self.send(owner, "e", cid, "")
            await stop_writing(conn, writer)

    def _open(self, cid: str, hello: Json) -> None:
        """At the owner: a socket another node holds joins one of this node's tables."""
        edge, table_id = str(hello["n"]), str(hello["t"])
        room = self.rooms.get(table_id)
        if room is None:
            self.send(edge, "x", cid, str(MOVED))
            return
        sender = _RemoteSender(self, edge, cid)
        conn = Connection(
            sender,
            table_id,
            client=str(hello["client"]),
            address=str(hello["address"]),
            outbox=asyncio.Queue(OUTBOX),
        )
        remote = _Remote(edge, conn)
        self.remotes[cid] = remote
        remote.task = asyncio.create_task(self._serve_remote(cid, remote, room))

    async def _serve_remote(self, cid: str, remote: _Remote, room: HeldRoom) -> None:
        try:
            await self.rooms.serve(room, remote.conn, remote.inbox.get)
            if not remote.conn.closed:
                remote.conn.closed = True
        finally:
            self.remotes.pop(cid, None)

    async def call(self, table_id: str, op: str, args: Json) -> Any:
        """Carry out ``op`` on a table held by another node (or claimed here meanwhile)."""
        for _ in range(3):
            owner = await self.cluster.locate(table_id)
            if owner is None:
                return self.rooms.carry_out(table_id, op, args)
            if self.cluster.redis_down is not None:
                raise try_again("the table's server cannot be reached")
            rid = secrets.token_hex(8)
            future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
            self.calls[rid] = future
            self.send(
                owner,
                "q",
                rid,
                orjson.dumps({"n": self.me, "op": op, "t": table_id, "a": args}).decode(),
            )
            try:
                async with asyncio.timeout(CALL_TIMEOUT):
                    reply = await future
            except TimeoutError:
                log.warning(
                    "cluster: %s on table %s: node %s did not answer in %.0f s",
                    op,
                    table_id,
                    owner,
                    CALL_TIMEOUT,
                )
                continue  # the owner may have died: look again
            finally:
                self.calls.pop(rid, None)
            if "ok" in reply:
                return reply["ok"]
            if "err" in reply:
                e = reply["err"]
                raise ServerError(e["code"], e["message"], e["status"], e.get("data"))
        raise try_again("the table's server did not answer")

    def _answer(self, rid: str, call: Json) -> None:
        """At the owner: answer another node's call about one of this node's tables."""
        caller, table_id = str(call["n"]), str(call["t"])
        reply: Json
        room = self.rooms.get(table_id)
        if room is None:
            reply = {"moved": True}
        else:
            try:
                reply = {"ok": self.rooms.carry_out(table_id, str(call["op"]), call["a"])}
            except ServerError as err:
                reply = {"err": {**err.body(), "status": err.status}}
        frame = orjson.dumps(reply).decode()
        moved = orjson.dumps({"moved": True}).decode()

        def answer() -> None:
            # A table lost to another node meanwhile had this change dropped, not stored:
            # the caller asks the new owner instead.
            lost = room is not None and room.lost and not room.handed
            self.send(caller, "r", rid, moved if lost else frame)

        # Answered once what the call changed is stored: a seat taken survives a failover.
        loop = self.cluster.loop
        assert loop is not None
        self.cluster.storage.on_commit(soon(loop, answer))


def channel(node: str) -> str:
    """The Redis channel of ``node``."""
    return f"sk:node:{node}"


def soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> Callable[[], None]:
    """A callback for another thread that runs ``fn(*args)`` on ``loop``."""

    def call() -> None:
        loop.call_soon_threadsafe(fn, *args)

    return call
