"""Where the actors run: local processes, or Ray actors past one machine.

Both backends take the networks' parameters once per version (`publish`) and
then tasks (`submit`), each answered as a `concurrent.futures.Future`, so the
learner's loop is the same for both. The local backend hands the actors a
weights file in the run's folder (read once per version and process); Ray
puts the parameters in its object store, from which every node reads them.
Actors are single-threaded numpy (BLAS threads limited to one), so the number
of actors is the number of cores they use.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from shedkit.core.errors import OptionError
from shedkit.train import ACTOR_ENV, single_threaded
from shedkit.train.selfplay import Task, run_task, save_weights_file

__all__ = ["Backend", "LocalBackend", "RayBackend", "make_backend"]


class Backend(Protocol):
    """What the learner asks of the actors."""

    actors: int

    def publish(self, params: Mapping[str, Mapping[str, Any]], version: int) -> None:
        """Make ``params`` the weights of the tasks submitted from now on."""

    def submit(self, task: Task) -> Future[Any]:
        """Run ``task`` on an actor with the latest published weights."""

    def close(self) -> None:
        """Stop the actors (tasks in flight are dropped)."""


class LocalBackend:
    """Actors in local processes (spawned: the learner's PyTorch threads stay out of them)."""

    def __init__(self, actors: int, folder: Path) -> None:
        if actors < 1:
            raise OptionError(f"--actors must be at least 1, not {actors}")
        self.actors = actors
        self.folder = folder / "actors"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._weights: str | None = None
        # Workers start with the first tasks, not here: the initializer sets their threads.
        self._pool = ProcessPoolExecutor(
            actors, mp_context=multiprocessing.get_context("spawn"), initializer=single_threaded
        )

    def publish(self, params: Mapping[str, Mapping[str, Any]], version: int) -> None:
        """Write the weights file of ``version`` (the one before it is kept for tasks in flight)."""
        path = self.folder / f"weights-{version}.npz"
        save_weights_file(params, path)
        for old in self.folder.glob("weights-*.npz"):
            if old != path and old.stat().st_mtime < path.stat().st_mtime - 600:
                old.unlink(missing_ok=True)
        self._weights = str(path)

    def submit(self, task: Task) -> Future[Any]:
        """Run ``task`` in the pool."""
        if self._weights is None:
            raise RuntimeError("publish the weights before the first task")
        return self._pool.submit(run_task, self._weights, task)

    def close(self) -> None:
        """Stop the processes once their current tasks end (the others are cancelled)."""
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayBackend:
    """Actors as Ray tasks: on a cluster (``RAY_ADDRESS`` or ``address``), or a local node."""

    def __init__(self, actors: int, address: str | None = None) -> None:
        try:
            import ray
        except ImportError as err:
            raise OptionError("--backend ray needs Ray: pip install 'shedkit[ray]'") from err
        if actors < 1:
            raise OptionError(f"--actors must be at least 1, not {actors}")
        self.actors = actors
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS")
            runtime = {"env_vars": dict(ACTOR_ENV)}
            if address:
                ray.init(address=address, log_to_driver=False, runtime_env=runtime)
            else:
                ray.init(
                    num_cpus=actors,
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env=runtime,
                )
            self._started = True
        self._remote = ray.remote(num_cpus=1)(run_task)
        self._weights: Any = None

    def publish(self, params: Mapping[str, Mapping[str, Any]], version: int) -> None:
        """Put the parameters in the object store (each node fetches them once)."""
        self._weights = self._ray.put({k: dict(v) for k, v in params.items()})

    def submit(self, task: Task) -> Future[Any]:
        """Run ``task`` as a Ray task."""
        if self._weights is None:
            raise RuntimeError("publish the weights before the first task")
        future: Future[Any] = self._remote.remote(self._weights, task).future()
        return future

    def close(self) -> None:
        """Shut down the local Ray node if this backend started it."""
        if self._started:
            self._ray.shutdown()


def make_backend(
    name: str, actors: int, folder: Path, address: str | None = None
) -> LocalBackend | RayBackend:
    """The backend ``name`` (``process`` or ``ray``) with ``actors`` actors."""
    if name == "process":
        if address:
            raise OptionError("--ray-address needs --backend ray")
        return LocalBackend(actors, folder)
    if name == "ray":
        return RayBackend(actors, address)
    raise OptionError(f"unknown backend {name!r}; the backends are process and ray")
