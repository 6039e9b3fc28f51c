"""Train a masked softmax policy with REINFORCE against random bots, numpy only.

The policy scores each legal action ``a`` by ``features[a] · (W obs + b)``:
``features`` are the encoding's action features (the cards an action plays,
its kind, size and strength), ``obs`` the observation vector; illegal actions
are masked out of the softmax. REINFORCE with a running-mean baseline
updates ``W`` and ``b`` after every episode (one deal of the Gymnasium
single-seat environment, the other seats ``random``).

The learner's win rate (first place in President, the deal in Dou Di Zhu) is
measured on the same fixed evaluation deals before training and after each
block, with the policy's most likely action; it rises well above the
random-play baseline (1/4 in four-player President). The first row, before
any training, is the argmax of small random weights: a fixed, arbitrary
policy that often wins less than uniform random play, so it can start below
the baseline.

Run: ``python benchmarks/train_policy.py [--game president] [--episodes 2000]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shedkit.envs.gymnasium import SingleAgentEnv

Array = NDArray[np.float64]


class MaskedLinearPolicy:
    """Bilinear scores of (observation, action features), softmax over the legal actions."""

    def __init__(self, features: NDArray[np.float32], obs_size: int, seed: int) -> None:
        self.features = features.astype(np.float64)
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0.0, 0.01, (features.shape[1], obs_size))
        self.b = np.zeros(features.shape[1])

    def probs(self, obs: Array, legal: NDArray[np.intp]) -> Array:
        """The softmax over the legal actions."""
        scores = self.features[legal] @ (self.w @ obs + self.b)
        scores -= scores.max()
        p = np.exp(scores)
        return p / p.sum()

    def grad(self, obs: Array, legal: NDArray[np.intp], p: Array, i: int) -> tuple[Array, Array]:
        """Gradient of log pi(legal[i]) with respect to W and b."""
        diff = self.features[legal[i]] - p @ self.features[legal]
        return np.outer(diff, obs), diff


def legal_ids(obs: dict[str, Any]) -> NDArray[np.intp]:
    """The legal action ids of an observation's mask."""
    return np.flatnonzero(obs["action_mask"].view(np.bool_))


def evaluate(
    env: SingleAgentEnv, policy: MaskedLinearPolicy | None, seeds: range, top: float
) -> float:
    """Share of ``seeds`` deals the learner wins with its most likely action (None: at random)."""
    wins = 0
    rng = np.random.default_rng(0)
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            legal = legal_ids(obs)
            if policy is None:
                choice = int(legal[rng.integers(legal.size)])
            else:
                p = policy.probs(obs["observation"].astype(np.float64), legal)
                choice = int(legal[int(p.argmax())])
            obs, reward, done, _, _ = env.step(choice)
        wins += reward >= top
    return wins / len(seeds)


def main(argv: list[str] | None = None) -> int:
    """Train, printing the win rate on the evaluation deals after each block."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="president", choices=("president", "doudizhu"))
    parser.add_argument("--episodes", type=int, default=2000, help="training episodes")
    parser.add_argument("--blocks", type=int, default=5, help="evaluations during training")
    parser.add_argument("--eval", type=int, default=300, help="evaluation deals")
    parser.add_argument("--lr", type=float, default=0.01, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = SingleAgentEnv(args.game, seat=0, opponents="random")
    # A win: first place in President (n - 1 points), any positive score in Dou Di Zhu.
    top = env.game.num_players - 1 if args.game == "president" else 1e-9
    policy = MaskedLinearPolicy(
        env.encoding.action_features, env.encoding.layout.size, seed=args.seed
    )
    rng = np.random.default_rng(args.seed)
    eval_seeds = range(10**6, 10**6 + args.eval)
    print(f"{args.game}: learner in seat 0, opponents random, {args.eval} evaluation deals")
    random_rate = evaluate(env, None, eval_seeds, top)
    print(
        f"baseline: a random learner (uniform among its legal moves) wins {random_rate:.3f} "
        "of the same deals"
    )
    print(f"{'episodes':>9} {'win rate':>9} {'seconds':>8}")
    start = time.perf_counter()
    untrained = evaluate(env, policy, eval_seeds, top)
    # Argmax of random initial weights is one arbitrary fixed policy, not random play.
    print(
        f"{0:>9} {untrained:>9.3f} {0.0:>8.1f}  untrained (argmax of random initial weights: "
        "may start below the baseline)"
    )
    baseline = 0.0
    block = max(1, args.episodes // args.blocks)
    for episode in range(1, args.episodes + 1):
        obs, _ = env.reset(seed=int(rng.integers(2**62)))
        grads_w = np.zeros_like(policy.w)
        grads_b = np.zeros_like(policy.b)
        done, reward = False, 0.0
        while not done:
            x = obs["observation"].astype(np.float64)
            legal = legal_ids(obs)
            p = policy.probs(x, legal)
            i = int(rng.choice(legal.size, p=p))
            gw, gb = policy.grad(x, legal, p, i)
            grads_w += gw
            grads_b += gb
            obs, reward, done, _, _ = env.step(int(legal[i]))
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        policy.w += args.lr * advantage * grads_w
        policy.b += args.lr * advantage * grads_b
        if episode % block == 0 or episode == args.episodes:
            rate = evaluate(env, policy, eval_seeds, top)
            print(f"{episode:>9} {rate:>9.3f} {time.perf_counter() - start:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
