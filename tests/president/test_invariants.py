"""Randomized invariants of President for every player count 2–5, with and without each option.

Deals are played in match sequence (``match_setup``), so the tax and a lasting
revolution come into play. On every state: cards are conserved, every legal
move applies, views hide the other hands and the tax's cards, records replay
to the same state, ``parse_move(str(m)) == m`` for every legal move, and
``determinize`` gives a state consistent with the view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

import shedkit
from shedkit.president import President, State
from shedkit.president.combos import EIGHT
from shedkit.president.view import HIDDEN_GIVE

OPTIONS: list[dict[str, object]] = [
    {},
    {"jokers": 1},
    {"rank_order": "two-high"},
    {"pass_is_final": True},
    {"revolution_persists": True},
    {"eight_stops": True},
    {"tax": True},
    {
        "jokers": 1,
        "rank_order": "two-high",
        "pass_is_final": True,
        "revolution_persists": True,
        "eight_stops": True,
        "tax": True,
    },
    # PRE-21: the tax with the best cards, alone and with the options that change the order.
    {"tax": True, "tax_style": "best"},
    {
        "jokers": 1,
        "rank_order": "two-high",
        "revolution_persists": True,
        "tax": True,
        "tax_style": "best",
    },
]
CASES = [(n, o) for n in range(2, 6) for o in OPTIONS]
DEALS = 20


def case_id(case: tuple[int, dict[str, object]]) -> str:
    n, options = case
    name = "all-options" if len(options) > 1 else "-".join(options) or "plain"
    if options.get("tax_style") == "best":
        name = "tax-best" if len(options) == 2 else "order-options-tax-best"
    return f"{n}p-{name}"


def deals(players: int, options: dict[str, object]) -> Iterator[tuple[State, list[State]]]:
    """Seeded random deals in match order, each with every state it passed through."""
    game: President = shedkit.make("president", players=players, **options)
    previous: State | None = None
    for number in range(DEALS):
        rng = random.Random(number)
        setup = game.match_setup(number, previous)
        state = game.new_deal(seed=1000 * players + number, **setup)
        states = [state.clone()]
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            states.append(state.clone())
        previous = state
        yield state, states


def all_cards(state: State) -> list[int]:
    cards = [c for seat in range(state.num_players) for c in state.hand(seat)]
    cards += [c for _, m, played in state.history if m.kind != "give" for c in played]
    return sorted(cards + list(state.leftover))


def known_elsewhere(state: State, seat: int) -> set[int]:
    """Other seats' cards ``seat`` may know: those it gave, and those drawn from it."""
    known: set[int] = set()
    for who, move, cards in state.history:
        if move.kind == "give" and who == seat:
            known |= set(cards)
    for (_, loser, _), drawn in zip(state.exchanges, state.tax_draws, strict=True):
        if loser == seat:
            known |= set(drawn)
    return known


@pytest.fixture(scope="module", params=CASES, ids=case_id)
def played(request: pytest.FixtureRequest) -> list[tuple[State, list[State]]]:
    players, options = request.param
    return list(deals(players, options))


def test_cards_conserved_and_places_complete(played: list[tuple[State, list[State]]]) -> None:
    for final, states in played:
        deck = sorted(final.game.deck)
        for state in states:
            assert all_cards(state) == deck
        n = final.num_players
        assert sorted(final.finished) == list(range(n))
        assert sorted(final.returns()) == list(range(n))
        assert all(not final.hands[s] for s in final.finished[:-1])


def test_the_options_come_into_play(played: list[tuple[State, list[State]]]) -> None:
    opts = played[0][0].game.options
    history = [m for final, _ in played for _, m, _ in final.history]
    if opts.tax:
        assert all(final.exchanges for final, _ in played[1:])
    if opts.jokers:
        assert any(m.has_joker for m in history)
    if opts.eight_stops:
        assert any(EIGHT in m.faces for m in history)


def test_every_legal_move_applies(played: list[tuple[State, list[State]]]) -> None:
    for _, states in played[:4]:
        for state in states[:-1]:
            for move in state.legal_moves():
                after = state.clone()
                after.apply(move)
                assert len(after.history) == len(state.history) + 1


def test_views_hide_other_hands_and_the_tax(played: list[tuple[State, list[State]]]) -> None:
    for _, states in played:
        for state in states:
            for seat in range(state.num_players):
                view = state.view(seat)
                assert view.hand == state.hand(seat)
                hidden = {c for s in range(state.num_players) if s != seat for c in state.hand(s)}
                hidden -= known_elsewhere(state, seat)
                visible = set(view.hand) | set(view.tax_drawn) | set(view.tax_lost)
                visible |= {c for _, _, cards in view.history for c in cards}
                assert not visible & hidden
                for (giver, loser, _), drawn in zip(state.exchanges, state.tax_draws, strict=True):
                    if seat not in (giver, loser):
                        assert not set(drawn) & (set(view.tax_drawn) | set(view.tax_lost))
                for who, move, cards in view.history:
                    if move.kind == "give" and seat not in (who, state._receiver_of(who)):
                        assert move is HIDDEN_GIVE and cards == ()
                expected = state.legal_moves() if seat == state.current_player else ()
                assert view.legal_moves == expected
                assert view.cards_left == tuple(len(state.hand(s)) for s in range(view.num_players))


def test_records_replay_to_the_same_state(played: list[tuple[State, list[State]]]) -> None:
    for final, states in played:
        for state in (*states[:: max(1, len(states) // 4)], final):
            record = json.loads(json.dumps(state.record()))
            again = shedkit.replay(record)
            assert again.hands == state.hands
            assert again.history == state.history
            assert again.finished == state.finished
            assert again.current_player == state.current_player
            assert again.revolution == state.revolution
            assert again.record() == record


def test_notation_round_trips_every_legal_move(played: list[tuple[State, list[State]]]) -> None:
    for final, states in played:
        game = final.game
        for state in states:
            for move in state.legal_moves():
                assert game.parse_move(str(move), state) == move
                assert game.parse_move(state.notation(move), state) is move


def test_determinize_is_consistent_with_the_view(played: list[tuple[State, list[State]]]) -> None:
    rng = random.Random(5)
    for final, states in played[:6]:
        game = final.game
        for state in states[:: max(1, len(states) // 6)]:
            seat = state.current_player if state.current_player is not None else 0
            view = state.view(seat)
            det = game.determinize(view, rng)
            again = det.view(seat)
            for field in (
                "hand",
                "cards_left",
                "leftover",
                "phase",
                "current_player",
                "revolution",
                "last_play",
                "finished",
                "legal_moves",
                "passed",
            ):
                assert getattr(again, field) == getattr(view, field), field
            assert all_cards(det) == sorted(game.deck)
            for s in range(state.num_players):
                if s != seat:
                    assert not set(det.hand(s)) & set(view.hand)
            for card in known_elsewhere(state, seat):
                holder = [s for s in range(state.num_players) if card in state.hand(s)]
                if holder:
                    assert card in det.hand(holder[0])
            if not det.is_over:
                move = det.legal_moves()[0]
                det.apply(move)  # the determinized state plays on
