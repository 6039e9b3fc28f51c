"""``shedkit train doudizhu``: Deep Monte-Carlo self-play, checkpoints, resuming.

Tiny runs (a few hundred frames, batches of 64, two actor processes): what a run
writes, that it resumes where it stopped, that the numpy agent plays what it
wrote, and that every bad setting is refused with a message.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import shedkit
from shedkit.agents.douzero.agent import DouZeroAgent
from shedkit.agents.douzero.bidding import random_bid_params
from shedkit.agents.douzero.encoding import POSITIONS
from shedkit.agents.douzero.model import load_weights, random_params
from shedkit.cli.main import main
from shedkit.core.errors import OptionError
from shedkit.train.selfplay import Task, deal_reward, run_task

torch = pytest.importorskip("torch", reason="shedkit train needs PyTorch (the [train] extra)")

from shedkit.train.dmc import STATE_FILE, TrainConfig, Trainer  # noqa: E402

TINY = {"batch_size": 64, "episodes_per_task": 2, "eval_deals": 2, "actors": 2}


def play_deal(agent: DouZeroAgent, seed: int, auction: bool) -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=seed) if auction else game.new_deal(seed=seed, landlord=1, bid=1)
    while not state.is_over:
        state.apply(agent.act(state.view(state.current_player)))


def test_rewards_are_douzeros() -> None:
    assert deal_reward(True, 2, "adp") == 4.0 and deal_reward(False, 2, "adp") == -4.0
    assert deal_reward(True, 2, "logadp") == 3.0 and deal_reward(False, 0, "wp") == -1.0
    with pytest.raises(ValueError, match="unknown objective"):
        deal_reward(True, 0, "elo")


def test_self_play_targets_are_the_deals_reward() -> None:
    weights = {p: random_params(p, seed=i) for i, p in enumerate(POSITIONS)}
    out = run_task(weights, Task(seeds=(11, 12), epsilon=0.2, objective="wp"))
    assert out.episodes == 2 and out.frames == sum(len(out.target[p]) for p in POSITIONS)
    for p in POSITIONS:
        assert out.x[p].shape[0] == out.z[p].shape[0] == len(out.target[p])
        assert set(np.unique(out.target[p])) <= {-1.0, 1.0}
    # The same seeds give the same samples (the actors are seeded by the deal).
    again = run_task(weights, Task(seeds=(11, 12), epsilon=0.2, objective="wp"))
    for p in POSITIONS:
        assert np.array_equal(out.x[p], again.x[p]) and np.array_equal(
            out.target[p], again.target[p]
        )


def test_tiny_run_writes_resumes_and_plays(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = Trainer(TrainConfig(out=out, frames=200, **TINY)).run()
    assert first["frames"] >= 200 and not (out / "bidding.npz").exists()
    for p in POSITIONS:
        # The .ckpt (DouZero's format, read without PyTorch) and the .npz hold the same network.
        ckpt, npz = load_weights(out / f"{p}.ckpt"), load_weights(out / f"{p}.npz")
        assert ckpt.keys() == npz.keys()
        assert all(np.array_equal(ckpt[k], npz[k]) for k in ckpt)
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    assert history[-1]["frames"] == first["frames"]
    assert history[-1]["eval"]["roles"]["landlord"]["deals"] == 2
    assert (out / "snapshots" / f"{first['frames']:012d}" / "landlord.npz").is_file()

    resumed = Trainer(TrainConfig(out=out, frames=first["frames"] + 200, **TINY))
    assert resumed.resumed and resumed.frames == first["frames"]
    before = {k: v.clone() for k, v in resumed.nets["landlord"].state_dict().items()}
    second = resumed.run()
    assert second["frames"] >= first["frames"] + 200
    assert second["episodes"] > first["episodes"]
    after = resumed.nets["landlord"].state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before)
    state = torch.load(out / STATE_FILE, weights_only=False)
    assert state["next_deal"] > 0 and state["frames"] == second["frames"]

    agent = DouZeroAgent(shedkit.make("doudizhu"), 0, weights=out)
    assert agent.bid_net is None
    play_deal(agent, 5, auction=False)


def test_bid_run_learns_the_auction(tmp_path: Path) -> None:
    out = tmp_path / "bid"
    summary = Trainer(TrainConfig(out=out, frames=128, bid=True, **TINY)).run()
    assert summary["frames"] >= 128 and (out / "bidding.npz").is_file()
    agent = DouZeroAgent(shedkit.make("doudizhu"), 0, weights=out)
    assert agent.bid_net is not None
    for seed in range(3):
        play_deal(agent, seed, auction=True)
    with pytest.raises(OptionError, match="bid=True"):
        Trainer(TrainConfig(out=out, frames=400, bid=False, **TINY))


def test_bidding_samples_score_the_deal() -> None:
    weights = {p: random_params(p, seed=i) for i, p in enumerate(POSITIONS)}
    weights["bidding"] = random_bid_params(seed=4)
    out = run_task(weights, Task(seeds=tuple(range(6)), bid=True, bid_epsilon=0.5))
    assert len(out.bid_x) == len(out.bid_target) > 0
    # A bid's target is a deal score: a whole number of stakes (0 for a thrown-in deal).
    assert all(float(t).is_integer() for t in out.bid_target)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({}, "how long"),
        ({"frames": 0}, "--frames"),
        ({"frames": 10, "objective": "elo"}, "objective"),
        ({"frames": 10, "actors": 0}, "--actors"),
        ({"frames": 10, "epsilon": 2.0}, "--epsilon"),
        ({"frames": 10, "backend": "mpi"}, "backend"),
    ],
)
def test_bad_settings_are_refused(
    tmp_path: Path, settings: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        Trainer(TrainConfig(out=tmp_path, **settings)).run()  # type: ignore[arg-type]


def test_command_line_trains_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    argv = ["train", "doudizhu", "--out", str(out), "--frames", "100", "--batch-size", "32"]
    assert main([*argv, "--eval-deals", "2", "--actors", "1", "--episodes-per-task", "1"]) == 0
    assert f"douzero:{out}" in capsys.readouterr().out
    assert main(["train", "plot", str(out)]) == 0
    picture = out / "progress.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    artifacts = Path("build/test-artifacts")
    artifacts.mkdir(parents=True, exist_ok=True)
    (artifacts / "train-progress-tiny.png").write_bytes(picture.read_bytes())
    half = tmp_path / "half"
    assert main(["train", "export", str(out), "--out", str(half), "--float16"]) == 0
    for p in POSITIONS:
        saved = np.load(half / f"{p}.npz")
        assert all(saved[k].dtype == np.float16 for k in saved.files)
        full = load_weights(out / f"{p}.npz")
        assert all(np.allclose(saved[k], full[k], atol=1e-3) for k in saved.files)
    play_deal(DouZeroAgent(shedkit.make("doudizhu"), 0, weights=half), 3, auction=False)
    assert main(["train", "plot", str(tmp_path)]) == 2
    assert "no history.jsonl" in capsys.readouterr().err
    assert main(["train", "doudizhu", "--out", str(out)]) == 2
    assert "--frames" in capsys.readouterr().err


def test_ray_backend_trains_with_two_workers(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    summary = Trainer(TrainConfig(out=tmp_path / "ray", frames=128, backend="ray", **TINY)).run()
    assert summary["frames"] >= 128
    agent = DouZeroAgent(shedkit.make("doudizhu"), 0, weights=tmp_path / "ray")
    play_deal(agent, 7, auction=False)


def test_a_killed_run_checkpoints_and_leaves_no_actor(tmp_path: Path) -> None:
    """SIGTERM, as a scheduler or `kill` sends it: a checkpoint, status 130, no actor left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "killed"
    command = [str(Path(sys.executable).parent / "shedkit"), "train", "doudizhu"]
    command += ["--out", str(out), "--minutes", "30", "--batch-size", "32"]
    command += ["--episodes-per-task", "1", "--eval-deals", "0"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    # The first progress line comes once the actors are started.
    assert "frames" in process.stderr.readline()
    children = subprocess.run(
        ["pgrep", "-P", str(process.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    assert children
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=120) == 130
    assert "checkpoint written" in process.stderr.read()
    assert (out / STATE_FILE).is_file() and (out / "landlord.npz").is_file()
    deadline = time.monotonic() + 30
    alive = [int(pid) for pid in children]
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if os.path.exists(f"/proc/{pid}")]
        time.sleep(0.2)
    assert alive == []


def test_actor_processes_run_one_blas_thread(tmp_path: Path) -> None:
    """Spawned lazily, the actors still get the single-thread setting (their initializer)."""
    import os

    from shedkit.train.backends import LocalBackend

    backend = LocalBackend(1, tmp_path)
    try:
        # The worker starts with this first task, after the backend was made.
        seen = backend._pool.submit(os.getenv, "OPENBLAS_NUM_THREADS").result(timeout=120)
    finally:
        backend.close()
    assert seen == "1"
