"""The lobby: the directory of this node's rooms, their creation under quotas, and expiry.

Colyseus's matchmaker in small: a room is created here (checked against the rules of a
new table and the quotas), found by id, listed, and closed once idle or finished. The
table's ownership on a cluster is asked of `Ownership` when it is created; the rest of
the cluster reaches the rooms through the `Rooms` interface this class implements.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterator
from typing import Any, Final

import shedkit
from shedkit.core.errors import OptionError, ShedkitError
from shedkit.core.registry import GAMES
from shedkit.protocol.views import Json
from shedkit.server.connection import Connection
from shedkit.server.errors import ServerError, not_found, quota_error
from shedkit.server.inputs import check_id, check_text
from shedkit.server.ports import HeldRoom, Ownership, Receive
from shedkit.server.room import Room, Services
from shedkit.server.seats import SeatInfo
from shedkit.server.storage import Storage
from shedkit.server.table import (
    DEFAULT_SPEED,
    SPEEDS,
    Table,
    agents_for,
    default_agent,
    model_misfit,
)

__all__ = ["CHANGES", "Lobby", "new_table_id"]

log = logging.getLogger("shedkit.server")

#: The requests that change a table: answered only once the change is stored.
CHANGES: Final = frozenset(("join", "leave"))


def new_table_id() -> str:
    """A fresh table id: eight URL-safe characters that never start with ``-``.

    An id such as ``-x3Fq9aB`` would read as an option to ``shedkit bot
    connect --table`` and to any other command line that takes it.
    """
    while True:
        table_id = secrets.token_urlsafe(6)
        if table_id[0] not in "-_":
            return table_id


class Lobby:
    """Every room of this node by id: created, listed, looked up, expired."""

    def __init__(self, services: Services, storage: Storage) -> None:
        self.services = services
        self.settings = services.settings
        self.storage = storage
        self.rooms: dict[str, Room] = {}
        #: Who holds tables (set by the node's wiring; this node alone until then).
        self.ownership: Ownership | None = None

    # -- lookup ------------------------------------------------------------------------

    def get(self, table_id: str) -> Room | None:
        """The room of ``table_id`` on this node, or None."""
        return self.rooms.get(table_id) if check_id(table_id) else None

    def room(self, table_id: str) -> Room:
        """The room of ``table_id``, or a ``not_found`` error."""
        room = self.get(table_id)
        if room is None:
            raise not_found(table_id)
        return room

    def held(self) -> Iterator[Room]:
        """Every room on this node."""
        return iter(list(self.rooms.values()))

    def lines(self, limit: int = 200) -> list[Json]:
        """The lobby's tables: open seats first, then those with players, newest first.

        Bot-only tables come last, so a burst of them cannot push real tables out.
        """

        def rank(room: Room) -> tuple[int, float]:
            t = room.table
            open_seat = t.status != "finished" and any(
                s.token_hash is None and s.human for s in t.seats
            )
            return (0 if open_seat else 1 if t.humans else 2, -t.created)

        return [r.summary() for r in sorted(self.rooms.values(), key=rank)[:limit]]

    # -- requests about one table ------------------------------------------------------

    def carry_out(self, table_id: str, op: str, args: Json) -> Any:
        """``op`` on the table ``table_id`` here: its public state, its deals, a join or a
        leave (``args`` as the HTTP request gave them)."""
        room = self.room(table_id)
        if op == "public":
            return room.table.public()
        if op == "summaries":
            return room.table.summaries
        if op == "join":
            return room.on_join(
                args["seat"], args["name"], args["token"], args["client"], bool(args["bot"])
            )
        if op == "leave":
            return room.on_leave(args["token"])
        raise ServerError("bad_request", f"no operation {op!r}")

    async def serve(self, room: HeldRoom, conn: Connection, receive: Receive) -> None:
        """A socket another node holds, served at ``room`` until it closes."""
        assert isinstance(room, Room)
        await room.serve(conn, receive)

    # -- creation ----------------------------------------------------------------------

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
    ) -> Room:
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
        if len(self.rooms) >= s.max_tables:
            raise ServerError(
                "server_full",
                f"this server hosts at most {s.max_tables} tables; try later",
                503,
                {"limit": s.max_tables},
            )
        if sum(1 for r in self.rooms.values() if r.table.creator == client) >= s.tables_per_client:
            raise quota_error(s.tables_per_client)
        if game not in GAMES:
            raise ServerError(
                "bad_game",
                f"unknown game {game!r}; valid games: {', '.join(sorted(GAMES))}",
                data={"game": str(game)},
            )
        options = dict(options or {})
        try:
            made = shedkit.make(game, preset=preset, **options)
        except (OptionError, TypeError) as err:
            raise ServerError("bad_option", str(err), data=_option_named(err, options)) from err
        bot = bot or default_agent(game)
        offered = agents_for(game, s.model_dirs)
        if bot not in offered:
            raise ServerError(
                "bad_bot",
                f"agent {bot!r} does not play {game}; valid: {', '.join(offered)}",
                data={"bot": bot},
            )
        misfit = model_misfit(made) if bot in s.model_dirs else None
        if misfit is not None:
            # A model plays the rules it was trained on: the preset's, without changes.
            raise ServerError(
                "bad_bot",
                f"the model {bot!r} does not play these rules: {misfit}",
                data={"bot": bot, "reason": "model_rules"},
            )
        n = made.num_players
        _check_table(s.bot_only_max_deals, n, bots, deals, target, turn_clock, speed, card_counter)
        if seed is not None and not 0 <= seed < 2**63:
            raise ServerError("bad_seed", "a seed is a whole number from 0 to 2**63 - 1")
        table_id = new_table_id()
        fence = 0 if self.ownership is None else self.ownership.hold_new(table_id, client)
        table = Table(
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
            turn_clock=float(s.turn_clock if turn_clock is None else turn_clock),
            creator=client,
            speed=speed,
            card_counter=card_counter,
        )
        table.banks = [s.time_bank] * n
        room = Room(table, self.services, fence)
        self.rooms[table_id] = room
        if table.ready():
            table.start_deal(s.time_bank)
        room._changed()
        return room

    # -- restoring ---------------------------------------------------------------------

    def load(self) -> None:
        """Rebuild every stored table: replay its finished deals, then the deal in progress."""
        for table_id, data in self.storage.load_tables():
            if data.get("status") == "closed":
                continue  # expired: its deals stay stored, the table is gone
            try:
                room = self.restored(table_id, data)
            except (ShedkitError, KeyError, TypeError) as err:
                log.error("table %s cannot be restored: %s", table_id, err)
                continue
            self.rooms[table_id] = room

    def restored(self, table_id: str, data: Json) -> Room:
        """A room rebuilt from its stored row and deals (not yet served).

        A seat whose bot this server does not offer (a model no longer served with
        ``--model``, an uninstalled package's bot) gets the game's default bot.
        """
        deals = self.storage.load_deals(table_id)
        table = Table.from_data(table_id, data, deals, self.settings)
        offered = agents_for(table.game_name, self.settings.model_dirs)
        for seat, info in enumerate(table.seats):
            if info.bot not in offered:
                stand_in = default_agent(table.game_name)
                log.warning(
                    "table %s: bot %r is not offered here; %s plays seat %d",
                    table_id,
                    info.bot,
                    stand_in,
                    seat,
                )
                info.bot = stand_in
        return Room(table, self.services)

    def add(self, room: HeldRoom) -> None:
        """Serve ``room`` here (a table this node just took over), its bots and clocks going."""
        assert isinstance(room, Room)
        self.rooms[room.id] = room
        room.resume()

    # -- closing -----------------------------------------------------------------------

    async def sweep(self) -> None:
        """Close idle and finished tables now and then (their deals stay stored)."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            self.expire()

    def expire(self, now: float | None = None) -> list[str]:
        """Close tables nobody watches that are finished or idle too long; return their ids."""
        now = time.monotonic() if now is None else now
        s = self.settings
        gone = []
        for room in list(self.rooms.values()):
            if room.connections:
                continue
            quiet = now - room.table.last_activity
            finished = room.table.status == "finished" and quiet >= s.finished_expiry
            if finished or quiet >= s.idle_expiry:
                gone.append(room.id)
                self.close(room)
        return gone

    def close(self, room: Room) -> None:
        """Forget a room and mark its table closed in storage."""
        self.forget(room)
        data = room.table.to_data()
        data["status"] = "closed"
        self.storage.save_table(room.id, room.table.game_name, data, room.fence)
        self.services.counters.expired += 1

    def forget(self, room: HeldRoom) -> None:
        """Drop a room from this node with its bots, searches and clocks."""
        assert isinstance(room, Room)
        room.dispose()
        # Only this room: a room restored under the same id since is another object.
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    def fail(self, table_id: str) -> None:
        """Close a table whose state cannot be stored: its clients get ``table_closed``."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        self.services.counters.failed += 1
        room.close_unstored()
        self.forget(room)
        closed = {"status": "closed", "reason": "storage", "game": room.table.game_name}
        self.storage.save_table(room.id, room.table.game_name, closed, room.fence)

    async def stop(self) -> None:
        """Stop every room's bots and clocks."""
        for room in list(self.rooms.values()):
            await room.stop()


def _check_table(
    most_bot_deals: int,
    n: int,
    bots: int,
    deals: int | None,
    target: int | None,
    turn_clock: float | None,
    speed: Any,
    card_counter: Any,
) -> None:
    """The settings of a new table with ``n`` seats, each within its bounds."""
    if not 0 <= bots <= n:
        raise ServerError("bad_bots", f"bots must be 0…{n}, not {bots}", data={"max": n})
    if deals is not None and not 1 <= deals <= 1000:
        raise ServerError(
            "bad_deals", f"deals must be 1…1000 or none, not {deals}", data={"max": 1000}
        )
    if bots == n and (deals is None or deals > most_bot_deals):
        raise ServerError(
            "bad_deals",
            f"a table of bots alone plays at most {most_bot_deals} deals",
            data={"max": most_bot_deals, "reason": "bots_only"},
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


def _option_named(err: Exception, options: dict[str, Any]) -> dict[str, Any] | None:
    """``{"option": name}`` when the options error is about one option the request set."""
    text = str(err)
    for name in options:
        if f"{name!r}" in text:
            return {"option": name}
    return None
