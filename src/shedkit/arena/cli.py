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
from shedkit.core.option_flags import parse_option_values

__all__ = [
    "SCORE_LEGEND",
    "add_arena_parser",
    "legend",
    "print_forfeits",
    "print_results",
    "run_arena",
]


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
        "--agents",
        required=True,
        help="comma-separated agents, e.g. greedy,random: registered names, NAME:ARGUMENT for "
        "an agent that takes one (douzero:DIR, DouZero's networks with their weights in DIR), "
        "import paths (package.module:Class) or bot programs ('cmd:./mybot --level 3', see the "
        "bot protocol)",
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
    arena.add_argument(
        "--roles",
        action="store_true",
        help="Dou Di Zhu, two agents: pure roles only (one as landlord vs the other as both "
        "peasants, and the reverse)",
    )
    arena.add_argument(
        "--move-time",
        type=float,
        default=5.0,
        help="seconds a bot program (cmd:) has for each move, else it forfeits (default: 5)",
    )
    arena.add_argument(
        "--startup-time",
        type=float,
        default=10.0,
        help="seconds a bot program has to start and answer hello (default: 10)",
    )
    arena.add_argument(
        "--bot-logs",
        default="bot-logs",
        metavar="DIR",
        help="folder of the bot programs' stderr logs, one per process (default: bot-logs)",
    )
    arena.add_argument("--out", default=None, help="write the results as JSON to this file")
    arena.add_argument("--plot", default=None, help="draw the results to this image file")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar")
    return arena  # type: ignore[no-any-return]


#: What the mean-score column means, per game (the arena's ``score_name``).
SCORE_LEGEND = {
    "ADP": (
        "ADP: average difference in points per result at stake 1 (the landlord's "
        "returns divided by the number of peasants, so every result is +1 or -1 before doubling)"
    ),
    "average place": (
        "average place: mean finishing place per result (1 = out first; lower is better)"
    ),
    "points per hand": (
        "points per hand: mean points the side scored per result "
        "(the hand's end, plus counts in All Fives)"
    ),
    "chips per hand": (
        "chips per hand: mean chips the seat won (or, below 0, paid) per result; a hand is zero-sum"
    ),
}


def legend(results: dict[str, Any]) -> list[str]:
    """The lines under the table: what a game, a result and each column mean."""
    seatings = len(results["arrangements"])
    score = results["score_name"]
    lines = [
        f"game: one deal played under one seating of the agents; {results['deals']} deals x "
        f"{seatings} seatings = {results['games']} games.",
        "games (per row): the games the agent sat in, in that role; results: its outcomes in "
        "them, one per side it held (an agent on both sides of a game has two).",
        "WP: win proportion, wins / results, with its 95% Wilson interval.",
        SCORE_LEGEND.get(score, f"{score}: the mean score per result")
        + ", with a 95% bootstrap interval over deals.",
        "ratings: openskill Plackett-Luce, one event per game; mu is the skill estimate, "
        "sigma its uncertainty, ordinal = mu - 3 sigma (the ranking).",
    ]
    peasants = any("peasant" in by for by in results["stats"].values())
    if peasants and not results.get("roles"):
        # Mixed seatings credit both agents of a peasant side with its result, which is why
        # a random agent's peasant WP can look as good as its strong partner's.
        lines.append(
            "peasant: the two peasants win or lose together, and in most seatings the other "
            "peasant is another agent, so an agent's peasant WP is partly its partner's (a "
            "random agent beside a strong one can reach 0.5); --roles plays pure roles only, "
            "one agent in both peasant seats."
        )
    return lines


def print_results(out: Console, results: dict[str, Any]) -> None:
    """The statistics and ratings as tables, with a legend of the columns."""
    if not out.is_terminal and out.width < 100:
        # Into a file or a pipe, the tables keep every digit rather than fit 80 columns.
        out = Console(file=out.file, width=100, highlight=False)
    seatings = len(results["arrangements"])
    table = Table(
        title=(
            f"{results['game']}: {results['deals']} deals x {seatings} seatings "
            f"= {results['games']} games, seed {results['seed']}"
            + (f", {results['thrown_in']} thrown in" if results["thrown_in"] else "")
        )
    )
    columns = ("agent", "role", "games", "results", "WP", "WP 95%", results["score_name"], "95%")
    for column in columns:
        table.add_column(column, justify="left" if column in ("agent", "role") else "right")
    rows = [(a, role, row) for a, by in results["stats"].items() for role, row in by.items()]
    for agent, role, row in rows:
        if not row.get("games"):
            continue
        table.add_row(
            agent,
            role,
            str(row.get("played", "")),
            str(row["games"]),
            f"{row['wp']:.3f}",
            f"{row['wp_ci'][0]:.3f}–{row['wp_ci'][1]:.3f}",
            f"{row['score']:.3f}",
            f"{row['score_ci'][0]:.2f} to {row['score_ci'][1]:.2f}",
        )
    counted = results["games"] - results["thrown_in"]
    top = "all" if any("all" in by for by in results["stats"].values()) else None
    total = sum(
        row.get("games", 0)
        for by in results["stats"].values()
        for role, row in by.items()
        if top is None or role == top
    )
    table.add_section()
    table.add_row("total", top or "", str(counted), str(total), "", "", "", "")
    out.print(table)
    for line in legend(results):
        out.print(f"  {line}", highlight=False, markup=False)
    ratings = Table(title="openskill ratings (Plackett-Luce)")
    for column in ("entity", "mu", "sigma", "ordinal"):
        ratings.add_column(column, justify="left" if column == "entity" else "right")
    for name, r in sorted(results["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
        ratings.add_row(name, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}")
    out.print(ratings)
    print_forfeits(out, results)


def print_forfeits(out: Console, results: dict[str, Any]) -> None:
    """The games bot programs forfeited, grouped by agent and reason, with a log to read."""
    forfeits = results.get("forfeits") or []
    if not forfeits:
        return
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for f in forfeits:
        groups.setdefault((f["agent"], f["reason"]), []).append(f)
    # Lines, not a table: a reason and a log path are read (and copied) whole.
    out.print(
        f"forfeits: {len(forfeits)} game(s); each a loss of the forfeiting side at the worst "
        "score the deal allows, not rated; the program was stopped and started again",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    for (agent, reason), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        first = items[0]
        out.print(
            f"  {agent}: {len(items)} x {reason} (first: deal {first['deal']}, seat "
            f"{first['seat']}; stderr in {first['log']})",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def run_arena(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run the ``arena`` subcommand; errors are [`ShedkitError`][shedkit.ShedkitError]s."""
    from shedkit.arena import Tournament

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
        roles=args.roles,
        move_time=args.move_time,
        startup_time=args.startup_time,
        bot_logs=args.bot_logs,
    )
    total = tour.deals * tour.games_per_deal()
    results = _play(args, tour, total, err)
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


def _play(args: argparse.Namespace, tour: Any, total: int, err: Console) -> Any:
    """Run the tournament, with a progress bar on ``err`` unless ``--no-progress``."""
    from shedkit.arena import run_tournament

    if args.no_progress:
        return run_tournament(tour, workers=args.workers, backend=args.backend)
    with Progress(
        TextColumn("games (deal x seating)"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total)
        return run_tournament(
            tour,
            workers=args.workers,
            backend=args.backend,
            progress=lambda done: bar.update(task, completed=done),
        )
