"""Move-count file: hand -> number of leads and responses by combination kind.

The file was written by the independent reference classifier
(``tests/doudizhu/make_movecounts.py``); the engine must reproduce every count.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

import shedkit
from shedkit.doudizhu.movegen import lead_moves, response_moves
from shedkit.doudizhu.notation import parse_ranks

ENTRIES = json.loads(
    (Path(__file__).parent.parent / "data" / "doudizhu_movecounts.json").read_text()
)


def counts_of(text: str) -> list[int]:
    counts = [0] * 15
    for r in parse_ranks(text):
        counts[r] += 1
    return counts


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['preset']}-{e['hand']}")
def test_move_counts(entry: dict[str, object]) -> None:
    game = shedkit.make("doudizhu", preset=str(entry["preset"]))
    hand = counts_of(str(entry["hand"]))
    leads = collections.Counter(m.kind for m in lead_moves(hand, game.tables))
    assert dict(leads) == entry["leads"]
    responses = entry["responses"]
    assert isinstance(responses, dict)
    for last_text, want in responses.items():
        last = game.parse_move(last_text)
        got = collections.Counter(m.kind for m in response_moves(hand, game.tables, last)[1:])
        assert dict(got) == want, last_text
