"""Bots that think in processes of their own, so a search never holds up a table.

A move of a search bot takes up to seconds of CPU. The server's event loop serves every
table, so such a move is computed in a `BotPool` worker: the job carries the
deal's starting record, the moves since and the seat, the worker replays the deal,
builds the bot with the job's seed and returns the move's notation. The worker sees
the whole deal (it replays it) but the bot sees only its seat's view, as everywhere.

The seed of a move is derived from the table's seed and the state the move answers, so
a bot-only table with a fixed seed plays the same record whichever worker computes
which move.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import shedkit
from shedkit.agents import make_agent

__all__ = ["BotPool", "Job", "default_workers", "think"]


@dataclass(frozen=True)
class Job:
    """One bot move to compute: the deal so far, whose turn, which bot and its seed."""

    start: dict[str, Any]
    moves: tuple[str, ...]
    seat: int
    agent: str
    seed: int


def think(job: Job) -> str:
    """The notation of the move ``job.agent`` makes for ``job.seat`` (runs in a worker)."""
    state = shedkit.replay(job.start)
    for text in job.moves:
        state.apply(state.game.parse_move(text, state))
    if state.current_player != job.seat:
        raise ValueError(f"it is not seat {job.seat}'s turn in this job")
    agent = make_agent(job.agent, state.game, job.seed)
    try:
        move = agent.act(state.view(job.seat))
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()  # an expert bot's own processes
    return str(move)


def default_workers() -> int:
    """Worker processes for bots by default: the cores but one, at least one, at most 4."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class BotPool:
    """A pool of worker processes for bot moves, started on the first move it is given.

    A `multiprocessing` pool rather than a ``ProcessPoolExecutor``: a server that
    stops must not wait for searches nobody needs any more, and only this pool can
    terminate its workers.
    """

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"bot workers must be at least 1, not {workers!r}")
        self.workers = workers or default_workers()
        self._pool: multiprocessing.pool.Pool | None = None

    def submit(self, job: Job) -> Future[str]:
        """Start computing ``job`` in a worker; the future holds the move's notation."""
        if self._pool is None:
            # Fresh interpreters, not forks: the server's threads and sockets stay behind.
            self._pool = multiprocessing.get_context("spawn").Pool(self.workers)
        answer: Future[str] = Future()
        answer.set_running_or_notify_cancel()
        self._pool.apply_async(
            think, (job,), callback=answer.set_result, error_callback=answer.set_exception
        )
        return answer

    def close(self) -> None:
        """Stop the workers at once; moves still being computed are abandoned."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
