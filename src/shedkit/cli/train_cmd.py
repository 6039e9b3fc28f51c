"""``shedkit train doudizhu``: Deep Monte-Carlo self-play (`shedkit.train.dmc`);
``shedkit train plot DIR``: a run's win rates against ``greedy`` by training time;
``shedkit train export DIR --out MODEL``: its networks as a model folder (float16 too)."""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from shedkit.core.errors import OptionError

__all__ = ["add_train_parser", "run_train"]

_DESCRIPTION = """\
Train a DouZero-style agent for three-player Dou Di Zhu by Deep Monte-Carlo
self-play: actors play whole deals with the latest networks (exploring with
probability --epsilon), the learner regresses each position's network on the
deals' rewards, with DouZero's network, reward (--objective) and optimiser.
Actors run in local processes (--backend process) or as Ray tasks
(--backend ray; on a cluster with --ray-address or RAY_ADDRESS).

Everything goes into --out: the networks as DouZero checkpoints (.ckpt) and as
.npz, so that 'douzero:DIR' plays them in the arena, the terminal and the
server; the resumable state (train-state.pt: run the same command again to go
on); history.jsonl, one line per checkpoint with its evaluation against greedy
in both roles (paired deals, sequential test); snapshots/ of every checkpoint.
--bid also learns the auction, which DouZero does not play.

Example: shedkit train doudizhu --out runs/ddz --minutes 60 --actors 2"""


def add_train_parser(sub: Any) -> argparse.ArgumentParser:
    """Add ``train`` (``doudizhu``, ``plot``) to the subcommands ``sub``."""
    train: argparse.ArgumentParser = sub.add_parser(
        "train",
        help="train a DouZero-style agent by self-play, or plot a run",
        description="Train learned agents. 'shedkit train doudizhu --help' for the options.",
    )
    what = train.add_subparsers(dest="train_target", metavar="TARGET", title="targets")
    ddz = what.add_parser(
        "doudizhu",
        help="Deep Monte-Carlo self-play for three-player Dou Di Zhu",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ddz.add_argument(
        "--out", required=True, type=Path, help="the run's folder (resumed if it holds one)"
    )
    ddz.add_argument("--frames", type=int, help="train until this many frames (decisions) in all")
    ddz.add_argument("--minutes", type=float, help="train for this many minutes in this run")
    ddz.add_argument("--actors", type=int, default=2, help="actor processes or Ray tasks at once")
    ddz.add_argument("--backend", choices=("process", "ray"), default="process")
    ddz.add_argument("--ray-address", dest="address", help="a Ray cluster's address")
    ddz.add_argument("--bid", action="store_true", help="also learn the auction")
    ddz.add_argument(
        "--objective",
        choices=("adp", "wp", "logadp"),
        default="adp",
        help="DouZero's reward: adp (±2^bombs), wp (±1), logadp (±(bombs+1))",
    )
    ddz.add_argument("--batch-size", type=int, default=3200, help="frames per learner step")
    ddz.add_argument("--learning-rate", type=float, default=1e-4)
    ddz.add_argument("--epsilon", type=float, default=0.01, help="the actors' exploration")
    ddz.add_argument("--episodes-per-task", type=int, default=4, help="deals per actor task")
    ddz.add_argument("--checkpoint-minutes", type=float, default=5.0)
    ddz.add_argument(
        "--eval-deals",
        type=int,
        default=100,
        help="paired deals against greedy at each checkpoint (0: none)",
    )
    ddz.add_argument("--seed", type=int, default=0, help="the self-play deals' seed base")
    ddz.add_argument("--threads", type=int, default=1, help="the learner's PyTorch threads")
    export = what.add_parser(
        "export",
        help="copy a run's networks (or a snapshot's) as a model folder, float16 if asked",
        description="Write the networks of FOLDER (a run, or one of its snapshots/) into "
        "--out as .npz files that douzero:DIR plays: float32, or float16 with --float16 "
        "(half the size; the model then plays on the rounded weights).",
    )
    export.add_argument("folder", type=Path, help="a shedkit train folder or snapshot")
    export.add_argument("--out", required=True, type=Path, help="the model folder to write")
    export.add_argument("--float16", action="store_true", help="store the weights as float16")
    plot = what.add_parser("plot", help="draw a run's win rates against greedy by training time")
    plot.add_argument("folder", type=Path, help="a shedkit train folder")
    plot.add_argument("--output", type=Path, help="the picture (default FOLDER/progress.png)")
    return train


_SHORT = {"landlord": "L", "landlord_up": "U", "landlord_down": "D", "bidding": "bid"}


def _line(p: Any) -> str:
    """The progress line: frames, rate, time, losses, the last evaluation."""
    target = f"/{p.target_frames:,}" if p.target_frames else ""
    loss = " ".join(f"{_SHORT.get(k, k)} {v:.3f}" for k, v in p.loss.items())
    text = (
        f"frames {p.frames:,}{target} · {p.frames_per_second:,.0f}/s · "
        f"{p.seconds / 3600:.2f} h · {p.episodes:,} deals · loss {loss or '-'}"
    )
    if p.evaluation:
        e = p.evaluation
        roles = e["roles"]
        sprt = e["sprt"]
        text += (
            f" · vs greedy @{e['frames']:,}: landlord {roles['landlord']['wp']:.2f}"
            f" (d {roles['landlord']['d']:+.2f}), peasants {roles['peasants']['wp']:.2f}"
            f" (d {roles['peasants']['d']:+.2f}), SPRT {sprt['decision']}"
            f" LLR {sprt['llr']:+.2f} n={sprt['n']}"
        )
    return text


def _export(args: argparse.Namespace, out: Console) -> int:
    """``shedkit train export``: the networks of a run or snapshot as a model folder."""
    from shedkit.agents.douzero.model import (
        bidding_file,
        load_weights,
        save_npz,
        weights_files,
    )

    files = dict(weights_files(args.folder))
    bidding = bidding_file(args.folder)
    if bidding is not None:
        files["bidding"] = bidding
    args.out.mkdir(parents=True, exist_ok=True)
    size = 0
    for name, path in files.items():
        target = args.out / f"{name}.npz"
        save_npz(load_weights(path), target, half=args.float16)
        size += target.stat().st_size
    kind = "float16" if args.float16 else "float32"
    out.print(
        f"wrote {len(files)} networks ({kind}, {size / 1e6:.1f} MB) to {args.out}",
        markup=False,
        soft_wrap=True,
    )
    return 0


def run_train(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run ``shedkit train``."""
    if args.train_target == "plot":
        from shedkit.train.plot import plot_history

        path = plot_history(args.folder, args.output)
        out.print(f"wrote {path}", markup=False, soft_wrap=True)
        return 0
    if args.train_target == "export":
        return _export(args, out)
    if args.train_target != "doudizhu":
        raise OptionError("say what to train: shedkit train doudizhu --out DIR (or plot DIR)")
    from shedkit.core.extras import require_extra

    require_extra("train", "shedkit train", "torch", "numpy")
    from shedkit.train.dmc import TrainConfig, Trainer

    config = TrainConfig(
        out=args.out,
        frames=args.frames,
        minutes=args.minutes,
        actors=args.actors,
        backend=args.backend,
        address=args.address,
        bid=args.bid,
        objective=args.objective,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        epsilon=args.epsilon,
        episodes_per_task=args.episodes_per_task,
        checkpoint_minutes=args.checkpoint_minutes,
        eval_deals=args.eval_deals,
        seed=args.seed,
        threads=args.threads,
    )
    shown: dict[str, Any] = {"at": 0.0, "eval": None}

    def show(progress: Any) -> None:
        # A line every ten seconds and at each evaluation: a log a terminal and a file read.
        now = time.monotonic()
        fresh = progress.evaluation is not None and progress.evaluation is not shown["eval"]
        if fresh or now - shown["at"] >= 10.0:
            shown.update(at=now, eval=progress.evaluation)
            err.print(_line(progress), markup=False)

    trainer = Trainer(config, show)

    def stop(signum: int, frame: Any) -> None:
        # `kill` (SIGTERM) stops a run as Ctrl-C does: a checkpoint, then the actors stop.
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if trainer.resumed:
        err.print(
            f"resuming {args.out}: {trainer.frames:,} frames so far", markup=False, soft_wrap=True
        )
    try:
        summary = trainer.run()
    except KeyboardInterrupt:
        err.print(
            f"interrupted: checkpoint written at {trainer.frames:,} frames",
            markup=False,
            soft_wrap=True,
        )
        return 130
    out.print(
        f"trained to {summary['frames']:,} frames ({summary['hours']:.3f} h); "
        f"the networks are in {summary['out']} (douzero:{summary['out']})",
        markup=False,
        soft_wrap=True,
    )
    return 0
