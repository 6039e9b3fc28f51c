"""Many nodes, one room: tables held through leases, sockets relayed over Redis.

A table lives in the memory of one node, its owner, as on a single node: a move costs
what it costs there. What makes several nodes one room is borrowed from Colyseus,
boardgame.io and lichess, not consensus of our own:

- **ownership** is a lease in PostgreSQL with a fencing token (`shedkit.server.leases`):
  the owner renews its leases every third of their length; a node that lost one can no
  longer write the table (the storage checks the fence in every write);
- **failover**: every node claims lapsed leases now and then (and at once when a client
  asks for such a table), restores those tables from the database exactly as a restart
  does, and resumes their clocks and bots;
- **routing**: any node answers every URL. A socket that reaches a node other than its
  table's owner is relayed over Redis pub/sub, as lila-ws does for lila: the node the
  socket reached (the *edge*) forwards each client message to the owner's channel, and the
  owner posts that connection's messages to the edge's channel, through one publisher,
  so they arrive in the order a single node sends them. A request about a table (join,
  leave, its public state) is a call to the owner over the same channels;
- **presence**: each node says it is alive in Redis every third of a lease, and lists
  its tables there for the lobby; a relay whose owner or edge went silent is closed, and
  the browser reconnects (to any node) and carries on;
- **limits** hold across the cluster: connection caps and rate limits are counted in
  Redis (atomic scripts), table quotas from the leases;
- **balance**: a node claims lapsed tables while it holds fewer than its share (the
  open tables over the live nodes, rounded up), and one holding more than its share
  while another holds less hands a few back at each heartbeat, so a node that (re)joins
  fills up without a thundering herd; a lease lapsed for longer than a whole lease is
  anyone's, so no table waits on the balance.

Redis is an accelerator, not a dependency of safety. The leases are renewed in
PostgreSQL before anything is said in Redis; with Redis down a node keeps its tables and
the sockets connected to it, counts their caps and rates itself, refuses relayed sockets
with ``try_again`` (the browser retries), and logs the outage once and its end once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from shedkit.core.errors import ShedkitError
from shedkit.protocol.views import Json
from shedkit.server.balance import Balance
from shedkit.server.errors import ServerError, try_again
from shedkit.server.inputs import check_id
from shedkit.server.leases import Leases
from shedkit.server.limits import Limits
from shedkit.server.ports import HeldRoom, Receive, Rooms
from shedkit.server.relay import MOVED, Relay
from shedkit.server.settings import Settings
from shedkit.server.storage import UNREACHABLE, Storage, stored

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

__all__ = ["REDIS_TIMEOUT", "Cluster"]

#: Seconds Redis has to answer the health check's PING.
REDIS_TIMEOUT: Final = 0.5

log = logging.getLogger("shedkit.server")


def _lobby_rank(line: Json) -> tuple[int, float]:
    # The single node's order: open seats first, then tables with people, newest first.
    open_seat = line["status"] != "finished" and bool(line["seats_for_people"])
    people = any(s.get("name") and not s.get("is_bot") for s in line["seats"])
    return (0 if open_seat else 1 if people else 2, -float(line["created"]))


class Cluster:
    """This node's part in a cluster: its leases, its channel, its relays and calls.

    It is the node's `Ownership` (leases with fencing) and its `Bus` (presence, the
    lobby of every node, calls and sockets relayed over Redis); its `limits` are the
    node's `Limits`. It reaches this node's rooms through `Rooms` only.
    """

    def __init__(self, rooms: Rooms, storage: Storage, settings: Settings, url: str) -> None:
        self.rooms = rooms
        self.storage = storage
        self.settings = settings
        node_id, ttl = settings.node_id, settings.lease_ttl
        self.node_id = node_id
        # A tag per start: a node restarted under the same name is a new owner.
        self.me = f"{node_id}.{secrets.token_hex(3)}"
        self.ttl = ttl
        # A bounded pool that waits for a free connection: a burst of sockets at one node
        # queues for Redis rather than failing.
        # A Redis that does not answer must not hold the heartbeat: bounded connects. After
        # a Redis restart every pooled connection is stale: a command that finds its
        # connection closed is sent once more on a new one, instead of each stale
        # connection looking like another outage.
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=64,
            timeout=10,
            socket_connect_timeout=2.0,
            retry=Retry(NoBackoff(), 1),
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.leases = Leases(storage.engine, self.me, ttl)
        self.fences: dict[str, tuple[str, int]] = {}
        self.alive: set[str] = {self.me}
        self.adopting: dict[str, asyncio.Task[None]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        # Counters shown at /api/stats.
        self.claimed = 0
        self.lost = 0
        #: When Redis stopped answering (monotonic), or None while it answers.
        self.redis_down: float | None = None
        #: When renewing the leases began failing (monotonic), or None while it works.
        self.renew_failing: float | None = None
        self.limits = Limits(self, settings)
        self.balance = Balance(self)
        self.relay = Relay(self, self.redis)

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the cluster: presence, the node's channel, lease renewal and claims."""
        self.loop = asyncio.get_running_loop()
        try:
            await self.redis.ping()
        except RedisError as err:
            raise RuntimeError(f"the cluster's Redis does not answer ({err})") from err
        storage = self.storage
        storage.owner = self.me
        storage.lease_ttl = self.ttl
        storage.on_lost = self._threadsafe(self._lose)
        storage.on_closed = self._threadsafe(self._closed)
        await asyncio.to_thread(self.leases.adopt)
        self.tasks = await self.relay.start()
        await self._beat()
        for job in (self._beats(), self._claims()):
            self.tasks.append(asyncio.create_task(job))

    async def stop(self) -> None:
        """Leave the cluster: relays closed, leases handed back once all is committed."""
        self.relay.close_all()
        await asyncio.sleep(0.05)  # let the publisher send the closings
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        storage = self.storage
        if await asyncio.to_thread(storage.flush, 4.0):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.leases.hand_back, dict(self.fences))
        with contextlib.suppress(Exception):
            await self.redis.delete(f"sk:alive:{self.me}", f"sk:lobby:{self.me}")
            await self.relay.pubsub.aclose()  # type: ignore[no-untyped-call]
            await self.redis.aclose()

    async def _beats(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._beat()
            except Exception:
                log.exception("cluster: heartbeat failed")

    async def _beat(self) -> None:
        """Renew the leases (PostgreSQL) first, then say in Redis that this node is alive,
        list its tables and drop dead relays, then even the load out."""
        await self._renew()
        try:
            present = await asyncio.wait_for(self._presence(), self.ttl / 2)
        except TimeoutError:
            self.redis_failed(TimeoutError("no answer in time"))
            present = False
        if present:
            await self.balance.even_out()

    async def _renew(self) -> None:
        """Renew this node's leases; forget the tables it lost. Never waits on Redis."""
        started = time.monotonic()
        try:
            lost = await asyncio.to_thread(self.leases.renew, dict(self.fences))
        except Exception as err:
            if self.renew_failing is None:
                self.renew_failing = started
                log.warning(
                    "cluster: node %s cannot renew its leases (%s); its tables move to "
                    "other nodes if this lasts %.1f s",
                    self.node_id,
                    _first_line(err),
                    self.ttl,
                )
            return
        if self.renew_failing is not None:
            log.warning(
                "cluster: node %s renews its leases again after %.1f s",
                self.node_id,
                time.monotonic() - self.renew_failing,
            )
            self.renew_failing = None
        for table_id in lost:
            fence = self.fences.get(table_id)
            if fence is not None:
                self._lose(table_id, fence[1])

    async def _presence(self) -> bool:
        """Say in Redis that this node is alive; learn who else is. False if Redis is down."""
        try:
            await self._announce()
            alive = {self.me}
            async for key in self.redis.scan_iter(match="sk:alive:*", count=1000):
                alive.add(key.decode().removeprefix("sk:alive:"))
        except RedisError as err:
            self.redis_failed(err)
            return False
        self.redis_answers()
        self.alive = alive
        self.relay.drop_dead(alive)
        return True

    def redis_failed(self, err: BaseException) -> None:
        """Redis did not answer: log it once, close the relays (their browsers retry)."""
        if self.redis_down is not None:
            return
        self.redis_down = time.monotonic()
        log.warning(
            "cluster: Redis does not answer (%s); node %s keeps its tables and their "
            "sockets, relays pause",
            _first_line(err),
            self.node_id,
        )
        self.relay.close_all()

    def redis_answers(self) -> None:
        """Redis answers (again): log the end of an outage once."""
        if self.redis_down is None:
            return
        log.warning("cluster: Redis answers again after %.1f s", time.monotonic() - self.redis_down)
        self.redis_down = None
        self.limits.redis_back()

    # -- leases -----------------------------------------------------------------------

    def hold_new(self, table_id: str, creator: str) -> int:
        """A table created here: held with the first fence from its first write."""
        self.fences[table_id] = (self.me, 1)
        self.storage.creators[table_id] = creator
        return 1

    async def _claims(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 4 * (0.5 + random.random()))
            try:
                await self.balance.measure()
                lately = self.balance.handed_lately()
                taken = await asyncio.to_thread(
                    self.leases.claim, self.balance.room(16), 0.0, lately
                )
                if len(taken) < 16:
                    # A lease lapsed for a whole lease more is anyone's (but for those this
                    # node just handed back): no table waits on the balance.
                    taken += await asyncio.to_thread(
                        self.leases.claim, 16 - len(taken), self.ttl, lately
                    )
                for table_id, fence in taken:
                    await self._adopt(table_id, fence)
            except Exception as err:
                if self.renew_failing is None:
                    log.warning("cluster: claiming lapsed tables failed: %s", _first_line(err))

    async def _adopt(self, table_id: str, fence: int) -> None:
        """Restore a table whose lease this node just took, and resume it."""
        task = asyncio.create_task(self._restore(table_id, fence))
        self.adopting[table_id] = task
        try:
            await task
        finally:
            self.adopting.pop(table_id, None)

    async def _restore(self, table_id: str, fence: int) -> None:
        """Start a table taken under ``fence`` from what is stored, never from memory."""
        self.fences.pop(table_id, None)
        stale = self.rooms.get(table_id)
        if stale is not None:
            # Held here before (a pause): what that hold made and did not store is gone.
            self._drop(stale)
        self.storage.discard(table_id, fence)
        data = await asyncio.to_thread(self.storage.load_table, table_id)
        room = None
        if data is not None and data.get("status") != "closed":
            try:
                room = await asyncio.to_thread(self.rooms.restored, table_id, data)
            except (ShedkitError, KeyError, TypeError) as err:
                log.error(
                    "cluster: table %s cannot be restored: %s",
                    table_id,
                    err,
                    extra={"table": table_id},
                )
        if room is None:
            await asyncio.to_thread(self.leases.drop, table_id, fence)
            return
        room.fence = fence
        self.fences[table_id] = (self.me, fence)
        self.rooms.add(room)
        self.relay.moved_here(table_id)
        self.claimed += 1
        log.info(
            "cluster: node %s took table %s over (fence %d)",
            self.node_id,
            table_id,
            fence,
            extra={"table": table_id},
        )

    def _threadsafe(self, step: Callable[[str, int], None]) -> Callable[[str, int], None]:
        """``step(table_id, fence)`` run on the event loop, called from the writer thread."""

        def call(table_id: str, fence: int) -> None:
            loop = self.loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(step, table_id, fence)

        return call

    def _lose(self, table_id: str, fence: int) -> None:
        """The lease no longer holds ``fence``: forget the table here; its sockets reconnect.

        The states not stored are never sent: the new owner restored the table from the
        last committed write, and the clients resync from it. A newer hold of this node
        (the table taken back since) is not touched.
        """
        held = self.fences.get(table_id)
        if held is not None and held[1] > fence:
            return
        self.fences.pop(table_id, None)
        room = self.rooms.get(table_id)
        if room is None or room.fence > fence:
            return
        self._drop(room)
        log.warning(
            "cluster: node %s lost table %s (fence %d) to another node",
            self.node_id,
            table_id,
            fence,
            extra={"table": table_id},
        )

    def _drop(self, room: HeldRoom) -> None:
        """Forget a table whose hold ended: nothing it made is stored, so nothing is sent."""
        self.lost += 1
        room.lose()
        for conn in list(room.connections):
            conn.shut(MOVED)
        self.rooms.forget(room)

    def _closed(self, table_id: str, fence: int) -> None:
        """A table closed here is stored closed and its lease gone: no longer renewed."""
        held = self.fences.get(table_id)
        if held is not None and held[1] == fence:
            del self.fences[table_id]

    async def locate(self, table_id: str) -> str | None:
        """Where table ``table_id`` lives: None if here (or nowhere), else its owner.

        A table whose owner is gone is claimed here once its lease lapses (restored as a
        restart does), by a node under its share first; ``not_found`` if no open table
        has that id; ``try_again`` while the table cannot be reached (moving, or Redis or
        the database out of reach).
        """
        if not check_id(table_id):
            raise ServerError("not_found", "no table '?'", 404, {"table": "?"})
        try:
            return await self._locate(table_id)
        except (RedisError, *UNREACHABLE) as err:
            if isinstance(err, RedisError):
                self.redis_failed(err)
            raise try_again() from None

    async def _locate(self, table_id: str) -> str | None:
        deadline = time.monotonic() + 2 * self.ttl + 5
        while time.monotonic() < deadline:
            if self.rooms.get(table_id) is not None:
                return None
            pending = self.adopting.get(table_id)
            if pending is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(pending)
                continue
            holder = await asyncio.to_thread(self.leases.holder, table_id)
            if holder is None:
                raise ServerError("not_found", f"no table {table_id!r}", 404, {"table": table_id})
            if holder.left > 0:
                if holder.owner == self.me:
                    # Being restored here, or dropped here and left to lapse.
                    await asyncio.sleep(min(holder.left, 0.05 + self.ttl / 8))
                    continue
                if self.redis_down is not None:
                    raise try_again()  # no relay without Redis; the browser retries
                if holder.owner in self.alive or await self.redis.exists(
                    f"sk:alive:{holder.owner}"
                ):
                    self.alive.add(holder.owner)
                    return holder.owner
                await asyncio.sleep(min(holder.left, self.ttl / 4) + 0.05)
                continue
            lapsed_for = -holder.left
            if (lapsed_for < self.ttl and not self.balance.may_claim()) or (
                lapsed_for < 3 * self.ttl and table_id in self.balance.handed_lately()
            ):
                # A node under its share takes it first (the balance).
                await asyncio.sleep(self.ttl / 8 + 0.05)
                continue
            fence = await asyncio.to_thread(self.leases.claim_one, table_id)
            if fence is not None:
                await self._adopt(table_id, fence)
        raise try_again()

    # -- the bus ----------------------------------------------------------------------

    async def lobby(self, here: list[Json], limit: int = 200) -> list[Json]:
        """Every node's tables, in the lobby's order; this node's (``here``) as they are now."""
        lines = list(here)
        others = [n for n in self.alive if n != self.me]
        if others and self.redis_down is None:
            try:
                blobs = await self.redis.mget([f"sk:lobby:{n}" for n in others])
            except RedisError as err:
                self.redis_failed(err)
                blobs = []  # this node's tables only, until Redis answers again
            for blob in blobs:
                if blob:
                    lines.extend(orjson.loads(blob))
        seen: dict[str, Json] = {}
        for line in lines:
            seen.setdefault(line["id"], line)  # a table just moved may show twice
        return sorted(seen.values(), key=_lobby_rank)[:limit]

    async def _announce(self) -> None:
        """Say this node is alive and list its tables for every node's lobby."""
        ttl_ms = int(self.ttl * 1000)
        lines = [room.summary() for room in self.rooms.held()]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"sk:alive:{self.me}", self.node_id, px=ttl_ms)
            pipe.set(f"sk:lobby:{self.me}", orjson.dumps(lines), px=ttl_ms)
            await pipe.execute()

    async def created(self) -> None:
        """A table was created here: once it is stored, every node's lobby lists it."""
        await stored(self.storage)
        if self.redis_down is None:
            try:
                await self._announce()
            except RedisError as err:
                self.redis_failed(err)

    async def call(self, table_id: str, op: str, args: Json) -> Any:
        """Carry out ``op`` at the node that holds ``table_id`` (`Relay.call`)."""
        return await self.relay.call(table_id, op, args)

    async def relay_socket(
        self,
        websocket: WebSocket,
        receive: Receive,
        table_id: str,
        owner: str,
        client: str,
        address: str,
    ) -> None:
        """Serve a browser's socket whose table ``owner`` holds (`Relay.serve`)."""
        if self.redis_down is not None:
            raise try_again()  # no relay without Redis; the browser tries again (any node)
        await self.relay.serve(websocket, receive, table_id, owner, client, address)

    async def health(self) -> Json:
        """The tables this node holds, and whether Redis answers a PING in time."""
        try:
            redis = bool(await asyncio.wait_for(self.redis.ping(), REDIS_TIMEOUT))
        except Exception:
            redis = False
        return {"held": len(self.fences), "redis": redis}

    def stats(self) -> Json:
        """This node's part, for /api/stats."""
        return {
            "nodes": len(self.alive),
            "held": len(self.fences),
            "claimed": self.claimed,
            "lost": self.lost,
            "handed_back": self.balance.handed,
            "share": self.balance.share,
            "redis": self.redis_down is None,
            "relayed_here": len(self.relay.relays),
            "relayed_to_here": len(self.relay.remotes),
        }


def _first_line(err: BaseException) -> str:
    """An error in one short line, for a log line without a stack."""
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]
