"""Replays of finished deals: built in a process of their own, once, and kept encoded.

A replay is every step of a deal with all hands: hundreds of kilobytes of JSON and
tens of milliseconds of work for a long deal. The deal is read in a thread; its steps
are built and encoded in a worker process, one at a time, started on the first replay.
A worker thread would not do: it holds the interpreter in turns of five milliseconds,
and every hand-over of the interpreter while a request is answered waits one turn, so
sixteen builds in a row delayed single health checks by 40 to 70 ms (a process: under
35 ms, on two cores). The answer is kept encoded in a small cache (a finished deal never
changes). Replays not cached count against their address's ``replays_per_minute``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final

import orjson

import shedkit
from shedkit.protocol.views import (
    HIDDEN_FOR_GOOD,
    Json,
    public_hands,
    public_record,
    serialize_view,
)
from shedkit.server.errors import ServerError, try_again
from shedkit.server.inputs import check_id
from shedkit.server.settings import Buckets
from shedkit.server.storage import Storage

__all__ = ["BUILDS", "Replays", "encoded_replay", "replay_steps"]

#: Replays built at once, each in a worker process: one core at most goes to replays.
BUILDS: Final = 1
#: How much the worker yields to the server's own process for the processor (see nice(2)).
NICENESS: Final = 10


def replay_steps(record: Json) -> Json:
    """A finished deal step by step: who moved what, and every hand after each move.

    A game whose face-down moves stay hidden for good (`HIDDEN_FOR_GOOD`, Tien Gow's
    discards, TG-25) is shown as anyone may know it once the deal is over: its public
    record, the moves as a spectator saw them, and the hands as `public_hands` tells them.
    """
    state = shedkit.replay(record, steps=0)
    game_name = record["game"]
    game = state.game
    final = shedkit.replay(record) if game_name in HIDDEN_FOR_GOOD else None
    shown = record["moves"] if final is None else public_record(final)["moves"]

    def snapshot(move: str | None, seat: int | None, step: int) -> Json:
        if final is None:
            views = [serialize_view(game_name, state.view(s)) for s in range(state.num_players)]
            hands = [v["hand"] for v in views]
        else:
            hands = public_hands(final, step)
        return {
            "move": move,
            "seat": seat,
            "hands": hands,
            "public": serialize_view(game_name, state.view(None)),
        }

    steps = [snapshot(None, None, 0)]
    for i, text in enumerate(record["moves"]):
        seat = state.current_player
        state.apply(game.parse_move(text, state))
        steps.append(snapshot(shown[i], seat, i + 1))
    return {"record": record if final is None else public_record(final), "steps": steps}


def encoded_replay(record: Json) -> tuple[int, bytes]:
    """A finished deal's steps as JSON, and the process that built them (runs in a worker)."""
    return os.getpid(), orjson.dumps(replay_steps(record))


def _background() -> None:
    """Run the worker behind the server: on a busy machine the event loop goes first."""
    os.nice(NICENESS)


class Replays:
    """The replays a server gives: ``size`` kept encoded, ``per_minute`` new ones per address."""

    def __init__(self, size: int, per_minute: float) -> None:
        self.size = size
        self.per_minute = per_minute
        self.cache: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._rates = Buckets()
        self._builds = asyncio.Semaphore(BUILDS)
        self._workers: ProcessPoolExecutor | None = None
        #: How many replays were built, and the processes that built them.
        self.built = 0
        self.builders: set[int] = set()

    async def get(self, storage: Storage, table_id: str, number: int, address: str) -> bytes:
        """Deal ``number`` of ``table_id`` as JSON; ``not_found`` or ``rate_limited`` else."""
        key = (table_id, number)
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
            return found
        if not self._rates.allow(address, self.per_minute):
            raise ServerError(
                "rate_limited",
                f"at most {self.per_minute:g} replays a minute; wait a little",
                429,
                {"limit": self.per_minute, "reason": "replay"},
            )
        async with self._builds:
            found = self.cache.get(key)  # built meanwhile for another request
            if found is None:
                found = await self._build(storage, table_id, number)
        if found is None:
            raise ServerError(
                "not_found",
                f"no finished deal {number} at table {table_id!r}",
                404,
                {"table": table_id, "deal": number, "reason": "deal"},
            )
        self.cache[key] = found
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)
        return found

    async def _build(self, storage: Storage, table_id: str, number: int) -> bytes | None:
        """Deal ``number`` of ``table_id`` read in a thread and encoded in the worker."""
        if not check_id(table_id):
            return None
        record = await asyncio.to_thread(storage.get_deal, table_id, number)
        if record is None:
            return None
        if self._workers is None:
            # Fresh interpreters, not forks: the server's threads and sockets stay behind.
            spawn = multiprocessing.get_context("spawn")
            self._workers = ProcessPoolExecutor(BUILDS, mp_context=spawn, initializer=_background)
        try:
            pid, found = await asyncio.wrap_future(self._workers.submit(encoded_replay, record))
        except BrokenProcessPool:
            # The worker died (killed, out of memory): the next replay starts a new one.
            self._workers = None
            raise try_again("the replay could not be built") from None
        self.built += 1
        self.builders.add(pid)
        return found

    def close(self) -> None:
        """Stop the worker; a replay still being built is abandoned."""
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            self._workers = None
