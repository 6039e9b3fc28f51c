"""The table-driven move generator against a plain enumeration (PRE-07, PRE-13, PRE-15, PRE-16)."""

from __future__ import annotations

import random

import pytest

import shedkit
from shedkit.president.combos import PASS
from shedkit.president.movegen import play_keys
from shedkit.president.rules import State

OPTIONS = [
    {"players": 2},
    {"players": 3, "rank_order": "two-high", "jokers": 1},
    {"players": 4, "jokers": 1, "eight_stops": True},
    {"players": 5, "jokers": 1, "rank_order": "two-high"},
]


def plain_legal(state: State) -> set[str]:
    """Every play of the hand, filtered by PRE-07 with the order in force, as text."""
    seat = state.current_player
    assert seat is not None
    t = state.game.tables
    plays = [t.by_key[k] for k in play_keys(state.hands[seat], t.sequence)]
    last = state.last_play
    if last is None:
        return {str(m) for m in plays}
    side = 1 if state.revolution else 0
    bar = t.strength[last.action_id][side]
    beats = {
        str(m)
        for m in plays
        if m.kind == last.kind and m.size == last.size and t.strength[m.action_id][side] > bar
    }
    return {str(PASS)} | beats


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_fast_generator_matches_plain_enumeration(options: dict[str, object]) -> None:
    game = shedkit.make("president", **options)
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            assert len(set(moves)) == len(moves)
            assert {str(m) for m in moves} == plain_legal(state)
            state.apply(moves[rng.randrange(len(moves))])
