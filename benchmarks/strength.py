"""Strength of the ``greedy`` Dou Di Zhu bot against the ``random`` bot, per role.

Three arrangements are played on every deal:

- **landlord**: greedy landlord, random peasants;
- **peasants**: random landlord, greedy peasants;
- **baseline**: all random, the landlord's side counted (random peasants win
  the rest), so the greedy rows have a reference on the very same deals.

Roles are forced with ``new_deal(seed=..., landlord=seat, bid=1)`` rather than
left to the auction, for three reasons: the random bot bids at random, so an
auction would mostly measure whom it hands the landlord to, not how well the
greedy bot plays; forcing gives both roles the same number of deals; and both
arrangements replay the *same* deals (same hands, same kitty, same landlord
seat), so the two rows differ only in who plays which side. The landlord seat
rotates with the deal number so no seat order is favoured. ``--auction`` adds
rows where the auction decides (one greedy seat, rotating, among random bots),
counted per role the greedy bot ended up in ("greedy L": it became landlord,
"greedy P": it was a peasant with a random partner); they check the bidding.

A win is a deal the greedy side won. Points are per deal from the greedy
side's point of view, at stake 1: the landlord's return in the first row, one
peasant's return in the second (the side's total is that times the number of
peasants). Bombs and spring double it as in the rules. Intervals are 95 %
Wilson score intervals.

Run: ``python benchmarks/strength.py --deals 2000 --seed 1 [--preset four-player]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import Progress, TaskID
from rich.table import Table

import shedkit
from shedkit.agents import make_agent
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Wins and points of the greedy side in one role."""

    role: str
    scored: bool = True
    deals: int = 0
    wins: int = 0
    points: int = 0

    def add(self, won: bool, points: int) -> None:
        """Count one deal."""
        self.deals += 1
        self.wins += won
        self.points += points


def agents_for(game: Any, greedy_seats: set[int], seed: int, deal: int) -> list[Any]:
    """One agent per seat, each with its own derived seed."""
    return [
        make_agent(
            "greedy" if s in greedy_seats else "random",
            game,
            derive_seed(seed, "agent", deal, s),
        )
        for s in range(game.num_players)
    ]


def forced(game: Any, deals: int, seed: int, step: Callable[[], None]) -> Iterator[Tally]:
    """Both arrangements on the same deals, roles forced; yields the landlord and peasant rows."""
    n = game.num_players
    as_landlord, as_peasants = Tally("greedy landlord"), Tally("greedy peasants")
    baseline = Tally("baseline: random landlord")
    for i in range(deals):
        deal_seed = derive_seed(seed, "deal", i)
        landlord = i % n
        peasants = {s for s in range(n) if s != landlord}
        for tally, greedy, side in (
            (as_landlord, {landlord}, landlord),
            (as_peasants, peasants, min(peasants)),
            (baseline, set(), landlord),
        ):
            state = game.new_deal(seed=deal_seed, landlord=landlord, bid=1)
            play_deal(state, agents_for(game, greedy, seed, i))
            points = state.returns()[side]
            tally.add(points > 0, points)
        step()
    yield as_landlord
    yield as_peasants
    yield baseline


def auction(game: Any, deals: int, seed: int, step: Callable[[], None]) -> Iterator[Tally]:
    """One greedy seat among random bots, the auction deciding; rows per role it got."""
    n = game.num_players
    rows = {
        "landlord": Tally("auction: greedy L"),
        "peasant": Tally("auction: greedy P"),
    }
    thrown = Tally("auction: thrown in", scored=False)
    for i in range(deals):
        me = i % n
        state = game.new_deal(seed=derive_seed(seed, "deal", i))
        play_deal(state, agents_for(game, {me}, seed, i))
        if state.thrown_in:
            thrown.add(False, 0)
        else:
            points = state.returns()[me]
            rows["landlord" if state.landlord == me else "peasant"].add(points > 0, points)
        step()
    yield rows["landlord"]
    yield rows["peasant"]
    yield thrown


def main(argv: list[str] | None = None) -> int:
    """Play the arrangements and print a table of win rates and points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=2000, help="deals per arrangement")
    parser.add_argument("--seed", type=int, default=1, help="match seed (deals and bots)")
    parser.add_argument("--preset", default="standard", help="Dou Di Zhu preset")
    parser.add_argument("--auction", action="store_true", help="also let the auction decide")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    game = shedkit.make("doudizhu", preset=args.preset)
    err = Console(stderr=True)
    rows: list[Tally] = []
    start = time.perf_counter()
    with Progress(console=err, disable=args.quiet, transient=True) as progress:
        runs = [("roles forced", forced)] + ([("auction", auction)] if args.auction else [])
        for label, run in runs:
            task = progress.add_task(label, total=args.deals)

            def step(task: TaskID = task) -> None:
                progress.advance(task)

            rows += run(game, args.deals, args.seed, step)
    elapsed = time.perf_counter() - start
    table = Table(title=f"greedy vs random, preset {args.preset!r}, seed {args.seed}")
    for col in ("arrangement", "deals", "wins", "win rate", "95% Wilson", "avg points"):
        table.add_column(col, justify="left" if col == "arrangement" else "right")
    for row in rows:
        if not row.scored:
            table.add_row(row.role, str(row.deals), "", "", "", "")
            continue
        lo, hi = wilson(row.wins, row.deals)
        rate = row.wins / row.deals if row.deals else 0.0
        avg = row.points / row.deals if row.deals else 0.0
        table.add_row(
            row.role,
            str(row.deals),
            str(row.wins),
            f"{rate:.3f}",
            f"[{lo:.3f}, {hi:.3f}]",
            f"{avg:+.3f}",
        )
    Console().print(table)
    played = 3 * args.deals + (args.deals if args.auction else 0)
    print(f"{played} deals in {elapsed:.1f} s ({1000 * elapsed / played:.2f} ms/deal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
