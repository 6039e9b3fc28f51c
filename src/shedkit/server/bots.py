"""Bots that think in processes of their own, so a search never holds up a table.

A move of a search bot takes up to seconds of CPU. The server's event loop serves every
table, so such a move is computed in a `BotPool` worker: the job carries the
deal's starting record, the moves since and the seat, the worker replays the deal,
builds the bot with the job's seed and returns the move's notation. The worker sees
the whole deal (it replays it) but the bot sees only its seat's view, as everywhere.

The seed of a move is derived from the table's seed and the state the move answers, so
a bot-only table with a fixed seed plays the same record whichever worker computes
which move.

The models a server offers (``shedkit serve --model NAME=DIR``) move here too. A
forward pass of a DouZero network takes about a millisecond, but its cost grows with
the legal moves scored: a free lead with many kicker choices scores hundreds of rows
through five 512-wide layers, tens of milliseconds that no table should wait for (and
numpy's BLAS would spread that over every core, beside the event loop). A job names
the model by its name; the workers know the names' folders (the pool's initializer,
`serve_models`), read each model's networks once, on its first move, and run BLAS on
one thread each: the pool's processes are the bots' cores.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import sys
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import shedkit
from shedkit.agents import Agent, make_agent

__all__ = ["BotPool", "Job", "default_workers", "serve_models", "think"]

#: In a worker: the models it may be asked for (name → weights folder), from
#: `serve_models`, and their networks by position once read.
_models: dict[str, str] = {}
_networks: dict[str, dict[str, Any]] = {}


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
    agent = _agent(job.agent, state.game, job.seed)
    try:
        move = agent.act(state.view(job.seat))
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()  # an expert bot's own processes
    return str(move)


def serve_models(models: Mapping[str, str]) -> None:
    """Start a worker: the models it serves by name (``Settings.model_dirs``).

    Their networks run numpy's BLAS on one thread unless the environment says otherwise
    (``OPENBLAS_NUM_THREADS`` and the like, read when numpy is first imported).
    """
    if models and "numpy" not in sys.modules:
        for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(variable, "1")
    _models.clear()
    _models.update(models)
    _networks.clear()


def _agent(name: str, game: Any, seed: int) -> Agent:
    """The agent ``name`` for a job: a model this worker serves, or a registered agent."""
    folder = _models.get(name)
    if folder is None:
        return make_agent(name, game, seed)
    from shedkit.agents.douzero.agent import DouZeroAgent  # numpy: a model's move only

    networks = _networks.get(name)
    if networks is None:
        first = DouZeroAgent(game, seed, weights=folder)  # reads the folder, once
        networks = {**first.nets}
        if first.bid_net is not None:
            networks["bidding"] = first.bid_net
        _networks[name] = networks
        return first
    return DouZeroAgent(game, seed, weights=networks)


def default_workers() -> int:
    """Worker processes for bots by default: the cores but one, at least one, at most 4."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class BotPool:
    """A pool of worker processes for bot moves, started on the first move it is given.

    ``models`` are the server's models by name (``Settings.model_dirs``): a job may name
    one of them as its agent.

    A `multiprocessing` pool rather than a ``ProcessPoolExecutor``: a server that
    stops must not wait for searches nobody needs any more, and only this pool can
    terminate its workers.
    """

    def __init__(self, workers: int | None = None, models: Mapping[str, str] | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"bot workers must be at least 1, not {workers!r}")
        self.workers = workers or default_workers()
        #: The models the workers serve by name (``Settings.model_dirs``).
        self.models = dict(models or {})
        self._pool: multiprocessing.pool.Pool | None = None

    def submit(self, job: Job) -> Future[str]:
        """Start computing ``job`` in a worker; the future holds the move's notation."""
        if self._pool is None:
            # Fresh interpreters, not forks: the server's threads and sockets stay behind.
            self._pool = multiprocessing.get_context("spawn").Pool(
                self.workers, initializer=serve_models, initargs=(self.models,)
            )
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
