"""What the parts of a node's cluster membership share: `Member`, the cluster as they see it.

The balance (`shedkit.server.balance`), the limits in Redis (`shedkit.server.limits`)
and the relay (`shedkit.server.relay`) are parts of `shedkit.server.cluster.Cluster`,
which makes them and hands itself to each; they see it through this interface, so none
of them imports the module that assembles them.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from redis.asyncio import Redis

from shedkit.server.leases import Leases
from shedkit.server.ports import Rooms
from shedkit.server.storage import Storage

__all__ = ["Member"]


class Member(Protocol):
    """This node's membership of a cluster, as its parts see it."""

    #: The node's name, and its tag for this start (a restarted node is a new owner).
    node_id: str
    me: str
    #: The lease's length in seconds.
    ttl: float
    rooms: Rooms
    redis: Redis
    storage: Storage
    leases: Leases
    #: The tables this node holds: id → (owner tag, fence).
    fences: dict[str, tuple[str, int]]
    #: The nodes known to be alive, and the tables being taken over here.
    alive: set[str]
    adopting: dict[str, asyncio.Task[None]]
    #: When Redis stopped answering (monotonic), or None while it answers.
    redis_down: float | None
    loop: asyncio.AbstractEventLoop | None

    def redis_failed(self, err: BaseException) -> None:
        """Redis did not answer: log it once, close the relays."""
        ...

    async def locate(self, table_id: str) -> str | None:
        """Where ``table_id`` is held: None for this node, else the holder."""
        ...
