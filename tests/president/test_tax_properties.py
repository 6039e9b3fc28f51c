"""Hypothesis properties of the best-cards tax (PRE-21) under random options and deals.

Each example deals a hand after a random finishing order, checks that the
cards handed over are the loser's highest in the order in force at the deal's
start, that the givers' legal moves are every choice of cards of their hands,
plays random moves to the end with every card accounted for at every step,
and replays the record to the same deal.
"""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import shedkit
from shedkit.president import President, State
from shedkit.president.combos import card_key


def all_cards(state: State) -> list[int]:
    cards = [c for seat in range(state.num_players) for c in state.hand(seat)]
    cards += [c for _, m, played in state.history if m.kind != "give" for c in played]
    return sorted(cards + list(state.leftover))


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    jokers=st.sampled_from([0, 1]),
    rank_order=st.sampled_from(["ace-low", "two-high"]),
    revolution=st.booleans(),
    eight_stops=st.booleans(),
)
def test_pre_21_random_deals_play_to_the_end_with_cards_conserved(
    data: st.DataObject,
    players: int,
    seed: int,
    jokers: int,
    rank_order: str,
    revolution: bool,
    eight_stops: bool,
) -> None:
    game: President = shedkit.make(
        "president",
        players=players,
        jokers=jokers,
        rank_order=rank_order,
        eight_stops=eight_stops,
        revolution_persists=True,
        tax=True,
        tax_style="best",
    )
    order = data.draw(st.permutations(range(players)), label="previous_order")
    state = game.new_deal(seed=seed, previous_order=order, revolution=revolution)
    deck = sorted(game.deck)
    position = game.tables.position
    expected = [(order[0], order[-1], 2)] + ([(order[1], order[-2], 1)] if players >= 4 else [])
    assert state.exchanges == expected
    for (giver, loser, count), taken in zip(state.exchanges, state.tax_draws, strict=True):
        ranked = sorted(state.dealt[loser], key=lambda c: card_key(c, position, revolution))
        assert set(taken) == set(ranked[-count:])
        assert set(taken) <= set(state.hand(giver)) and not set(taken) & set(state.hand(loser))
    rng = random.Random(seed)
    while not state.is_over:
        assert all_cards(state) == deck
        moves = state.legal_moves()
        if state.phase == "tax":
            seat = state.current_player
            assert seat is not None
            count = state.exchanges[state.tax_step][2]
            combos = {frozenset(c) for c in itertools.combinations(state.hand(seat), count)}
            assert {frozenset(m.cards) for m in moves} == combos and len(moves) == len(combos)
        state.apply(moves[rng.randrange(len(moves))])
    assert all_cards(state) == deck
    assert sorted(state.finished) == list(range(players))
    record = json.loads(json.dumps(state.record()))
    again = shedkit.replay(record)
    assert again.record() == record and again.hands == state.hands
