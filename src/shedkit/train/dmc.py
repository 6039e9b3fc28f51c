"""Deep Monte-Carlo for Dou Di Zhu, as DouZero trains (Zha et al., 2021), resumable.

Actors (`shedkit.train.backends`) play whole deals with the latest networks,
exploring with probability ε, and send every decision with the deal's final
reward as its target; the learner regresses each position's network on them
(mean squared error, RMSprop, gradients clipped), DouZero's settings by
default. A *frame* is one decision learned from, as DouZero counts.

Everything a run makes is in its folder:

- ``landlord.ckpt``, ``landlord_up.ckpt``, ``landlord_down.ckpt``: the latest
  networks as DouZero's checkpoints (PyTorch state dicts), and the same as
  ``.npz``, so ``douzero:DIR`` plays them; ``bidding.*`` with ``--bid``;
- ``train-state.pt``: networks, optimizers and counters, from which a run
  started again on the same folder goes on (nothing but the samples waiting
  for the learner is lost on a crash);
- ``history.jsonl``: one line per checkpoint (frames, hours, frames/s, losses,
  and the paired evaluation against ``greedy`` in both roles with its
  sequential test), which ``shedkit train plot`` draws;
- ``snapshots/FRAMES/``: each checkpoint's networks as ``.npz``, to measure
  any of them later with ``benchmarks/strength_levels.py``.
"""

from __future__ import annotations

import functools
import json
import math
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from shedkit.agents.douzero.encoding import POSITIONS
from shedkit.agents.douzero.model import save_npz
from shedkit.arena.sprt import SPRT, Hypotheses
from shedkit.arena.stats import wilson
from shedkit.core.errors import OptionError
from shedkit.train.backends import make_backend
from shedkit.train.nets import make_net, numpy_params
from shedkit.train.selfplay import OBJECTIVES, Paired, Samples, Task

try:
    import numpy as np
    import torch
    from numpy.typing import NDArray
except ImportError:  # pragma: no cover - nets.py names the extra first
    raise

__all__ = ["EVAL_SEED_BASE", "STATE_FILE", "TrainConfig", "Trainer", "train"]

#: The run's resumable state, in its folder.
STATE_FILE: Final = "train-state.pt"
#: Deal ``i`` of every evaluation: the same deals at each checkpoint, none trained on.
EVAL_SEED_BASE: Final = 7 * 10**12
#: The sequential test of each evaluation: the mean paired score of both roles.
EVAL_HYPOTHESES: Final = Hypotheses(delta0=0.0, delta1=0.05)
#: Settings a resumed run must share with the run it carries on.
_FIXED: Final = ("bid", "objective")


@dataclass
class TrainConfig:
    """A training run's settings (DouZero's defaults where DouZero has them)."""

    out: Path
    frames: int | None = None
    minutes: float | None = None
    actors: int = 2
    backend: str = "process"
    address: str | None = None
    bid: bool = False
    objective: str = "adp"
    batch_size: int = 3200
    learning_rate: float = 1e-4
    alpha: float = 0.99
    rms_epsilon: float = 1e-5
    max_grad_norm: float = 40.0
    epsilon: float = 0.01
    bid_epsilon: float = 0.1
    episodes_per_task: int = 4
    checkpoint_minutes: float = 5.0
    eval_deals: int = 100
    seed: int = 0
    threads: int = 1

    def check(self) -> None:
        """Raise `OptionError` for a setting out of its range."""
        if self.frames is None and self.minutes is None:
            raise OptionError("say how long to train: --frames N and/or --minutes M")
        if self.frames is not None and self.frames < 1:
            raise OptionError(f"--frames must be positive, not {self.frames}")
        if self.minutes is not None and not self.minutes > 0:
            raise OptionError(f"--minutes must be positive, not {self.minutes}")
        if self.objective not in OBJECTIVES:
            raise OptionError(
                f"unknown objective {self.objective!r}; the objectives: {', '.join(OBJECTIVES)}"
            )
        for name in ("batch_size", "episodes_per_task", "actors", "threads"):
            if getattr(self, name) < 1:
                raise OptionError(f"--{name.replace('_', '-')} must be at least 1")
        for name in ("epsilon", "bid_epsilon"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise OptionError(f"--{name.replace('_', '-')} must lie in [0, 1]")
        if self.eval_deals < 0 or not self.checkpoint_minutes > 0:
            raise OptionError("--eval-deals must be ≥ 0 and --checkpoint-minutes positive")

    def as_json(self) -> dict[str, Any]:
        """The settings as JSON-able data."""
        data = asdict(self)
        data["out"] = str(self.out)
        return data


@dataclass
class Progress:
    """What the learner reports after each step (`Trainer.on_progress`)."""

    frames: int
    episodes: int
    seconds: float
    frames_per_second: float
    loss: dict[str, float]
    evaluation: dict[str, Any] | None
    target_frames: int | None
    run_seconds: float


@dataclass
class _Eval:
    frames: int
    seconds: float
    pending: set[Future[Any]] = field(default_factory=set)
    results: list[Paired] = field(default_factory=list)


class Trainer:
    """One training run on ``config.out``, resumed from its state file if there is one."""

    def __init__(self, config: TrainConfig, on_progress: Callable[[Progress], None] | None = None):
        config.check()
        self.config = config
        self.on_progress = on_progress
        self.out = Path(config.out)
        self.out.mkdir(parents=True, exist_ok=True)
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.names = [*POSITIONS, "bidding"] if config.bid else list(POSITIONS)
        self.nets = {n: make_net(n) for n in self.names}
        self.optimizers = {
            n: torch.optim.RMSprop(
                self.nets[n].parameters(),
                lr=config.learning_rate,
                alpha=config.alpha,
                eps=config.rms_epsilon,
            )
            for n in self.names
        }
        self.frames = 0
        self.position_frames = dict.fromkeys(self.names, 0)
        self.episodes = 0
        self.next_deal = 0
        self.seconds = 0.0
        self.updates = 0
        self.loss: dict[str, float] = {}
        self.last_eval: dict[str, Any] | None = None
        self.resumed = self._resume()
        self._buffers: dict[str, list[tuple[NDArray[Any], ...]]] = {n: [] for n in self.names}

    # -- state ---------------------------------------------------------------------------

    def _resume(self) -> bool:
        path = self.out / STATE_FILE
        if not path.exists():
            return False
        state = torch.load(path, map_location="cpu", weights_only=False)
        for key in _FIXED:
            before = state["config"].get(key)
            if before != getattr(self.config, key):
                raise OptionError(
                    f"{self.out} holds a run with {key}={before!r}: resume it with the same "
                    f"setting, or train into another folder"
                )
        for name in self.names:
            self.nets[name].load_state_dict(state["models"][name])
            self.optimizers[name].load_state_dict(state["optimizers"][name])
        self.frames = int(state["frames"])
        self.position_frames = {n: int(state["position_frames"].get(n, 0)) for n in self.names}
        self.episodes = int(state["episodes"])
        self.next_deal = int(state["next_deal"])
        self.seconds = float(state["seconds"])
        self.updates = int(state["updates"])
        self.last_eval = state.get("last_eval")
        return True

    def params(self) -> dict[str, dict[str, NDArray[Any]]]:
        """Every network's parameters as numpy arrays."""
        return {n: numpy_params(self.nets[n]) for n in self.names}

    def checkpoint(self) -> Path:
        """Write the networks (``.ckpt`` and ``.npz``), a snapshot and the resumable state."""
        params = self.params()
        for name in self.names:
            weights = self.nets[name].state_dict()
            _atomic(self.out / f"{name}.ckpt", functools.partial(torch.save, weights))
            _atomic(self.out / f"{name}.npz", functools.partial(save_npz, params[name]))
        snapshot = self.out / "snapshots" / f"{self.frames:012d}"
        snapshot.mkdir(parents=True, exist_ok=True)
        for name in self.names:
            shutil.copyfile(self.out / f"{name}.npz", snapshot / f"{name}.npz")
        self._save_state()
        return snapshot

    def _save_state(self) -> None:
        state = {
            "config": self.config.as_json(),
            "models": {n: self.nets[n].state_dict() for n in self.names},
            "optimizers": {n: self.optimizers[n].state_dict() for n in self.names},
            "frames": self.frames,
            "position_frames": self.position_frames,
            "episodes": self.episodes,
            "next_deal": self.next_deal,
            "seconds": self.seconds,
            "updates": self.updates,
            "last_eval": self.last_eval,
        }
        _atomic(self.out / STATE_FILE, functools.partial(torch.save, state))

    # -- learning --------------------------------------------------------------------------

    def _add(self, samples: Samples) -> None:
        for p in POSITIONS:
            if len(samples.target[p]):
                self._buffers[p].append((samples.x[p], samples.z[p], samples.target[p]))
        if self.config.bid and len(samples.bid_target):
            self._buffers["bidding"].append((samples.bid_x, samples.bid_target))
        self.episodes += samples.episodes

    def _take(self, name: str) -> tuple[NDArray[Any], ...] | None:
        parts = self._buffers[name]
        size = self.config.batch_size
        if sum(len(p[-1]) for p in parts) < size:
            return None
        joined = [np.concatenate(cols) for cols in zip(*parts, strict=True)]
        self._buffers[name] = [tuple(c[size:] for c in joined)] if len(joined[-1]) > size else []
        return tuple(c[:size] for c in joined)

    def _learn(self, name: str, batch: tuple[NDArray[Any], ...]) -> float:
        net, optimizer = self.nets[name], self.optimizers[name]
        net.train()
        target = torch.from_numpy(batch[-1].astype(np.float32))
        if name == "bidding":
            values = net(torch.from_numpy(batch[0]).float())
        else:
            values = net(torch.from_numpy(batch[1]).float(), torch.from_numpy(batch[0]).float())
        loss = ((values - target) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), self.config.max_grad_norm)
        optimizer.step()
        return float(loss.item())

    def _learn_ready(self) -> bool:
        learned = False
        for name in self.names:
            while (batch := self._take(name)) is not None:
                self.loss[name] = self._learn(name, batch)
                self.updates += 1
                if name != "bidding":
                    self.frames += len(batch[-1])
                self.position_frames[name] += len(batch[-1])
                learned = True
        return learned

    # -- the run ---------------------------------------------------------------------------

    def _task(self) -> Task:
        c = self.config
        first = c.seed * 10**9 + self.next_deal
        self.next_deal += c.episodes_per_task
        return Task(
            seeds=tuple(range(first, first + c.episodes_per_task)),
            epsilon=c.epsilon,
            objective=c.objective,
            bid=c.bid,
            bid_epsilon=c.bid_epsilon,
        )

    def _done(self, started: float) -> bool:
        c = self.config
        if c.frames is not None and self.frames >= c.frames:
            return True
        return c.minutes is not None and time.monotonic() - started >= c.minutes * 60

    def run(self) -> dict[str, Any]:
        """Train until the frames or minutes are reached; checkpoint and return the summary."""
        c = self.config
        backend = make_backend(c.backend, c.actors, self.out, c.address)
        started = time.monotonic()
        base_seconds = self.seconds
        version = 0
        backend.publish(self.params(), version)
        inflight: dict[Future[Any], str] = {}
        evaluation: _Eval | None = None
        last_checkpoint = started
        frames_at_start = self.frames
        try:
            while not self._done(started):
                while sum(1 for k in inflight.values() if k == "selfplay") < 2 * c.actors:
                    inflight[backend.submit(self._task())] = "selfplay"
                done, _ = wait(list(inflight), timeout=1.0, return_when=FIRST_COMPLETED)
                for future in done:
                    kind = inflight.pop(future)
                    result = future.result()
                    if kind == "selfplay":
                        self._add(result)
                    elif evaluation is not None:
                        evaluation.results.append(result)
                        evaluation.pending.discard(future)
                self.seconds = base_seconds + time.monotonic() - started
                if self._learn_ready():
                    version += 1
                    backend.publish(self.params(), version)
                if evaluation is not None and not evaluation.pending:
                    self._finish_eval(evaluation)
                    evaluation = None
                if time.monotonic() - last_checkpoint >= c.checkpoint_minutes * 60:
                    last_checkpoint = time.monotonic()
                    self.checkpoint()
                    if c.eval_deals and evaluation is None:
                        evaluation = self._start_eval(backend, inflight)
                self._report(started, frames_at_start)
            self.seconds = base_seconds + time.monotonic() - started
            self.checkpoint()
            if c.eval_deals:
                # The final networks are measured before the run returns.
                measured = None
                if evaluation is not None:
                    wait(evaluation.pending)
                    self._collect(evaluation, inflight)
                    self._finish_eval(evaluation)
                    measured = evaluation.frames
                if measured != self.frames:
                    evaluation = self._start_eval(backend, inflight)
                    wait(evaluation.pending)
                    self._collect(evaluation, inflight)
                    self._finish_eval(evaluation)
                self._save_state()  # with its evaluation, for the next run's progress line
                self._report(started, frames_at_start)
        except KeyboardInterrupt:
            self.seconds = base_seconds + time.monotonic() - started
            self.checkpoint()
            raise
        finally:
            backend.close()
        return self.summary()

    def _collect(self, evaluation: _Eval, inflight: dict[Future[Any], str]) -> None:
        for future in list(evaluation.pending):
            evaluation.results.append(future.result())
            inflight.pop(future, None)
        evaluation.pending.clear()

    def _start_eval(self, backend: Any, inflight: dict[Future[Any], str]) -> _Eval:
        c = self.config
        seeds = [EVAL_SEED_BASE + i for i in range(c.eval_deals)]
        chunks = max(1, min(len(seeds), 2 * c.actors))
        evaluation = _Eval(self.frames, self.seconds)
        for k in range(chunks):
            part = tuple(seeds[k::chunks])
            if part:
                future = backend.submit(Task(seeds=part, kind="eval"))
                inflight[future] = "eval"
                evaluation.pending.add(future)
        return evaluation

    def _finish_eval(self, evaluation: _Eval) -> None:
        d: dict[str, dict[int, float]] = {"landlord": {}, "peasants": {}}
        wins: dict[str, list[int]] = {"landlord": [], "peasants": []}
        for result in evaluation.results:
            for role in d:
                d[role].update(zip(result.seeds, result.d[role], strict=True))
                wins[role].extend(result.wins[role])
        test = SPRT(EVAL_HYPOTHESES)
        for seed in sorted(d["landlord"]):
            if test.decision() is None:
                test.add((d["landlord"][seed] + d["peasants"][seed]) / 2.0)
        roles: dict[str, Any] = {}
        for role in d:
            n = len(wins[role])
            low, high = wilson(sum(wins[role]), n)
            roles[role] = {
                "wp": round(sum(wins[role]) / n, 4) if n else None,
                "wp_ci": [round(low, 4), round(high, 4)],
                "d": round(sum(d[role].values()) / n, 4) if n else None,
                "deals": n,
            }
        self.last_eval = {
            "frames": evaluation.frames,
            "hours": round(evaluation.seconds / 3600, 4),
            "against": "greedy",
            "roles": roles,
            "sprt": {"hypotheses": EVAL_HYPOTHESES.as_dict(), **test.summary()},
        }
        line = {
            "frames": evaluation.frames,
            "episodes": self.episodes,
            "hours": round(evaluation.seconds / 3600, 4),
            "frames_per_second": round(evaluation.frames / evaluation.seconds, 1)
            if evaluation.seconds
            else None,
            "loss": {k: round(v, 5) for k, v in self.loss.items()},
            "backend": self.config.backend,
            "actors": self.config.actors,
            "eval": self.last_eval,
        }
        with open(self.out / "history.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def _report(self, started: float, frames_at_start: int) -> None:
        if self.on_progress is None:
            return
        run_seconds = time.monotonic() - started
        fps = (self.frames - frames_at_start) / run_seconds if run_seconds > 0 else 0.0
        self.on_progress(
            Progress(
                frames=self.frames,
                episodes=self.episodes,
                seconds=self.seconds,
                frames_per_second=fps if math.isfinite(fps) else 0.0,
                loss=dict(self.loss),
                evaluation=self.last_eval,
                target_frames=self.config.frames,
                run_seconds=run_seconds,
            )
        )

    def summary(self) -> dict[str, Any]:
        """Frames, episodes, hours and the last evaluation."""
        return {
            "out": str(self.out),
            "frames": self.frames,
            "episodes": self.episodes,
            "hours": round(self.seconds / 3600, 4),
            "updates": self.updates,
            "loss": self.loss,
            "eval": self.last_eval,
        }


def _atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file and rename it: a crash leaves the old file whole."""
    tmp = path.with_name(f".{path.name}.tmp{path.suffix}")
    write(tmp)
    os.replace(tmp, path)


def train(
    config: TrainConfig, on_progress: Callable[[Progress], None] | None = None
) -> dict[str, Any]:
    """Run `Trainer` on ``config`` (resuming its folder's run) and return its summary."""
    return Trainer(config, on_progress).run()
