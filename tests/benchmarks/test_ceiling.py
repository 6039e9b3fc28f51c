"""The ceiling script: a search that sees every hidden card against the same search."""

from __future__ import annotations

import argparse
import random
import re

import pytest

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.search.levels import make_level
from tests.benchmarks.test_strength_levels import load


def test_the_seeing_search_draws_the_true_deal_and_keeps_the_rest() -> None:
    """Every deal the seeing knowledge draws is a copy of the true one; its reward,
    rollouts and root moves are the level's own."""
    ceiling = load("ceiling")
    game = shedkit.make("president", players=5)
    state = game.new_deal(seed=3)
    truth = ceiling._Truth()
    truth.state = state
    inner = make_level("hard", game, 1, budget_only=True).knowledge
    seeing = ceiling._Seeing(inner, truth)
    view = state.view(state.current_player)
    draw = seeing.determinizer(view, random.Random(1))
    deals = [draw(), draw()]
    assert deals[0] is not state and deals[0] is not deals[1]
    assert all(d.hands == state.hands for d in deals)
    assert seeing.reward == inner.reward and seeing.paired == inner.paired
    assert seeing.root_moves(view) == inner.root_moves(view)
    assert isinstance(seeing.for_root(view), ceiling._Seeing)


def test_a_tiny_run_prints_the_mean_and_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    """Two Dominoes deals at 8 playouts a move: a mean d with its 95 % interval."""
    ceiling = load("ceiling")
    argv = ["dominoes", "--deals", "2", "--playouts", "8", "--seed", "5"]
    assert ceiling.main(argv) == 0
    out = capsys.readouterr().out
    found = re.search(r"n 2  mean d ([+-]\d\.\d{3}) \[([+-]\d\.\d{3}), ([+-]\d\.\d{3})\]", out)
    assert found is not None, out
    mean, low, high = (float(x) for x in found.groups())
    assert low <= mean <= high and -1.0 <= mean <= 1.0
    # Each deal's d is the same when played again.
    run = argparse.Namespace(
        game="dominoes", players=None, role="landlord", level="hard", playouts=8, seed=5
    )
    assert ceiling.play_deal((run, 1)) == ceiling.play_deal((run, 1))


def test_bad_arguments_get_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    ceiling = load("ceiling")
    with pytest.raises(SystemExit):
        ceiling.main(["president", "--level", "greedy"])
    assert "search level" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ceiling.main(["president", "--deals", "1"])
    assert "at least 2" in capsys.readouterr().err


def test_tiengow_sees_the_face_down_discards_too() -> None:
    """TG-25: the seeing search's deals are the true one, face-down discards and all, and a
    Tien Gow deal's d is a difference of hands won, the same when played again."""
    ceiling = load("ceiling")
    game = shedkit.make("tiengow")
    greedy = make_agent("greedy", game, 1)
    state = game.new_deal(seed=4)
    while not any(move.is_discard for _, move, _ in state.history):
        assert not state.is_over
        state.apply(greedy.act(state.view(state.current_player)))
    hard = make_level("hard", game, 1, budget_only=True, playouts=4)
    truth = ceiling._Truth()
    truth.state = state
    view = state.view(state.current_player)
    draw = ceiling._Seeing(hard.knowledge, truth).determinizer(view, random.Random(1))
    deal = draw()
    assert deal is not state and deal.history == state.history
    assert [deal.hand(s) for s in range(4)] == [state.hand(s) for s in range(4)]
    run = argparse.Namespace(
        game="tiengow", players=None, role="landlord", level="hard", playouts=8, seed=5
    )
    d = ceiling.play_deal((run, 2))
    assert d in (-1.0, 0.0, 1.0) and d == ceiling.play_deal((run, 2))
