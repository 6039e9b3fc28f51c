"""Speed of shedkit's Dou Di Zhu against OpenSpiel and RLCard, and of its President.

Two measures, each the median of several repeats, on one pinned core:

1. random-play full deals per second: deal, auction (where the engine has one)
   and play to the end, every decision uniformly random among the legal moves;
2. legal-move generation for a 20-card lead: the median time of one call on
   the same seeded 20-card hands for every engine.

Run with ``make bench`` (installs the ``[bench]`` extra) or
``python benchmarks/bench.py [--deals N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers
import shedkit
from shedkit.doudizhu.movegen import lead_moves


def machine() -> str:
    """One line naming the processor, the Python and the pinned core."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} cores, 1 used; Python {platform.python_version()}"


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def shedkit_random_deals(n: int, seed: int) -> int:
    """Play ``n`` random full deals (auction included); return the decisions taken."""
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


def dominoes_section(hands: int, repeats: int) -> None:
    """Dominoes random-play hands per second against the dominoes package and OpenSpiel."""
    print(
        f"\nDominoes random-play hands, {hands} hands x {repeats} repeats (median); "
        f"dominoes {version('dominoes')}"
    )
    rows = [
        (
            "4 players, block, partners",
            dominoes_random_hands(4, "block"),
            "dominoes pkg",
            peers.dominoes_pkg_random_hands,
            peers.dominoes_pkg_available(),
        ),
        (
            "2 players, block",
            dominoes_random_hands(2, "block"),
            "OpenSpiel",
            peers.openspiel_block_dominoes_random_hands,
            peers.openspiel_block_dominoes_available(),
        ),
    ]
    for label, ours, peer_name, peer, available in rows:
        our_rate, our_moves = rate(ours, hands, repeats)
        line = f"  {label:<28} shedkit {our_rate:9.1f} hands/s ({our_moves:4.1f} decisions/hand)"
        if available:
            peer_rate, peer_moves = rate(peer, hands, repeats)
            line += (
                f"   {peer_name} {peer_rate:9.1f} hands/s ({peer_moves:4.1f} decisions/hand)"
                f"   ratio x{our_rate / peer_rate:5.2f}"
            )
        else:
            line += f"   {peer_name}: not installed (pip install '.[bench]')"
        print(line)
    for players, variant in ((4, "draw"), (3, "fives")):
        our_rate, our_moves = rate(dominoes_random_hands(players, variant), hands, repeats)
        print(
            f"  {players} players, {variant:<19} shedkit {our_rate:9.1f} hands/s "
            f"({our_moves:4.1f} decisions/hand, no peer)"
        )


def lead_hands(count: int, seed: int) -> list[list[int]]:
    """Seeded 20-card hands as rank lists (0 = 3 … 12 = 2, 13/14 = jokers)."""
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    return [sorted(rng.sample(deck, 20)) for _ in range(count)]


def shedkit_lead_movegen(hands: list[list[int]], repeats: int) -> float:
    """Median seconds of one 20-card lead generation through ``state.legal_moves()``."""
    game = shedkit.make("doudizhu")
    times = []
    for ranks in hands:
        text = "".join("3456789TJQKA2BR"[r] for r in ranks)
        state = game.new_deal(seed=0, hands=[text, None, None], kitty="", landlord=0)
        counts = state.rank_counts[0]
        for _ in range(repeats):
            t0 = time.perf_counter()
            lead_moves(counts, game.tables)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def rate(play: Callable[[int, int], int], deals: int, repeats: int) -> tuple[float, float]:
    """Median deals per second over ``repeats`` runs, and decisions per deal."""
    rates, decisions = [], 0
    for rep in range(repeats):
        t0 = time.perf_counter()
        decisions = play(deals, rep + 1)
        rates.append(deals / (time.perf_counter() - t0))
    return statistics.median(rates), decisions / deals


def shedkit_env_steps(deals: int, seed: int) -> int:
    """Random masked play of ``deals`` episodes of our PettingZoo Dou Di Zhu env; the decisions.

    Each decision reads ``env.last()`` (the acting seat's encoded observation
    and its action mask) and draws uniformly among the mask's legal ids. The
    environment is made once per process (its tables are not timed).
    """
    import numpy as np

    aec = _shedkit_env()
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in range(deals):
        aec.reset()
        for _agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            aec.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    return steps


@functools.cache
def _shedkit_env() -> Any:
    from shedkit.envs.pettingzoo import env

    return env("doudizhu")


def steps_rate(play: Callable[[int, int], int], deals: int, repeats: int) -> float:
    """Median decisions per second over ``repeats`` runs of ``deals`` episodes (after a warm-up)."""
    play(1, 0)
    rates = []
    for rep in range(repeats):
        t0 = time.perf_counter()
        steps = play(deals, rep + 1)
        rates.append(steps / (time.perf_counter() - t0))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (the median is shown)")
    parser.add_argument("--hands", type=int, default=30, help="20-card hands for movegen")
    parser.add_argument(
        "--dominoes-hands", type=int, default=2000, help="Dominoes hands per repeat"
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"machine: {machine()}")
    print(
        f"versions: shedkit {shedkit.__version__}, open_spiel {version('open_spiel')}, "
        f"rlcard {version('rlcard')}"
    )
    engines: list[tuple[str, Callable[[int, int], int], Callable[..., float], str]] = [
        ("shedkit", shedkit_random_deals, shedkit_lead_movegen, "auction: yes"),
    ]
    if peers.openspiel_available():
        engines.append(
            (
                "OpenSpiel",
                peers.openspiel_random_deals,
                peers.openspiel_lead_movegen,
                "auction: yes (C++)",
            )
        )
    else:
        print("OpenSpiel: not installed (pip install '.[bench]')")
    if peers.rlcard_available():
        engines.append(
            ("RLCard", peers.rlcard_random_deals, peers.rlcard_lead_movegen, peers.RLCARD_AUCTION)
        )
    else:
        print("RLCard: not installed (pip install '.[bench]')")
    hands = lead_hands(args.hands, seed=2024)
    results = {}
    print(f"\nrandom-play full deals, {args.deals} deals x {args.repeats} repeats (median):")
    for name, play, movegen, note in engines:
        deals_per_s, per_deal = rate(play, args.deals, args.repeats)
        lead_s = movegen(hands, 20)
        results[name] = (deals_per_s, lead_s)
        print(
            f"  {name:<10} {deals_per_s:10.1f} deals/s  {per_deal:5.1f} decisions/deal  "
            f"20-card lead movegen {lead_s * 1e6:8.1f} us  ({note})"
        )
    deals_per_s, per_deal = rate(president_random_deals, args.deals, args.repeats)
    print(
        f"\nPresident, 4 players, all options (joker, eights, tax, pass is final): "
        f"{deals_per_s:.1f} deals/s, {per_deal:.1f} decisions/deal (no peer engine on PyPI)"
    )
    ours, our_lead = results["shedkit"]
    print("\nratios (shedkit / peer; above 1 means shedkit is faster):")
    for name, (deals_per_s, lead_s) in results.items():
        if name != "shedkit":
            print(
                f"  vs {name:<10} deals/s x{ours / deals_per_s:6.2f}   "
                f"lead movegen x{lead_s / our_lead:6.2f}"
            )
    dominoes_section(args.dominoes_hands, args.repeats)
    env_deals = max(20, args.deals // 2)
    print(
        f"\nRL environment steps/s, random agents, observation and mask included, "
        f"{env_deals} episodes x {args.repeats} repeats (median):"
    )
    ours_env = steps_rate(shedkit_env_steps, env_deals, args.repeats)
    print(f"  shedkit    {ours_env:10.0f} steps/s  (PettingZoo AEC env, env.last() each step)")
    if peers.rlcard_available():
        theirs_env = steps_rate(peers.rlcard_env_steps, env_deals, args.repeats)
        print(f"  RLCard     {theirs_env:10.0f} steps/s  (rlcard.make('doudizhu'), env.run)")
        print(f"  ratio: shedkit / RLCard x{ours_env / theirs_env:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
