"""The search's choices pinned on seeded views: a speed-up must not change a single playout.

Each case is a decision of a seeded deal played by greedy with random moves;
the search's statistics (visits, reward sums, square sums) are pinned by a
digest and the ``hard`` level's move on a playout budget by its text. The
search is deterministic for a seed, so any change to these values means a
change to what the bots play. Run this file as a script to print the table
(only after a change that is meant to alter the search).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.search.engine import run_playouts
from shedkit.agents.search.knowledge import knowledge_for
from shedkit.agents.search.levels import make_level

# Playouts per decision: enough for UCB1 to revisit moves, small enough to stay fast.
BUDGET = {"doudizhu": 48, "president": 64, "dominoes": 96, "tiengow": 64}

CASES = (
    ("doudizhu", "standard", 1),
    ("doudizhu", "standard", 2),
    ("doudizhu", "four-player", 1),
    ("president", "standard", 1),
    ("president", "all-options", 2),
    ("dominoes", "standard", 1),
    ("dominoes", "two-player", 2),
    ("dominoes", "all-fives", 3),
    ("tiengow", "standard", 1),
    ("tiengow", "dominorules", 2),
    ("tiengow", "hong-kong", 3),
)

# (game, preset, deal seed, decision index): history length, digest of the statistics, move.
PINNED: dict[tuple[str, str, int, int], tuple[int, str, str]] = {
    ("doudizhu", "standard", 1, 0): (19, "e590afdf926a836a", "R"),
    ("doudizhu", "standard", 1, 1): (27, "5e8123509a99ff7d", "99"),
    ("doudizhu", "standard", 1, 2): (29, "c25b0ba529f02a0c", "9"),
    ("doudizhu", "standard", 2, 0): (0, "09ed984cb2910725", "bid2"),
    ("doudizhu", "standard", 2, 1): (1, "6a2626da2fa8d548", "pass"),
    ("doudizhu", "standard", 2, 2): (2, "2857d552b71fa724", "pass"),
    ("doudizhu", "four-player", 1, 0): (21, "2ef1826476aa00b8", "pass"),
    ("doudizhu", "four-player", 1, 1): (37, "84f34d42e3142820", "TTJJQQ"),
    ("doudizhu", "four-player", 1, 2): (59, "b139a7c3b99ffaa6", "A"),
    ("president", "standard", 1, 0): (24, "6f4b56be56185157", "pass"),
    ("president", "standard", 1, 1): (48, "3bee1191f457b645", "3s"),
    ("president", "standard", 1, 2): (63, "7d6d9c8311e12c68", "5s"),
    ("president", "all-options", 2, 0): (4, "299ba83deffe7c17", "5h"),
    ("president", "all-options", 2, 1): (23, "89e405eb3bf2a1dd", "Jd Jc"),
    ("president", "all-options", 2, 2): (67, "bae4c47d6460071a", "7s"),
    ("dominoes", "standard", 1, 0): (5, "3411822e852a7fb7", "4-5@L"),
    ("dominoes", "standard", 1, 1): (8, "81c2c291b18b74d8", "0-5@R"),
    ("dominoes", "standard", 1, 2): (20, "17a62f5fe0b138fe", "0-1@L"),
    ("dominoes", "two-player", 2, 0): (8, "e64fa25e60920d0d", "0-1@L"),
    ("dominoes", "two-player", 2, 1): (19, "431876298d956fcf", "2-2@L"),
    ("dominoes", "all-fives", 3, 0): (6, "604d8fb5ffcc55af", "4-4@L"),
    ("dominoes", "all-fives", 3, 1): (16, "ea8cdc173c744211", "5-5@L"),
    ("dominoes", "all-fives", 3, 2): (20, "0a12a2591b2d5ec5", "2-5@L"),
    ("tiengow", "standard", 1, 0): (7, "cb628296c719de22", "discard 1-2"),
    ("tiengow", "standard", 1, 1): (9, "c9b7cd1bd6cb450e", "discard 5-5"),
    ("tiengow", "standard", 1, 2): (14, "9e6759f3bccd9956", "discard 5-5 4-6"),
    ("tiengow", "dominorules", 2, 0): (13, "7c03846dba470832", "4-6"),
    ("tiengow", "dominorules", 2, 1): (20, "0d2821173231d78b", "1-3"),
    ("tiengow", "hong-kong", 3, 0): (4, "cb9024c99000bade", "3-3"),
    ("tiengow", "hong-kong", 3, 1): (11, "856746b281bf867e", "3-3"),
    ("tiengow", "hong-kong", 3, 2): (14, "0b5a715ac246be4f", "1-3"),
}


def decision_views(game: Any, seed: int, count: int) -> list[Any]:
    """``count`` seeded decisions (views with two legal moves or more) of one deal."""
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
    picks = sorted({rng.randrange(len(found)) for _ in range(count)})
    return [found[i] for i in picks]


def digest(stats: Any) -> str:
    """A short fingerprint of the search's statistics."""
    return hashlib.sha256(repr(stats).encode()).hexdigest()[:16]


def searched(name: str, preset: str, seed: int) -> list[tuple[int, str, str]]:
    """History length, statistics digest and ``hard``'s move for each decision of a case."""
    game = shedkit.make(name, preset=preset)
    knowledge = knowledge_for(game)
    budget = BUDGET[name]
    out = []
    for i, view in enumerate(decision_views(game, seed, 3)):
        stats = run_playouts(knowledge, view, budget, seed=seed * 10 + i)
        agent = make_level("hard", game, seed * 10 + i, budget_only=True, playouts=budget)
        out.append((len(view.history), digest(stats), str(agent.act(view))))
    return out


@pytest.mark.parametrize(("name", "preset", "seed"), CASES)
def test_search_statistics_and_moves_are_pinned(name: str, preset: str, seed: int) -> None:
    """The same seeds and budgets give the very same playouts and moves as pinned."""
    got = searched(name, preset, seed)
    want = [v for k, v in sorted(PINNED.items()) if k[:3] == (name, preset, seed)]
    assert got == want


if __name__ == "__main__":
    for case in CASES:
        for i, row in enumerate(searched(*case)):
            print(f"    {(*case, i)!r}: {row!r},")
