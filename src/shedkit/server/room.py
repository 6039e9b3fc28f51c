"""A room: one table on this node, its connections, clocks and bots, and its handlers.

The room is the async shell around a `Table` (the rules, no I/O). Its handlers are
the only ways a table changes: `on_join`, `on_leave`, `on_message` (hello, move, chat,
next, start, leave, sync, ping), `on_disconnect`, and its own clocks and bots. Each
change takes one path, `_changed`:

1. the table's row is queued for the store (`Store.save_table`, a finished deal with
   `Store.add_deal`);
2. the clocks are set for the new state;
3. one ``state`` message per seat is built (the table's public part encoded once) and
   queued behind those writes: it is posted to the connections' outboxes only once
   the store has committed them (`Store.on_commit`), in order, so no client sees a
   state that a restart would lose;
4. the bot runner is started if a bot is to move.

A room whose table could not be stored, or whose hold on a cluster ended (``lost``),
sends nothing more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import Any

from starlette.websockets import WebSocketDisconnect

from shedkit.agents import make_agent
from shedkit.core.errors import ShedkitError
from shedkit.core.rng import derive_seed
from shedkit.protocol.views import Json, serialize_view
from shedkit.server.bots import BotPool, Job
from shedkit.server.clocks import Clocks
from shedkit.server.connection import Connection, stop_writing, write_out
from shedkit.server.errors import ServerError, error_message
from shedkit.server.messages import parse
from shedkit.server.ports import Counters, Receive, Store
from shedkit.server.settings import Settings
from shedkit.server.storage import json_text as _dumps  # one encoder for rows and messages
from shedkit.server.table import Table

__all__ = ["CLOSED", "Room", "Services"]

log = logging.getLogger("shedkit.server")

#: The close code of a table closed because it could not be stored.
CLOSED = 4410
#: The message types a client may send, as the error for another one lists them.
TYPES = "hello, move, chat, next, start, leave, sync, ping"


@dataclass
class Services:
    """What every room of a node is given: its settings, the store, the bot pool, counters."""

    settings: Settings
    store: Store
    pool: BotPool
    counters: Counters
    #: The node's event loop once it serves (the store's commits are reported from the
    #: writer's thread, and handed to this loop).
    loop: asyncio.AbstractEventLoop | None = None


class Room:
    """One table on this node: its connections, clocks, bots and handlers."""

    # A node holds thousands of rooms: no per-instance dict.
    __slots__ = (
        "bot_task",
        "clocks",
        "connections",
        "fence",
        "gone",
        "handed",
        "lost",
        "outq",
        "seq",
        "services",
        "settings",
        "table",
        "think_tasks",
    )

    def __init__(self, table: Table, services: Services, fence: int = 0) -> None:
        self.table = table
        self.services = services
        self.settings = services.settings
        self.connections: list[Connection] = []
        self.clocks = Clocks()
        self.bot_task: asyncio.Task[None] | None = None
        self.think_tasks: set[asyncio.Task[None]] = set()
        # Messages waiting for the write that holds their state: (sequence, [(conn, text)]).
        self.outq: deque[tuple[int, list[tuple[Connection, str]]]] = deque()
        self.seq = 0
        #: On a cluster, the fencing token of this node's hold on the table (0 on one
        #: node): every write of this room carries it, and the storage refuses it once the
        #: lease holds another.
        self.fence = fence
        #: Set when another node took the table over: what this room did since is not
        #: stored, so nothing more is written or sent.
        self.lost = False
        #: Set when this node handed the table to another after storing all it made: the
        #: changes made before are stored (unlike a room ``lost``), so they stand.
        self.handed = False
        #: Set once the room is dropped from its node: its clocks and bots stop acting.
        self.gone = False

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    def summary(self) -> Json:
        """The lobby's line for the table."""
        return self.table.summary()

    # -- handlers ----------------------------------------------------------------------

    def on_join(self, seat: Any, name: Any, token: Any, client: str, bot: bool) -> str:
        """Seat a player (`Table.take_seat`); return their token."""
        new_token = self.table.take_seat(seat, name, token, client, bot, self.settings.time_bank)
        # A seat taken over HTTP whose player never connects is away after a while.
        self._away_later(seat)
        self._changed()
        return new_token

    def on_leave(self, token: Any) -> int:
        """Give up the seat ``token`` holds; its bot plays on."""
        seat = self.table.seat_of(token)
        self.free(seat)
        return seat

    def free(self, seat: int) -> None:
        """Free ``seat`` (`Table.free_seat`): its connections become spectators."""
        self.table.free_seat(seat)
        for conn in self.connections:
            if conn.seat == seat:
                conn.seat = None
        self.clocks.cancel_away(seat)
        self._changed()

    def admit(self, conn: Connection) -> None:
        """Take a new connection within the table's cap, or refuse it."""
        limit = self.settings.ws_per_table
        if len(self.connections) >= limit:
            raise ServerError(
                "too_many_connections",
                f"at most {limit} connections per table; close some first",
                429,
                {"limit": limit, "reason": "table"},
            )

    def on_connect(self, conn: Connection) -> None:
        """Register a connection (a spectator until it says hello with a token)."""
        self.connections.append(conn)
        self.table.last_activity = time.monotonic()
        self.send_state(conn)
        # Marked as past: a client shows them in the chat but pops no emote for them.
        for line in self.table.chat:
            conn.post(_dumps({"type": "chat", **line, "past": True}))

    def on_disconnect(self, conn: Connection) -> None:
        """Forget a connection; a seat left with none is played by its bot after a while."""
        conn.closed = True
        if conn in self.connections:
            self.connections.remove(conn)
        self._unbind(conn)
        if not self.gone:
            self._changed(save=False)

    def on_text(self, conn: Connection, raw: str) -> None:
        """A client's message as it came: checked (`parse`), then carried out."""
        message = parse(conn, raw, self.services.counters)
        if message is not None:
            self.on_message(conn, message)

    def on_message(self, conn: Connection, message: Json) -> None:
        """Carry out one checked client message; answer any problem with an error."""
        kind = message.get("type")
        ref = message.get("id") if isinstance(message.get("id"), (int, str)) else None
        try:
            if kind == "hello":
                self.hello(conn, message.get("token"))
            elif kind == "move":
                self.move(conn.seat, message.get("move"), message.get("state_id"))
            elif kind == "chat":
                self.say(conn, message.get("text"), message.get("phrase"), message.get("emote"))
            elif kind == "next":
                _seated(conn)
                self.table.deal_next(self.settings.time_bank)
                self._changed()
            elif kind == "start":
                _seated(conn)
                self.table.fill_with_bots(self.settings.time_bank)
                self._changed()
            elif kind == "leave":
                self.free(_seated(conn))
                self.send_state(conn)
            elif kind == "sync":
                self.send_state(conn)
            elif kind == "ping":
                conn.post(json.dumps({"type": "pong", "ref": ref}))
            else:
                raise ServerError(
                    "unknown_type",
                    f"unknown message type {kind!r}; valid: {TYPES}",
                    data={"type": str(kind)[:40]},
                )
        except ServerError as err:
            self.services.counters.errors += 1
            conn.post(error_message(err, ref))
        except ShedkitError as err:
            self.services.counters.errors += 1
            conn.post(error_message(ServerError("bad_request", str(err)), ref))
        except Exception:
            # A bug, not the client's fault: logged, answered, and the connection kept.
            log.exception("message %r failed at table %s", str(kind)[:40], self.id)
            self.services.counters.errors += 1
            failed = ServerError("server_error", "the server failed on that message")
            conn.post(error_message(failed, ref))

    def hello(self, conn: Connection, token: Any) -> None:
        """Bind the connection to the seat ``token`` holds; a player back from away resumes."""
        if token is None:
            self._unbind(conn)
            self.send_state(conn)
            return
        seat = self.table.seat_of(token)
        info = self.table.seats[seat]
        if conn.seat != seat:
            self._unbind(conn)
            conn.seat = seat
            info.connections += 1
            self.clocks.cancel_away(seat)
        # Back from away, but the timeouts stand until a move: a player who only says
        # hello after each timeout is away again at the next one, on a shorter clock.
        info.away = False
        self._changed(save=False)

    def move(self, seat: int | None, text: Any, state_id: Any) -> None:
        """Play ``text`` for ``seat`` on state ``state_id`` (`Table.play`)."""
        self._moved(self.table.play(seat, text, state_id))

    def say(self, conn: Connection, text: Any, phrase: Any = None, emote: Any = None) -> None:
        """A chat line from the connection's seat, stored, then sent to everyone."""
        line = self.table.say(conn.seat, text, phrase, emote)
        message = _dumps({"type": "chat", **line})
        self._save()
        self._publish([(other, message) for other in self.connections])

    async def serve(self, conn: Connection, receive: Receive) -> None:
        """One connection at this table: admitted, fed ``receive``'s messages, released.

        The same for a browser's socket and, on a cluster, a socket another node holds.
        """
        try:
            self.admit(conn)
        except ServerError as err:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await conn.sender.send_text(error_message(err))
                await conn.sender.close(code=4429)
            return
        writer = asyncio.create_task(write_out(conn))
        try:
            self.on_connect(conn)
            while not conn.closed:
                raw = await receive()
                if raw is None:
                    break
                self.on_text(conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            self.on_disconnect(conn)
            await stop_writing(conn, writer)

    def _unbind(self, conn: Connection) -> None:
        seat = conn.seat
        if seat is None:
            return
        conn.seat = None
        info = self.table.seats[seat]
        info.connections = max(0, info.connections - 1)
        self._away_later(seat)

    # -- life --------------------------------------------------------------------------

    def resume(self) -> None:
        """Set a new or restored table's bots and clocks going; its players count as away
        until back (nobody is connected after a restart or a takeover)."""
        for seat, info in enumerate(self.table.seats):
            if info.token_hash is not None:
                self._away_later(seat)
        self._kick()
        self._arm_clocks()

    def dispose(self) -> None:
        """Stop the room's bots, searches and clocks: it is dropped from this node.

        A search still running would otherwise apply its move after the room is gone and
        save it again, over its closing mark.
        """
        self.gone = True
        for task in [self.bot_task, *self.think_tasks]:
            if task is not None:
                task.cancel()
        self.clocks.stop()

    async def stop(self) -> None:
        """Stop the room's bots and clocks and wait for them (the server stops)."""
        self.dispose()
        for task in [self.bot_task, *self.think_tasks]:
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def lose(self) -> None:
        """This node's hold on the table ended: what the room made since its last commit is
        not stored, so none of it is written or sent (the clients resync elsewhere)."""
        self.lost = True
        self.outq.clear()

    def close_unstored(self) -> None:
        """The table cannot be stored: its clients get ``table_closed`` and are let go.

        The states that were not stored are never sent; the table's finished deals stay.
        """
        self.outq.clear()
        closing = ServerError(
            "table_closed",
            "this table could not be saved and is closed",
            data={"reason": "storage"},
        )
        error = error_message(closing)
        for conn in self.connections:
            conn.post(error)
            conn.close_code, conn.closed = CLOSED, True

    # -- the path of a change ----------------------------------------------------------

    def _changed(self, save: bool = True) -> None:
        if save:
            self._save()
        self._arm_clocks()
        by_seat: dict[int | None, str] = {}
        batch = []
        public = _dumps(self.table.public()) if self.connections else None
        for conn in self.connections:
            message = by_seat.get(conn.seat)
            if message is None:
                message = by_seat[conn.seat] = self.state_message(conn.seat, public)
            batch.append((conn, message))
        self._publish(batch)
        self._kick()

    def _moved(self, move: Any) -> None:
        # Bots' moves are no activity: a table of bots alone expires unless people watch.
        self.services.counters.moves += 1
        table = self.table
        record = table.record_move(move)
        if record is not None and not self.lost:
            self.services.store.add_deal(
                table.id, table.deal_counter, table.match_no, table.game_name, record, self.fence
            )
        self._changed()

    def _save(self) -> None:
        if self.lost:
            return  # another hold's table now: nothing of this one is written or sent
        table = self.table
        self.services.store.save_table(table.id, table.game_name, table.to_data(), self.fence)

    def state_message(self, seat: int | None, public: str | None = None) -> str:
        """The ``state`` message for ``seat``: the table and that seat's view only.

        ``public``, the table's JSON, is the same for every seat: a change encodes it once.
        """
        table = self.table
        view = None
        if table.state is not None:
            view = serialize_view(table.game_name, table.state.view(seat))
        shown = public if public is not None else _dumps(table.public())
        head = _dumps({"type": "state", "you": seat, "state_id": table.state_id})
        return f'{head[:-1]},"table":{shown},"view":{_dumps(view)}}}'

    def send_state(self, conn: Connection) -> None:
        """Queue the current state for one connection, once what it shows is committed."""
        if self.outq:
            conn.pending_state = True
        else:
            conn.post(self.state_message(conn.seat))

    def _publish(self, batch: list[tuple[Connection, str]]) -> None:
        """Send ``batch`` once every write queued so far is committed, in order."""
        if self.lost:
            return  # not stored, so never sent
        self.seq += 1
        self.outq.append((self.seq, batch))
        self.services.store.on_commit(partial(self._committed, self.seq))

    def _committed(self, seq: int) -> None:  # in the writer's thread
        loop = self.services.loop
        if loop is None or loop.is_closed():
            self._drain(seq)
        else:
            loop.call_soon_threadsafe(self._drain, seq)

    def _drain(self, upto: int) -> None:
        outq = self.outq
        while outq and outq[0][0] <= upto:
            for conn, message in outq.popleft()[1]:
                conn.post(message)
        if not outq:
            for conn in self.connections:
                if conn.pending_state:
                    conn.pending_state = False
                    conn.post(self.state_message(conn.seat))

    # -- bots --------------------------------------------------------------------------

    def _kick(self) -> None:
        """Make sure the bot runner is going if a bot is to move (or deal) here."""
        task = self.bot_task
        if self.gone or (task is not None and not task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: `resume` kicks it
        self.bot_task = loop.create_task(self._bots())

    async def _bots(self) -> None:
        table = self.table
        while True:
            state = table.state
            if table.status == "scored" and table.humans == 0:
                # Bot-only tables deal on by themselves, however they came to have no
                # human (created so, or left by everyone), up to the cap; people press
                # "next deal".
                if table.bot_only_deals >= self.settings.bot_only_max_deals:
                    table.status = "finished"
                    self._changed()
                    return
                await asyncio.sleep(self.settings.bot_delay)
                if table.status == "scored" and table.humans == 0:
                    table.start_deal(self.settings.time_bank)
                    self._changed()
                continue
            if state is None or table.status != "playing":
                return
            seat = state.current_player
            if seat is None or not table.seats[seat].bot_plays:
                return
            await asyncio.sleep(table.bot_pause(self.settings.bot_delay))
            if table.state is not state or state.current_player != seat:
                continue
            if not table.seats[seat].bot_plays:
                continue
            if self._thinks_long(seat):
                await self._think(seat)
            else:
                self._bot_move(seat)

    def _thinks_long(self, seat: int) -> bool:
        """True when the seat's bot computes its moves in the bot pool.

        The server's models (``--model``) always do: a network's move takes from a
        millisecond to tens of them by the moves it scores, on numpy's threads besides
        (`shedkit.server.bots`).
        """
        bot = self.table.seats[seat].bot
        if bot in self.settings.pooled_agents or bot in self.settings.model_dirs:
            return True
        return bool(getattr(self.table.agent(seat), "thinks_long", False))

    async def _think(self, seat: int, clock: bool = False) -> None:
        """The seat's bot computes the current move in the pool while the loop serves on.

        The answer is applied only if the table is still at the state it was asked about
        (a player who timed out may have moved meanwhile) and, unless the turn ``clock``
        ran out, the bot still plays the seat (its player may have come back); a bot that
        fails or is not back within ``bot_think_limit`` is replaced for this move by the
        greedy bot.
        """
        table = self.table
        state, state_id = table.state, table.state_id
        assert table.deal_start is not None
        job = Job(
            start=table.deal_start,
            moves=tuple(table.deal_moves),
            seat=seat,
            agent=table.seats[seat].bot,
            seed=derive_seed(table.seed, "think", table.match_no, table.deal_counter, state_id),
        )
        table.thinking = seat
        self._changed(save=False)
        move: Any = None
        try:
            answer = self.services.pool.submit(job)
            text = await asyncio.wait_for(
                asyncio.wrap_future(answer), self.settings.bot_think_limit
            )
            if table.state is state and table.state_id == state_id:
                move = state.game.parse_move(text, state)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = None
            if table.state is state and table.state_id == state_id:
                move = self._quick_move(seat)
        finally:
            if table.thinking == seat:
                table.thinking = None
        current = table.state is state and table.state_id == state_id
        if not current or move is None or not (clock or table.seats[seat].bot_plays):
            self.services.counters.late_answers += 1
            self._changed(save=False)  # the "thinking" mark is gone
            return
        state.apply(move, seat)
        self._moved(move)

    def _quick_move(self, seat: int) -> Any:
        """The greedy bot's move for ``seat`` (the first legal move if it fails)."""
        table = self.table
        state = table.state
        try:
            seed = derive_seed(table.seed, "fallback", table.deal_counter, table.state_id)
            return make_agent("greedy", table.game, seed).act(state.view(seat))
        except Exception:
            log.exception("the greedy stand-in failed at table %s", table.id)
            return state.legal_moves()[0]

    def _bot_move(self, seat: int) -> None:
        """The seat's bot plays the current move (a faulty bot plays the first legal one)."""
        table = self.table
        state = table.state
        try:
            move = table.agent(seat).act(state.view(seat))
            state.apply(move, seat)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = state.legal_moves()[0]
            state.apply(move, seat)
        self._moved(move)

    # -- clocks ------------------------------------------------------------------------

    def _arm_clocks(self) -> None:
        """Run the turn clock for a human whose turn it is, and the next-deal clock.

        The clock of a turn is ``turn_clock`` plus what is left of the seat's time bank;
        when it runs out the seat's bot plays that move (`_timeout`).
        """
        loop = self.services.loop
        if loop is None or loop.is_closed() or self.gone:
            return
        table = self.table
        state = table.state
        key: tuple[int, int, int] | None = None
        if state is not None and table.status == "playing" and table.turn_clock > 0:
            seat = state.current_player
            if seat is not None and not table.seats[seat].bot_plays:
                key = (table.deal_counter, table.state_id, seat)
        if key != table.turn_key:
            old = table.turn_key
            if old is not None:
                self.clocks.cancel_turn()
                used = loop.time() - table.turn_started - table.turn_clock
                if used > 0 and old[0] == table.deal_counter:
                    table.banks[old[2]] = max(0.0, table.banks[old[2]] - used)
            table.turn_key, table.turn_deadline = key, None
            if key is not None:
                budget = table.turn_budget(key[2], self.settings)
                table.turn_bank = max(0.0, budget - table.turn_clock)
                table.turn_started = loop.time()
                table.turn_deadline = round(time.time() + budget, 3)
                self.clocks.set_turn(budget, partial(self._timeout, key))
        wait = self.settings.next_deal_after
        if table.status == "scored" and table.humans > 0 and wait > 0:
            if self.clocks.next_deal is None:
                table.next_deadline = round(time.time() + wait, 3)
                self.clocks.set_next_deal(wait, partial(self._auto_next, table.deal_counter))
        elif self.clocks.next_deal is not None:
            self.clocks.cancel_next_deal()
            table.next_deadline = None

    def _timeout(self, key: tuple[int, int, int]) -> None:
        """A turn's clock ran out: the seat's bot makes that move; repeated, the seat is away."""
        table = self.table
        if table.turn_key != key or self.gone:
            return
        self.clocks.turn = None
        seat = key[2]
        self.services.counters.timeouts += 1
        if table.timed_out(seat, self.settings):
            self._kick()  # the bot runner plays for an away seat, in the pool if need be
        elif self._thinks_long(seat):
            # Never a search on the loop: the pool computes it, the clock is off meanwhile.
            task = asyncio.get_running_loop().create_task(self._think(seat, clock=True))
            self.think_tasks.add(task)
            task.add_done_callback(self.think_tasks.discard)
        else:
            self._bot_move(seat)

    def _auto_next(self, deal_counter: int) -> None:
        self.clocks.next_deal = None
        table = self.table
        table.next_deadline = None
        if table.status == "scored" and table.deal_counter == deal_counter:
            table.start_deal(self.settings.time_bank)
            self._changed()

    def _away_later(self, seat: int) -> None:
        """A held seat with no connection is marked away (bot plays) after ``away_after``."""
        info = self.table.seats[seat]
        if info.connections or info.token_hash is None or self.gone:
            return
        self.clocks.set_away(seat, self.settings.away_after, partial(self._set_away, seat))

    def _set_away(self, seat: int) -> None:
        self.clocks.away.pop(seat, None)
        info = self.table.seats[seat]
        if info.connections == 0 and info.token_hash is not None:
            info.away = True
            self._changed(save=False)


def _seated(conn: Connection) -> int:
    if conn.seat is None:
        raise ServerError("not_seated", "take a seat first")
    return conn.seat
