"""The same seeds give the same records on the pure and the compiled build.

1,000 seeded deals per game, played to the end by a seeded random player, are
hashed record by record; ``tests/data/records_sha256.json`` holds the digests
the pure build wrote. ``make test`` checks them on the pure build and ``make
test-compiled`` on the compiled wheel, so a compiled rule that deals, orders or
scores differently fails here. Regenerate (only for an intended change of the
rules) with ``python -m tests.core.test_build_records --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

import shedkit

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "records_sha256.json"
DEALS = 1000
# Each game with a preset that turns on most of its rules.
SETTINGS: dict[str, dict[str, object]] = {
    "doudizhu": {},
    "president": {"preset": "all-options", "players": 4},
    "dominoes": {"variant": "fives", "players": 3},
}


def records_digest(name: str, deals: int = DEALS) -> str:
    """SHA-256 of the records of ``deals`` seeded random deals of game ``name``."""
    game = shedkit.make(name, **SETTINGS[name])  # type: ignore[arg-type]
    digest = hashlib.sha256()
    for seed in range(deals):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        digest.update(json.dumps(state.record(), sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_records_of_seeded_deals_match_the_pure_builds(name: str) -> None:
    expected = json.loads(GOLDEN.read_text("utf-8"))
    assert records_digest(name) == expected[name], f"{shedkit.compiled=}"


def test_the_digest_sees_a_changed_move() -> None:
    """A digest over fewer deals differs: the check is sensitive to the records."""
    assert records_digest("dominoes", 3) != records_digest("dominoes", 4)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        if shedkit.compiled:
            raise SystemExit("write the digests from the pure build")
        digests = {name: records_digest(name) for name in sorted(SETTINGS)}
        GOLDEN.write_text(json.dumps(digests, indent=2) + "\n", "utf-8")
