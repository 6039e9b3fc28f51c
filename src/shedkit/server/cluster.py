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
  Redis (atomic scripts), table quotas from the leases.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING, Any, Final

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from shedkit.core.errors import ShedkitError
from shedkit.protocol.views import Json
from shedkit.server.errors import ServerError
from shedkit.server.inputs import check_id
from shedkit.server.leases import Leases
from shedkit.server.relay import MOVED, Relay
from shedkit.server.store import stored

if TYPE_CHECKING:
    from shedkit.server.manager import Manager

__all__ = ["Cluster"]

log = logging.getLogger("shedkit.server")

# Sockets per client and per address, counted over every live node: each node's share is
# a field of one hash per key, and the shares of nodes no longer alive are dropped.
_ADMIT: Final = """
for i, key in ipairs(KEYS) do
  local total = 0
  local fields = redis.call('HGETALL', key)
  for j = 1, #fields, 2 do
    local node = fields[j]
    if node == ARGV[1] or redis.call('EXISTS', 'sk:alive:' .. node) == 1 then
      total = total + tonumber(fields[j + 1])
    else
      redis.call('HDEL', key, node)
    end
  end
  if total >= tonumber(ARGV[i + 1]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, ARGV[1], 1)
  redis.call('EXPIRE', key, 86400)
end
return 0
"""
_RELEASE: Final = """
for _, key in ipairs(KEYS) do
  if redis.call('HINCRBY', key, ARGV[1], -1) <= 0 then redis.call('HDEL', key, ARGV[1]) end
end
return 0
"""
# A token bucket shared by every node (Redis's own clock).
_BUCKET: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cap, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or cap
local at = tonumber(b[2]) or now
tokens = math.min(cap, tokens + (now - at) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(cap / rate) + 60)
return ok
"""


def _lobby_rank(line: Json) -> tuple[int, float]:
    # The single node's order: open seats first, then tables with people, newest first.
    open_seat = line["status"] != "finished" and bool(line["seats_for_people"])
    people = any(s.get("name") and not s.get("is_bot") for s in line["seats"])
    return (0 if open_seat else 1 if people else 2, -float(line["created"]))


class Cluster:
    """This node's part in a cluster: its leases, its channel, its relays and calls."""

    def __init__(self, manager: Manager, url: str, node_id: str, ttl: float) -> None:
        self.manager = manager
        self.node_id = node_id
        # A tag per start: a node restarted under the same name is a new owner.
        self.me = f"{node_id}.{secrets.token_hex(3)}"
        self.ttl = ttl
        # A bounded pool that waits for a free connection: a burst of sockets at one node
        # queues for Redis rather than failing.
        pool = BlockingConnectionPool.from_url(url, max_connections=64, timeout=10)
        self.redis: Redis = Redis(connection_pool=pool)
        self.leases = Leases(manager.storage.engine, self.me, ttl)
        self.fences: dict[str, tuple[str, int]] = {}
        self.alive: set[str] = {self.me}
        self.adopting: dict[str, asyncio.Task[None]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        # Counters shown at /api/stats.
        self.claimed = 0
        self.lost = 0
        self._admit = self.redis.register_script(_ADMIT)
        self._release = self.redis.register_script(_RELEASE)
        self._bucket = self.redis.register_script(_BUCKET)
        self.relay = Relay(self, self.redis)

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the cluster: presence, the node's channel, lease renewal and claims."""
        self.loop = asyncio.get_running_loop()
        try:
            await self.redis.ping()
        except RedisError as err:
            raise RuntimeError(f"the cluster's Redis does not answer ({err})") from err
        storage = self.manager.storage
        storage.fences = self.fences
        storage.lease_ttl = self.ttl
        storage.on_lost = self._lost_threadsafe
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
        storage = self.manager.storage
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
        """Say this node is alive, list its tables, renew its leases, drop dead relays."""
        await self._announce()
        alive = {self.me}
        async for key in self.redis.scan_iter(match="sk:alive:*", count=1000):
            alive.add(key.decode().removeprefix("sk:alive:"))
        self.alive = alive
        lost = await asyncio.to_thread(self.leases.renew, dict(self.fences))
        for table_id in lost:
            self._lose(table_id)
        self.relay.drop_dead(alive)

    # -- leases -----------------------------------------------------------------------

    def hold_new(self, table_id: str, creator: str) -> None:
        """A table created here: held with the first fence from its first write."""
        self.fences[table_id] = (self.me, 1)
        self.manager.storage.creators[table_id] = creator

    async def _claims(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 4 * (0.5 + random.random()))
            try:
                for table_id, fence in await asyncio.to_thread(self.leases.claim, 16):
                    await self._adopt(table_id, fence)
            except Exception:
                log.exception("cluster: claiming lapsed tables failed")

    async def _adopt(self, table_id: str, fence: int) -> None:
        """Restore a table whose lease this node just took, and resume it."""
        task = asyncio.create_task(self._restore(table_id, fence))
        self.adopting[table_id] = task
        try:
            await task
        finally:
            self.adopting.pop(table_id, None)

    async def _restore(self, table_id: str, fence: int) -> None:
        manager = self.manager
        data = await asyncio.to_thread(manager.storage.load_table, table_id)
        table = None
        if data is not None and data.get("status") != "closed":
            try:
                table = await asyncio.to_thread(manager._restore, table_id, data)
            except (ShedkitError, KeyError, TypeError) as err:
                log.error("cluster: table %s cannot be restored: %s", table_id, err)
        if table is None:
            await asyncio.to_thread(self.leases.drop, table_id, fence)
            return
        self.fences[table_id] = (self.me, fence)
        manager.tables[table_id] = table
        manager.resume(table)
        self.relay.moved_here(table_id)
        self.claimed += 1
        log.info("cluster: node %s took table %s over (fence %d)", self.node_id, table_id, fence)

    def _lost_threadsafe(self, table_id: str) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._lose, table_id)

    def _lose(self, table_id: str) -> None:
        """Another node holds this table now: forget it here; its sockets reconnect.

        The states not stored are never sent: the new owner restored the table from the
        last committed write, and the clients resync from it.
        """
        self.fences.pop(table_id, None)
        table = self.manager.tables.get(table_id)
        if table is None:
            return
        self.lost += 1
        table.lost = True
        table.outq.clear()
        for conn in list(table.connections):
            conn.shut(MOVED)
        self.manager._forget(table)
        log.warning("cluster: node %s lost table %s to another node", self.node_id, table_id)

    async def locate(self, table_id: str) -> str | None:
        """Where table ``table_id`` lives: None if here (or nowhere), else its owner.

        A table whose owner is gone is claimed here once its lease lapses (restored as a
        restart does); ``not_found`` if no open table has that id.
        """
        if not check_id(table_id):
            raise ServerError("not_found", "no table '?'", 404, {"table": "?"})
        deadline = time.monotonic() + 2 * self.ttl + 5
        while time.monotonic() < deadline:
            if table_id in self.manager.tables:
                return None
            pending = self.adopting.get(table_id)
            if pending is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(pending)
                continue
            holder = await asyncio.to_thread(self.leases.holder, table_id)
            if holder is None:
                raise ServerError("not_found", f"no table {table_id!r}", 404, {"table": table_id})
            if holder.owner == self.me:
                await asyncio.sleep(0.05)  # being restored here
                continue
            if holder.left > 0:
                if holder.owner in self.alive or await self.redis.exists(
                    f"sk:alive:{holder.owner}"
                ):
                    self.alive.add(holder.owner)
                    return holder.owner
                await asyncio.sleep(min(holder.left, self.ttl / 4) + 0.05)
                continue
            fence = await asyncio.to_thread(self.leases.claim_one, table_id)
            if fence is not None:
                await self._adopt(table_id, fence)
        raise ServerError("try_again", "this table is moving to another server; try again", 503, {})

    # -- limits -----------------------------------------------------------------------

    async def admit_socket(self, client: str, address: str) -> None:
        """Count a socket against the client and address caps of the whole cluster."""
        s = self.manager.settings
        caps = [(client, s.ws_per_client, "client")]
        if address != client:
            caps.append((address, s.ws_per_address, "address"))
        keys = [f"sk:ws:{key}" for key, _, _ in caps]
        over = int(await self._admit(keys=keys, args=[self.me, *[c[1] for c in caps]]))
        if over:
            _, limit, reason = caps[over - 1]
            raise ServerError(
                "too_many_connections",
                f"at most {limit} connections per {reason}; close some first",
                429,
                {"limit": limit, "reason": reason},
            )

    def release_socket(self, client: str, address: str) -> None:
        """Uncount a socket that `admit_socket` counted."""
        keys = [f"sk:ws:{k}" for k in dict.fromkeys((client, address))]
        task = asyncio.create_task(self._release(keys=keys, args=[self.me]))
        task.add_done_callback(_quiet)

    async def allow(self, kind: str, client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of ``kind`` on the cluster."""
        ok = await self._bucket(
            keys=[f"sk:rate:{kind}:{client}"], args=[max(1.0, per_minute), per_minute / 60.0]
        )
        return bool(int(ok))

    async def before_create(self, client: str) -> None:
        """The cluster's quota and rate limit on new tables, checked before one is made."""
        s = self.manager.settings
        if not await self.allow("create", client, s.creates_per_minute):
            raise ServerError(
                "rate_limited",
                f"at most {s.creates_per_minute:g} new tables a minute; wait a little",
                429,
                {"per_minute": s.creates_per_minute, "reason": "create"},
            )
        if await asyncio.to_thread(self.leases.count, client) >= s.tables_per_client:
            raise ServerError(
                "quota",
                f"you already have {s.tables_per_client} open tables here; "
                "finish or leave one first",
                429,
                {"limit": s.tables_per_client},
            )

    async def lobby(self, limit: int = 200) -> list[Json]:
        """Every node's tables, in the lobby's order; this node's as they are now."""
        lines = [t.summary() for t in self.manager.tables.values()]
        others = [n for n in self.alive if n != self.me]
        if others:
            for blob in await self.redis.mget([f"sk:lobby:{n}" for n in others]):
                if blob:
                    lines.extend(orjson.loads(blob))
        seen: dict[str, Json] = {}
        for line in lines:
            seen.setdefault(line["id"], line)  # a table just moved may show twice
        return sorted(seen.values(), key=_lobby_rank)[:limit]

    async def _announce(self) -> None:
        """Say this node is alive and list its tables for every node's lobby."""
        ttl_ms = int(self.ttl * 1000)
        lines = [t.summary() for t in self.manager.tables.values()]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"sk:alive:{self.me}", self.node_id, px=ttl_ms)
            pipe.set(f"sk:lobby:{self.me}", orjson.dumps(lines), px=ttl_ms)
            await pipe.execute()

    async def created(self) -> None:
        """A table was created here: once it is stored, every node's lobby lists it."""
        await stored(self.manager.storage)
        await self._announce()

    def stats(self) -> Json:
        """This node's part, for /api/stats."""
        return {
            "nodes": len(self.alive),
            "held": len(self.fences),
            "claimed": self.claimed,
            "lost": self.lost,
            "relayed_here": len(self.relay.relays),
            "relayed_to_here": len(self.relay.remotes),
        }


def _quiet(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("cluster: %s", task.exception())
