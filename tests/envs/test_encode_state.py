"""The env's fast observation (from the state's own counts) equals the View-based encoding."""

from __future__ import annotations

import random

import numpy as np
import pytest

import shedkit
from shedkit.envs.encodings.doudizhu import DouDizhuEncoding


@pytest.mark.parametrize("preset", ["standard", "de-wikipedia", "four-player"])
def test_encode_state_equals_encode_of_the_view(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    enc = DouDizhuEncoding(game)
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while True:
            for seat in range(game.num_players):
                fast = enc.encode_state(state, seat)
                assert np.array_equal(fast, enc.encode(state.view(seat)))
                checked += 1
            if state.is_over:
                break
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    assert checked > 1000


def test_encode_state_returns_a_fresh_array_each_time() -> None:
    game = shedkit.make("doudizhu")
    enc = DouDizhuEncoding(game)
    state = game.new_deal(seed=2)
    first = enc.encode_state(state, 0)
    kept = first.copy()
    while state.current_player != 1 or state.phase == "auction":
        state.apply(state.legal_moves()[-1])
    second = enc.encode_state(state, 1)
    assert np.array_equal(first, kept)  # a stored observation is not overwritten
    assert not np.array_equal(first, second)
