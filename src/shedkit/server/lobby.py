"""The lobby: the directory of tables, their creation under quotas, and their expiry."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import shedkit
from shedkit.core.errors import OptionError
from shedkit.protocol.views import SERIALIZERS, Json
from shedkit.server.base import RoomBase
from shedkit.server.errors import ServerError, create_rate_error, quota_error
from shedkit.server.inputs import check_id, check_text
from shedkit.server.settings import TokenBucket
from shedkit.server.table import (
    DEFAULT_SPEED,
    SPEEDS,
    SeatInfo,
    TableRuntime,
    agents_for,
    default_agent,
)

__all__ = ["Lobby", "new_table_id"]


def new_table_id() -> str:
    """A fresh table id: eight URL-safe characters that never start with ``-``.

    An id such as ``-x3Fq9aB`` would read as an option to ``shedkit bot
    connect --table`` and to any other command line that takes it.
    """
    while True:
        table_id = secrets.token_urlsafe(6)
        if table_id[0] not in "-_":
            return table_id


class Lobby(RoomBase):
    """Every table by id: created, listed, looked up, expired."""

    def table(self, table_id: str) -> TableRuntime:
        """The table ``table_id``, or a ``not_found`` error."""
        shaped = check_id(table_id)
        table = self.tables.get(table_id) if shaped else None
        if table is None:
            shown = table_id if shaped else "?"
            raise ServerError("not_found", f"no table {shown!r}", 404, {"table": shown})
        return table

    def lobby(self, limit: int = 200) -> list[Json]:
        """The lobby's tables: open seats first, then those with players, newest first.

        Bot-only tables come last, so a burst of them cannot push real tables out.
        """

        def rank(t: TableRuntime) -> tuple[int, float]:
            open_seat = t.status != "finished" and any(
                s.token_hash is None and s.human for s in t.seats
            )
            return (0 if open_seat else 1 if t.humans else 2, -t.created)

        return [t.summary() for t in sorted(self.tables.values(), key=rank)[:limit]]

    def limit(self, buckets: dict[str, TokenBucket], client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of this kind (token bucket)."""
        bucket = buckets.get(client)
        if bucket is None:
            if len(buckets) > 10_000:
                buckets.clear()  # forget idle clients rather than grow without bound
            bucket = buckets[client] = TokenBucket(max(1.0, per_minute), per_minute / 60.0)
        return bucket.allow()

    def create(
        self,
        game: str,
        preset: str = "standard",
        options: dict[str, Any] | None = None,
        bots: int = 0,
        bot: str | None = None,
        deals: int | None = 5,
        target: int | None = None,
        seed: int | None = None,
        hot_seat: bool = False,
        turn_clock: float | None = None,
        client: str = "",
        speed: str = DEFAULT_SPEED,
        card_counter: bool = False,
    ) -> TableRuntime:
        """A new table; the last ``bots`` seats are given to bots from the start.

        ``seed`` fixes the deals (for tests and analysis); such a table says so to
        everyone (``fixed_seed``). Without it the server draws the seed and never shows
        it before a deal is over. ``turn_clock`` seconds per move (0: none). ``speed``
        (``relaxed``, ``normal``, ``fast``) sets how long the bots wait before they move;
        ``card_counter`` shows every seat the cards still out, in the games that have cards.
        """
        s = self.settings
        for what, value in (("game", game), ("preset", preset), ("bot", bot)):
            if value is not None:
                check_text(value, what, 64)
        if len(self.tables) >= s.max_tables:
            raise ServerError(
                "server_full",
                f"this server hosts at most {s.max_tables} tables; try later",
                503,
                {"limit": s.max_tables},
            )
        if sum(1 for t in self.tables.values() if t.creator == client) >= s.tables_per_client:
            raise quota_error(s.tables_per_client)
        if not self.limit(self.create_limits, client, s.creates_per_minute):
            raise create_rate_error(s.creates_per_minute)
        if game not in SERIALIZERS:
            raise ServerError(
                "bad_game",
                f"unknown game {game!r}; valid games: {', '.join(sorted(SERIALIZERS))}",
                data={"game": str(game)},
            )
        options = dict(options or {})
        try:
            made = shedkit.make(game, preset=preset, **options)
        except (OptionError, TypeError) as err:
            raise ServerError("bad_option", str(err), data=_option_named(err, options)) from err
        bot = bot or default_agent(game)
        if bot not in agents_for(game):
            raise ServerError(
                "bad_bot",
                f"agent {bot!r} does not play {game}; valid: {', '.join(agents_for(game))}",
                data={"bot": bot},
            )
        n = made.num_players
        if not 0 <= bots <= n:
            raise ServerError("bad_bots", f"bots must be 0…{n}, not {bots}", data={"max": n})
        if deals is not None and not 1 <= deals <= 1000:
            raise ServerError(
                "bad_deals", f"deals must be 1…1000 or none, not {deals}", data={"max": 1000}
            )
        if bots == n and (deals is None or deals > s.bot_only_max_deals):
            raise ServerError(
                "bad_deals",
                f"a table of bots alone plays at most {s.bot_only_max_deals} deals",
                data={"max": s.bot_only_max_deals, "reason": "bots_only"},
            )
        if target is not None and not 1 <= target <= 1_000_000:
            raise ServerError(
                "bad_target",
                f"target must be 1…1000000 or none, not {target}",
                data={"max": 1_000_000},
            )
        if turn_clock is not None and not (turn_clock == 0 or 5 <= turn_clock <= 3600):
            raise ServerError(
                "bad_clock",
                f"turn_clock is 0 (no clock) or 5…3600 seconds, not {turn_clock}",
                data={"min": 5, "max": 3600},
            )
        clock = s.turn_clock if turn_clock is None else turn_clock
        if not isinstance(speed, str) or speed not in SPEEDS:
            raise ServerError(
                "bad_option",
                f"speed is one of {', '.join(SPEEDS)}, not {speed!r}",
                data={"option": "speed", "allowed": list(SPEEDS), "reason": "speed"},
            )
        if not isinstance(card_counter, bool):
            raise ServerError(
                "bad_option",
                f"card_counter is true or false, not {card_counter!r}",
                data={"option": "card_counter", "reason": "card_counter"},
            )
        if seed is not None and not 0 <= seed < 2**63:
            raise ServerError("bad_seed", "a seed is a whole number from 0 to 2**63 - 1")
        table_id = new_table_id()
        fence = 0
        if self.cluster is not None:
            fence = self.cluster.hold_new(table_id, client)
        table = TableRuntime(
            id=table_id,
            game_name=game,
            preset=preset,
            options=options,
            seed=seed if seed is not None else secrets.randbits(62),
            deals=deals,
            target=target,
            seats=[SeatInfo(bot=bot, human=i < n - bots) for i in range(n)],
            created=time.time(),
            fixed_seed=seed is not None,
            hot_seat=hot_seat,
            turn_clock=float(clock),
            creator=client,
            speed=speed,
            card_counter=card_counter,
            fence=fence,
        )
        table.banks = [s.time_bank] * n
        self.tables[table_id] = table
        if table.ready():
            table.start_deal(self.settings.time_bank)
        self._changed(table)
        return table

    async def _sweep(self) -> None:
        """Close idle and finished tables now and then (their deals stay stored)."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            self.expire()

    def expire(self, now: float | None = None) -> list[str]:
        """Close tables nobody watches that are finished or idle too long; return their ids."""
        now = time.monotonic() if now is None else now
        s = self.settings
        gone = []
        for table in list(self.tables.values()):
            if table.connections:
                continue
            quiet = now - table.last_activity
            finished = table.status == "finished" and quiet >= s.finished_expiry
            if finished or quiet >= s.idle_expiry:
                gone.append(table.id)
                self.close_table(table)
        return gone

    def close_table(self, table: TableRuntime) -> None:
        """Forget a table in memory and mark it closed in storage."""
        self._forget(table)
        data = table.to_data()
        data["status"] = "closed"
        self.storage.save_table(table.id, table.game_name, data, table.fence)
        self.expired += 1

    def _forget(self, table: TableRuntime) -> None:
        """Drop a table from memory with its bots, searches and clocks.

        A search still running would otherwise apply its move to the table after it is
        gone and save it again, over its closing mark.
        """
        for task in [table.bot_task, *table.think_tasks]:
            if task is not None:
                task.cancel()
        self._stop_timers(table)
        # Only this table: a table restored under the same id since is another object.
        if self.tables.get(table.id) is table:
            del self.tables[table.id]


def _option_named(err: Exception, options: dict[str, Any]) -> dict[str, Any] | None:
    """``{"option": name}`` when the options error is about one option the request set."""
    text = str(err)
    for name in options:
        if f"{name!r}" in text:
            return {"option": name}
    return None
