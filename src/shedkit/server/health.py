"""``GET /api/health``: what a node holds, and whether its database and Redis answer.

The answer is ``{"ok", "node", "tables", "database"}``, and on a cluster also ``"held"``
(the tables whose lease this node holds) and ``"redis"``. Its status is 200 while the
node can serve, 503 when its database does not answer: nothing can be stored then, so
nothing can be acknowledged, and a load balancer should send players elsewhere. A Redis
that does not answer leaves the status at 200: the node still serves the sockets of its
own tables, and every node would fail the check at once, so pulling them all would only
turn a degraded room into none.

Each probe has a deadline (Redis `shedkit.server.cluster.REDIS_TIMEOUT`, the database
``DATABASE_TIMEOUT``),
and the two run together, so the endpoint answers within about a second whatever
hangs. The database's ``SELECT 1`` runs in a thread of its own: a probe still waiting
(a connection to a host that does not answer can take minutes to fail) is waited on
again by the next check instead of starting another, so a dead database costs one
thread, not one per check. A failed probe is a ``false`` in the answer, not a traceback
in the log: the node's own work logs the outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import TYPE_CHECKING, Final

from sqlalchemy import text

from shedkit.protocol.views import Json

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from shedkit.server.node import Node

__all__ = ["DATABASE_TIMEOUT", "Health"]

#: Seconds the database has to answer ``SELECT 1``.
DATABASE_TIMEOUT: Final = 1.0


def select_one(engine: Engine) -> None:
    """Run ``SELECT 1`` on ``engine`` (raises if the database does not answer)."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


class Health:
    """The health checks of one server (one app): its probes and their state."""

    def __init__(self) -> None:
        self._database: asyncio.Future[bool] | None = None

    async def report(self, node: Node, name: str) -> tuple[int, Json]:
        """The status and body of ``GET /api/health`` for ``node``, named ``name``."""
        database, bus = await asyncio.gather(self.database(node.storage.engine), node.bus.health())
        body: Json = {"ok": database, "node": name, "tables": len(node.lobby.rooms)}
        body.update(bus)
        body["database"] = database
        return (200 if database else 503), body

    async def database(self, engine: Engine, timeout: float = DATABASE_TIMEOUT) -> bool:
        """True if the database answers ``SELECT 1`` within ``timeout`` seconds."""
        pending = self._database
        # A new probe unless one is under way (on this loop: an app may be served again).
        if (
            pending is None
            or pending.done()
            or pending.get_loop() is not asyncio.get_running_loop()
        ):
            pending = self._database = self._probe(engine)
        try:
            # Shielded: a probe past its deadline goes on, for the next check to wait on.
            return await asyncio.wait_for(asyncio.shield(pending), timeout)
        except Exception:
            return False

    def _probe(self, engine: Engine) -> asyncio.Future[bool]:
        """``SELECT 1`` in a daemon thread (one that hangs must not hold up the exit)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bool] = loop.create_future()

        def settle(ok: bool) -> None:
            if not answer.done():
                answer.set_result(ok)

        def run() -> None:
            try:
                select_one(engine)
                ok = True
            except Exception:
                ok = False
            # The loop may have closed while the probe hung: nobody waits any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, ok)

        threading.Thread(target=run, name="shedkit-health", daemon=True).start()
        return answer
