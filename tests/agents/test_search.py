"""The search engine, its per-game pieces and the levels registered as agents."""

from __future__ import annotations

import random
from typing import Any

import pytest

import shedkit
from shedkit.agents import AGENTS, make_agent
from shedkit.agents.search import LEVELS, EpsilonGreedy, SearchAgent, knowledge_for
from shedkit.agents.search.engine import run_playouts
from shedkit.agents.search.knowledge import DominoesKnowledge

GAMES = ("doudizhu", "president", "dominoes")


def _decision(game: Any, seed: int) -> Any:
    """A view with several legal moves, reached by greedy play from a seeded deal."""
    state = (
        game.new_deal(seed=seed, landlord=0)
        if game.name == "doudizhu"
        else game.new_deal(seed=seed)
    )
    greedy = make_agent("greedy", game)
    while True:
        view = state.view(state.current_player)
        if len(view.legal_moves) > 1:
            return view
        state.apply(greedy.act(view))


@pytest.mark.parametrize("name", GAMES)
def test_levels_are_registered_for_every_game(name: str) -> None:
    """easy, medium, hard and expert build agents that play a legal move."""
    game = shedkit.make(name)
    view = _decision(game, 3)
    for level in LEVELS:
        assert name in AGENTS[level]
        agent = make_agent(level, game, seed=1)
        if isinstance(agent, SearchAgent):
            agent.playouts, agent.seconds, agent.workers = 8, None, 1
        assert agent.act(view) in view.legal_moves


@pytest.mark.parametrize("name", GAMES)
def test_search_is_reproducible_for_a_seed(name: str) -> None:
    """A playout budget and a seed give the same statistics and the same move."""
    game = shedkit.make(name)
    view = _decision(game, 5)
    knowledge = knowledge_for(game)
    first = run_playouts(game, knowledge, view, 24, seed=9)
    assert first == run_playouts(game, knowledge, view, 24, seed=9)
    assert sum(first[0]) == 24 and len(first) == 3
    moves = [SearchAgent(game, knowledge, seed=4, playouts=24).act(view) for _ in range(2)]
    assert moves[0] == moves[1]


def test_search_over_processes_adds_the_workers_statistics() -> None:
    """Root parallelism: two processes share the budget and agree with a seeded rerun."""
    game = shedkit.make("dominoes")
    view = _decision(game, 2)
    agent = SearchAgent(game, knowledge_for(game), seed=3, playouts=16, workers=2)
    try:
        visits, _, _ = agent._search(view, 11)
        again, _, _ = agent._search(view, 11)
    finally:
        agent.close()
    assert sum(visits) == 16
    assert visits == again


def test_dom_07_exact_endgame_matches_exhaustive_play() -> None:
    """DOM-07: alpha-beta gives the minimax value of a small endgame with no boneyard."""
    game = shedkit.make("dominoes", preset="block")
    knowledge = DominoesKnowledge(game, endgame_tiles=28)
    endgames = []
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over and sum(len(state.hand(s)) for s in range(4)) > 6:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if not state.is_over:
            endgames.append(state)
    assert len(endgames) >= 5

    def minimax(s: Any) -> float:
        if s.is_over:
            return knowledge.reward(s, 0)
        values = []
        for m in s.legal_moves():
            child = s.clone()
            child.apply(m)
            values.append(minimax(child))
        mine = game.side_of[s.current_player] == game.side_of[0]
        return max(values) if mine else min(values)

    for state in endgames:
        assert knowledge.exact(state, 0) == minimax(state)


def test_bad_settings_get_clear_errors() -> None:
    """Budgets, ε and levels are checked when the agent is built."""
    game = shedkit.make("president")
    with pytest.raises(ValueError, match="playouts"):
        SearchAgent(game, knowledge_for(game), playouts=0)
    with pytest.raises(ValueError, match="workers"):
        SearchAgent(game, knowledge_for(game), workers=0)
    with pytest.raises(ValueError, match="epsilon"):
        EpsilonGreedy(make_agent("greedy", game), 1.5)
    with pytest.raises(ValueError, match="spectator"):
        SearchAgent(game, knowledge_for(game), playouts=4).act(_spectator(game))


def _spectator(game: Any) -> Any:
    state = game.new_deal(seed=1)
    view = state.view(state.current_player)
    import dataclasses

    return dataclasses.replace(view, seat=None)
