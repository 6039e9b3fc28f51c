"""``make bench``'s Tien Gow rows: random hands timed, search figures, and no peer said so."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench", BENCHMARKS / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = module
    spec.loader.exec_module(module)
    return module


def test_tiengow_random_hands_play_to_the_end(bench: ModuleType) -> None:
    decisions = bench.tiengow_random_hands(3, 1)
    assert decisions >= 3 * 8  # a hand is two tricks at least, of four moves each
    assert decisions == bench.tiengow_random_hands(3, 1)


def test_the_table_says_tiengow_has_no_peer(bench: ModuleType) -> None:
    figure = {"median": 4000.0, "min": 3900.0, "max": 4100.0, "n": 5, "unit": "hands/s"}
    text = bench.table({"tiengow_hands": figure}, {}, {})
    row = next(line for line in text.splitlines() if "Tien Gow random hands/s" in line)
    assert "4,000 (3,900-4,100)" in row and "none (see below)" in row
    note = bench.no_peer_notes()
    assert "Tien Gow" in note and "no Python peer" in note and "GuPai (Java)" in note
    assert "not timed" in note
    assert ("tiengow", "tiengow", "Tien Gow") in bench.SEARCH_GAMES
