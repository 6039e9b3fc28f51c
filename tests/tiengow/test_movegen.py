"""The table-driven move generator against a plain enumeration (TG-20…24, TG-28, TG-53, TG-60).

The plain generator reads every sub-multiset of the hand as text, keeps those
the notation knows as combinations, and filters them with the rules as the
specification states them, with no table.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import shedkit
from shedkit import InvalidMoveError
from shedkit.tiengow import State
from shedkit.tiengow.combos import KIND_NAMES, KIND_RANK, KIND_SUIT, TILE_KIND
from shedkit.tiengow.movegen import beats

OPTIONS: list[dict[str, Any]] = [
    {},
    {"preset": "hong-kong"},
    {"preset": "dominorules"},
    {"preset": "ku-pai"},
    {"preset": "ancient"},
    {"must_follow_suit": True, "triplet_match": "civil-guarded", "two_pairs": True},
    {"wen_supreme": True, "wen_supreme_capture": True, "early_death": False},
]


def plain_legal(state: State) -> set[str]:
    seat = state.current_player
    assert seat is not None
    game = state.game
    opts = game.options
    kinds = sorted(TILE_KIND[t] for t in state.hand(seat))
    subsets = {
        combo for n in range(1, len(kinds) + 1) for combo in itertools.combinations(kinds, n)
    }

    def play_of(combo: tuple[int, ...]) -> Any:
        try:
            return game.parse_move(" ".join(KIND_NAMES[k] for k in combo))
        except InvalidMoveError:
            return None

    if not state.trick:  # TG-20: any combination in hand
        return {str(m) for m in map(play_of, subsets) if m is not None}
    lead = state.trick[0][1]
    n = lead.size
    high = state.high
    assert high is not None
    same_size = [c for c in subsets if len(c) == n]
    last = len(kinds) == n
    forbidden = opts.early_death and n == 1 and last and state.units[seat] == 0  # TG-28
    out = set()
    if not forbidden and not state.captured:  # TG-60: nothing beats a capture
        for combo in same_size:
            m = play_of(combo)
            if m is not None and beats(m, high, opts):
                out.add(str(m))
    follow = opts.must_follow_suit and n == 1 and not forbidden
    suit = KIND_SUIT[lead.kinds[0]]
    holds_suit = any(KIND_SUIT[k] == suit for k in kinds)
    for combo in same_size:
        if follow and holds_suit:  # TG-53: a low tile of the led suit
            k = combo[0]
            if KIND_SUIT[k] != suit or KIND_RANK[k] > high.rank:
                continue
        out.add("discard " + " ".join(KIND_NAMES[k] for k in combo))
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_fast_generator_matches_plain_enumeration(options: dict[str, Any]) -> None:
    game = shedkit.make("tiengow", **options)
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            assert len(set(moves)) == len(moves)
            assert [m.action_id for m in moves] == sorted(
                [m.action_id for m in moves if not m.is_discard]
            ) + sorted([m.action_id for m in moves if m.is_discard])
            assert {str(m) for m in moves} == plain_legal(state)
            state.apply(moves[rng.randrange(len(moves))])
