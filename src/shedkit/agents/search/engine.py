"""Determinized flat Monte Carlo search with UCB1 at the root (PIMC).

Each playout samples a full deal consistent with the seat's view
(``game.determinize``), applies one root move chosen by UCB1, then plays the
deal out with the game's rollout policy (greedy with ε-random moves) and scores
it with the game's reward (a team's reward for partners). A budget in playouts
makes the choice reproducible for a seed; a budget in seconds makes it fit a
clock. Root parallelism splits the playouts over processes and adds the
statistics.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from shedkit.core.compiled import mypyc_attr

__all__ = ["EpsilonGreedy", "GameKnowledge", "SearchAgent", "run_playouts"]


class GameKnowledge(Protocol):
    """What the engine needs from one game: reward, rollout, optional exact endgame."""

    def reward(self, state: Any, seat: int) -> float:
        """The final deal's value for ``seat``'s side (higher is better)."""
        ...

    def rollout_move(self, state: Any, rng: random.Random) -> Any:
        """The rollout policy's move for the current player of ``state``."""
        ...

    def exact(self, state: Any, seat: int) -> float | None:
        """The exact value for ``seat`` of a small perfect-information endgame, else None."""
        ...

    def prior_move(self, view: Any) -> Any:
        """The move the search keeps unless another is clearly better (None: no prior)."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)
class EpsilonGreedy:
    """A greedy agent that plays a uniformly random legal move with probability ``epsilon``."""

    def __init__(self, greedy: Any, epsilon: float, seed: int = 0, name: str = "easy") -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        self.greedy = greedy
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self.name = name

    def act(self, view: Any) -> Any:
        """A random legal move with probability ε, else the greedy move."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if len(moves) > 1 and self.rng.random() < self.epsilon:
            return moves[self.rng.randrange(len(moves))]
        return self.greedy.act(view)


@dataclass
class _Stats:
    visits: list[int]
    totals: list[float]
    squares: list[float]


def run_playouts(
    game: Any,
    knowledge: GameKnowledge,
    view: Any,
    playouts: int,
    seed: int,
    deadline: float | None = None,
    exploration: float = 1.0,
) -> tuple[list[int], list[float], list[float]]:
    """Run up to ``playouts`` playouts; per root move, visits, reward sums and square sums.

    Stops early at ``deadline`` (a ``time.perf_counter`` value) if one is given.
    """
    rng = random.Random(seed)
    moves = view.legal_moves
    seat = view.seat
    k = len(moves)
    stats = _Stats([0] * k, [0.0] * k, [0.0] * k)
    low, high = math.inf, -math.inf
    for done in range(playouts):
        if deadline is not None and done >= k and time.perf_counter() >= deadline:
            break
        if done < k:
            i = done
        else:
            spread = (high - low) if high > low else 1.0
            log_n = math.log(done)
            i = max(
                range(k),
                key=lambda j: (
                    stats.totals[j] / stats.visits[j]
                    + exploration * spread * math.sqrt(log_n / stats.visits[j])
                ),
            )
        state = game.determinize(view, rng)
        state.apply(moves[i])
        value = _play_out(state, knowledge, seat, rng)
        stats.visits[i] += 1
        stats.totals[i] += value
        stats.squares[i] += value * value
        low, high = min(low, value), max(high, value)
    return stats.visits, stats.totals, stats.squares


def _play_out(state: Any, knowledge: GameKnowledge, seat: int, rng: random.Random) -> float:
    while not state.is_over:
        exact = knowledge.exact(state, seat)
        if exact is not None:
            return exact
        state.apply(knowledge.rollout_move(state, rng))
    return knowledge.reward(state, seat)


def _worker(
    args: tuple[Any, Any, Any, int, int, float | None, float],
) -> tuple[list[int], list[float], list[float]]:
    game, knowledge, view, playouts, seed, seconds, exploration = args
    deadline = None if seconds is None else time.perf_counter() + seconds
    return run_playouts(game, knowledge, view, playouts, seed, deadline, exploration)


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchAgent:
    """Picks the root move with the best mean reward over determinized playouts.

    ``playouts`` is the budget per move (reproducible for a seed); ``seconds``,
    if set, also stops the search at that time. ``workers`` > 1 splits the
    budget over that many processes (root parallelism).
    """

    #: A move takes up to ``seconds``: servers compute it away from their event loop.
    thinks_long: ClassVar[bool] = True

    def __init__(
        self,
        game: Any,
        knowledge: GameKnowledge,
        seed: int = 0,
        playouts: int = 200,
        seconds: float | None = None,
        workers: int = 1,
        exploration: float = 0.7,
        confidence: float = 1.0,
        name: str = "search",
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts!r}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers!r}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds!r}")
        self.game = game
        self.knowledge = knowledge
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds
        self.workers = workers
        self.exploration = exploration
        self.confidence = confidence
        self.name = name
        self._pool: ProcessPoolExecutor | None = None

    def act(self, view: Any) -> Any:
        """The legal move with the best mean playout reward (a forced move at once)."""
        moves: Sequence[Any] = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        seed = self.rng.getrandbits(63)
        if len(moves) == 1:
            return moves[0]
        visits, totals, squares = self._search(view, seed)
        best = max(range(len(moves)), key=lambda i: (totals[i] / max(visits[i], 1), visits[i]))
        prior = self.knowledge.prior_move(view)
        if prior is None or prior not in moves:
            return moves[best]
        # The greedy move stands unless the search shows another one better by
        # more than the noise of the playouts (a one-sided z test on the means).
        p = moves.index(prior)
        if p == best or _margin(visits, totals, squares, best, p) <= self.confidence:
            return prior
        return moves[best]

    def _search(self, view: Any, seed: int) -> tuple[list[int], list[float], list[float]]:
        if self.workers == 1:
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
            return run_playouts(
                self.game, self.knowledge, view, self.playouts, seed, deadline, self.exploration
            )
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        share = -(-self.playouts // self.workers)
        jobs = [
            (self.game, self.knowledge, view, share, seed + w, self.seconds, self.exploration)
            for w in range(self.workers)
        ]
        k = len(view.legal_moves)
        visits, totals, squares = [0] * k, [0.0] * k, [0.0] * k
        for v, t, q in self._pool.map(_worker, jobs):
            for i in range(k):
                visits[i] += v[i]
                totals[i] += t[i]
                squares[i] += q[i]
        return visits, totals, squares

    def close(self) -> None:
        """Shut the worker processes down (they are started on the first move)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def _margin(
    visits: list[int], totals: list[float], squares: list[float], best: int, prior: int
) -> float:
    """How many standard errors the best mean lies above the prior move's mean."""
    if visits[prior] < 2 or visits[best] < 2:
        return math.inf if visits[prior] == 0 else 0.0

    def mean_var(i: int) -> tuple[float, float]:
        n = visits[i]
        mean = totals[i] / n
        var = max(squares[i] / n - mean * mean, 0.0) * n / (n - 1)
        return mean, var / n

    mb, vb = mean_var(best)
    mp, vp = mean_var(prior)
    spread = math.sqrt(vb + vp)
    if spread == 0.0:
        return math.inf if mb > mp else 0.0
    return (mb - mp) / spread
