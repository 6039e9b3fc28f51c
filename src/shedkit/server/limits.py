"""Limits that hold across a cluster: sockets per client and address, rates, table quotas.

Each is counted in Redis by atomic scripts, so every node sees the same counts: sockets as
one hash per client or address with a field per node (the fields of nodes no longer alive
are dropped), rates as token buckets on Redis's clock, and tables per client from the
leases in PostgreSQL. Redis is an accelerator here too: while it does not answer, a node
counts its own sockets and rates (`shedkit.server.local.LocalLimits`), and the sockets it
could not uncount are uncounted once Redis answers again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

from redis.exceptions import RedisError

from shedkit.server.errors import ServerError, create_rate_error, quota_error
from shedkit.server.local import LocalLimits
from shedkit.server.member import Member
from shedkit.server.settings import Settings

__all__ = ["Limits"]

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


class Limits:
    """The cluster-wide caps and rates of one node (``cluster``)."""

    def __init__(self, cluster: Member, settings: Settings) -> None:
        self.cluster = cluster
        self.settings = settings
        redis = cluster.redis
        self._admit = redis.register_script(_ADMIT)
        self._release = redis.register_script(_RELEASE)
        self._bucket = redis.register_script(_BUCKET)
        # Sockets and rates counted here while Redis is down, and sockets to uncount once
        # it is back.
        self.local = LocalLimits(settings)
        self._unreleased: list[tuple[str, str]] = []

    def redis_back(self) -> None:
        """Redis answers again: uncount the sockets that closed while it did not."""
        unreleased, self._unreleased = self._unreleased, []
        for client, address in unreleased:
            self.release_socket(client, address)

    async def admit_socket(self, client: str, address: str) -> Callable[[], None]:
        """Count a socket against the client and address caps of the whole cluster; return
        what uncounts it.

        While Redis does not answer the socket is counted by this node alone (`LocalLimits`).
        """
        s = self.settings
        caps = [(client, s.ws_per_client, "client")]
        if address != client:
            caps.append((address, s.ws_per_address, "address"))
        keys = [f"sk:ws:{key}" for key, _, _ in caps]
        if self.cluster.redis_down is not None:
            return self.local.admit_now(client, address)
        try:
            over = int(await self._admit(keys=keys, args=[self.cluster.me, *[c[1] for c in caps]]))
        except RedisError as err:
            self.cluster.redis_failed(err)
            return self.local.admit_now(client, address)
        if over:
            _, limit, reason = caps[over - 1]
            raise ServerError(
                "too_many_connections",
                f"at most {limit} connections per {reason}; close some first",
                429,
                {"limit": limit, "reason": reason},
            )
        return lambda: self.release_socket(client, address)

    def release_socket(self, client: str, address: str) -> None:
        """Uncount a socket that `admit_socket` counted."""
        task = asyncio.create_task(self._release_now(client, address))
        task.add_done_callback(_quiet)

    async def _release_now(self, client: str, address: str) -> None:
        keys = [f"sk:ws:{k}" for k in dict.fromkeys((client, address))]
        try:
            await self._release(keys=keys, args=[self.cluster.me])
        except RedisError as err:
            # Uncounted once Redis answers again, or the client's cap would stay taken.
            self._unreleased.append((client, address))
            self.cluster.redis_failed(err)

    async def allow(self, kind: str, client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of ``kind`` on the cluster
        (on this node alone while Redis does not answer)."""
        if self.cluster.redis_down is None:
            try:
                ok = await self._bucket(
                    keys=[f"sk:rate:{kind}:{client}"],
                    args=[max(1.0, per_minute), per_minute / 60.0],
                )
                return bool(int(ok))
            except RedisError as err:
                self.cluster.redis_failed(err)
        return await self.local.allow(kind, client, per_minute)

    async def before_create(self, client: str) -> None:
        """The cluster's quota and rate limit on new tables, checked before one is made."""
        s = self.settings
        if not await self.allow("create", client, s.creates_per_minute):
            raise create_rate_error(s.creates_per_minute)
        if await asyncio.to_thread(self.cluster.leases.count, client) >= s.tables_per_client:
            raise quota_error(s.tables_per_client)


def _quiet(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("cluster: %s", task.exception())
