"""How much would the search gain if it saw every hidden card? A ceiling for inference.

A search level (``hard`` by default) draws its deals uniformly among those its
view allows, or weighs them by the moves seen (``infer``). This script plays the
same level twice on duplicate deals among ``greedy`` field bots: once as it is,
and once *seeing*: every one of its playouts starts from the true deal (the
same budget, rollouts and root rule; only the drawing of the hidden cards is
replaced by the truth). The paired difference ``d`` per deal is signed as in
``strength_levels.py`` (positive: the seeing search did better), so its mean
bounds what any inference of the hidden cards could add to the level.

- **doudizhu**: the measured role (``--role``) played by the level, the other
  seats by greedy; ``d`` the difference of the wins.
- **president**: the level in seat ``deal % players``; ``d`` the plain level's
  finishing place minus the seeing one's.
- **dominoes**: the level's side (seats 0 and 2, or seat 0 with two players)
  and the sides swapped; ``d`` the mean over both seatings of the side's score
  (win 1, tie 1/2, loss 0) difference.
- **tiengow**: the level in seat ``deal % 4`` (the banker is the deal's);
  ``d`` the difference of the hand won (the last trick, TG-27). What the
  seeing search sees includes the other seats' face-down discards (TG-25).

Deal ``i`` uses the seed ``seed * 100000 + i`` and seat ``s`` the agent seed
``deal_seed * 16 + s``, so a run replays exactly. The playout budget is the
level's (or ``--playouts``), with no clock.

Run: ``python benchmarks/ceiling.py president --players 5 --deals 100 --seed 70``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import Progress

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.search import LEVELS
from shedkit.agents.search.levels import make_level

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength_levels import DEAL_STRIDE, Z95, deal_for, groups, result_of


class _Truth:
    """The true deal, set before every move; each call a fresh copy of it."""

    def __init__(self) -> None:
        self.state: Any = None

    def __call__(self) -> Any:
        return self.state.clone()


class _Seeing:
    """A game's search knowledge whose every deal is the true one (all else its own)."""

    def __init__(self, inner: Any, truth: _Truth) -> None:
        self.inner, self.truth = inner, truth
        self.paired = inner.paired

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def for_root(self, view: Any) -> _Seeing:
        """The root's knowledge (bids in Dou Di Zhu score points), seeing too."""
        return _Seeing(self.inner.for_root(view), self.truth)

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """The true deal, whatever the view."""
        return self.truth


def play_deal(job: tuple[argparse.Namespace, int]) -> float:
    """Deal ``index`` played by the level as it is and seeing: the paired ``d``."""
    run, index = job
    options = {} if run.players is None else {"players": run.players}
    game = shedkit.make(run.game, **options)
    deal = run.seed * DEAL_STRIDE + index
    diffs = []
    for group in groups(vars(run)):
        results = {}
        for seeing in (True, False):
            state, seats = deal_for(game, deal, group)
            truth = _Truth()
            agents = []
            for s in range(game.num_players):
                seed = deal * 16 + s
                if s not in seats:
                    agents.append(make_agent("greedy", game, seed))
                    continue
                agent = make_level(run.level, game, seed, budget_only=True, playouts=run.playouts)
                if seeing:
                    agent.knowledge = _Seeing(agent.knowledge, truth)
                agents.append(agent)
            while not state.is_over:
                seat = state.current_player
                truth.state = state
                state.apply(agents[seat].act(state.view(seat)))
            for agent in agents:
                close = getattr(agent, "close", None)
                if close is not None:
                    close()
            results[seeing] = result_of(game, state, seats, group)
        sign = -1.0 if run.game == "president" else 1.0
        diffs.append(sign * (results[True] - results[False]))
    return statistics.fmean(diffs)


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the mean ``d`` with its 95 % interval."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("game", choices=["doudizhu", "president", "dominoes", "tiengow"])
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--role", choices=["landlord", "peasants"], default="landlord")
    p.add_argument("--level", default="hard", help="a search level")
    p.add_argument("--playouts", type=int, default=None, help="per move (default: the level's)")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=70, help="deal i uses seed*100000+i")
    p.add_argument("--workers", type=int, default=1)
    run = p.parse_args(argv)
    spec = LEVELS.get(run.level)
    if spec is None or not spec.playouts:
        p.error(f"--level must be a search level, not {run.level!r}")
    if run.deals < 2:
        p.error("--deals must be at least 2")
    what = {
        "doudizhu": f"{run.role} win",
        "president": "place",
        "dominoes": "side score",
        "tiengow": "hand won",
    }
    print(
        f"{run.game}{f' ({run.players} players)' if run.players else ''}: {run.level} seeing "
        f"every hidden card vs {run.level}, "
        f"among greedy; d = difference of the {what[run.game]} (positive: seeing is better); "
        f"deals {run.seed} * {DEAL_STRIDE} + 0..{run.deals - 1}"
    )
    ds: list[float] = []
    with ProcessPoolExecutor(run.workers) as pool, Progress() as progress:
        task = progress.add_task("deals", total=run.deals)
        for d in pool.map(play_deal, [(run, i) for i in range(run.deals)]):
            ds.append(d)
            progress.advance(task)
    mean = statistics.fmean(ds)
    half = Z95 * statistics.stdev(ds) / math.sqrt(len(ds))
    print(f"n {len(ds)}  mean d {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
