"""Milliseconds per decision of the ``douzero`` agent's numpy networks, by legal actions.

A decision is what the agent does on a card-play turn: encode the position
(``x_batch`` with one row per action, ``z``), run the network over every row,
take the best. It is timed on real positions (seeded deals, fixed landlord)
with 1, 10, 50 and 200 actions (the first ``n`` of a position that has at least
``n``), with random weights: the time does not depend on the weights' values.
Each figure is the median of ``--repeats`` timings (wall clock, one process,
one BLAS thread unless ``OMP_NUM_THREADS`` says otherwise), with the encoding and the network
apart, and DouZero's list of legal actions of the whole position (which the
agent makes once a decision) beside; the machine, numpy and the load average
are printed first.

Run: ``python benchmarks/douzero_latency.py [--repeats 200]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# One BLAS thread, as the agent has in an arena worker: steadier figures on a busy machine.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np

import shedkit
from machine import load, machine
from shedkit.agents.douzero.encoding import (
    POSITIONS,
    douzero_cards,
    encode,
    legal_actions,
    rival_of,
)
from shedkit.agents.douzero.model import DouZeroNet, random_params
from shedkit.doudizhu.combos import card_rank

SIZES = (1, 10, 50, 200)


def position_with(actions: int) -> Any:
    """The first card-play view (seeded deals, played by first moves) with this many actions."""
    game = shedkit.make("doudizhu")
    for seed in range(10_000):
        state = game.new_deal(seed=seed, landlord=seed % 3)
        for _ in range(6):
            view = state.view(state.current_player)
            hand = douzero_cards(card_rank(c) for c in view.hand)
            if len(legal_actions(hand, rival_of(view))) >= actions:
                return view
            state.apply(state.legal_moves()[0])
    raise RuntimeError(f"no position with {actions} actions found")


def median_ms(fn: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the table of milliseconds per decision."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200, help="timings per figure")
    args = parser.parse_args(argv)
    print(f"machine: {machine()}; numpy {np.__version__}; load {load()}")
    nets = {p: DouZeroNet(random_params(p, seed=1)) for p in POSITIONS}
    print(
        f"{'actions':>8} {'position':>14} {'encode ms':>10} {'network ms':>11} "
        f"{'total ms':>9} {'legal actions ms':>17}"
    )
    for n in SIZES:
        view = position_with(n)
        full = encode(view)
        actions = full.actions[:n]
        net = nets[full.position]
        obs = encode(view, actions)
        hand = douzero_cards(card_rank(c) for c in view.hand)
        rival = rival_of(view)

        def decision(view: Any = view, actions: Any = actions, net: DouZeroNet = net) -> int:
            o = encode(view, actions)
            return net.best(o.z, o.x_batch)

        figures = [
            median_ms(lambda v=view, a=actions: encode(v, a), args.repeats),
            median_ms(lambda o=obs, m=net: m.best(o.z, o.x_batch), args.repeats),
            median_ms(decision, args.repeats),
            median_ms(lambda h=hand, r=rival: legal_actions(h, r), args.repeats),
        ]
        e, f, t, g = figures
        print(f"{n:>8} {full.position:>14} {e:>10.3f} {f:>11.3f} {t:>9.3f} {g:>17.3f}")
    print(
        "total: encode and network for the n actions; legal actions: DouZero's list of "
        f"the whole position ({len(full.actions)} actions for the last row), made once a decision"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
