"""The PettingZoo AEC environments: PettingZoo's own API, seed and render tests, rewards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")

from pettingzoo.test import api_test, render_test, seed_test

import shedkit
from shedkit.envs.pettingzoo import env

# Every game and player count the envs support today, with a short run each.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("doudizhu", {}),
    ("doudizhu", {"players": 4}),
    ("president", {"players": 2}),
    ("president", {"players": 3}),
    ("president", {"players": 4}),
    ("president", {"players": 5, "preset": "all-options"}),
    ("dominoes", {}),
    ("dominoes", {"players": 2}),
    ("dominoes", {"players": 3, "preset": "all-fives"}),
    ("dominoes", {"players": 5}),
    ("dominoes", {"players": 6, "preset": "block"}),
    ("tiengow", {}),
    ("tiengow", {"preset": "hong-kong"}),
    ("tiengow", {"preset": "dominorules", "alternate_direction": True}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_pettingzoo_api_seed_and_render(game: str, options: dict[str, Any]) -> None:
    api_test(env(game, **options), num_cycles=60)
    seed_test(lambda: env(game, **options), num_cycles=60)
    render_test(lambda render_mode=None: env(game, render_mode=render_mode, **options))


def play_out(e: Any, seed: int) -> tuple[dict[str, float], int]:
    """Random masked play of one deal; returns the final rewards and the decisions."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    decisions = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))
        decisions += 1
    return final, decisions


@pytest.mark.parametrize(("game", "options"), [*CONFIGS[:3], ("tiengow", {})])
def test_rewards_are_the_deal_scores(game: str, options: dict[str, Any]) -> None:
    # Replaying the chosen actions on the engine gives the same returns as the rewards.
    e = env(game, **options)
    for seed in range(3):
        e.reset(seed=seed)
        state = e.unwrapped.game_state
        rng = np.random.default_rng(seed)
        mirror = e.unwrapped.game.replay(state.record())
        for agent in e.agent_iter():
            obs, reward, terminated, _, _ = e.last()
            if terminated:
                assert reward == mirror.returns()[int(agent.split("_")[1])]
                e.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            mirror.apply(e.unwrapped.game.action_to_move(action))
            e.step(action)
        assert mirror.is_over
        if game in ("doudizhu", "tiengow"):
            assert sum(mirror.returns()) == 0


def test_mask_is_the_legal_moves_and_only_the_mover_has_one() -> None:
    e = env("doudizhu")
    e.reset(seed=5)
    for _ in range(25):
        mover = e.agent_selection
        if e.terminations[mover]:
            break
        seat = int(mover.split("_")[1])
        legal = e.unwrapped.game_state.legal_moves()
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            if agent == mover:
                assert set(np.flatnonzero(mask)) == {m.action_id for m in legal}
            else:
                assert not mask.any()
        assert seat == e.unwrapped.game_state.current_player
        e.step(legal[-1].action_id)  # the highest bid, then the last play listed


def test_illegal_and_out_of_order_actions_raise() -> None:
    e = env("doudizhu")
    with pytest.raises(shedkit.OptionError, match="reset"):
        e.step(0)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(shedkit.IllegalMoveError):
        e.step(illegal)
    with pytest.raises(shedkit.IllegalMoveError):
        e.step(e.unwrapped.game.num_actions)
    with pytest.raises(shedkit.IllegalMoveError):
        e.step(None)
    with pytest.raises(shedkit.OptionError):
        env("doudizhu", render_mode="rgb_array")
    with pytest.raises(shedkit.OptionError):
        env("doudizhu", players=7)


def test_state_is_pettingzoos_method_and_the_deal_is_game_state() -> None:
    # PettingZoo's classic card games define no global state: state() raises, as its base does.
    e = env("doudizhu")
    e.reset(seed=3)
    assert not hasattr(e, "state_space")
    with pytest.raises(NotImplementedError, match=r"shedkit_doudizhu_v0.*observe\(agent\)"):
        e.state()
    deal = e.unwrapped.game_state
    assert deal.current_player == int(e.agent_selection.split("_")[1])
    assert e.observe(e.agent_selection)["action_mask"].sum() == len(deal.legal_moves())


def test_same_seed_same_deals_different_seed_other_deals() -> None:
    a, b = env("president"), env("president")
    runs_a = [play_out(a, s) for s in (1, 2)]
    runs_b = [play_out(b, s) for s in (1, 2)]
    assert runs_a == runs_b
    # Consecutive unseeded resets continue the seeded stream of deals.
    a.reset(seed=9)
    first = a.unwrapped.game_state.dealt
    a.reset()
    b.reset(seed=9)
    b.reset()
    assert a.unwrapped.game_state.dealt == b.unwrapped.game_state.dealt != first
    stream = random.Random(9)
    stream.getrandbits(63)
    assert a.unwrapped.game_state.seed == stream.getrandbits(63)
