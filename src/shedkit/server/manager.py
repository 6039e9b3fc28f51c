"""Tables: seats, a match of deals, bots, connections; the server's authority over play.

The manager uses the game contract only (``make``, ``new_deal`` through a
`Match`, ``legal_moves``, ``apply``, ``view``,
``record``, ``replay``, ``parse_move``) and the agents registry. A table is
rebuilt after a restart from its stored finished deals and the record of the
deal in progress, replayed move by move.

Fairness, by construction: the server alone draws seeds (a table created with a
fixed seed says so to everyone) and publishes a commitment to each deal's seed
(its SHA-256) before the deal, the seed itself in the record after it; a seat's
hand reaches that seat's connections only; once a deal is under way a seat can be
taken only by the player who held it; a turn clock lets a seat's bot move for a
player who does not, so a table always moves on; and no state leaves the server
before the write that holds it is committed (`Storage.on_commit`).

`Manager` wires its parts together, one module each: `shedkit.server.lobby` (the
directory of tables), `shedkit.server.play` (seats, deals, moves),
`shedkit.server.runner` (bots and clocks), `shedkit.server.hub` (connections and
fan-out) and `shedkit.server.store` (saving and restoring); one table's state and
rules are in `shedkit.server.table`. Every name the rest of the server imported from
here still is.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

from shedkit.server.bots import BotPool
from shedkit.server.errors import ServerError
from shedkit.server.hub import (
    BURST,
    EMOTES,
    MAX_CHAT,
    MAX_MESSAGE,
    OUTBOX,
    QUICK_PHRASES,
    RATE,
    Connection,
    Hub,
    Sender,
)
from shedkit.server.lobby import Lobby
from shedkit.server.play import MAX_NAME, Play
from shedkit.server.runner import Runner
from shedkit.server.settings import Settings, TokenBucket
from shedkit.server.storage import Storage
from shedkit.server.store import Store
from shedkit.server.table import (
    CHAT_KEPT,
    DEFAULT_SPEED,
    HISTORY_SENT,
    SPEEDS,
    SUMMARIES_KEPT,
    SeatInfo,
    TableRuntime,
    agents_for,
    commitment,
    default_agent,
)

__all__ = [
    "BURST",
    "CHAT_KEPT",
    "DEFAULT_SPEED",
    "EMOTES",
    "HISTORY_SENT",
    "MAX_CHAT",
    "MAX_MESSAGE",
    "MAX_NAME",
    "OUTBOX",
    "QUICK_PHRASES",
    "RATE",
    "SPEEDS",
    "SUMMARIES_KEPT",
    "Connection",
    "Manager",
    "SeatInfo",
    "Sender",
    "ServerError",
    "TableRuntime",
    "agents_for",
    "commitment",
    "default_agent",
]

log = logging.getLogger("shedkit.server")


class Manager(Lobby, Play, Runner, Hub, Store):
    """Every table of the server, its storage, its bots and its clocks."""

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
        self.bot_delay = self.settings.bot_delay
        self.away_after = self.settings.away_after
        self.tables: dict[str, TableRuntime] = {}
        self.moves = 0
        self.errors = 0
        self.timeouts = 0
        self.expired = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.create_limits: dict[str, TokenBucket] = {}
        self.join_limits: dict[str, TokenBucket] = {}
        self.pool = BotPool(self.settings.bot_workers or None)
        self.late_answers = 0
        # Open WebSockets per client and per address, for their caps.
        self.sockets: dict[str, int] = {}
        # Tables closed because their row could not be stored.
        self.failed = 0
        #: Set by the app on a cluster (`shedkit.server.cluster`).
        self.cluster = None
        storage.on_bad_row = self._bad_row

    def start(self) -> None:
        """Set the bots, clocks and the expiry sweep going (inside the running event loop).

        Nobody is connected after a restart: a seat whose player does not come back
        within ``away_after`` seconds is played by its bot, as after a disconnection.
        """
        self.loop = asyncio.get_running_loop()
        for table in self.tables.values():
            self.resume(table)
        self.sweeper = self.loop.create_task(self._sweep())

    def resume(self, table: TableRuntime) -> None:
        """Set a restored table's bots and clock going; its players count as away until back."""
        for seat, info in enumerate(table.seats):
            if info.token_hash is not None:
                self._away_later(table, seat)
        self._kick(table)
        self._arm_clocks(table)

    async def stop(self) -> None:
        """Stop the bots, clocks and sweep, and commit every table (and on a cluster, hand
        the tables back)."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for table in self.tables.values():
            for task in [table.bot_task, *table.think_tasks]:
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            self._stop_timers(table)
        self.pool.close()
        # Bounded: what is not committed by then was never acknowledged either.
        if not self.storage.flush(timeout=4.0):
            log.error("storage: shutting down with writes not committed")
        if self.cluster is not None:
            await self.cluster.stop()
