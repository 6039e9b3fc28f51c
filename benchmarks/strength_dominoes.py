"""Strength of the ``greedy`` Dominoes bot against the ``random`` bot, per variant.

For every hand two arrangements are played on the very same deal:

- **greedy**: one greedy seat (with partners, a greedy team) among random bots;
- **baseline**: all random, the same seat (or team) counted.

The greedy seat rotates with the hand number (``hand % players``; with
partners the team of that seat), so no seat order is favoured. A hand is
*won* by the side that went out or had the fewest pips (DOM-09, DOM-10,
DOM-24); void hands (a blocked tie) count as not won. The fair share of wins
is one in ``players`` (one in two for teams). Points are the counted side's
score per hand ("pts"). Intervals are 95 % Wilson score intervals of the win
rate ("won": the share of hands won).

Run: ``python benchmarks/strength_dominoes.py --hands 2000 --seed 1``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

import shedkit
from shedkit.agents import make_agent
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed
from strength import wilson

#: (label, options) of the arrangements measured.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("2p draw", {"players": 2}),
    ("3p draw", {"players": 3}),
    ("4p block teams", {"players": 4, "variant": "block"}),
    ("2p fives", {"players": 2, "variant": "fives"}),
    ("4p fives teams", {"players": 4, "variant": "fives"}),
]


def measure(options: dict[str, Any], hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` hands both ways; return wins and points of the counted side."""
    game = shedkit.make("dominoes", **options)
    n = game.num_players
    out = {"hands": hands, "greedy_wins": 0, "base_wins": 0, "greedy_pts": 0, "base_pts": 0}
    for i in range(hands):
        seat = i % n
        side = game.side_of[seat]
        deal_seed = derive_seed(seed, "deal", i)
        for key, greedy in (("greedy", True), ("base", False)):
            agents = [
                make_agent(
                    "greedy" if greedy and game.side_of[s] == side else "random",
                    game,
                    derive_seed(seed, "agent", i, s),
                )
                for s in range(n)
            ]
            state = play_deal(game.new_deal(seed=deal_seed), agents)
            out[f"{key}_wins"] += state.winner == side
            out[f"{key}_pts"] += state.returns()[seat]
    out["share"] = 1 / game.num_sides
    return out


def main(argv: list[str] | None = None) -> int:
    """Play every arrangement and print a table of win rates and points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=2000, help="hands per arrangement")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    args = parser.parse_args(argv)
    table = Table(title=f"Dominoes: greedy vs random, {args.hands} hands each, seed {args.seed}")
    for col in (
        "game",
        "fair",
        "greedy won",
        "95% CI",
        "random won",
        "95% CI ",
        "greedy pts",
        "random pts",
    ):
        table.add_column(col, justify="left" if col == "game" else "right")
    start = time.perf_counter()
    for label, options in CONFIGS:
        r = measure(options, args.hands, args.seed)
        n = r["hands"]
        g_lo, g_hi = wilson(r["greedy_wins"], n)
        b_lo, b_hi = wilson(r["base_wins"], n)
        table.add_row(
            label,
            f"{r['share']:.3f}",
            f"{r['greedy_wins'] / n:.3f}",
            f"[{g_lo:.3f}, {g_hi:.3f}]",
            f"{r['base_wins'] / n:.3f}",
            f"[{b_lo:.3f}, {b_hi:.3f}]",
            f"{r['greedy_pts'] / n:.2f}",
            f"{r['base_pts'] / n:.2f}",
        )
    Console(width=max(130, Console().width)).print(table)
    print(f"{2 * args.hands * len(CONFIGS)} hands in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
