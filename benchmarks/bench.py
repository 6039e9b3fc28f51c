"""Speed of shedkit, pure and compiled, against OpenSpiel, RLCard and the ``dominoes`` package.

Tien Gow has no peer to time: no Python engine of it exists, and navpil's GuPai,
the nearest (a Java program), is on no package registry; the report says so.

Every figure is the median of ``--repeats`` (at least 5) timed repetitions with
their min-max, on one pinned core, with the machine's load average noted before
and after. The pure build is measured in this process; the compiled build
(``make compiled`` installs it in ``.venv-compiled``) in a subprocess of that
venv that prints its figures as JSON, so both appear in one table with the
peers measured here.

Figures:

1. random-play full deals (hands) per second of each game: deal, auction
   where the game has one, and play to the end, every decision uniformly
   random among the legal moves (Tien Gow: standard preset, every
   combination, TG-50);
2. legal-move generation: a 20-card Dou Di Zhu lead (the same seeded hands
   for every engine), a President first lead and Dominoes positions in the
   middle of a hand;
3. the PettingZoo Dou Di Zhu environment in the loop a user writes (reset per
   episode, ``env.last()``, ``np.flatnonzero`` of the mask, one ``env.step``)
   against RLCard's ``env.run``;
4. the search bots, which no peer has: playouts per second of each game's
   search (``benchmarks/playouts.py``'s measurement: fixed seeded decisions,
   the process's CPU time on the pinned core), and milliseconds per move, mean
   and p99, of the ``hard`` and ``expert`` levels on fixed seeded decisions
   (playing exactly their playout budget, no clock; the wall clock of
   ``agent.act``), and ``hard`` again as at the tables, where its one-second
   clock stops a search that would run past it (how many moves it cut short
   is counted). ``expert`` searches in worker processes, so it is measured
   with the affinity the run started with (every core of the machine), not
   the pinned core.

Run with ``make bench`` or ``python benchmarks/bench.py [--quick] [--json PATH]
[--markdown PATH]``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers
import shedkit
from machine import load, machine
from shedkit.doudizhu.movegen import lead_moves

ROOT = Path(__file__).resolve().parents[1]
COMPILED_PYTHON = ROOT / ".venv-compiled" / "bin" / "python"
Figure = dict[str, Any]
#: The games the search figures cover: name, key prefix, label.
SEARCH_GAMES = (
    ("doudizhu", "ddz", "Dou Di Zhu"),
    ("president", "president", "President"),
    ("dominoes", "dominoes", "Dominoes"),
    ("tiengow", "tiengow", "Tien Gow"),
)
#: What the report says of the games no peer engine covers.
NO_PEER = {
    "Tien Gow": (
        "no Python peer engine exists; navpil's GuPai (Java) is on no package registry "
        "and is not timed"
    ),
}
#: Decisions taken from each seeded deal for the ms-per-move figures (a Dou Di
#: Zhu deal can have as few as 3 with a choice).
MOVES_PER_DEAL = 3


def version(dist: str) -> str:
    """The installed version of ``dist``, or ``not installed``."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def figure(samples: list[float], unit: str) -> Figure:
    """The median and min-max of ``samples``."""
    return {
        "median": statistics.median(samples),
        "min": min(samples),
        "max": max(samples),
        "n": len(samples),
        "unit": unit,
    }


# -- workloads ---------------------------------------------------------------------------------


def shedkit_random_deals(n: int, seed: int) -> int:
    """Play ``n`` random full Dou Di Zhu deals (auction included); return the decisions."""
    game = shedkit.make("doudizhu")
    rng = random.Random(seed)
    decisions = 0
    for i in range(n):
        state = game.new_deal(seed=seed * 1_000_003 + i)
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions


def president_random_deals(n: int, seed: int) -> int:
    """Random full President deals, 4 players, every option on (joker, eights, tax)."""
    game = shedkit.make("president", preset="all-options", players=4, pass_is_final=True)
    rng = random.Random(seed)
    decisions = 0
    for i in range(n):
        state = game.new_deal(seed=seed * 1_000_003 + i, previous_order=[0, 1, 2, 3])
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions


def dominoes_random_hands(players: int, variant: str) -> Callable[[int, int], int]:
    """Random full Dominoes hands (deal, lead, plays, draws and passes as explicit moves)."""
    game = shedkit.make("dominoes", players=players, variant=variant)

    def play(n: int, seed: int) -> int:
        rng = random.Random(seed)
        decisions = 0
        for i in range(n):
            state = game.new_deal(seed=seed * 1_000_003 + i)
            while not state.is_over:
                moves = state.legal_moves()
                k = len(moves)
                state.apply(moves[rng.randrange(k)] if k > 1 else moves[0])
                decisions += 1
        return decisions

    return play


def tiengow_random_hands(n: int, seed: int) -> int:
    """Random full Tien Gow hands (standard preset: deal, then eight tricks to the end)."""
    game = shedkit.make("tiengow")
    rng = random.Random(seed)
    decisions = 0
    for i in range(n):
        state = game.new_deal(seed=seed * 1_000_003 + i)
        while not state.is_over:
            moves = state.legal_moves()
            k = len(moves)
            state.apply(moves[rng.randrange(k)] if k > 1 else moves[0])
            decisions += 1
    return decisions


def rate(play: Callable[[int, int], int], n: int, repeats: int, unit: str) -> Figure:
    """Deals per second of ``play`` over ``repeats`` runs of ``n`` deals (after a warm-up)."""
    play(2, 0)
    rates, decisions = [], 0
    for rep in range(repeats):
        t0 = time.perf_counter()
        decisions = play(n, rep + 1)
        rates.append(n / (time.perf_counter() - t0))
    out = figure(rates, unit)
    out["decisions"] = decisions / n
    return out


def lead_hands(count: int, seed: int) -> list[list[int]]:
    """Seeded 20-card hands as rank lists (0 = 3 … 12 = 2, 13/14 = jokers)."""
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    return [sorted(rng.sample(deck, 20)) for _ in range(count)]


def per_call(run_once: Callable[[], int], repeats: int) -> Figure:
    """Microseconds per call: each repetition times ``run_once`` (which returns its calls)."""
    run_once()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        calls = run_once()
        samples.append((time.perf_counter() - t0) / calls * 1e6)
    return figure(samples, "us")


def shedkit_lead_movegen(hands: list[list[int]], repeats: int) -> Figure:
    """One 20-card Dou Di Zhu lead generation (``lead_moves``) on the seeded hands.

    Each repetition is the median time of single calls, 20 per hand, as the
    peers' drivers measure theirs.
    """
    game = shedkit.make("doudizhu")
    counts = []
    for ranks in hands:
        text = "".join("3456789TJQKA2BR"[r] for r in ranks)
        state = game.new_deal(seed=0, hands=[text, None, None], kitty="", landlord=0)
        counts.append(list(state.rank_counts[0]))
    tables = game.tables
    samples = []
    for _ in range(repeats):
        times = []
        for c in counts:
            for _ in range(20):
                t0 = time.perf_counter()
                lead_moves(c, tables)
                times.append(time.perf_counter() - t0)
        samples.append(statistics.median(times) * 1e6)
    return figure(samples, "us")


def peer_lead_movegen(movegen: Callable[[list[list[int]], int], float]) -> Callable[..., Figure]:
    """A peer's lead generation (its driver returns one median) as a figure of repetitions."""

    def run(hands: list[list[int]], repeats: int) -> Figure:
        return figure([movegen(hands, 20) * 1e6 for _ in range(repeats)], "us")

    return run


def _positions(game: Any, deals: int, keep: Callable[[Any, int], bool]) -> list[Any]:
    """Seeded random-play states of ``game`` for which ``keep(state, ply)`` holds."""
    out = []
    rng = random.Random(7)
    for seed in range(deals):
        state = game.new_deal(seed=seed)
        ply = 0
        while not state.is_over:
            if keep(state, ply):
                out.append(state.clone())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            ply += 1
    return out


def uncached_legal_moves(states: list[Any], repeats: int) -> Figure:
    """``state.legal_moves()`` with the state's cache cleared before each call."""

    def once() -> int:
        for state in states:
            state._legal = None
            state.legal_moves()
        return len(states)

    return per_call(once, repeats)


def president_lead_movegen(repeats: int) -> Figure:
    """A President first lead (13 cards, joker and every option on), 4 players."""
    game = shedkit.make("president", preset="all-options", players=4)
    states = _positions(game, 60, lambda s, ply: s.phase == "play" and s.last_play is None)
    return uncached_legal_moves([s for s in states if len(s.hand(s.current_player)) >= 10], repeats)


def dominoes_movegen(repeats: int) -> Figure:
    """Dominoes positions after the lead, 4 players, draw game (plays, draws and passes)."""
    game = shedkit.make("dominoes", players=4, variant="draw")
    return uncached_legal_moves(_positions(game, 60, lambda s, ply: ply >= 1), repeats)


def shedkit_env_steps(deals: int, seed: int) -> int:
    """``deals`` episodes of the PettingZoo Dou Di Zhu env in the loop a user writes.

    Reset per episode, ``env.last()`` for the acting seat, ``np.flatnonzero``
    of the action mask, a uniform draw, one ``env.step``. The environment is
    made once per process (its tables are not timed). Returns the decisions.
    """
    import numpy as np

    env = _shedkit_env()
    rng = np.random.default_rng(seed)
    steps = 0
    for episode in range(deals):
        env.reset(seed=seed * 1_000_003 + episode)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    return steps


@functools.cache
def _shedkit_env() -> Any:
    from shedkit.envs.pettingzoo import env

    return env("doudizhu")


def steps_rate(play: Callable[[int, int], int], deals: int, repeats: int) -> Figure:
    """Decisions per second over ``repeats`` runs of ``deals`` episodes (after a warm-up)."""
    play(1, 0)
    rates = []
    for rep in range(repeats):
        t0 = time.perf_counter()
        steps = play(deals, rep + 1)
        rates.append(steps / (time.perf_counter() - t0))
    return figure(rates, "steps/s")


# -- search bots -------------------------------------------------------------------------------


@contextlib.contextmanager
def affinity(cpus: set[int]) -> Iterator[None]:
    """Run the block with this process allowed on ``cpus`` (processes it starts inherit them)."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def playouts_rate(name: str, args: argparse.Namespace) -> Figure:
    """Search playouts per second of ``name``: ``playouts.measure`` on the pinned core."""
    # Imported here: playouts imports machine and load from this module.
    import playouts

    settings = argparse.Namespace(
        deals=args.search_deals,
        per_deal=args.search_per_deal,
        playouts=args.playouts,
        repeats=args.repeats,
    )
    f = playouts.measure(name, settings)
    return {
        "median": f["median"],
        "min": f["min"],
        "max": f["max"],
        "n": args.repeats,
        "unit": "playouts/s",
        "decisions": f["views"],
        "playouts": f["playouts"],
    }


def move_times(
    level: str,
    name: str,
    moves: int,
    seed: int = 0,
    fraction: float = 1.0,
    clock: bool = False,
) -> Figure:
    """Milliseconds per ``agent.act`` of ``level`` over ``moves`` seeded decisions of ``name``.

    The agent plays exactly its playout budget (``budget_only``; ``fraction`` of it in a
    smoke run) and is timed with the wall clock, which also counts its worker processes'
    search. With ``clock`` it plays as at the tables, its level's clock stopping the
    search, and ``cut`` counts the moves the clock stopped short of the budget.
    """
    import playouts
    from shedkit.agents.search.levels import LEVELS, make_level

    game = shedkit.make(name)
    views = playouts.decisions(game, -(-moves // MOVES_PER_DEAL), MOVES_PER_DEAL)[:moves]
    budget = max(1, round(dict(LEVELS[level].playouts)[name] * fraction))
    agent = make_level(level, game, seed, budget_only=not clock, playouts=budget)
    times = []
    cut = 0
    try:
        if agent.workers > 1:
            agent.act(views[-1])  # untimed: starts the worker processes
        for view in views:
            t0 = time.perf_counter()
            agent.act(view)
            times.append((time.perf_counter() - t0) * 1000)
            cut += 0 < agent.last_playouts < agent.playouts
    finally:
        agent.close()
    times.sort()
    return {
        "clock": agent.seconds,
        "cut": cut,
        "mean": statistics.fmean(times),
        "p99": times[min(len(times) - 1, int(0.99 * len(times)))],
        "max": times[-1],
        "n": len(times),
        "unit": "ms",
        "playouts": agent.playouts,
        "workers": agent.workers,
        "cores": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [],
    }


def search_figures(args: argparse.Namespace) -> dict[str, Figure]:
    """Playouts per second and the ``hard`` and ``expert`` move times of every game."""
    out: dict[str, Figure] = {}
    for name, key, _ in SEARCH_GAMES:
        # First, so that the game's tables are built before any move is timed.
        out[f"{key}_playouts"] = playouts_rate(name, args)
        out[f"{key}_hard_ms"] = move_times("hard", name, args.hard_moves, 0, args.budget)
        # As at the tables: does the clock keep the slow moves within it, how often short?
        out[f"{key}_hard_clock_ms"] = move_times(
            "hard", name, args.hard_moves, 0, args.budget, clock=True
        )
        # Expert's workers inherit this affinity: every core the run started with.
        with affinity(args.all_cores):
            out[f"{key}_expert_ms"] = move_times("expert", name, args.expert_moves, 0, args.budget)
    return out


# -- the run -----------------------------------------------------------------------------------


def shedkit_figures(args: argparse.Namespace) -> dict[str, Figure]:
    """Every shedkit figure of the build this interpreter imports."""
    r, n = args.repeats, args.deals
    hands = lead_hands(args.hands, seed=2024)
    out: dict[str, Figure] = {
        "ddz_deals": rate(shedkit_random_deals, n, r, "deals/s"),
        "ddz_lead": shedkit_lead_movegen(hands, r),
        "president_deals": rate(president_random_deals, n, r, "deals/s"),
        "president_lead": president_lead_movegen(r),
        "dominoes_movegen": dominoes_movegen(r),
    }
    for key, players, variant in (
        ("dom4_block", 4, "block"),
        ("dom2_block", 2, "block"),
        ("dom4_draw", 4, "draw"),
        ("dom3_fives", 3, "fives"),
    ):
        out[key] = rate(dominoes_random_hands(players, variant), args.dominoes_hands, r, "hands/s")
    out["tiengow_hands"] = rate(tiengow_random_hands, args.tiengow_hands, r, "hands/s")
    # Without the [rl] extra in this interpreter there is no env figure.
    with contextlib.suppress(ImportError):
        out["env_steps"] = steps_rate(shedkit_env_steps, max(10, n // 3), r)
    out.update(search_figures(args))
    return out


def peer_figures(args: argparse.Namespace) -> dict[str, Figure]:
    """The peers' figures, for those installed."""
    r, n = args.repeats, args.deals
    hands = lead_hands(args.hands, seed=2024)
    out: dict[str, Figure] = {}
    if peers.openspiel_available():
        out["openspiel_ddz_deals"] = rate(peers.openspiel_random_deals, n, r, "deals/s")
        out["openspiel_ddz_lead"] = peer_lead_movegen(peers.openspiel_lead_movegen)(hands, r)
    if peers.rlcard_available():
        out["rlcard_ddz_deals"] = rate(peers.rlcard_random_deals, max(10, n // 4), r, "deals/s")
        out["rlcard_ddz_lead"] = peer_lead_movegen(peers.rlcard_lead_movegen)(hands, r)
        out["rlcard_env_steps"] = steps_rate(peers.rlcard_env_steps, max(10, n // 6), r)
    if peers.dominoes_pkg_available():
        out["dominoes_pkg_dom4_block"] = rate(
            peers.dominoes_pkg_random_hands, args.dominoes_hands // 2, r, "hands/s"
        )
    if peers.openspiel_block_dominoes_available():
        out["openspiel_dom2_block"] = rate(
            peers.openspiel_block_dominoes_random_hands, args.dominoes_hands // 4, r, "hands/s"
        )
    return out


def compiled_figures(args: argparse.Namespace) -> dict[str, Any] | str:
    """The compiled build's figures from ``.venv-compiled``, or why there are none."""
    if not COMPILED_PYTHON.exists():
        return "not built (make compiled)"
    argv = [str(COMPILED_PYTHON), __file__, "--shedkit-only", *args.passthrough]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    if proc.returncode != 0:
        return f"failed: {proc.stderr.strip().splitlines()[-1:]}"
    result: dict[str, Any] = json.loads(proc.stdout)
    if not result["compiled"]:
        return "the .venv-compiled build is not compiled"
    return result


# -- the table ---------------------------------------------------------------------------------

ROWS = [
    # label, shedkit key, peer name, peer key, higher is better
    ("Dou Di Zhu random deals/s", "ddz_deals", "OpenSpiel (C++)", "openspiel_ddz_deals", True),
    ("", "ddz_deals", "RLCard", "rlcard_ddz_deals", True),
    (
        "Dou Di Zhu 20-card lead movegen, us (median call)",
        "ddz_lead",
        "OpenSpiel (C++)",
        "openspiel_ddz_lead",
        False,
    ),
    ("", "ddz_lead", "RLCard", "rlcard_ddz_lead", False),
    ("PettingZoo env steps/s (user loop)", "env_steps", "RLCard env.run", "rlcard_env_steps", True),
    ("President random deals/s", "president_deals", "", "", True),
    ("President first-lead movegen, us (mean call)", "president_lead", "", "", False),
    ("Dominoes 4p block hands/s", "dom4_block", "dominoes pkg", "dominoes_pkg_dom4_block", True),
    ("Dominoes 2p block hands/s", "dom2_block", "OpenSpiel (Python)", "openspiel_dom2_block", True),
    ("Dominoes 4p draw hands/s", "dom4_draw", "", "", True),
    ("Dominoes 3p All Fives hands/s", "dom3_fives", "", "", True),
    ("Dominoes movegen, us (mean call)", "dominoes_movegen", "", "", False),
    ("Tien Gow random hands/s", "tiengow_hands", "none (see below)", "", True),
]


def fmt(f: Figure | None) -> str:
    """``median (min-max)`` with a precision that suits the magnitude."""
    if f is None:
        return "-"
    digits = 1 if f["median"] < 100 else 0
    return f"{f['median']:,.{digits}f} ({f['min']:,.{digits}f}-{f['max']:,.{digits}f})"


def ratio(ours: Figure | None, peer: Figure | None, higher: bool, stat: str = "median") -> str:
    """How many times faster shedkit is (above 1: faster), from the medians (or ``stat``)."""
    if ours is None or peer is None:
        return "-"
    x = ours[stat] / peer[stat] if higher else peer[stat] / ours[stat]
    return f"x{x:.2f}"


def table(pure: dict[str, Figure], compiled: dict[str, Figure], peer: dict[str, Figure]) -> str:
    """A Markdown table: pure, compiled, the peer and both ratios."""
    lines = [
        "| figure | shedkit pure | shedkit compiled | peer | peer figure "
        "| pure/peer | compiled/peer |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    previous = ""
    for label, key, peer_name, peer_key, higher in ROWS:
        p, c, q = pure.get(key), compiled.get(key), peer.get(peer_key)
        previous = label = label or previous  # a second peer for the same figure
        lines.append(
            f"| {label} | {fmt(p)} | {fmt(c)} "
            f"| {peer_name or '-'} | {fmt(q)} | {ratio(p, q, higher)} | {ratio(c, q, higher)} |"
        )
    return "\n".join(lines)


SEARCH_ROWS = [
    # label after the game's name, key after the game's prefix
    ("search playouts/s", "playouts"),
    ("`hard` ms per move, mean / p99", "hard_ms"),
    ("`hard` ms per move at the tables (its clock), mean / p99", "hard_clock_ms"),
    ("`expert` ms per move, mean / p99", "expert_ms"),
]


def fmt_ms(f: Figure | None) -> str:
    """``mean / p99`` of a move-time figure."""
    if f is None:
        return "-"
    digits = 1 if f["p99"] < 100 else 0
    text = f"{f['mean']:,.{digits}f} / {f['p99']:,.{digits}f}"
    if f.get("clock"):
        text += f", {f['cut']} cut short"
    return text


def covers(f: Figure) -> str:
    """What a search figure was measured on."""
    if f["unit"] == "ms":
        workers = f", {f['workers']} workers" if f["workers"] > 1 else ""
        if f.get("clock"):
            return f"{f['n']} decisions, {f['clock']:g} s clock, up to {f['playouts']:,} playouts"
        return f"{f['n']} decisions x {f['playouts']:,} playouts{workers}"
    return f"{f['decisions']} decisions x {f['playouts']} playouts, {f['n']} reps"


def search_table(pure: dict[str, Figure], compiled: dict[str, Figure]) -> str:
    """A Markdown table of the search figures: pure, compiled and compiled over pure."""
    lines = [
        "| search figure | measured on | shedkit pure | shedkit compiled | compiled/pure |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for _, prefix, game in SEARCH_GAMES:
        for label, suffix in SEARCH_ROWS:
            key = f"{prefix}_{suffix}"
            p, c = pure.get(key), compiled.get(key)
            shown = p or c
            if shown is None:
                continue
            on = covers(shown)
            if suffix == "playouts":
                cells, speed = f"{fmt(p)} | {fmt(c)}", ratio(c, p, True)
            else:
                cells, speed = f"{fmt_ms(p)} | {fmt_ms(c)}", ratio(c, p, False, "mean")
            lines.append(f"| {game} {label} | {on} | {cells} | {speed} |")
    return "\n".join(lines)


def no_peer_notes() -> str:
    """A line per game that no peer engine is timed against, saying why."""
    return "\n".join(f"{game}: {why}." for game, why in NO_PEER.items())


def search_notes(args: argparse.Namespace) -> str:
    """How the search figures were measured: clocks, cores and decisions."""
    from shedkit.agents.search.levels import LEVELS

    cores = ", ".join(map(str, sorted(args.all_cores)))
    budget = "playout budget" if args.budget == 1 else f"playout budget x {args.budget:g}"
    return (
        f"Search bots (no peer has any): playouts/s is the median (min-max) of {args.repeats} "
        "repetitions of the process's CPU time on the pinned core; ms per move is the wall "
        f"clock of `agent.act` ({args.hard_moves} seeded decisions per game for `hard`, "
        f"{args.expert_moves} for `expert`; the level's {budget}, no clock), mean and "
        'p99; "at the tables" is `hard` on the same decisions with its clock on, and how '
        "many of its moves the clock stopped short of the budget. `hard` runs on the "
        f"pinned core; `expert`'s {LEVELS['expert'].workers} worker "
        f"processes run with the affinity the run started with: cores {cores} of the "
        f"machine's {os.cpu_count()}."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per repetition")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (median shown)")
    parser.add_argument("--hands", type=int, default=30, help="20-card hands for movegen")
    parser.add_argument("--dominoes-hands", type=int, default=2000, help="Dominoes hands per rep")
    parser.add_argument("--tiengow-hands", type=int, default=1000, help="Tien Gow hands per rep")
    parser.add_argument("--playouts", type=int, default=50, help="playouts per search decision")
    parser.add_argument("--search-deals", type=int, default=4, help="deals of the search decisions")
    parser.add_argument("--search-per-deal", type=int, default=2, help="search decisions per deal")
    parser.add_argument("--hard-moves", type=int, default=150, help="timed hard moves per game")
    parser.add_argument("--expert-moves", type=int, default=45, help="timed expert moves per game")
    parser.add_argument(
        "--budget", type=float, default=1.0, help="fraction of the levels' playout budgets timed"
    )
    parser.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    parser.add_argument("--json", type=Path, help="write every figure as JSON here")
    parser.add_argument("--markdown", type=Path, help="write the table as Markdown here")
    parser.add_argument("--shedkit-only", action="store_true", help=argparse.SUPPRESS)
    # The compiled subprocess starts pinned: the parent tells it the cores for expert.
    parser.add_argument("--cores", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.hands, args.dominoes_hands, args.tiengow_hands = 40, 8, 200, 100
        args.playouts, args.search_deals, args.search_per_deal = 20, 2, 1
        args.hard_moves, args.expert_moves, args.budget = 4, 2, 0.1
    args.repeats = max(args.repeats, 5)
    if args.cores:
        args.all_cores = {int(c) for c in args.cores.split(",")}
    elif hasattr(os, "sched_getaffinity"):
        args.all_cores = os.sched_getaffinity(0)
    else:
        args.all_cores = set(range(os.cpu_count() or 1))
    args.passthrough = [
        f"--deals={args.deals}",
        f"--repeats={args.repeats}",
        f"--hands={args.hands}",
        f"--dominoes-hands={args.dominoes_hands}",
        f"--tiengow-hands={args.tiengow_hands}",
        f"--playouts={args.playouts}",
        f"--search-deals={args.search_deals}",
        f"--search-per-deal={args.search_per_deal}",
        f"--hard-moves={args.hard_moves}",
        f"--expert-moves={args.expert_moves}",
        f"--budget={args.budget}",
        f"--cores={','.join(map(str, sorted(args.all_cores)))}",
    ]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.shedkit_only:
        figures = shedkit_figures(args)
        json.dump({"compiled": list(shedkit.compiled), "figures": figures}, sys.stdout)
        return 0
    load_before = load()
    print(f"machine: {machine()}")
    print(f"load average before: {load_before}")
    print(
        f"versions: shedkit {shedkit.__version__}, open_spiel {version('open_spiel')}, "
        f"rlcard {version('rlcard')}, dominoes {version('dominoes')}"
    )
    if shedkit.compiled:
        print("warning: this interpreter imports a compiled shedkit; the 'pure' column is not pure")
    pure = shedkit_figures(args)
    compiled_run = compiled_figures(args)
    compiled = compiled_run["figures"] if isinstance(compiled_run, dict) else {}
    if isinstance(compiled_run, str):
        print(f"compiled build: {compiled_run}")
    peer = peer_figures(args)
    load_after = load()
    text = table(pure, compiled, peer)
    search = search_table(pure, compiled)
    notes = search_notes(args)
    peerless = no_peer_notes()
    print(
        f"\nmedian (min-max) of {args.repeats} repetitions; {args.deals} deals, "
        f"{args.dominoes_hands} Dominoes hands, {args.tiengow_hands} Tien Gow hands per "
        "repetition\n"
    )
    print(text)
    print(f"\n{peerless}")
    print(f"\n{notes}\n")
    print(search)
    print(f"\nload average after: {load_after}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "machine": machine(),
            "load_before": load_before,
            "load_after": load_after,
            "repeats": args.repeats,
            "search": {
                "hard_moves": args.hard_moves,
                "expert_moves": args.expert_moves,
                "expert_cores": sorted(args.all_cores),
                "cpu_count": os.cpu_count(),
                "notes": notes,
            },
            "no_peer": NO_PEER,
            "pure": pure,
            "compiled": compiled,
            "peers": peer,
        }
        args.json.write_text(json.dumps(record, indent=2) + "\n", "utf-8")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(
            f"Machine: {machine()}; load average {load_before} before, {load_after} after.\n\n"
            + text
            + f"\n\n{peerless}\n\n{notes}\n\n"
            + search
            + "\n",
            "utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
