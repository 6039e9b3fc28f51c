"""The store: tables saved and restored through `Storage`, rows it cannot keep.

Every change is saved before anything about it is sent: the hub sends a batch only
once the storage has committed every write queued before it (`Storage.on_commit`),
so a client never sees a state that a restart would lose. A table whose row cannot
be stored is closed, and the states that were not stored are never sent.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import shedkit
from shedkit.core.errors import ShedkitError
from shedkit.protocol.views import Json
from shedkit.server.base import RoomBase
from shedkit.server.errors import ServerError, error_message
from shedkit.server.table import (
    DEFAULT_SPEED,
    SPEEDS,
    SUMMARIES_KEPT,
    SeatInfo,
    TableRuntime,
    summary_line,
)

if TYPE_CHECKING:
    from shedkit.server.storage import Storage

log = logging.getLogger("shedkit.server")

__all__ = ["Store", "stored"]


async def stored(storage: Storage) -> None:
    """Wait, without blocking the event loop, until every write queued so far is committed."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle() -> None:
        if not done.done():
            done.set_result(None)

    def wake() -> None:  # in the writer's thread
        loop.call_soon_threadsafe(settle)

    storage.on_commit(wake)
    await done


class Store(RoomBase):
    """Saving, restoring and failing tables."""

    def load(self) -> None:
        """Rebuild every stored table: replay its finished deals, then the deal in progress."""
        for table_id, data in self.storage.load_tables():
            if data.get("status") == "closed":
                continue  # expired: its deals stay stored, the table is gone
            try:
                table = self._restore(table_id, data)
            except (ShedkitError, KeyError, TypeError) as err:
                log.error("table %s cannot be restored: %s", table_id, err)
                continue
            self.tables[table_id] = table

    def _restore(self, table_id: str, data: Json) -> TableRuntime:
        seats = [
            SeatInfo(
                bot=s["bot"],
                human=s["human"],
                name=s["name"],
                token_hash=s["token_hash"],
                reserved=s.get("reserved"),
                client=s.get("client"),
                program=bool(s.get("program", False)),
            )
            for s in data["seats"]
        ]
        table = TableRuntime(
            id=table_id,
            game_name=data["game"],
            preset=data["preset"],
            options=dict(data["options"]),
            seed=data["seed"],
            deals=data["deals"],
            target=data["target"],
            seats=seats,
            created=data["created"],
            status=data["status"],
            match_no=data["match_no"],
            deal_counter=data["deal_counter"],
            fixed_seed=bool(data.get("fixed_seed", False)),
            hot_seat=bool(data.get("hot_seat", False)),
            turn_clock=float(data.get("turn_clock", self.settings.turn_clock)),
            creator=str(data.get("creator", "")),
            state_id=int(data.get("state_id", 0)),
            # Tables stored before the pace existed play at the default one.
            speed=str(data["speed"]) if data.get("speed") in SPEEDS else DEFAULT_SPEED,
            card_counter=bool(data.get("card_counter", False)),
        )
        table.banks = [self.settings.time_bank] * len(seats)
        table.chat.extend(data.get("chat", []))
        for deal in self.storage.load_deals(table_id):
            state = shedkit.replay(deal["record"])
            table.summaries.append(summary_line(deal["number"], deal["match"], state))
            del table.summaries[:-SUMMARIES_KEPT]
            if deal["match"] == table.match_no:
                # The same deal attempts in the same order give the same seeds and totals.
                table.match.attempts += 1
                table.match.finish_deal(state)
        current = data.get("current")
        if current is not None:
            table.match.attempts += 1
            state = shedkit.replay(current["start"])
            for text in current["moves"]:
                state.apply(table.game.parse_move(text, state))
            table.state = state
            table.deal_start = current["start"]
            table.deal_moves = list(current["moves"])
        return table

    def _bad_row(self, table_id: str) -> None:
        """The storage set a row of ``table_id`` aside (called from the writer thread)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.fail_table, table_id)

    def fail_table(self, table_id: str) -> None:
        """Close a table whose state cannot be stored: its clients get ``table_closed``.

        The states that were not stored are never sent; the table's finished deals stay.
        """
        table = self.tables.get(table_id)
        if table is None:
            return
        self.failed += 1
        table.outq.clear()
        closing = ServerError(
            "table_closed",
            "this table could not be saved and is closed",
            data={"reason": "storage"},
        )
        error = error_message(closing)
        for conn in table.connections:
            conn.post(error)
            conn.close_code, conn.closed = 4410, True
        self._forget(table)
        closed = {"status": "closed", "reason": "storage", "game": table.game_name}
        self.storage.save_table(table.id, table.game_name, closed, table.fence)

    def _save(self, table: TableRuntime) -> None:
        if table.lost:
            return  # another hold's table now: nothing of this one is written or sent
        self.storage.save_table(table.id, table.game_name, table.to_data(), table.fence)
