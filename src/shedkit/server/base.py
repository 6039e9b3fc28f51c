"""What the manager's parts share: its state, and the steps one part asks of another.

`Manager` is made of parts, each in a module of its own: `Lobby` (the directory of
tables), `Play` (seats, deals, moves), `Runner` (bots and clocks), `Hub`
(connections and fan-out) and `Store` (saving and restoring). Each is a subclass of
`RoomBase`, which names the state they share and the steps they call across parts,
so that a module reads alone; the manager sets the state up.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shedkit.server.bots import BotPool
    from shedkit.server.cluster import Cluster
    from shedkit.server.hub import Connection
    from shedkit.server.settings import Settings, TokenBucket
    from shedkit.server.storage import Storage
    from shedkit.server.table import TableRuntime

__all__ = ["RoomBase"]


class RoomBase:
    """The manager's shared state and the steps its parts call on one another."""

    settings: Settings
    storage: Storage
    bot_delay: float
    away_after: float
    tables: dict[str, TableRuntime]
    # Counters shown at /api/stats.
    moves: int
    errors: int
    timeouts: int
    expired: int
    failed: int
    late_answers: int
    loop: asyncio.AbstractEventLoop | None
    sweeper: asyncio.Task[None] | None
    create_limits: dict[str, TokenBucket]
    join_limits: dict[str, TokenBucket]
    pool: BotPool
    # Open WebSockets per client and per address, for their caps.
    sockets: dict[str, int]
    # This node's part in a cluster, or None on a single node.
    cluster: Cluster | None

    # Lobby
    def table(self, table_id: str) -> TableRuntime:
        """The table ``table_id``, or a ``not_found`` error."""
        raise NotImplementedError

    def _forget(self, table: TableRuntime) -> None:
        raise NotImplementedError

    # Play
    def seat_of(self, table: TableRuntime, token: Any) -> int:
        """The seat whose token is ``token``, or a ``bad_token`` error."""
        raise NotImplementedError

    def _moved(self, table: TableRuntime, move: Any) -> None:
        raise NotImplementedError

    # Runner
    def _kick(self, table: TableRuntime) -> None:
        raise NotImplementedError

    def _arm_clocks(self, table: TableRuntime) -> None:
        raise NotImplementedError

    def _away_later(self, table: TableRuntime, seat: int) -> None:
        raise NotImplementedError

    @staticmethod
    def _stop_timers(table: TableRuntime) -> None:
        raise NotImplementedError

    # Hub
    def _changed(self, table: TableRuntime, save: bool = True) -> None:
        raise NotImplementedError

    def _publish(self, table: TableRuntime, batch: list[tuple[Connection, str]]) -> None:
        raise NotImplementedError

    def send_state(self, table: TableRuntime, conn: Connection) -> None:
        """Queue the current state for one connection, once what it shows is committed."""
        raise NotImplementedError

    # Store
    def _save(self, table: TableRuntime) -> None:
        raise NotImplementedError
