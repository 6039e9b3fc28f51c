"""The game contract's metadata and dense action ids (DESIGN.md)."""

from __future__ import annotations

import pytest

import shedkit
from shedkit import IllegalMoveError, InvalidMoveError

PRESETS = ["standard", "de-wikipedia", "four-player"]


@pytest.mark.parametrize("preset", PRESETS)
def test_metadata(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    info = game.info
    assert info.name == "doudizhu"
    assert info.num_players == (4 if preset == "four-player" else 3)
    assert info.chance and info.hidden_information and info.zero_sum
    assert info.num_actions == game.num_actions
    assert info.min_score == -info.max_score < 0
    # The largest real deal value stays inside the bounds: bid 3, every bomb, spring.
    assert 3 * 2 ** (13 * game.options.decks + 2) * (info.num_players - 1) <= info.max_score


@pytest.mark.parametrize("preset", PRESETS)
def test_action_ids_are_dense_and_unique(preset: str) -> None:
    game = shedkit.make("doudizhu", preset=preset)
    moves = [game.action_to_move(i) for i in range(game.num_actions)]
    assert [m.action_id for m in moves] == list(range(game.num_actions))
    assert len(set(moves)) == game.num_actions
    assert len({str(m) for m in moves}) == game.num_actions
    assert [str(m) for m in moves[:4]] == ["pass", "bid1", "bid2", "bid3"]
    for m in moves[:: max(1, game.num_actions // 500)]:
        assert game.parse_move(str(m)) is m


def test_action_counts_are_computed_per_options() -> None:
    counts = {p: shedkit.make("doudizhu", preset=p).num_actions for p in PRESETS}
    assert counts["standard"] < counts["de-wikipedia"]
    assert counts["standard"] < counts["four-player"]
    fewer = shedkit.make("doudizhu", kickers_may_repeat=False).num_actions
    assert fewer < counts["standard"]


@pytest.mark.parametrize("bad", [-1, 10**6, "7", None, 1.5])
def test_bad_action_ids(bad: object) -> None:
    with pytest.raises(IllegalMoveError, match="action id"):
        shedkit.make("doudizhu").action_to_move(bad)  # type: ignore[arg-type]


def test_deal_length_within_max_game_length() -> None:
    import random

    game = shedkit.make("doudizhu")
    longest = 0
    for seed in range(200):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        longest = max(longest, len(state.history))
    assert longest <= game.info.max_game_length


PRESIDENT = [
    {"players": 2},
    {"players": 4, "jokers": 1},
    {"players": 5, "jokers": 1, "rank_order": "two-high"},
]


@pytest.mark.parametrize("options", PRESIDENT, ids=str)
def test_president_metadata_and_action_ids(options: dict[str, object]) -> None:
    game = shedkit.make("president", **options)
    info = game.info
    assert info.name == "president" and info.num_players == options["players"]
    assert info.chance and info.hidden_information and not info.zero_sum
    assert (info.min_score, info.max_score) == (0, info.num_players - 1)
    assert info.num_actions == game.num_actions
    moves = [game.action_to_move(i) for i in range(game.num_actions)]
    assert [m.action_id for m in moves] == list(range(game.num_actions))
    assert len({str(m) for m in moves}) == game.num_actions
    for m in moves:
        assert game.parse_move(str(m)) is m


def test_president_bad_options() -> None:
    for bad in ({"players": 6}, {"players": 1}, {"jokers": 2}, {"rank_order": "two-low"}):
        with pytest.raises(shedkit.OptionError, match="president option"):
            shedkit.make("president", **bad)
    with pytest.raises(shedkit.OptionError, match="all-options, international, standard"):
        shedkit.make("president", preset="daifugo")


@pytest.mark.parametrize("name", sorted(shedkit.GAMES))
@pytest.mark.parametrize("bad", [None, 5, b"77", ["7"]])
def test_parse_move_rejects_non_text_in_every_game(name: str, bad: object) -> None:
    game = shedkit.make(name)
    with pytest.raises(InvalidMoveError, match="text"):
        game.parse_move(bad)


@pytest.mark.parametrize("name", sorted(shedkit.GAMES))
@pytest.mark.parametrize("bad", [-1, 10**6, "7", None, 1.5])
def test_bad_action_ids_in_every_game(name: str, bad: object) -> None:
    with pytest.raises(IllegalMoveError):
        shedkit.make(name).action_to_move(bad)  # type: ignore[arg-type]
