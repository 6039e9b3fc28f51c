"""The actors' side of Deep Monte-Carlo: self-play and evaluation deals, in numpy.

An actor needs no PyTorch: it plays with the numpy networks of
`shedkit.agents.douzero` (the same forward pass the agent uses), so actors
run in plain processes or as Ray actors on machines without PyTorch. A task
(`Task`) is a list of deal seeds; `run_task` plays them and returns either
training samples (`Samples`: one per decision, the action chosen, its target
the deal's final reward, as DouZero's actors record) or paired results
against a field agent (`Paired`).

>>> from shedkit.agents.douzero.model import random_params
>>> from shedkit.agents.douzero.encoding import POSITIONS
>>> weights = {p: random_params(p, seed=i) for i, p in enumerate(POSITIONS)}
>>> out = run_task(weights, Task(seeds=(7,), epsilon=0.0))
>>> out.episodes, sum(len(t) for t in out.target.values()) == out.frames
(1, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from shedkit.agents.douzero.agent import DouZeroAgent, candidates
from shedkit.agents.douzero.bidding import BID_FEATURES, BidNet, bid_features
from shedkit.agents.douzero.encoding import POSITIONS, X_SIZE, encode
from shedkit.agents.douzero.model import DouZeroNet
from shedkit.agents.greedy_doudizhu import GreedyDouDizhu
from shedkit.core.extras import require_extra

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError:
    require_extra("rl", "shedkit train", "numpy")
    raise

__all__ = [
    "OBJECTIVES",
    "Paired",
    "Samples",
    "Task",
    "deal_reward",
    "load_weights_file",
    "run_task",
    "save_weights_file",
]

#: DouZero's rewards (`deal_reward`): ``adp`` (±2 to the number of bombs), ``wp`` (±1),
#: ``logadp`` (±(bombs + 1)).
OBJECTIVES: Final = ("adp", "wp", "logadp")

#: The networks' names in a weights file: the three positions, and the auction's.
NETS: Final = (*POSITIONS, "bidding")


@dataclass(frozen=True)
class Task:
    """Deals for one actor call.

    ``kind`` ``"selfplay"``: the networks play every seat, choosing at random with
    probability ``epsilon`` (DouZero's exploration); with ``bid`` the deal
    starts with the auction (the bidding network, exploring with
    ``bid_epsilon``), else the landlord is the deal's seed mod 3 at a stake of 1.
    ``kind`` ``"eval"``: each deal is played in both roles against ``greedy``
    and against ``greedy`` in the same seats (`Paired`), without exploration.
    """

    seeds: tuple[int, ...]
    kind: str = "selfplay"
    epsilon: float = 0.01
    objective: str = "adp"
    bid: bool = False
    bid_epsilon: float = 0.1


@dataclass
class Samples:
    """What self-play gives the learner: per position, one row per decision."""

    x: dict[str, NDArray[np.int8]]
    z: dict[str, NDArray[np.int8]]
    target: dict[str, NDArray[np.float32]]
    bid_x: NDArray[np.int8]
    bid_target: NDArray[np.float32]
    episodes: int = 0
    frames: int = 0
    landlord_wins: int = 0
    thrown_in: int = 0


@dataclass
class Paired:
    """Paired evaluation results: per role, the model's win minus greedy's on each deal."""

    d: dict[str, list[float]] = field(default_factory=dict)
    wins: dict[str, list[int]] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)


def deal_reward(landlord_won: bool, bombs: int, objective: str) -> float:
    """The landlord's reward for a deal, as DouZero's environment gives it (peasants: minus)."""
    if objective == "adp":
        value = 2.0**bombs
    elif objective == "logadp":
        value = bombs + 1.0
    elif objective == "wp":
        value = 1.0
    else:
        raise ValueError(
            f"unknown objective {objective!r}; the objectives: {', '.join(OBJECTIVES)}"
        )
    return value if landlord_won else -value


def save_weights_file(params: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    """All networks in one ``.npz`` (``landlord/dense1.weight`` …), written atomically."""
    arrays: dict[str, Any] = {
        f"{net}/{name}": np.asarray(value, dtype=np.float32)
        for net, layer in params.items()
        for name, value in layer.items()
    }
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def load_weights_file(path: str | os.PathLike[str]) -> dict[str, dict[str, NDArray[Any]]]:
    """The networks in a file written by `save_weights_file`."""
    out: dict[str, dict[str, NDArray[Any]]] = {}
    with np.load(Path(path), allow_pickle=False) as data:
        for key in data.files:
            net, name = key.split("/", 1)
            out.setdefault(net, {})[name] = data[key]
    return out


_CACHE: dict[str, Any] = {}


def _networks(weights: str | Mapping[str, Any]) -> dict[str, DouZeroNet | BidNet]:
    """Networks from a weights file (read once per file and process) or from parameters."""
    if isinstance(weights, str):
        if _CACHE.get("path") != weights:
            _CACHE["path"] = weights
            _CACHE["nets"] = _networks(load_weights_file(weights))
        nets: dict[str, DouZeroNet | BidNet] = _CACHE["nets"]
        return nets
    out: dict[str, DouZeroNet | BidNet] = {}
    for name, params in weights.items():
        if isinstance(params, DouZeroNet | BidNet):
            out[name] = params
        else:
            out[name] = BidNet(params) if name == "bidding" else DouZeroNet(params)
    return out


def run_task(weights: str | Mapping[str, Any], task: Task) -> Samples | Paired:
    """Play ``task``'s deals with ``weights`` (a `save_weights_file` file, or parameters)."""
    nets = _networks(weights)
    if task.kind == "eval":
        return _evaluate(nets, task)
    if task.kind != "selfplay":
        raise ValueError(f"unknown task kind {task.kind!r}")
    return _selfplay(nets, task)


class _Buffer:
    def __init__(self) -> None:
        self.x: dict[str, list[NDArray[np.int8]]] = {p: [] for p in POSITIONS}
        self.z: dict[str, list[NDArray[np.int8]]] = {p: [] for p in POSITIONS}
        self.target: dict[str, list[float]] = {p: [] for p in POSITIONS}
        self.bid_x: list[NDArray[np.int8]] = []
        self.bid_target: list[float] = []

    def samples(self) -> Samples:
        def stack(rows: list[NDArray[np.int8]], shape: tuple[int, ...]) -> NDArray[np.int8]:
            return np.stack(rows) if rows else np.zeros((0, *shape), dtype=np.int8)

        return Samples(
            x={p: stack(self.x[p], (X_SIZE[p],)) for p in POSITIONS},
            z={p: stack(self.z[p], (5, 162)) for p in POSITIONS},
            target={p: np.asarray(self.target[p], dtype=np.float32) for p in POSITIONS},
            bid_x=stack(self.bid_x, (BID_FEATURES,)),
            bid_target=np.asarray(self.bid_target, dtype=np.float32),
        )


def _selfplay(nets: Mapping[str, DouZeroNet | BidNet], task: Task) -> Samples:
    import shedkit

    game = shedkit.make("doudizhu")
    buffer = _Buffer()
    episodes = frames = landlord_wins = thrown_in = 0
    bid_net = nets.get("bidding")
    if task.bid and not isinstance(bid_net, BidNet):
        raise ValueError("a self-play task with bid needs a bidding network")
    for seed in task.seeds:
        rng = np.random.default_rng(seed)
        if task.bid:
            state = game.new_deal(seed=seed)
        else:
            state = game.new_deal(seed=seed, landlord=seed % 3, bid=1)
        bids: list[tuple[int, NDArray[np.int8]]] = []
        steps: dict[int, list[tuple[str, NDArray[np.int8], NDArray[np.int8]]]] = {
            s: [] for s in range(3)
        }
        bombs = 0
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            legal = view.legal_moves
            if view.phase == "auction":
                assert isinstance(bid_net, BidNet)
                rows = bid_features(view)
                if rng.random() < task.bid_epsilon:
                    i = int(rng.integers(len(legal)))
                else:
                    i = int(bid_net.values(rows).argmax())
                bids.append((seat, rows[i]))
                state.apply(legal[i])
                continue
            actions, moves = candidates(view)
            obs = encode(view, actions)
            net = nets[obs.position]
            assert isinstance(net, DouZeroNet)
            if len(actions) == 1:
                i = 0
            elif rng.random() < task.epsilon:
                i = int(rng.integers(len(actions)))
            else:
                i = net.best(obs.z, obs.x_batch)
            row = np.concatenate([obs.x_no_action, obs.action_rows[i]])
            steps[seat].append((obs.position, row, obs.z))
            if moves[i].is_bomb:
                bombs += 1
            state.apply(moves[i])
        episodes += 1
        if state.thrown_in or state.landlord is None:
            thrown_in += 1
            buffer.bid_x.extend(row for _, row in bids)
            buffer.bid_target.extend(0.0 for _ in bids)
            continue
        landlord = state.landlord
        landlord_won = state.winner == landlord
        landlord_wins += landlord_won
        reward = deal_reward(landlord_won, bombs, task.objective)
        for seat, seat_steps in steps.items():
            own = reward if seat == landlord else -reward
            for position, row, z in seat_steps:
                buffer.x[position].append(row)
                buffer.z[position].append(z)
                buffer.target[position].append(own)
            frames += len(seat_steps)
        if bids:
            # The auction's target is the deal's score for the bidder, per opponent for the
            # landlord (as the arena counts it), so that the stake it bid for matters.
            returns = state.returns()
            for seat, row in bids:
                score = returns[seat] / 2.0 if seat == landlord else float(returns[seat])
                buffer.bid_x.append(row)
                buffer.bid_target.append(score)
    out = buffer.samples()
    out.episodes, out.frames = episodes, frames
    out.landlord_wins, out.thrown_in = landlord_wins, thrown_in
    return out


def _play(game: Any, seed: int, agents: list[Any]) -> bool:
    """Play the deal ``seed`` (landlord ``seed % 3``, stake 1); True if the landlord won."""
    state = game.new_deal(seed=seed, landlord=seed % 3, bid=1)
    while not state.is_over:
        seat = state.current_player
        state.apply(agents[seat].act(state.view(seat)))
    return bool(state.winner == state.landlord)


def _evaluate(nets: Mapping[str, DouZeroNet | BidNet], task: Task) -> Paired:
    """DouZero's evaluation, paired: the model in one role against greedy in the other."""
    import shedkit

    game = shedkit.make("doudizhu")
    out = Paired(d={"landlord": [], "peasants": []}, wins={"landlord": [], "peasants": []})
    for seed in task.seeds:
        landlord = seed % 3
        model = DouZeroAgent(game, seed, weights=nets)

        def field(s: int, seed: int = seed) -> GreedyDouDizhu:
            return GreedyDouDizhu(game, seed * 16 + s)

        baseline = _play(game, seed, [field(s) for s in range(3)])
        as_landlord = _play(game, seed, [model if s == landlord else field(s) for s in range(3)])
        as_peasants = _play(game, seed, [field(s) if s == landlord else model for s in range(3)])
        out.d["landlord"].append(float(as_landlord) - float(baseline))
        out.d["peasants"].append(float(baseline) - float(as_peasants))
        out.wins["landlord"].append(int(as_landlord))
        out.wins["peasants"].append(int(not as_peasants))
        out.seeds.append(seed)
    return out
