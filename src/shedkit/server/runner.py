"""The runner: each table's bots and clocks on the event loop.

A table's bot runner moves for every seat its bot plays (a long search in the bot
pool, off the loop); the turn clock lets a seat's bot move for a player who does
not, so a table always moves on; an away timer marks a seat with no connection away;
the next-deal clock deals on after the score screen.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from shedkit.agents import make_agent
from shedkit.core.rng import derive_seed
from shedkit.server.base import RoomBase
from shedkit.server.bots import Job
from shedkit.server.table import DEFAULT_SPEED, SPEEDS, TableRuntime

log = logging.getLogger("shedkit.server")

__all__ = ["Runner"]


class Runner(RoomBase):
    """Bots, turn clocks, away timers and the next-deal clock of every table."""

    @staticmethod
    def _stop_timers(table: TableRuntime) -> None:
        for timer in table.away_timers.values():
            timer.cancel()
        table.away_timers.clear()
        for handle in (table.turn_timer, table.next_timer):
            if handle is not None:
                handle.cancel()
        table.turn_timer = table.next_timer = None

    def _kick(self, table: TableRuntime) -> None:
        """Make sure a bot runner is going if a bot is to move (or deal) at this table."""
        task = table.bot_task
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet; start() kicks every table
        table.bot_task = loop.create_task(self._bots(table))

    async def _bots(self, table: TableRuntime) -> None:
        while True:
            state = table.state
            if table.status == "scored" and table.humans == 0:
                # Bot-only tables deal on by themselves, however they came to have no
                # human (created so, or left by everyone), up to the cap; people press
                # "next deal".
                if table.bot_only_deals >= self.settings.bot_only_max_deals:
                    table.status = "finished"
                    self._changed(table)
                    return
                await asyncio.sleep(self.bot_delay)
                if table.status == "scored" and table.humans == 0:
                    table.start_deal(self.settings.time_bank)
                    self._changed(table)
                continue
            if state is None or table.status != "playing":
                return
            seat = state.current_player
            if seat is None or not table.seats[seat].bot_plays:
                return
            await asyncio.sleep(self.bot_pause(table))
            if table.state is not state or state.current_player != seat:
                continue
            if not table.seats[seat].bot_plays:
                continue
            if self._thinks_long(table, seat):
                await self._think(table, seat)
            else:
                self._bot_move(table, seat)

    def bot_pause(self, table: TableRuntime) -> float:
        """Seconds a bot waits before the current move, at the table's pace.

        ``bot_delay`` times the pace's factor; twice that before a bot leads a new trick,
        so that the players see the trick's last pass before the table clears.
        """
        factor = SPEEDS.get(table.speed, SPEEDS[DEFAULT_SPEED])
        pause = self.bot_delay * factor
        state = table.state
        # Trick-taking games say so by a ``last_play`` that is empty while a lead is due.
        leads = (
            state is not None
            and getattr(state, "phase", None) == "play"
            and getattr(state, "last_play", True) is None
            and bool(getattr(state, "history", ()))
        )
        return pause * 2 if leads else pause

    def _thinks_long(self, table: TableRuntime, seat: int) -> bool:
        """True when the seat's bot computes its moves in the bot pool."""
        if table.seats[seat].bot in self.settings.pooled_agents:
            return True
        return bool(getattr(table.agent(seat), "thinks_long", False))

    async def _think(self, table: TableRuntime, seat: int, clock: bool = False) -> None:
        """The seat's bot computes the current move in the pool while the loop serves on.

        The answer is applied only if the table is still at the state it was asked about
        (a player who timed out may have moved meanwhile) and, unless the turn ``clock``
        ran out, the bot still plays the seat (its player may have come back); a bot that
        fails or is not back within ``bot_think_limit`` is replaced for this move by the
        greedy bot.
        """
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
        self._changed(table, save=False)
        move: Any = None
        try:
            answer = self.pool.submit(job)
            text = await asyncio.wait_for(
                asyncio.wrap_future(answer), self.settings.bot_think_limit
            )
            if table.state is state and table.state_id == state_id:
                move = state.game.parse_move(text, state)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = None
            if table.state is state and table.state_id == state_id:
                move = self._quick_move(table, seat)
        finally:
            if table.thinking == seat:
                table.thinking = None
        current = table.state is state and table.state_id == state_id
        if not current or move is None or not (clock or table.seats[seat].bot_plays):
            self.late_answers += 1
            self._changed(table, save=False)  # the "thinking" mark is gone
            return
        state.apply(move, seat)
        self._moved(table, move)

    def _quick_move(self, table: TableRuntime, seat: int) -> Any:
        """The greedy bot's move for ``seat`` (the first legal move if it fails)."""
        state = table.state
        try:
            seed = derive_seed(table.seed, "fallback", table.deal_counter, table.state_id)
            return make_agent("greedy", table.game, seed).act(state.view(seat))
        except Exception:
            log.exception("the greedy stand-in failed at table %s", table.id)
            return state.legal_moves()[0]

    def _bot_move(self, table: TableRuntime, seat: int) -> None:
        """The seat's bot plays the current move (a faulty bot plays the first legal one)."""
        state = table.state
        try:
            move = table.agent(seat).act(state.view(seat))
            state.apply(move, seat)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = state.legal_moves()[0]
            state.apply(move, seat)
        self._moved(table, move)

    def _arm_clocks(self, table: TableRuntime) -> None:
        """Run the turn clock for a human whose turn it is, and the next-deal clock.

        The clock of a turn is ``turn_clock`` plus what is left of the seat's time bank;
        when it runs out the seat's bot plays that move (`_timeout`).
        """
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        state = table.state
        key: tuple[int, int, int] | None = None
        if state is not None and table.status == "playing" and table.turn_clock > 0:
            seat = state.current_player
            if seat is not None and not table.seats[seat].bot_plays:
                key = (table.deal_counter, table.state_id, seat)
        if key != table.turn_key:
            old = table.turn_key
            if old is not None:
                if table.turn_timer is not None:
                    table.turn_timer.cancel()
                used = loop.time() - table.turn_started - table.turn_clock
                if used > 0 and old[0] == table.deal_counter:
                    table.banks[old[2]] = max(0.0, table.banks[old[2]] - used)
            table.turn_key, table.turn_timer, table.turn_deadline = key, None, None
            if key is not None:
                budget = self._turn_budget(table, key[2])
                table.turn_bank = max(0.0, budget - table.turn_clock)
                table.turn_started = loop.time()
                table.turn_deadline = round(time.time() + budget, 3)
                table.turn_timer = loop.call_later(budget, self._timeout, table, key)
        wait = self.settings.next_deal_after
        if table.status == "scored" and table.humans > 0 and wait > 0:
            if table.next_timer is None:
                table.next_deadline = round(time.time() + wait, 3)
                table.next_timer = loop.call_later(wait, self._auto_next, table, table.deal_counter)
        elif table.next_timer is not None:
            table.next_timer.cancel()
            table.next_timer, table.next_deadline = None, None

    def _turn_budget(self, table: TableRuntime, seat: int) -> float:
        """Seconds for ``seat``'s turn: the clock and its bank, or less after timeouts.

        A seat that timed out into away and came back without moving gets half the
        clock, then a quarter, and so on down to ``min_turn_clock``, without its bank: nobody
        holds a table by saying hello after every timeout.
        """
        strikes = table.seats[seat].timeouts - self.settings.timeouts_before_away
        if strikes < 0:
            return table.turn_clock + table.banks[seat]
        floor = min(self.settings.min_turn_clock, table.turn_clock)
        return max(floor, table.turn_clock / 2.0 ** (strikes + 1))

    def _timeout(self, table: TableRuntime, key: tuple[int, int, int]) -> None:
        """A turn's clock ran out: the seat's bot makes that move; repeated, the seat is away."""
        if table.turn_key != key or self.tables.get(table.id) is not table:
            return
        table.turn_timer = None
        seat = key[2]
        info = table.seats[seat]
        info.timeouts += 1
        self.timeouts += 1
        if info.timeouts >= self.settings.timeouts_before_away:
            info.away = True
        if info.away:
            self._kick(table)  # the bot runner plays for an away seat, in the pool if need be
        elif self._thinks_long(table, seat):
            # Never a search on the loop: the pool computes it, the clock is off meanwhile.
            task = asyncio.get_running_loop().create_task(self._think(table, seat, clock=True))
            table.think_tasks.add(task)
            task.add_done_callback(table.think_tasks.discard)
        else:
            self._bot_move(table, seat)

    def _auto_next(self, table: TableRuntime, deal_counter: int) -> None:
        table.next_timer, table.next_deadline = None, None
        if table.status == "scored" and table.deal_counter == deal_counter:
            table.start_deal(self.settings.time_bank)
            self._changed(table)

    def _away_later(self, table: TableRuntime, seat: int) -> None:
        """A held seat with no connection is marked away (bot plays) after ``away_after``."""
        info = table.seats[seat]
        if info.connections or info.token_hash is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet; start() arms it
        old = table.away_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        table.away_timers[seat] = loop.call_later(self.away_after, self._set_away, table, seat)

    def _set_away(self, table: TableRuntime, seat: int) -> None:
        table.away_timers.pop(seat, None)
        info = table.seats[seat]
        if info.connections == 0 and info.token_hash is not None:
            info.away = True
            self._changed(table, save=False)
