"""The balance of a cluster: each node holds about its share of the open tables.

A node's share is the open tables over the live nodes, rounded up. A node claims lapsed
tables only while it holds fewer than its share (a lease lapsed for a whole lease more is
anyone's, so no table waits on the balance), and a node holding more than its share
while another live node holds less hands up to two tables back at each heartbeat: each
is stopped, what it made is committed, its sockets are told the table moved (they
reconnect to the new owner), and its lease lapses at once for a node under its share to
claim. So a node that (re)joins fills up over a few heartbeats, without a herd.
Without Redis a node does not know who is alive, and the balance waits.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time

from shedkit.server.member import Member
from shedkit.server.relay import MOVED
from shedkit.server.storage import stored

__all__ = ["Balance"]

log = logging.getLogger("shedkit.server")

#: Tables one node hands back at one heartbeat.
STEP = 2


class Balance:
    """One node's part in evening out the load (``cluster``)."""

    def __init__(self, cluster: Member) -> None:
        self.cluster = cluster
        #: This node's share of the open tables, as last measured (None: not known).
        self.share: int | None = None
        #: Tables handed back, for /api/stats.
        self.handed = 0
        self._load: dict[str, int] = {}
        # When this node handed each table back (monotonic): it does not take them back
        # for a while, so a table cannot go back and forth while the others are slow.
        self._handed_at: dict[str, float] = {}

    def handed_lately(self) -> frozenset[str]:
        """The tables this node handed back within the last three leases."""
        since = time.monotonic() - 3 * self.cluster.ttl
        for table_id, at in list(self._handed_at.items()):
            if at < since:
                del self._handed_at[table_id]
        return frozenset(self._handed_at)

    def may_claim(self) -> bool:
        """True while this node holds fewer tables than its share (or its share is unknown)."""
        return self.share is None or len(self.cluster.fences) < self.share

    def room(self, most: int) -> int:
        """How many lapsed tables this node may claim now, at most ``most``."""
        if self.share is None:
            return most
        return max(0, min(most, self.share - len(self.cluster.fences)))

    async def measure(self) -> None:
        """This node's share of the open tables: all of them over the live nodes."""
        c = self.cluster
        if c.redis_down is not None or len(c.alive) < 2:
            self.share = None
            return
        load = await asyncio.to_thread(c.leases.load)
        self.share = math.ceil(sum(load.values()) / len(c.alive))
        self._load = load

    async def even_out(self) -> None:
        """Hand back a few tables while this node holds more than its share and another
        live node holds less (it claims them)."""
        c = self.cluster
        try:
            await self.measure()
        except Exception:
            return  # the database is out of reach: the renewal says so
        share = self.share
        if share is None or len(c.fences) <= share:
            return
        if not any(self._load.get(n, 0) < share - 1 for n in c.alive if n != c.me):
            return
        # Tables nobody is watching first: they move without anyone seeing a reconnect.
        movable = [r for r in c.rooms.held() if r.id in c.fences and r.id not in c.adopting]
        movable.sort(key=lambda t: len(t.connections))
        for table in movable[: min(STEP, len(c.fences) - share)]:
            await self.hand_over(table.id)

    async def hand_over(self, table_id: str) -> None:
        """Let another node take ``table_id``: stop it here, commit what it made, shut its
        sockets (they reconnect at the new owner) and let its lease lapse at once."""
        c = self.cluster
        room = c.rooms.get(table_id)
        held = c.fences.pop(table_id, None)
        if room is None or held is None:
            return
        # From here nothing is made under this hold: no write, no message.
        room.lost = room.handed = True
        c.rooms.forget(room)
        await stored(c.storage)
        for conn in list(room.connections):
            conn.shut(MOVED)
        await asyncio.to_thread(c.leases.hand_back, {table_id: held})
        self._handed_at[table_id] = time.monotonic()
        self.handed += 1
        log.info(
            "cluster: node %s handed table %s back (fence %d) to even the load",
            c.node_id,
            table_id,
            held[1],
            extra={"table": table_id},
        )
