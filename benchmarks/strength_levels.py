"""Strength of one agent against a field, on duplicate deals, for every game.

Every deal is played twice: once with the challenger in the measured seats and
once with a field agent there (the baseline), so both rows see the very same
hands and the difference is the challenger's alone.

- **doudizhu** (pure roles, as DouZero's evaluation): challenger landlord vs
  field peasants against field landlord vs field peasants, and challenger
  peasants vs a field landlord against field peasants; win rates (WP).
- **president**: one challenger among field bots (its seat rotates) against
  a field bot in that seat; average finishing place (1 is best).
- **dominoes**: the challenger's side (partners seats 0 and 2, or seat 0 in
  the two-player game) against the field, and the seats swapped; win rate
  with ties as half, against the field's own rate on the same deals.

Intervals are 95 % (Wilson for rates, normal for places). ms/move is the
challenger's thinking time per move with more than one legal move (mean, p99).

Run: ``python benchmarks/strength_levels.py doudizhu --challenger hard
--field greedy --deals 2000 --workers 16``. With ``--results FILE`` every deal's
result is appended to FILE as it finishes (one JSON line), and a later run with the
same arguments and file plays only the deals still missing: a long measurement can
be stopped and carried on, by another session or on another machine.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import Progress

import shedkit
from shedkit.agents import make_agent

Z95 = 1.959963984540054


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + Z95 * Z95 / n
    c = (p + Z95 * Z95 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return (c - h, c + h)


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % normal interval."""
    m = statistics.fmean(xs)
    h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return m, m - h, m + h


def _play(game: Any, state: Any, agents: list[Any], timed: set[int], times: list[float]) -> Any:
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        if seat in timed and len(view.legal_moves) > 1:
            t = time.perf_counter()
            move = agents[seat].act(view)
            times.append(time.perf_counter() - t)
        else:
            move = agents[seat].act(view)
        state.apply(move)
    return state


def _agents(game: Any, names: list[str], seed: int) -> list[Any]:
    return [make_agent(name, game, seed * 16 + s) for s, name in enumerate(names)]


def play_deal(job: tuple[str, str, dict[str, Any], str, str, int]) -> dict[str, Any]:
    """Play one deal both ways; the challenger's and the baseline's results and times."""
    name, preset, options, challenger, field, deal = job
    game = shedkit.make(name, preset=preset, **options)
    n = game.num_players
    times: list[float] = []
    out: dict[str, Any] = {"times": times}
    if name == "doudizhu":
        landlord = deal % n
        peasants = {s for s in range(n) if s != landlord}
        for role, seats in (("landlord", {landlord}), ("peasants", peasants)):
            for who in ("challenger", "baseline"):
                pick = challenger if who == "challenger" else field
                names = [pick if s in seats else field for s in range(n)]
                state = game.new_deal(seed=deal, landlord=landlord, bid=1)
                timed = seats if who == "challenger" else set()
                end = _play(game, state, _agents(game, names, deal), timed, times)
                won = (end.returns()[landlord] > 0) == (role == "landlord")
                out[f"{role}/{who}"] = 1.0 if won else 0.0
    elif name == "president":
        seat = deal % n
        for who in ("challenger", "baseline"):
            names = [challenger if (s == seat and who == "challenger") else field for s in range(n)]
            state = game.new_deal(seed=deal)
            timed = {seat} if who == "challenger" else set()
            end = _play(game, state, _agents(game, names, deal), timed, times)
            out[f"place/{who}"] = float(end.finished.index(seat) + 1)
    elif name == "dominoes":
        side_of = game.side_of
        for swap in (0, 1):
            ours = {s for s in range(n) if side_of[s] == swap}
            for who in ("challenger", "baseline"):
                pick = challenger if who == "challenger" else field
                names = [pick if s in ours else field for s in range(n)]
                state = game.new_deal(seed=deal)
                timed = ours if who == "challenger" else set()
                end = _play(game, state, _agents(game, names, deal), timed, times)
                r = end.returns()
                me = min(ours)
                best_other = max(r[s] for s in range(n) if s not in ours)
                score = 1.0 if r[me] > best_other else 0.5 if r[me] == best_other else 0.0
                out[f"side{swap}/{who}"] = score
    else:
        raise ValueError(f"unknown game {name!r}")
    return out


def _load(path: Path | None, run: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The results already in ``path`` for the same run (other runs' lines are ignored)."""
    if path is None or not path.exists():
        return {}
    done: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when a run was stopped
        if entry.get("run") == run:
            done[int(entry["deal"])] = entry["result"]
    return done


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the deals over ``--workers`` processes, print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", choices=["doudizhu", "president", "dominoes"])
    p.add_argument("--preset", default="standard")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--challenger", default="hard")
    p.add_argument("--field", default="greedy")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--results", type=Path, default=None, help="append each deal's result here")
    args = p.parse_args(argv)
    if args.deals < 2 or args.workers < 1:
        p.error("--deals must be at least 2 and --workers at least 1")
    options = {} if args.players is None else {"players": args.players}
    jobs = [
        (args.game, args.preset, options, args.challenger, args.field, args.seed * 100_000 + d)
        for d in range(args.deals)
    ]
    start = time.perf_counter()
    # The deals of a run are numbered from the seed: a longer run reuses a shorter one's.
    run = {k: v for k, v in vars(args).items() if k not in ("workers", "results", "deals")}
    done = _load(args.results, run)
    todo = [j for j in jobs if j[-1] not in done]
    with Progress(transient=True) as progress:
        task = progress.add_task(f"{args.game}: deals", total=len(jobs), completed=len(done))
        with ProcessPoolExecutor(args.workers) as pool:
            for job, result in zip(todo, pool.map(play_deal, todo, chunksize=1), strict=True):
                done[job[-1]] = result
                if args.results:
                    with open(args.results, "a") as f:
                        f.write(json.dumps({"run": run, "deal": job[-1], "result": result}) + "\n")
                progress.advance(task)
    results = [done[j[-1]] for j in jobs]
    keys = sorted({k for r in results for k in r if k != "times"})
    print(
        f"{args.game} preset={args.preset} {options} challenger={args.challenger} "
        f"field={args.field} deals={args.deals} seed={args.seed}"
    )
    for key in keys:
        xs = [r[key] for r in results]
        if key.startswith("place"):
            m, lo, hi = mean_ci(xs)
            print(f"  {key:22} mean place {m:.3f} [{lo:.3f}, {hi:.3f}]  n={len(xs)}")
        else:
            lo, hi = wilson(sum(xs), len(xs))
            print(f"  {key:22} WP {sum(xs) / len(xs):.3f} [{lo:.3f}, {hi:.3f}]  n={len(xs)}")
    groups = sorted({k.split("/")[0] for k in keys})
    for g in groups:
        diff = [r[f"{g}/challenger"] - r[f"{g}/baseline"] for r in results]
        m, lo, hi = mean_ci(diff)
        print(f"  {g:22} challenger - baseline {m:+.3f} [{lo:+.3f}, {hi:+.3f}] (paired)")
    times = sorted(t for r in results for t in r["times"])
    if times:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"  ms/move mean {1000 * statistics.fmean(times):.1f} p99 {1000 * p99:.1f} "
            f"({len(times)} moves)"
        )
    print(f"  wall {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
