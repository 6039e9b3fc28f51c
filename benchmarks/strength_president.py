"""Strength of the ``greedy`` President bot against the ``random`` bot: average finishing place.

Every deal is played twice from the same seed (same hands, same leftover,
same dealer): once with one greedy seat among random bots, once with random
bots only, the same seat counted, so the baseline row has a reference on the
very same deals. The greedy seat rotates with the deal number so no seat is
favoured. With the ``tax`` option on, each deal starts with the tax of a
previous finishing order drawn from the deal's seed (the same in both plays),
so the bot's choice of cards to give is part of what is measured.

Places run from 1 (first out, *Presidente*) to the number of players; lower
is better, and random play averages ``(n + 1) / 2``. Intervals are 95 %
normal intervals of the mean; the last row is the paired per-deal difference
(greedy place minus baseline place). The first-place rate has a 95 % Wilson
score interval.

Run: ``python benchmarks/strength_president.py --deals 2000 --seed 1 [--players 4]
[--preset all-options]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

import shedkit
from shedkit.agents import make_agent
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed
from strength import Z95, wilson


@dataclass
class Places:
    """Finishing places (1 = first) of one arrangement's counted seat."""

    label: str
    places: list[float] = field(default_factory=list)

    def mean_interval(self) -> tuple[float, float, float]:
        """Mean and its 95 % normal interval."""
        n = len(self.places)
        mean = sum(self.places) / n
        var = sum((p - mean) ** 2 for p in self.places) / max(1, n - 1)
        half = Z95 * math.sqrt(var / n)
        return mean, mean - half, mean + half


def play(game: Any, deal_seed: int, order: list[int] | None, agents: list[Any]) -> Any:
    """One deal from ``deal_seed`` (with the tax of ``order`` when given)."""
    setup = {"previous_order": order} if order is not None else {}
    return play_deal(game.new_deal(seed=deal_seed, **setup), agents)


def measure(game: Any, deals: int, seed: int) -> tuple[Places, Places, Places, int]:
    """Greedy and baseline places on the same deals, their paired difference, greedy wins."""
    n = game.num_players
    greedy, baseline, diff = Places("greedy (1 seat)"), Places("baseline: random"), Places("")
    firsts = 0
    for i in range(deals):
        deal_seed = derive_seed(seed, "deal", i)
        me = i % n
        order: list[int] | None = None
        if game.options.tax:
            order = list(range(n))
            random.Random(derive_seed(seed, "order", i)).shuffle(order)
        places = []
        for greedy_seats in ({me}, set()):
            agents = [
                make_agent(
                    "greedy" if s in greedy_seats else "random",
                    game,
                    derive_seed(seed, "agent", i, s),
                )
                for s in range(n)
            ]
            state = play(game, deal_seed, order, agents)
            places.append(state.finished.index(me) + 1)
        greedy.places.append(places[0])
        baseline.places.append(places[1])
        diff.places.append(places[0] - places[1])
        firsts += places[0] == 1
    return greedy, baseline, diff, firsts


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print average places with intervals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=2000, help="deals per arrangement")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--players", type=int, default=4, help="players, 2 to 5")
    parser.add_argument("--preset", default="standard", help="President preset")
    args = parser.parse_args(argv)
    game = shedkit.make("president", preset=args.preset, players=args.players)
    start = time.perf_counter()
    greedy, baseline, diff, firsts = measure(game, args.deals, args.seed)
    elapsed = time.perf_counter() - start
    n = args.players
    table = Table(
        title=f"President greedy vs random, {n} players, preset {args.preset!r}, seed {args.seed}"
    )
    for col in ("arrangement", "deals", "avg place", "95% interval", "1st place rate"):
        table.add_column(col, justify="left" if col == "arrangement" else "right")
    lo, hi = wilson(firsts, args.deals)
    for row, first in ((greedy, f"{firsts / args.deals:.3f} [{lo:.3f}, {hi:.3f}]"), (baseline, "")):
        mean, low, high = row.mean_interval()
        table.add_row(row.label, str(args.deals), f"{mean:.3f}", f"[{low:.3f}, {high:.3f}]", first)
    mean, low, high = diff.mean_interval()
    table.add_row(
        "greedy - baseline (paired)", str(args.deals), f"{mean:+.3f}", f"[{low:+.3f}, {high:+.3f}]"
    )
    Console(width=120).print(table)
    print(f"random play averages place {(n + 1) / 2:.2f}; lower is better")
    played = 2 * args.deals
    print(f"{played} deals in {elapsed:.1f} s ({1000 * elapsed / played:.2f} ms/deal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
