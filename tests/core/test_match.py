"""Matches: records saved per deal, seeded deals, clear errors (DDZ-34)."""

from __future__ import annotations

from pathlib import Path

import pytest

import shedkit
from shedkit import OptionError
from shedkit.agents import make_agent
from shedkit.core.match import Match, play_deal
from shedkit.core.records import load_record


def play_match(match: Match) -> None:
    agents = [make_agent("random", match.game, seed) for seed in range(match.game.num_players)]
    while not match.is_over:
        match.finish_deal(play_deal(match.next_deal(), agents))


def test_every_deal_is_saved_and_replays(tmp_path: Path) -> None:
    match = Match(shedkit.make("doudizhu"), seed=21, deals=4, records_dir=tmp_path)
    play_match(match)
    files = sorted(tmp_path.glob("deal-*.json"))
    assert len(files) == len(match.results) >= 4
    assert not list(tmp_path.glob("*.tmp"))
    for path, result in zip(files, match.results, strict=True):
        state = shedkit.replay(load_record(path))
        assert tuple(state.returns()) == result.returns
    assert match.totals == [sum(r.returns[s] for r in match.results) for s in range(3)]
    assert sum(match.totals) == 0


def test_same_seed_same_match() -> None:
    first, second = (Match(shedkit.make("doudizhu"), seed=5, deals=3) for _ in range(2))
    play_match(first)
    play_match(second)
    assert [r.record for r in first.results] == [r.record for r in second.results]


def test_match_errors() -> None:
    game = shedkit.make("doudizhu")
    with pytest.raises(OptionError, match="deals"):
        Match(game, deals=0)
    with pytest.raises(OptionError, match="target"):
        Match(game, target=-5)
    match = Match(game, seed=1, deals=1)
    with pytest.raises(OptionError, match="finished deal"):
        match.finish_deal(match.next_deal())
    play_match(match)
    with pytest.raises(OptionError, match="over"):
        match.next_deal()


def test_a_match_that_does_not_keep_records_returns_each_and_keeps_none() -> None:
    """keep_records=False: finish_deal returns the record; results hold none of them."""
    game = shedkit.make("president")
    kept = Match(game, seed=3, deals=4)
    flat = Match(game, seed=3, deals=4, keep_records=False)
    agents = [make_agent("greedy", game, seat) for seat in range(game.num_players)]
    while not kept.is_over:
        a = play_deal(kept.next_deal(), agents)
        b = play_deal(flat.next_deal(), agents)
        assert kept.finish_deal(a).record == flat.finish_deal(b).record
    assert all(r.record is not None for r in kept.results)
    assert all(r.record is None for r in flat.results)
    assert kept.totals == flat.totals and kept.deals_played == flat.deals_played == 4
