"""Levels on a playout budget without a clock: how strength is measured."""

from __future__ import annotations

from typing import Any

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.search import SearchAgent
from shedkit.agents.search.levels import LEVELS, PLAIN_SETTINGS, make_level, own_settings


def _view(game: Any, seed: int) -> Any:
    state = game.new_deal(seed=seed, landlord=0)
    greedy = make_agent("greedy", game)
    while len(state.view(state.current_player).legal_moves) < 2:
        state.apply(greedy.act(state.view(state.current_player)))
    return state.view(state.current_player)


def test_budget_only_drops_the_clock_and_takes_a_budget() -> None:
    game = shedkit.make("doudizhu")
    assert make_level("hard", game, 1).seconds == 1.0
    agent = make_level("hard", game, 1, budget_only=True, playouts=12)
    assert isinstance(agent, SearchAgent)
    assert (agent.seconds, agent.playouts) == (None, 12)


def test_expert_over_processes_plays_the_same_moves_for_a_seed() -> None:
    game = shedkit.make("doudizhu")
    view = _view(game, 4)
    moves = []
    for _ in range(2):
        agent = make_level("expert", game, 7, budget_only=True, playouts=16)
        assert agent.workers == 2
        moves.append([agent.act(view) for _ in range(3)])
        agent.close()
    assert moves[0] == moves[1]


def test_a_level_without_search_takes_no_budget() -> None:
    game = shedkit.make("president")
    try:
        make_level("medium", game, 1, playouts=10)
    except ValueError as e:
        assert "does not search" in str(e)
    else:
        raise AssertionError("medium took a playout budget")


def test_settings_reach_the_root_or_the_game_knowledge() -> None:
    """``confidence`` and ``exploration`` set the agent's root; the rest its knowledge."""
    game = shedkit.make("doudizhu")
    plain = make_level("hard", game, 1)
    agent = make_level("hard", game, 1, settings={"confidence": 2, "objective": "adp"})
    assert (agent.confidence, agent.exploration) == (2.0, plain.exploration)
    assert (agent.knowledge.settings.objective, plain.knowledge.settings.objective) == ("adp", "wp")
    try:
        make_level("hard", game, 1, settings={"confidense": 2})
    except ValueError as e:
        assert "confidense" in str(e)
    else:
        raise AssertionError("an unknown setting was taken")


def test_a_level_plays_its_own_settings_unless_told_others() -> None:
    """Dou Di Zhu's expert solves endgames and keeps a wider margin; ``own`` replaces both."""
    game = shedkit.make("doudizhu")
    expert = make_level("expert", game, 1, budget_only=True)
    assert own_settings("expert", "doudizhu") == {"confidence": 2.0, "endgame_cards": 15}
    assert (expert.confidence, expert.knowledge.settings.endgame_cards) == (2.0, 15)
    # A setting named for the run wins over the level's own.
    varied = make_level("expert", game, 1, settings={"endgame_cards": 9})
    assert (varied.confidence, varied.knowledge.settings.endgame_cards) == (2.0, 9)
    plain = make_level("expert", game, 1, own=PLAIN_SETTINGS["doudizhu"])
    assert (plain.confidence, plain.knowledge.settings.endgame_cards) == (1.0, 0)
    hard = make_level("hard", game, 1)
    assert (hard.confidence, hard.knowledge.settings.endgame_cards) == (1.0, 0)
    assert own_settings("expert", "president") == {"mcmc": 400, "chains": 10}
    assert own_settings("expert", "dominoes") == {"objective": "wp"}
    dominoes = shedkit.make("dominoes")
    assert make_level("expert", dominoes, 1).knowledge.settings.objective == "wp"
    assert make_level("hard", dominoes, 1).knowledge.settings.objective == "adp"
    plain = make_level("expert", dominoes, 1, own=PLAIN_SETTINGS["dominoes"])
    assert plain.knowledge.settings.objective == "adp"
    try:
        own_settings("grandmaster", "doudizhu")
    except ValueError as e:
        assert "grandmaster" in str(e)
    else:
        raise AssertionError("an unknown level was taken")


def test_every_own_setting_has_a_plain_default() -> None:
    """Older results files replay a level's own settings with their plain defaults."""
    for level in LEVELS:
        for game in PLAIN_SETTINGS:
            assert set(own_settings(level, game)) <= set(PLAIN_SETTINGS[game]), (level, game)
            plain = make_level(level, shedkit.make(game), 1, own=PLAIN_SETTINGS[game])
            assert plain.name == level


def test_tiengow_levels_play_their_budgets_and_expert_its_chains() -> None:
    """Tien Gow's hard searches on one core for its chips; expert four times the playouts
    over two processes, its deals drawn from two long chains a process on the moves seen,
    the others modelled as greedy (ε = 0.05) and their face-down discards laid as it would."""
    game = shedkit.make("tiengow")
    hard = make_level("hard", game, 1, budget_only=True)
    expert = make_level("expert", game, 1, budget_only=True)
    assert (hard.playouts, hard.workers, hard.seconds) == (1200, 1, None)
    assert (expert.playouts, expert.workers) == (4 * hard.playouts, 2)
    assert own_settings("expert", "tiengow") == {
        "mcmc": 600,
        "chains": 2,
        "model_epsilon": 0.05,
        "model_discards": True,
    }
    settings = expert.knowledge.settings
    assert (settings.mcmc, settings.chains, settings.model_epsilon) == (600, 2, 0.05)
    assert settings.model_discards and not hard.knowledge.settings.model_discards
    assert hard.knowledge.settings.objective == expert.knowledge.settings.objective == "adp"
    assert (hard.knowledge.settings.mcmc, make_level("hard", game, 1).seconds) == (0, 1.0)
    state = game.new_deal(seed=2)
    while len(state.legal_moves()) < 2:
        state.apply(state.legal_moves()[0])
    view = state.view(state.current_player)
    small = make_level("expert", game, 3, budget_only=True, playouts=24)
    try:
        assert small.act(view) in view.legal_moves
    finally:
        small.close()
