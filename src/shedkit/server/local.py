"""The collaborators of a single node: it holds every table, counts in memory, relays nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from shedkit.protocol.views import Json
from shedkit.server.errors import ServerError, create_rate_error, not_found
from shedkit.server.ports import Receive, Rooms
from shedkit.server.settings import Buckets, Settings

__all__ = ["LocalBus", "LocalLimits", "SoleOwner"]


class LocalLimits:
    """Caps and rates counted by this node alone."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rates = Buckets()
        #: Open WebSockets per client and per address.
        self.sockets: dict[str, int] = {}

    async def allow(self, kind: str, client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of ``kind``."""
        return self.rates.allow(f"{kind}:{client}", per_minute)

    async def before_create(self, client: str) -> None:
        """The rate limit on new tables (the quota is the lobby's: it sees every table)."""
        per_minute = self.settings.creates_per_minute
        if not await self.allow("create", client, per_minute):
            raise create_rate_error(per_minute)

    async def admit_socket(self, client: str, address: str) -> Callable[[], None]:
        """Count a socket against the client and address caps; return what uncounts it."""
        return self.admit_now(client, address)

    def admit_now(self, client: str, address: str) -> Callable[[], None]:
        """`admit_socket` without waiting (the cluster's fallback while Redis is down)."""
        s = self.settings
        for key, limit, reason in (
            (client, s.ws_per_client, "client"),
            (address, s.ws_per_address, "address"),
        ):
            if self.sockets.get(key, 0) >= limit:
                raise ServerError(
                    "too_many_connections",
                    f"at most {limit} connections per {reason}; close some first",
                    429,
                    {"limit": limit, "reason": reason},
                )
        keys = {client, address}
        for key in keys:
            self.sockets[key] = self.sockets.get(key, 0) + 1

        def release() -> None:
            for key in keys:
                left = self.sockets.get(key, 0) - 1
                if left > 0:
                    self.sockets[key] = left
                else:
                    self.sockets.pop(key, None)

        return release


class SoleOwner:
    """One node holds every table it has; any other id is not found."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    def hold_new(self, table_id: str, creator: str) -> int:
        """No lease on one node: fence 0."""
        return 0

    async def locate(self, table_id: str) -> str | None:
        """None if the table is here, else ``not_found``."""
        if self.rooms.get(table_id) is None:
            raise not_found(table_id)
        return None


class LocalBus:
    """Nothing crosses nodes: the lobby is this node's, no call or relay leaves it."""

    async def lobby(self, here: list[Json], limit: int = 200) -> list[Json]:
        """This node's lines, already in order."""
        return here[:limit]

    async def created(self) -> None:
        """Nothing to announce."""

    async def call(self, table_id: str, op: str, args: Json) -> Any:
        """Never reached: `SoleOwner.locate` finds every table here or nowhere."""
        raise not_found(table_id)

    async def relay_socket(
        self,
        websocket: WebSocket,
        receive: Receive,
        table_id: str,
        owner: str,
        client: str,
        address: str,
    ) -> None:
        """Never reached, as `call`."""
        raise not_found(table_id)

    async def health(self) -> Json:
        """Nothing to add."""
        return {}

    def stats(self) -> Json:
        """Nothing to add."""
        return {}
