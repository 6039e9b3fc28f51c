"""``shedkit arena GAME --agents a,b,c --deals N …``: a duplicate tournament from the shell."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from shedkit.core.errors import OptionError

__all__ = ["add_arena_parser", "print_results", "run_arena"]


def add_arena_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` subcommand to ``shedkit``'s subparsers."""
    arena = sub.add_parser(
        "arena",
        help="play agents against each other and measure them",
        description=(
            "Duplicate tournament: every deal is played under every arrangement of the agents "
            "in the seats (in Dou Di Zhu the landlord seat rotates with the deal, stake 1). "
            "Prints win proportions with 95% Wilson intervals, mean scores with 95% "
            "bootstrap intervals and openskill ratings."
        ),
    )
    arena.add_argument("game", help="the game: doudizhu, president, dominoes")
    arena.add_argument(
        "--agents", required=True, help="comma-separated agent names, e.g. greedy,random"
    )
    arena.add_argument("--deals", type=int, default=100, help="deals (default: 100)")
    arena.add_argument("--workers", type=int, default=1, help="parallel workers (default: 1)")
    arena.add_argument(
        "--backend",
        default="processes",
        choices=("processes", "ray"),
        help="local processes (default) or Ray (RAY_ADDRESS, else a local Ray)",
    )
    arena.add_argument("--seed", type=int, default=0, help="tournament seed (default: 0)")
    arena.add_argument("--preset", default="standard", help="rules preset (default: standard)")
    arena.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules option, e.g. players=5 (repeatable)",
    )
    arena.add_argument(
        "--auction", action="store_true", help="Dou Di Zhu: the auction decides the landlord"
    )
    arena.add_argument("--out", default=None, help="write the results as JSON to this file")
    arena.add_argument("--plot", default=None, help="draw the results to this image file")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar")
    return arena  # type: ignore[no-any-return]


def print_results(out: Console, results: dict[str, Any]) -> None:
    """The statistics and ratings as tables."""
    if not out.is_terminal and out.width < 100:
        # Into a file or a pipe, the tables keep every digit rather than fit 80 columns.
        out = Console(file=out.file, width=100, highlight=False)
    table = Table(
        title=(
            f"{results['game']}: {results['deals']} deals x {len(results['arrangements'])} "
            f"arrangements = {results['games']} games, seed {results['seed']}"
            + (f", {results['thrown_in']} thrown in" if results["thrown_in"] else "")
        )
    )
    for column in ("agent", "role", "games", "WP", "WP 95%", results["score_name"], "95%"):
        table.add_column(column, justify="left" if column in ("agent", "role") else "right")
    for agent, by_role in results["stats"].items():
        for role, row in by_role.items():
            if not row.get("games"):
                continue
            table.add_row(
                agent,
                role,
                str(row["games"]),
                f"{row['wp']:.3f}",
                f"{row['wp_ci'][0]:.3f}–{row['wp_ci'][1]:.3f}",
                f"{row['score']:.3f}",
                f"{row['score_ci'][0]:.2f} to {row['score_ci'][1]:.2f}",
            )
    out.print(table)
    ratings = Table(title="openskill ratings (Plackett-Luce)")
    for column in ("entity", "mu", "sigma", "ordinal"):
        ratings.add_column(column, justify="left" if column == "entity" else "right")
    for name, r in sorted(results["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
        ratings.add_row(name, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}")
    out.print(ratings)


def run_arena(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run the ``arena`` subcommand; errors are :class:`~shedkit.ShedkitError`s."""
    from shedkit.arena import Tournament, run_tournament
    from shedkit.cli.main import parse_option_values

    try:
        import numpy  # noqa: F401
        import openskill  # noqa: F401
        import scipy  # noqa: F401
    except ImportError as error:
        raise OptionError(
            f"the arena needs its extra: pip install 'shedkit[arena]' ({error})"
        ) from error
    agents = tuple(a.strip() for a in args.agents.split(",") if a.strip())
    tour = Tournament(
        game=args.game,
        agents=agents,
        deals=args.deals,
        seed=args.seed,
        preset=args.preset,
        options=parse_option_values(args.option),
        auction=args.auction,
    )
    total = tour.deals * len(tour.arrangements())
    if args.no_progress:
        results = run_tournament(tour, workers=args.workers, backend=args.backend)
    else:
        with Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=total)
            results = run_tournament(
                tour,
                workers=args.workers,
                backend=args.backend,
                progress=lambda done: bar.update(task, completed=done),
            )
    print_results(out, results)
    if args.out:
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        out.print(f"results written to {path}")
    if args.plot:
        from shedkit.arena.plot import plot_results

        out.print(f"plot written to {plot_results(results, args.plot)}")
    return 0
