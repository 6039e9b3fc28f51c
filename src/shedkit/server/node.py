"""A node: its rooms and their collaborators, wired once at start-up.

One node alone gets the local collaborators (`shedkit.server.local`): it holds every
table, counts in memory, relays nothing. A node of a cluster (``Settings.cluster_url``)
gets those of `shedkit.server.cluster`: leases with fencing, limits in Redis, sockets
and calls relayed over Redis pub/sub. This is the one place that knows which; the app,
the socket edge and the rooms talk to the interfaces of `shedkit.server.ports`.

The path of a browser's move, top to bottom: `shedkit.server.ws` (the socket) →
`Room.on_text` (`shedkit.server.room`: checked by `shedkit.server.messages`, carried out
by `Room.on_message`) → `Table.play` (`shedkit.server.table`: the rules and the game's
``apply``) → `Room._changed`: the row to the store (`shedkit.server.storage`), the
clocks, one message per seat queued until the store commits, the bots → each
connection's outbox → its socket (`shedkit.server.connection.write_out`), or on a
cluster the relay to the node the socket reached (`shedkit.server.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from shedkit.protocol.views import Json
from shedkit.server.bots import BotPool
from shedkit.server.connection import Connection
from shedkit.server.errors import ServerError, error_message, not_found
from shedkit.server.lobby import CHANGES, Lobby
from shedkit.server.local import LocalBus, LocalLimits, SoleOwner
from shedkit.server.ports import Bus, Counters, Limits, Ownership, Receive
from shedkit.server.room import Room, Services
from shedkit.server.settings import Settings
from shedkit.server.storage import Storage, stored

if TYPE_CHECKING:
    from shedkit.server.cluster import Cluster

__all__ = ["Node", "announcement", "log_name"]

log = logging.getLogger("shedkit.server")


def announcement(settings: Settings, address: str, database: str) -> str:
    """What ``shedkit serve`` prints once it listens at ``address``: where to open it, and
    on a cluster which node this is (the Redis URL without its password)."""
    url = settings.cluster_url
    if url is None:
        return f"open {address} in a browser (database {database}); Ctrl-C stops"
    redis = re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)
    return (
        f"node {settings.node_id} of the cluster at {redis}, serving {address} "
        f"(database {database}); Ctrl-C stops this node"
    )


def log_name(settings: Settings) -> str:
    """The node's name in log lines: ``-`` for a node alone."""
    return "-" if settings.cluster_url is None else settings.node_id


class Node:
    """This server: its rooms (the lobby), the store, the bots' pool and the collaborators."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float | None = None,
        away_after: float | None = None,
        settings: Settings | None = None,
    ) -> None:
        base = settings or Settings()
        self.settings = dataclasses.replace(
            base,
            bot_delay=base.bot_delay if bot_delay is None else bot_delay,
            away_after=base.away_after if away_after is None else away_after,
        )
        self.storage = storage
        self.counters = Counters()
        self.pool = BotPool(self.settings.bot_workers or None, self.settings.model_dirs)
        self.services = Services(self.settings, storage, self.pool, self.counters)
        self.lobby = Lobby(self.services, storage)
        self.limits: Limits = LocalLimits(self.settings)
        self.ownership: Ownership = SoleOwner(self.lobby)
        self.bus: Bus = LocalBus()
        self.cluster: Cluster | None = None
        self.sweeper: asyncio.Task[None] | None = None
        storage.on_bad_row = self._bad_row

    # -- life --------------------------------------------------------------------------

    async def open(self) -> None:
        """Start serving (in the running event loop): one node restores its tables from
        storage; a node of a cluster takes its tables through the leases."""
        self.services.loop = asyncio.get_running_loop()
        url = self.settings.cluster_url
        if url is None:
            self.lobby.load()
            for room in self.lobby.held():
                room.resume()
        else:
            # Imported here: a node alone needs neither Redis's client nor the cluster's code.
            from shedkit.server.cluster import Cluster

            cluster = Cluster(self.lobby, self.storage, self.settings, url)
            self.cluster = cluster
            self.limits, self.ownership, self.bus = cluster.limits, cluster, cluster
            self.lobby.ownership = cluster
            await cluster.start()
        self.sweeper = asyncio.get_running_loop().create_task(self.lobby.sweep())

    async def close(self) -> None:
        """Stop the rooms' bots and clocks and the sweep, commit every table, and on a
        cluster hand the tables back."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        await self.lobby.stop()
        self.pool.close()
        # Bounded: what is not committed by then was never acknowledged either.
        if not self.storage.flush(timeout=4.0):
            log.error("storage: shutting down with writes not committed")
        if self.cluster is not None:
            await self.cluster.stop()

    def _bad_row(self, table_id: str) -> None:
        """The storage set a row of ``table_id`` aside (called from the writer thread)."""
        loop = self.services.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.lobby.fail, table_id)

    # -- requests ----------------------------------------------------------------------

    async def tables(self, limit: int = 200) -> list[Json]:
        """The lobby: every node's tables, open seats first."""
        return await self.bus.lobby(self.lobby.lines(limit), limit)

    async def create(self, client: str, **table: Any) -> Room:
        """A new table here for ``client`` (`Lobby.create`), under the limits; every
        node's lobby lists it once it is stored."""
        await self.limits.before_create(client)
        room = self.lobby.create(client=client, **table)
        await self.bus.created()
        return room

    async def on_table(self, table_id: str, op: str, args: Json) -> Any:
        """Carry out ``op`` on a table, here or at the node that holds it.

        A change is answered once it is stored. Should another node take the table over
        meanwhile, the change was dropped with everything else not stored here: it is
        carried out again at the new owner.
        """
        room = self.lobby.get(table_id)
        if room is None and await self.ownership.locate(table_id) is not None:
            return await self.bus.call(table_id, op, args)
        result = self.lobby.carry_out(table_id, op, args)
        if op not in CHANGES:
            return result
        await stored(self.storage)
        room = room or self.lobby.get(table_id)
        if room is None or not room.lost or room.handed:
            return result
        return await self.bus.call(table_id, op, args)

    async def connect(
        self, websocket: WebSocket, table_id: str, client: str, address: str, receive: Receive
    ) -> None:
        """Serve a browser's socket at table ``table_id`` until it closes: here if this
        node holds the table, else relayed to the node that does."""
        try:
            room, owner = self.lobby.get(table_id), None
            if room is None:
                owner = await self.ownership.locate(table_id)  # not_found, or its holder
                room = self.lobby.get(table_id)  # taken over here meanwhile
                if room is None and owner is None:
                    raise not_found(table_id)  # dropped here meanwhile
            release = await self.limits.admit_socket(client, address)
        except ServerError as err:
            await _refuse(websocket, err)
            return
        try:
            if room is not None:
                conn = Connection(websocket, table_id, client=client, address=address)
                await room.serve(conn, receive)
            elif owner is not None:
                await self.bus.relay_socket(websocket, receive, table_id, owner, client, address)
        except ServerError as err:
            await _refuse(websocket, err)
        except WebSocketDisconnect:
            pass
        finally:
            release()

    # -- monitoring --------------------------------------------------------------------

    def stats(self) -> Json:
        """Counters for monitoring and the load benchmark."""
        rooms = list(self.lobby.held())
        bus = self.bus.stats()
        return {
            **({"cluster": bus} if bus else {}),
            "tables": len(rooms),
            "moves": self.counters.moves,
            "errors": self.counters.errors,
            "timeouts": self.counters.timeouts,
            "expired": self.counters.expired,
            "connections": sum(len(r.connections) for r in rooms),
            "failed": self.counters.failed,
        }


async def _refuse(websocket: WebSocket, err: ServerError) -> None:
    """Answer a socket that cannot be served with ``err``, and close it."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_text(error_message(err))
        await websocket.close(code=4404 if err.code == "not_found" else 4429)
