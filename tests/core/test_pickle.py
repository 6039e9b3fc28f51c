"""Games, tables, states, moves and views pickle and come back equal, on both builds.

Search bots send them to worker processes; compiled classes need their own
``__reduce__``, so this runs under ``make test`` and ``make test-compiled``.
"""

from __future__ import annotations

import pickle
import random

import pytest

import shedkit


@pytest.mark.parametrize("name", sorted(shedkit.GAMES))
def test_a_pickled_deal_plays_on_like_the_original(name: str) -> None:
    game = shedkit.make(name)
    state = game.new_deal(seed=11)
    rng = random.Random(11)
    for _ in range(6):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.record() == state.record()
    assert pickle.loads(pickle.dumps(game)).options == game.options
    assert pickle.loads(pickle.dumps(game.tables)) is game.tables  # the cached tables
    seat = state.current_player
    assert pickle.loads(pickle.dumps(state.view(seat))) == state.view(seat)
    assert pickle.loads(pickle.dumps(state.legal_moves())) == state.legal_moves()
    for current in (state, copy):
        play = random.Random(5)
        while not current.is_over:
            moves = current.legal_moves()
            current.apply(moves[play.randrange(len(moves))])
    assert copy.record() == state.record()
