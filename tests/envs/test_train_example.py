"""The REINFORCE example's policy: its log-probability gradient is the true one."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

EXAMPLE = Path(__file__).resolve().parents[2] / "benchmarks" / "train_policy.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_policy_gradient_matches_finite_differences() -> None:
    example = load_example()
    rng = np.random.default_rng(0)
    features = rng.random((12, 4)).astype(np.float32)
    policy = example.MaskedLinearPolicy(features, obs_size=5, seed=1)
    policy.w = rng.normal(0, 0.5, policy.w.shape)
    policy.b = rng.normal(0, 0.5, policy.b.shape)
    obs = rng.random(5)
    legal = np.array([1, 4, 7, 9], dtype=np.intp)
    p = policy.probs(obs, legal)
    assert p.shape == (4,) and p.sum() == pytest.approx(1.0)
    gw, gb = policy.grad(obs, legal, p, 2)
    eps = 1e-6
    for i, j in [(0, 0), (1, 3), (3, 4)]:
        policy.w[i, j] += eps
        up = np.log(policy.probs(obs, legal)[2])
        policy.w[i, j] -= 2 * eps
        down = np.log(policy.probs(obs, legal)[2])
        policy.w[i, j] += eps
        assert gw[i, j] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7)
    policy.b[1] += eps
    up = np.log(policy.probs(obs, legal)[2])
    policy.b[1] -= 2 * eps
    down = np.log(policy.probs(obs, legal)[2])
    assert gb[1] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7)


def test_short_run_prints_a_learning_curve(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    assert example.main(["--episodes", "4", "--blocks", "2", "--eval", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("president")
    assert lines[1].startswith("baseline: a random learner") and "same deals" in lines[1]
    assert [line.split()[0] for line in lines[3:]] == ["0", "2", "4"]
    # The row before training says what it is, as it may sit below the baseline.
    assert "untrained" in lines[3] and "untrained" not in lines[4] + lines[5]
