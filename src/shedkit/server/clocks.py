"""A room's timers on the event loop: the turn clock, the next-deal clock, away timers.

Only the scheduling: what happens when a clock runs out is the room's (`shedkit.server.room`)
and the rules' (`shedkit.server.table`). Every timer can be set again, cancelled, or all
stopped at once when the room goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["Clocks"]


class Clocks:
    """The timers of one room, each replaced when set again."""

    __slots__ = ("away", "next_deal", "turn")

    def __init__(self) -> None:
        self.turn: asyncio.TimerHandle | None = None
        self.next_deal: asyncio.TimerHandle | None = None
        self.away: dict[int, asyncio.TimerHandle] = {}

    @staticmethod
    def loop() -> asyncio.AbstractEventLoop | None:
        """The running event loop, or None outside one (a room restored before serving)."""
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def set_turn(self, after: float, then: Callable[[], None]) -> None:
        """Run ``then`` in ``after`` seconds unless the turn clock is set or cancelled first."""
        self.cancel_turn()
        loop = self.loop()
        if loop is not None:
            self.turn = loop.call_later(after, then)

    def cancel_turn(self) -> None:
        """Stop the turn clock."""
        if self.turn is not None:
            self.turn.cancel()
            self.turn = None

    def set_next_deal(self, after: float, then: Callable[[], None]) -> None:
        """Run ``then`` in ``after`` seconds: the next deal after the score screen."""
        self.cancel_next_deal()
        loop = self.loop()
        if loop is not None:
            self.next_deal = loop.call_later(after, then)

    def cancel_next_deal(self) -> None:
        """Stop the next-deal clock."""
        if self.next_deal is not None:
            self.next_deal.cancel()
            self.next_deal = None

    def set_away(self, seat: int, after: float, then: Callable[[], None]) -> None:
        """Run ``then`` in ``after`` seconds unless ``seat`` comes back first."""
        self.cancel_away(seat)
        loop = self.loop()
        if loop is not None:
            self.away[seat] = loop.call_later(after, then)

    def cancel_away(self, seat: int) -> None:
        """``seat`` is back (or gone): no away timer for it."""
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def stop(self) -> None:
        """Cancel every timer."""
        for timer in self.away.values():
            timer.cancel()
        self.away.clear()
        self.cancel_turn()
        self.cancel_next_deal()
