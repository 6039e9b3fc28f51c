"""Determinized flat Monte Carlo search at the root (PIMC).

Each playout samples a full deal consistent with the seat's view (the
knowledge's ``determinizer``: ``game.determinize``, or deals weighed by how
likely they make what the other seats did), applies one root move, then plays the deal out with
the game's rollout policy (greedy with ε-random moves) and scores it with the
game's reward (a team's reward for partners). The root move is chosen by UCB1,
or, where the game's knowledge asks for *paired* playouts, every root move is
played out on the same deals with the same rollout dice (common random
numbers, as GIB evaluated bridge plays), so that two moves are compared on
their difference deal by deal, which is far less noisy than two separate
means. A budget in playouts makes the choice reproducible for a seed; a budget
in seconds makes it fit a clock. Root parallelism splits the playouts over
processes and adds the statistics.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol

from shedkit.core.compiled import mypyc_attr

__all__ = ["EpsilonGreedy", "GameKnowledge", "SearchAgent", "run_paired", "run_playouts"]


class GameKnowledge(Protocol):
    """What the engine needs from one game: reward, rollout, optional exact endgame."""

    #: Whether the root moves are compared on the same deals (`run_paired`).
    paired: bool

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

    def root_moves(self, view: Any) -> list[Any]:
        """The legal moves worth searching at the root (at least one)."""
        ...

    def for_root(self, view: Any) -> GameKnowledge:
        """The knowledge that scores a search from ``view`` (itself, or a variant of it)."""
        ...

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """What draws one full deal consistent with ``view`` per call (a fresh state)."""
        ...


#: The fewest shared deals a paired search wants per root move; with more moves than
#: half the budget allows, UCB1 narrows them first.
PAIRED_DEALS: Final = 8


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
    knowledge: GameKnowledge,
    view: Any,
    playouts: int,
    seed: int,
    deadline: float | None = None,
    exploration: float = 1.0,
    moves: Sequence[Any] | None = None,
) -> tuple[list[int], list[float], list[float]]:
    """Run up to ``playouts`` playouts; per root move, visits, reward sums and square sums.

    ``moves`` are the root moves tried (all legal moves by default). Stops early at
    ``deadline`` (a ``time.perf_counter`` value) if one is given.
    """
    rng = random.Random(seed)
    if moves is None:
        moves = view.legal_moves
    seat = view.seat
    k = len(moves)
    stats = _Stats([0] * k, [0.0] * k, [0.0] * k)
    low, high = math.inf, -math.inf
    draw = knowledge.determinizer(view, rng)
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
        state = draw()
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


def run_paired(
    knowledge: GameKnowledge,
    view: Any,
    playouts: int,
    seed: int,
    deadline: float | None = None,
    moves: Sequence[Any] | None = None,
) -> list[list[float]]:
    """Play every root move out on the same deals; per move, its value on each deal.

    ``playouts // len(moves)`` deals (at least one) are sampled; each root move is
    played out on each with the same rollout seed, so ``values[i][r] - values[j][r]``
    compares moves ``i`` and ``j`` on deal ``r`` alone. Stops early at ``deadline``.
    """
    rng = random.Random(seed)
    if moves is None:
        moves = view.legal_moves
    seat = view.seat
    values: list[list[float]] = [[] for _ in moves]
    draw = knowledge.determinizer(view, rng)
    for _ in range(max(1, playouts // len(moves))):
        if deadline is not None and values[0] and time.perf_counter() >= deadline:
            break
        deal = draw()
        dice = rng.getrandbits(63)
        for i, move in enumerate(moves):
            state = deal.clone()
            state.apply(move)
            values[i].append(_play_out(state, knowledge, seat, random.Random(dice)))
    return values


def _worker(
    args: tuple[Any, Any, int, int, float | None, float, list[Any]],
) -> tuple[list[int], list[float], list[float]]:
    knowledge, view, playouts, seed, seconds, exploration, moves = args
    deadline = None if seconds is None else time.perf_counter() + seconds
    return run_playouts(knowledge, view, playouts, seed, deadline, exploration, moves)


def _paired_worker(
    args: tuple[Any, Any, int, int, float | None, list[Any]],
) -> list[list[float]]:
    knowledge, view, playouts, seed, seconds, moves = args
    deadline = None if seconds is None else time.perf_counter() + seconds
    return run_paired(knowledge, view, playouts, seed, deadline, moves)


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
        #: Playouts the last `act` ran (0 for a forced move): below ``playouts`` when the
        #: clock stopped the search first.
        self.last_playouts = 0
        self._pool: ProcessPoolExecutor | None = None

    def act(self, view: Any) -> Any:
        """The legal move with the best mean playout reward (a forced move at once)."""
        legal: Sequence[Any] = view.legal_moves
        if not legal:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        seed = self.rng.getrandbits(63)
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        prior = self.knowledge.prior_move(view)
        moves = self.knowledge.root_moves(view)
        if prior is not None and prior in legal and prior not in moves:
            moves.append(prior)
        if len(moves) == 1:
            return moves[0]
        knowledge = self.knowledge.for_root(view)
        if knowledge.paired:
            return self._act_paired(view, seed, moves, prior, knowledge)
        visits, totals, squares = self._search(view, seed, moves, knowledge)
        self.last_playouts = sum(visits)
        best = max(range(len(moves)), key=lambda i: (totals[i] / max(visits[i], 1), visits[i]))
        if prior is None or prior not in moves:
            return moves[best]
        # The greedy move stands unless the search shows another one better by
        # more than the noise of the playouts (a one-sided z test on the means).
        p = moves.index(prior)
        if p == best or _margin(visits, totals, squares, best, p) <= self.confidence:
            return prior
        return moves[best]

    def _search(
        self,
        view: Any,
        seed: int,
        moves: list[Any],
        knowledge: GameKnowledge | None = None,
        budget: int | None = None,
    ) -> tuple[list[int], list[float], list[float]]:
        if knowledge is None:
            knowledge = self.knowledge
        playouts = self.playouts if budget is None else budget
        if self.workers == 1:
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
            return run_playouts(
                knowledge,
                view,
                playouts,
                seed,
                deadline,
                self.exploration,
                moves,
            )
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        share = -(-playouts // self.workers)
        jobs = [
            (
                knowledge,
                view,
                share,
                seed + w,
                self.seconds,
                self.exploration,
                moves,
            )
            for w in range(self.workers)
        ]
        k = len(moves)
        visits, totals, squares = [0] * k, [0.0] * k, [0.0] * k
        for v, t, q in self._pool.map(_worker, jobs):
            for i in range(k):
                visits[i] += v[i]
                totals[i] += t[i]
                squares[i] += q[i]
        return visits, totals, squares

    def _act_paired(
        self, view: Any, seed: int, moves: list[Any], prior: Any, knowledge: GameKnowledge
    ) -> Any:
        """Choose by paired playouts; a prior stands unless the paired test says otherwise."""
        budget = self.playouts
        keep = max(2, budget // (2 * PAIRED_DEALS))
        if len(moves) > keep:
            # Too many moves for enough shared deals each: half the budget ranks them by
            # UCB1 first, and the best few (and the prior) go on to the paired test.
            visits, totals, _ = self._search(view, seed, moves, knowledge, budget // 2)
            self.last_playouts = sum(visits)
            order = sorted(range(len(moves)), key=lambda i: -totals[i] / max(visits[i], 1))
            top = [moves[i] for i in order[:keep]]
            if prior is not None and prior in moves and prior not in top:
                top.append(prior)
            moves, budget = top, budget - budget // 2
        values = self._search_paired(view, seed + 1, moves, knowledge, budget)
        self.last_playouts += sum(len(v) for v in values)
        means = [math.fsum(v) / len(v) for v in values]
        best = max(range(len(moves)), key=lambda i: means[i])
        if prior is None or prior not in moves:
            return moves[best]
        p = moves.index(prior)
        if p == best or _paired_margin(values[best], values[p]) <= self.confidence:
            return prior
        return moves[best]

    def _search_paired(
        self, view: Any, seed: int, moves: list[Any], knowledge: GameKnowledge, budget: int
    ) -> list[list[float]]:
        if self.workers == 1:
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
            return run_paired(knowledge, view, budget, seed, deadline, moves)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        share = -(-budget // self.workers)
        jobs = [
            (knowledge, view, share, seed + w, self.seconds, moves) for w in range(self.workers)
        ]
        values: list[list[float]] = [[] for _ in moves]
        for part in self._pool.map(_paired_worker, jobs):
            for i, v in enumerate(part):
                values[i].extend(v)
        return values

    def close(self) -> None:
        """Shut the worker processes down (they are started on the first move)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def _paired_margin(best: list[float], prior: list[float]) -> float:
    """How many standard errors the best move's mean lies above the prior's, deal by deal."""
    n = len(best)
    if n < 2:
        return 0.0
    diffs = [b - p for b, p in zip(best, prior, strict=True)]
    mean = math.fsum(diffs) / n
    var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / n)


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
