"""The ``dominoes`` package's AI as an arena agent, meeting shedkit's bots head to head."""

from __future__ import annotations

import pytest

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.dominoes_pkg import available

pytestmark = pytest.mark.skipif(not available(), reason="the dominoes package is not installed")


def test_dom_07_pkg_alphabeta_plays_block_deals_against_greedy() -> None:
    """Partners 0 and 2 play the package's AI, 1 and 3 greedy; every move is legal."""
    game = shedkit.make("dominoes", preset="block")
    for seed in range(2):
        state = game.new_deal(seed=seed)
        agents = [
            make_agent("pkg-alphabeta" if s % 2 == 0 else "greedy", game, s) for s in range(4)
        ]
        while not state.is_over:
            view = state.view(state.current_player)
            move = agents[state.current_player].act(view)
            assert move in view.legal_moves
            state.apply(move)


def test_pkg_alphabeta_refuses_games_the_package_does_not_play() -> None:
    """Only four players, partnerships, double six, block: else a clear error."""
    for preset in ("two-player", "all-fives", "double-nine"):
        with pytest.raises(ValueError, match="dominoes package plays"):
            make_agent("pkg-alphabeta", shedkit.make("dominoes", preset=preset))
