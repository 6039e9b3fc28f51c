"""The move generator against the independent reference (DDZ-11, DDZ-15…23, DDZ-16a)."""

from __future__ import annotations

import random

import pytest

import shedkit
from shedkit.doudizhu.movegen import lead_moves, response_moves
from tests.doudizhu.reference import beats, reference_leads

PRESETS = ["standard", "de-wikipedia", "four-player"]
VARIANTS = [
    ("standard", {}),
    ("standard", {"kickers_may_repeat": False}),
    ("standard", {"rocket_as_kickers": True}),
    ("de-wikipedia", {}),
    ("four-player", {}),
    ("four-player", {"rocket_as_kickers": True}),
]


def random_hand(rng: random.Random, players: int, size: int) -> list[int]:
    """A hand biased towards runs of trios and quads, where kickers get interesting."""
    per_rank = 4 * (players - 2)
    deck = [r for r in range(13) for _ in range(per_rank)] + [13, 14] * (players - 2)
    counts = [0] * 15
    lo = rng.randrange(0, 10)
    for r in range(lo, lo + rng.randrange(1, 4)):
        counts[r] = min(per_rank, rng.choice((3, 3, 4)))
    for r in rng.sample(range(13), rng.randrange(0, 3)):
        counts[r] = max(counts[r], 2)
    if rng.random() < 0.3:
        counts[13] = counts[14] = players - 2
    left = list(deck)
    rng.shuffle(left)
    for r in left:
        if sum(counts) >= size:
            break
        if counts[r] < deck.count(r):
            counts[r] += 1
    return counts


def key(m: shedkit.doudizhu.Move) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    return (m.kind, m.base, m.kickers)


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_leads_match_reference(preset: str, options: dict[str, bool]) -> None:
    game = shedkit.make("doudizhu", preset=preset, **options)
    rng = random.Random(f"leads-{preset}-{sorted(options.items())}")
    for _ in range(60):
        hand = random_hand(rng, game.num_players, rng.randrange(6, 14))
        moves = lead_moves(hand, game.tables)
        assert len(set(moves)) == len(moves), "a reading generated twice"
        assert {key(m) for m in moves} == reference_leads(hand, game.options), hand


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_responses_match_reference(preset: str, options: dict[str, bool]) -> None:
    game = shedkit.make("doudizhu", preset=preset, **options)
    rng = random.Random(f"responses-{preset}")
    for _ in range(40):
        hand = random_hand(rng, game.num_players, rng.randrange(6, 12))
        other = random_hand(rng, game.num_players, rng.randrange(6, 12))
        leads = reference_leads(hand, game.options)
        for last in rng.sample(lead_moves(other, game.tables), 8):
            got = response_moves(hand, game.tables, last)
            assert got[0].kind == "pass"
            want = {k for k in leads if beats(k, key(last), game.options)}
            assert {key(m) for m in got[1:]} == want, (hand, str(last))


def test_every_generated_move_has_its_dense_id() -> None:
    for preset in PRESETS:
        game = shedkit.make("doudizhu", preset=preset)
        rng = random.Random(preset)
        for _ in range(50):
            hand = random_hand(rng, game.num_players, 20)
            for m in lead_moves(hand, game.tables):
                assert game.action_to_move(m.action_id) is m
                assert game.action_to_string(m.action_id) == str(m)
