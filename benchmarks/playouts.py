"""Playouts per second of the search bots (``hard``, ``expert``), per game.

The search runs on a fixed set of seeded decisions of each game's standard
preset (views with two legal moves or more, taken along deals played by
greedy with random moves), with a fixed budget per decision and a fixed seed,
so every run does the very same playouts. A figure is the median of
``--repeats`` timed repetitions, with their min-max, on one pinned core; the
machine, the build (pure or compiled) and the load average are printed first.
The time is the process's CPU time: on a shared machine it is far steadier
than the wall clock, and on an idle one the two agree.
``--profile`` runs one repetition per game under ``cProfile`` and prints the
functions that take the most time.

Run: ``python benchmarks/playouts.py [--repeats 5] [--playouts 50] [--profile]``;
run it with the compiled build's interpreter (``.venv-compiled/bin/python``)
for the compiled figures.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import shedkit
from machine import load, machine
from shedkit.agents import make_agent
from shedkit.agents.search.engine import run_playouts
from shedkit.agents.search.knowledge import knowledge_for

GAMES = ("doudizhu", "president", "dominoes", "tiengow")


def decisions(game: Any, deals: int, per_deal: int) -> list[Any]:
    """Seeded decisions spread over ``deals`` deals, ``per_deal`` of each."""
    views = []
    for seed in range(1, deals + 1):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        greedy = make_agent("greedy", game)
        found = []
        while not state.is_over:
            view = state.view(state.current_player)
            moves = view.legal_moves
            if len(moves) > 1:
                found.append(view)
            move = moves[rng.randrange(len(moves))] if rng.random() < 0.3 else greedy.act(view)
            state.apply(move)
        # Evenly spaced: early, middle and late decisions all count.
        step = len(found) / per_deal
        views += [found[int(i * step)] for i in range(per_deal)]
    return views


def search_all(game: Any, views: list[Any], playouts: int) -> int:
    """Search every view with ``playouts`` playouts (fresh knowledge, as a new bot); the total."""
    knowledge = knowledge_for(game)
    done = 0
    for i, view in enumerate(views):
        visits, _, _ = run_playouts(knowledge, view, playouts, seed=i)
        done += sum(visits)
    return done


def measure(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Playouts per second of one game: median and min-max of the repetitions."""
    game = shedkit.make(name)
    views = decisions(game, args.deals, args.per_deal)
    search_all(game, views[:2], 4)  # warm-up: imports and tables
    rates = []
    for _ in range(args.repeats):
        t0 = time.process_time()
        done = search_all(game, views, args.playouts)
        rates.append(done / (time.process_time() - t0))
    return {
        "median": statistics.median(rates),
        "min": min(rates),
        "max": max(rates),
        "views": len(views),
        "playouts": args.playouts,
    }


def profile(name: str, args: argparse.Namespace, top: int = 20) -> None:
    """One repetition of ``name`` under cProfile: the functions taking the most own time."""
    game = shedkit.make(name)
    views = decisions(game, args.deals, args.per_deal)
    profiler = cProfile.Profile()
    profiler.enable()
    search_all(game, views, args.playouts)
    profiler.disable()
    print(f"\n== {name}: cProfile, by own time")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--deals", type=int, default=4, help="deals the decisions come from")
    parser.add_argument("--per-deal", type=int, default=2, help="decisions taken from each deal")
    parser.add_argument("--playouts", type=int, default=50, help="playouts per decision")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (median shown)")
    parser.add_argument("--profile", action="store_true", help="cProfile one repetition per game")
    parser.add_argument("--json", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    build = "compiled" if shedkit.compiled else "pure"
    print(f"machine: {machine()}; build: {build}; load average before: {load()}")
    if args.profile:
        for name in games:
            profile(name, args)
        return 0
    figures = {}
    for name in games:
        f = figures[name] = measure(name, args)
        print(
            f"{name}: {f['median']:,.0f} playouts/s ({f['min']:,.0f}-{f['max']:,.0f}), "
            f"{f['views']} decisions x {f['playouts']} playouts, {args.repeats} repetitions"
        )
    print(f"load average after: {load()}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        record = {"machine": machine(), "build": build, "figures": figures}
        args.json.write_text(json.dumps(record, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
