"""Where the games run: this process, local worker processes, or a Ray cluster.

Every backend plays the same chunks of deal numbers with the same pure
function ([`play_deals`][shedkit.arena.tournament.play_deals]) and returns the
results in deal order, so the backend and the worker count never change a
result. ``progress`` is called with the number of games finished so far.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from shedkit.arena.tournament import GameResult, Tournament, play_deals
from shedkit.core.errors import OptionError

__all__ = ["BACKENDS", "chunks", "run"]

BACKENDS = ("processes", "ray")

Progress = Callable[[int], None]


def chunks(deals: int, workers: int) -> list[list[int]]:
    """Deal numbers in chunks: about eight per worker, at most 50 deals each.

    The first chunks are small (1, 2, 4, ... deals) so that the first results,
    and a progress bar, come early; how deals are split never changes them.

    >>> chunks(5, 2)
    [[0], [1], [2], [3], [4]]
    >>> [len(c) for c in chunks(1000, 2)][:8]
    [1, 2, 4, 8, 16, 32, 50, 50]
    >>> sum(len(c) for c in chunks(1000, 2))
    1000
    """
    size = max(1, min(50, -(-deals // (workers * 8))))
    out: list[list[int]] = []
    start, step = 0, 1
    while start < deals:
        n = min(step, size)
        out.append(list(range(start, min(start + n, deals))))
        start += n
        step *= 2
    return out


def _ordered(parts: dict[int, list[GameResult]]) -> list[GameResult]:
    return [r for i in sorted(parts) for r in parts[i]]


def run(
    tour: Tournament,
    workers: int = 1,
    backend: str = "processes",
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play the whole tournament; results ordered by deal, then arrangement."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    if not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be at least 1, not {workers!r}")
    spec = tour.to_dict()
    work = chunks(tour.deals, workers)
    if backend == "ray":
        return _run_ray(spec, work, workers, progress)
    if workers == 1:
        parts: dict[int, list[GameResult]] = {}
        done = 0
        tick = None
        if progress is not None:
            report = progress

            def tick(games: int) -> None:
                nonlocal done
                done += games
                report(done)

        for i, deals in enumerate(work):
            parts[i] = play_deals(spec, deals, tick)
        return _ordered(parts)
    return _run_processes(spec, work, workers, progress)


def _run_processes(
    spec: dict[str, Any], work: list[list[int]], workers: int, progress: Progress | None
) -> list[GameResult]:
    parts: dict[int, list[GameResult]] = {}
    done = 0
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        # Finished chunks arrive on a queue from the futures' callbacks. ``wait()`` on
        # the futures would take each one's lock in turn, and a Ctrl-C landing between
        # two of them would leave locks held that the pool's thread then waits for.
        finished: queue.SimpleQueue[Future[list[GameResult]]] = queue.SimpleQueue()
        pending: dict[Future[list[GameResult]], int] = {}
        for i, deals in enumerate(work):
            future = pool.submit(play_deals, spec, deals)
            pending[future] = i
            future.add_done_callback(finished.put)
        while pending:
            future = finished.get()
            i = pending.pop(future)
            parts[i] = future.result()
            done += len(parts[i])
            if progress is not None:
                progress(done)
    except BaseException:
        # Ctrl-C or an error: waiting for the queued chunks could take as long as the run.
        _stop(pool)
        raise
    pool.shutdown()
    return _ordered(parts)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's workers at once: terminated, killed if they linger.

    Their bot programs die with them (see `shedkit.agents.external`) or see their
    input close.
    """
    workers_now = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers_now:
        process.terminate()
    for process in workers_now:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)


def _ray_batches(refs: list[Any], ray: Any) -> Iterator[list[Any]]:
    left = list(refs)
    while left:
        ready, left = ray.wait(left, num_returns=1)
        yield ready


def _start_ray(ray: Any, workers: int) -> None:
    """Start a local Ray node, once more if its raylet was slow to register.

    Ray gives a new node's raylet a fixed 30 s to register; on a busy machine it can
    miss that by little, and a second start usually makes it.
    """
    for attempt in (1, 2):
        try:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            return
        except Exception as err:
            if attempt == 2 or "timed out during startup" not in str(err):
                raise
            ray.shutdown()


def _run_ray(
    spec: dict[str, Any], work: list[list[int]], workers: int, progress: Progress | None
) -> list[GameResult]:
    try:
        import ray
    except ImportError as err:
        raise OptionError("--backend ray needs Ray: pip install 'shedkit[ray]'") from err
    started = False
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            _start_ray(ray, workers)
        started = True
    try:
        remote = ray.remote(play_deals)
        # A Ray worker outlives the run: each task stops the bot programs it started.
        spec = {**spec, "close_bots": True}
        refs = [remote.remote(spec, deals) for deals in work]
        index = {ref: i for i, ref in enumerate(refs)}
        parts: dict[int, list[GameResult]] = {}
        done = 0
        for ready in _ray_batches(refs, ray):
            for ref in ready:
                parts[index[ref]] = ray.get(ref)
                done += len(parts[index[ref]])
                if progress is not None:
                    progress(done)
        return _ordered(parts)
    finally:
        if started:
            ray.shutdown()
