"""What every game's search knowledge shares: greedy rollouts, and the deals it draws.

`GreedyRollouts` plays a playout out with the game's greedy bot and ε-random moves
and draws uniform deals; each game's knowledge extends it. The rest draws deals by
how likely they make the other seats' moves: `_Likelihood` measures that chance if
the seats play like ε-greedy bots, `_weighed` draws among uniform deals by it, and
`_metropolis` walks a chain of card swaps to the likely deals, which `_pooled` runs
from several starts. The underscored names are this package's own: the game modules
build on them, nothing outside should.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any, ClassVar

from shedkit.agents.base import make_agent
from shedkit.agents.search.knowledge.settings import SearchSettings
from shedkit.core.compiled import mypyc_attr

__all__ = ["GreedyRollouts"]


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyRollouts:
    """Rollouts by the game's greedy bot with ε-random moves; reward from ``returns()``.

    It holds the game and its `SearchSettings` (``defaults`` where none are given);
    those two are all it is rebuilt from, in a worker process or for another root.
    """

    #: The settings a knowledge of this class starts from.
    defaults: ClassVar[SearchSettings] = SearchSettings()
    #: The settings a run may change (`knowledge_for`) beside ``epsilon``.
    names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Any, settings: SearchSettings | None = None) -> None:
        self.game = game
        self.settings: SearchSettings = self.defaults if settings is None else settings
        self.paired = self.settings.paired
        self.greedy = make_agent("greedy", game)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Rebuilt from its game and settings (the greedy bot is made anew): compiled
        # classes cannot be unpickled by filling in the attributes of an empty object.
        return type(self), (self.game, self.settings)

    def reward(self, state: Any, seat: int) -> float:
        """The seat's own deal score (already a team's score where the game has teams)."""
        return float(state.returns()[seat])

    def rollout_move(self, state: Any, rng: random.Random) -> Any:
        """The greedy move, or with probability ε a uniformly random legal one."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if rng.random() < self.settings.epsilon:
            return moves[rng.randrange(len(moves))]
        return self.greedy.act(state.view(state.current_player))

    def exact(self, state: Any, seat: int) -> float | None:
        """No exact solver for this game."""
        return None

    def prior_move(self, view: Any) -> Any:
        """The greedy bot's move: the search must beat it clearly to play another."""
        return self.greedy.act(view)

    def root_moves(self, view: Any) -> list[Any]:
        """The moves the search tries at the root: every legal move."""
        return list(view.legal_moves)

    def for_root(self, view: Any) -> GreedyRollouts:
        """The knowledge that scores a search from ``view``: this one."""
        return self

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals consistent with ``view``, the unseen cards shuffled uniformly."""
        return _Uniform(self.game, view, rng)


def _scored(score: float, objective: str) -> float:
    """``score`` itself under "adp"; under "wp" 1 for a win, -1 for a loss and 0 for a tie."""
    if objective == "adp":
        return score
    return 1.0 if score > 0 else -1.0 if score < 0 else 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class _Uniform:
    """Calls ``game.determinize(view, rng)``: one uniformly random consistent deal a call."""

    def __init__(self, game: Any, view: Any, rng: random.Random) -> None:
        self.game, self.view, self.rng = game, view, rng

    def __call__(self) -> Any:
        return self.game.determinize(self.view, self.rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class _Weighted:
    """Draws one of ``deals`` in proportion to its weight, a copy each call."""

    def __init__(self, deals: list[Any], weights: list[float], rng: random.Random) -> None:
        self.deals, self.weights, self.rng = deals, weights, rng
        self.cumulative: list[float] = list(itertools.accumulate(weights))
        self.total = self.cumulative[-1]

    def __call__(self) -> Any:
        return self.rng.choices(self.deals, cum_weights=self.cumulative)[0].clone()


@mypyc_attr(allow_interpreted_subclasses=True)
class _Likelihood:
    """The log-likelihood of the other seats' moves under ε-greedy play, summed as replayed.

    A seat plays the greedy move with probability 1 − ε and any legal move with ε; the
    seat searching (``seat``) and forced moves say nothing.
    """

    def __init__(self, greedy: Any, seat: int, epsilon: float) -> None:
        self.greedy, self.seat, self.epsilon = greedy, seat, epsilon
        self.log = 0.0

    def __call__(self, state: Any, move: Any) -> None:
        player = state.current_player
        if player == self.seat:
            return
        legal = state.legal_moves()
        if len(legal) < 2:
            return
        guess = self.greedy.act(state.view(player))
        chance = self.epsilon / len(legal) + (1.0 - self.epsilon if guess == move else 0.0)
        self.log += math.log(chance)


def _weighed(deals: list[Any], logs: list[float], rng: random.Random) -> _Weighted:
    """Draws among ``deals`` in proportion to their likelihoods (``logs``, natural logs)."""
    top = max(logs)
    return _Weighted(deals, [math.exp(x - top) for x in logs], rng)


def _metropolis(
    free: dict[int, list[int]],
    fits: Callable[[int, int], bool] | None,
    build: Callable[[dict[int, list[int]]], tuple[Any, float] | None],
    steps: int,
    rng: random.Random,
) -> _Weighted | None:
    """The deals a Metropolis chain visits, to draw among (None: no chain to run).

    ``free`` maps each other seat to the cards it holds that the searching seat
    cannot place (a uniform draw to start from). A step swaps one such card between
    two seats, where ``fits(seat, card)`` allows both (None: any card may go to any
    of them), and keeps the swap with the
    chance min(1, L'/L); ``build(free)`` makes the deal and its log-likelihood L
    (None: no deal can have those hands). A swap is its own inverse and keeps the
    number of cards per seat, so the proposal is symmetric and the chain's deals
    come in proportion to their likelihood. The first third of the steps is
    burn-in; each later step counts its deal once.
    """
    seats = [s for s in sorted(free) if free[s]]
    first = build(free)
    if len(seats) < 2 or first is None:
        return None
    deal, log = first
    burn = steps // 3
    kept: list[Any] = []
    counts: list[float] = []
    for step in range(steps):
        a, b = rng.sample(seats, 2)
        i = rng.randrange(len(free[a]))
        j = rng.randrange(len(free[b]))
        x, y = free[a][i], free[b][j]
        moved = False
        if fits is None or (fits(a, y) and fits(b, x)):
            free[a][i], free[b][j] = y, x
            made = build(free)
            if made is not None and (made[1] >= log or rng.random() < math.exp(made[1] - log)):
                deal, log = made
                moved = True
            else:
                free[a][i], free[b][j] = x, y
        if step < burn:
            continue
        if kept and not moved:
            counts[-1] += 1.0
        else:
            kept.append(deal)
            counts.append(1.0)
    if not kept:
        kept, counts = [deal], [1.0]
    return _Weighted(kept, counts, rng)


#: A chain's start: the free cards of each other seat in a uniform deal, and the
#: function that makes a deal and its log-likelihood from such cards (`_metropolis`).
_Start = tuple[dict[int, list[int]], Callable[[dict[int, list[int]]], tuple[Any, float] | None]]


def _pooled(
    start: Callable[[], _Start],
    fits: Callable[[int, int], bool] | None,
    steps: int,
    chains: int,
    rng: random.Random,
) -> _Weighted | None:
    """The deals of ``chains`` Metropolis chains, each from its own ``start()``, as one draw.

    The chains share the ``steps``. One chain stays near the uniform deal it started
    from, so its deals agree with each other more than with the true one; chains from
    several starts keep the deals as varied as the moves seen allow. With one chain
    this is `_metropolis` itself, drawing the same random numbers.
    """
    deals: list[Any] = []
    weights: list[float] = []
    for chain in range(chains):
        free, build = start()
        share = steps // chains + (chain < steps % chains)
        drawn = _metropolis(free, fits, build, share, rng)
        if drawn is None:
            return None
        deals += drawn.deals
        weights += drawn.weights
    return _Weighted(deals, weights, rng)
