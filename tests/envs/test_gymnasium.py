"""The single-agent Gymnasium wrapper: Gymnasium's checker, seeding, illegal actions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

from gymnasium.utils.env_checker import check_env

import shedkit
from shedkit.envs.gymnasium import SingleAgentEnv


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        ("doudizhu", {}),
        ("doudizhu", {"seat": 2, "opponents": "greedy"}),
        ("president", {"seat": 1, "players": 5, "preset": "all-options"}),
        ("dominoes", {"seat": 3, "opponents": "greedy"}),
        ("tiengow", {"seat": 2, "opponents": "greedy"}),
        ("tiengow", {"seat": 0, "preset": "hong-kong"}),
    ],
)
def test_gymnasium_check_env(game: str, kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker warns that the env has no spec
        # The checker steps with unmasked samples: only the penalty setting takes them all.
        check_env(SingleAgentEnv(game, illegal="penalty", **kwargs))  # type: ignore[arg-type]


def episode(env: SingleAgentEnv, seed: int) -> tuple[list[int], float]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert info["illegal_action"] is False
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
    return actions, reward


def test_seeded_episodes_repeat_and_reward_is_the_learners_score() -> None:
    env = SingleAgentEnv("doudizhu", seat=1, opponents=["greedy", "random"])
    first = [episode(env, s) for s in range(4)]
    assert first == [episode(env, s) for s in range(4)]
    assert env.game_state.is_over
    assert first[-1][1] == env.game_state.returns()[1]
    assert env.opponents[0].name == "greedy" and env.opponents[2].name == "random"


def test_learner_wins_sometimes_and_loses_sometimes() -> None:
    env = SingleAgentEnv("president", players=3, seat=0)
    rewards = {episode(env, s)[1] for s in range(12)}
    assert rewards <= {0.0, 1.0, 2.0} and len(rewards) >= 2


def test_illegal_action_raises_by_default_naming_the_legal_ids() -> None:
    env = SingleAgentEnv("doudizhu")
    obs, info = env.reset(seed=0)
    assert info["illegal_action"] is False
    legal = np.flatnonzero(obs["action_mask"])
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(shedkit.IllegalMoveError, match=f"action {illegal} is not legal") as err:
        env.step(illegal)
    assert all(str(i) in str(err.value) for i in legal)
    with pytest.raises(shedkit.IllegalMoveError):
        env.step(env.game.num_actions)  # outside the action space
    # The episode goes on: a legal action is still taken.
    _, reward, terminated, _, info = env.step(int(legal[0]))
    assert info["illegal_action"] is False and (terminated or reward == 0.0)
    with pytest.raises(shedkit.OptionError, match="reset"):
        SingleAgentEnv("president").step(0)


def test_illegal_action_with_penalty_ends_the_episode_and_says_so() -> None:
    env = SingleAgentEnv("doudizhu", illegal="penalty")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(shedkit.OptionError, match="over"):
        env.step(0)
    # A lost deal ends with the same reward but illegal_action False.
    harsh = SingleAgentEnv("president", illegal="penalty", illegal_reward=-5.0)
    obs, _ = harsh.reset(seed=1)
    _, reward, terminated, _, info = harsh.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal_action"]) == (-5.0, True, True)
    _, final = episode(harsh, 1)
    assert final >= 0.0 and harsh.game_state.is_over


def test_bad_arguments() -> None:
    with pytest.raises(shedkit.OptionError, match="seat"):
        SingleAgentEnv("doudizhu", seat=3)
    with pytest.raises(shedkit.OptionError, match="opponents"):
        SingleAgentEnv("doudizhu", opponents=["random"])
    with pytest.raises(shedkit.OptionError, match="unknown agent"):
        SingleAgentEnv("doudizhu", opponents="nobody")
    with pytest.raises(shedkit.OptionError, match="illegal"):
        SingleAgentEnv("doudizhu", illegal="ignore")  # type: ignore[arg-type]
    with pytest.raises(shedkit.OptionError, match="render_mode"):
        SingleAgentEnv("doudizhu", render_mode="rgb_array")


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = SingleAgentEnv("president", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and ">0" in text
    human = SingleAgentEnv("president", render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert ">0" in capsys.readouterr().out
