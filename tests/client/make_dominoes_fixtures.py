"""Write the Dominoes board demo's fixture views from real engine deals.

Each fixture is a seat's view as the server sends it (``serialize_view``) with
the few things the demo needs beside it: the set (``max_pips``, which the view
does not carry) and the tile the demo starts with selected. Deals are played
with a seeded random choice of legal moves, so the files are reproducible::

    python tests/client/make_dominoes_fixtures.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import shedkit
from shedkit.protocol.views import serialize_view

OUT = Path(__file__).resolve().parents[2] / "src/shedkit/server/static/games/dominoes/fixtures"

Json = dict[str, Any]


def states(preset: str, seed: int, **options: Any) -> Iterator[tuple[Any, Json]]:
    """Every state of one random deal before it ends, with its mover's view."""
    game = shedkit.make("dominoes", preset=preset, **options)
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.current_player
        yield state, serialize_view("dominoes", state.view(seat))
        state.apply(rng.choice(state.legal_moves()))


def find(
    preset: str, test: Callable[[Json], bool], seeds: range = range(500), **options: Any
) -> tuple[int, Json]:
    """The first view (over seeds, then moves) that passes ``test``."""
    for seed in seeds:
        for _, view in states(preset, seed, **options):
            if test(view):
                return seed, view
    raise LookupError(f"no {preset} deal in {seeds} gives the view asked for")


def longest(preset: str, seeds: range, **options: Any) -> tuple[int, Json]:
    """The view with the longest line over ``seeds`` (taken while the deal is still on)."""
    best: tuple[int, Json] | None = None
    for seed in seeds:
        for _, view in states(preset, seed, **options):
            if best is None or len(view["line"]["main"]) > len(best[1]["line"]["main"]):
                best = (seed, view)
    assert best is not None
    return best


def plays_by_end(view: Json) -> dict[int, set[str]]:
    """The ends each hand tile can go on, from the view's legal moves."""
    ends: dict[int, set[str]] = {}
    for m in view["legal"]:
        if m["kind"] == "play":
            ends.setdefault(m["k"][0], set()).add(m["m"].split("@")[1])
    return ends


def arms(view: Json) -> tuple[int, int, int, int]:
    """Tiles on the left, right, up and down of the spinner (-1s without one)."""
    line = view["line"]
    spin = line["spinner"]
    if spin is None or spin < 0:
        return (-1, -1, -1, -1)
    return (spin, len(line["main"]) - spin - 1, len(line["up"]), len(line["down"]))


def two_ends_tile(view: Json) -> int | None:
    """A tile of the hand that fits both L and R (at different pips), if any."""
    for key, ends in plays_by_end(view).items():
        if {"L", "R"} <= ends and view["ends"]["L"] != view["ends"]["R"]:
            return key
    return None


def fixtures() -> dict[str, Json]:
    out: dict[str, Json] = {}

    seed, view = find(
        "two-player",
        lambda v: len(v["line"]["main"]) >= 9 and v["boneyard"] > 0 and plays_by_end(v),
    )
    out["draw-mid-hand"] = {"max_pips": 6, "seed": seed, "selected": None, "view": view}

    seed, view = find(
        "all-fives",
        lambda v: min(arms(v)) >= 2 and set(v["ends"]) == set("LRUD") and plays_by_end(v),
        players=2,
    )
    out["fives-spinner"] = {"max_pips": 6, "seed": seed, "selected": None, "view": view}

    seed, view = longest("double-nine", range(8), players=2, hand_size=20)
    out["double-nine-long"] = {"max_pips": 9, "seed": seed, "selected": None, "view": view}

    seed, view = find(
        "double-twelve", lambda v: len(v["line"]["main"]) >= 60, players=2, hand_size=40
    )
    out["double-twelve-long"] = {"max_pips": 12, "seed": seed, "selected": None, "view": view}

    seed, view = find(
        "two-player", lambda v: len(v["line"]["main"]) >= 6 and two_ends_tile(v) is not None
    )
    out["fits-both-ends"] = {
        "max_pips": 6,
        "seed": seed,
        "selected": two_ends_tile(view),
        "view": view,
    }
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    made = fixtures()
    for name, fixture in made.items():
        fixture["name"] = name
        text = json.dumps(fixture, indent=1, sort_keys=True) + "\n"
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")
    index = json.dumps(sorted(made), indent=1) + "\n"
    (OUT / "index.json").write_text(index, encoding="utf-8")
    for name, fixture in made.items():
        line = fixture["view"]["line"]
        print(name, len(line["main"]), len(line["up"]), len(line["down"]), fixture["view"]["ends"])


if __name__ == "__main__":
    main()
