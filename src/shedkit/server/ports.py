"""The interfaces between the rooms and what serves them, each with a local and a cluster side.

Wired once at start-up (`shedkit.server.node`): on one node the local versions
(`shedkit.server.local`), on a cluster those of `shedkit.server.cluster`. Nothing else
asks which it runs on.

- `Store`: what a room needs of the storage: queue a write, and hear when what is
  queued is committed (nothing is acknowledged before);
- `Ownership`: which node holds a table (this one always, or leases with fencing);
- `Limits`: connection caps and rate limits (in memory, or shared in Redis);
- `Bus`: what crosses nodes (the lobby of every node, calls to a table's owner, sockets
  relayed to it); on one node there is nothing to cross;
- `Rooms` and `HeldRoom`: what the cluster's side asks of this node's rooms.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.websockets import WebSocket

from shedkit.protocol.views import Json
from shedkit.server.connection import Connection

__all__ = ["Bus", "Counters", "HeldRoom", "Limits", "Ownership", "Receive", "Rooms", "Store"]

#: How a session reads its socket: each message as text, ``None`` once it closed.
Receive = Callable[[], Awaitable[str | None]]


@dataclass
class Counters:
    """What a node counts, shown at ``/api/stats``."""

    moves: int = 0
    errors: int = 0
    timeouts: int = 0
    expired: int = 0
    #: Tables closed because their row could not be stored.
    failed: int = 0
    #: Bot answers that came back after their table had moved on.
    late_answers: int = 0


class Store(Protocol):
    """What a room needs of the storage (`shedkit.server.storage.Storage`)."""

    def save_table(self, table_id: str, game: str, data: dict[str, Any], fence: int = 0) -> None:
        """Queue the table's row, written under ``fence``."""
        ...

    def add_deal(
        self,
        table_id: str,
        number: int,
        match: int,
        game: str,
        record: dict[str, Any],
        fence: int = 0,
    ) -> None:
        """Queue a finished deal's record, written under ``fence``."""
        ...

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (in the writer's thread) once every write queued so far is
        committed."""
        ...


class HeldRoom(Protocol):
    """What the cluster's side sees of a room: its table's id, its hold, its sockets."""

    @property
    def id(self) -> str:
        """The table's id."""
        ...

    fence: int
    lost: bool
    handed: bool
    connections: list[Connection]

    def summary(self) -> Json:
        """The lobby's line for the table."""
        ...

    def resume(self) -> None:
        """Set a restored table's bots and clocks going."""
        ...

    def lose(self) -> None:
        """The hold ended: nothing more of this room is written or sent."""
        ...


class Rooms(Protocol):
    """What the cluster's side asks of this node's rooms (`shedkit.server.lobby.Lobby`)."""

    def get(self, table_id: str) -> HeldRoom | None:
        """The room of ``table_id`` on this node, or None."""
        ...

    def held(self) -> Iterable[HeldRoom]:
        """Every room on this node."""
        ...

    def restored(self, table_id: str, data: Json) -> HeldRoom:
        """A room rebuilt from a stored row (runs in a worker thread; not yet served)."""
        ...

    def add(self, room: HeldRoom) -> None:
        """Serve ``room`` (made by `restored`) on this node."""
        ...

    def forget(self, room: HeldRoom) -> None:
        """Stop ``room`` and drop it from this node."""
        ...

    def carry_out(self, table_id: str, op: str, args: Json) -> Any:
        """Another node's request (``public``, ``summaries``, ``join``, ``leave``)."""
        ...

    async def serve(self, room: HeldRoom, conn: Connection, receive: Receive) -> None:
        """A socket held by another node, served at ``room`` until it closes."""
        ...


class Ownership(Protocol):
    """Which node holds each table."""

    def hold_new(self, table_id: str, creator: str) -> int:
        """Hold a table created here; its fencing token (0 on one node)."""
        ...

    async def locate(self, table_id: str) -> str | None:
        """The node holding ``table_id``: None for this one (taking it over if it is
        free), else its name; ``not_found`` or ``try_again`` errors."""
        ...


class Limits(Protocol):
    """Connection caps and rate limits per client and address."""

    async def allow(self, kind: str, client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of ``kind``."""
        ...

    async def before_create(self, client: str) -> None:
        """The rate limit and quota on new tables, checked before one is made."""
        ...

    async def admit_socket(self, client: str, address: str) -> Callable[[], None]:
        """Count a socket against the client and address caps (``too_many_connections``);
        return what uncounts it."""
        ...


class Bus(Protocol):
    """What crosses nodes."""

    async def lobby(self, here: list[Json], limit: int = 200) -> list[Json]:
        """Every node's tables in the lobby's order, given this node's lines ``here``."""
        ...

    async def created(self) -> None:
        """A table was created here: let every node's lobby list it once it is stored."""
        ...

    async def call(self, table_id: str, op: str, args: Json) -> Any:
        """Carry out ``op`` at the node that holds ``table_id``."""
        ...

    async def relay_socket(
        self,
        websocket: WebSocket,
        receive: Receive,
        table_id: str,
        owner: str,
        client: str,
        address: str,
    ) -> None:
        """Serve a browser's socket whose table another node holds, until either side
        closes (``try_again`` if that node cannot be reached now)."""
        ...

    async def health(self) -> Json:
        """What `/api/health` says of the bus (``held``, ``redis``); nothing on one node."""
        ...

    def stats(self) -> Json:
        """What `/api/stats` says of the bus; nothing on one node."""
        ...
