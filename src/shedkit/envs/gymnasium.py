"""A Gymnasium single-agent environment: one seat learns, the other seats are agents.

``SingleAgentEnv("president", seat=0, opponents="random")`` plays the other
seats with [`make_agent`][shedkit.agents.make_agent] bots until it is the
learner's turn. Observations are ``{"observation": …, "action_mask": …}`` as in the
PettingZoo environment, and ``info["action_mask"]`` holds the mask too. The
reward is the learner's deal score, given when the deal ends.

An action id that is not legal raises [`IllegalMoveError`][shedkit.IllegalMoveError]
naming the legal ids (``illegal="raise"``, the default); ``illegal="penalty"``
ends the episode instead, with reward ``illegal_reward`` and
``info["illegal_action"] = True`` (Gymnasium's ``check_env`` and unmasked
policies step with any id of the action space). Every ``info`` carries
``illegal_action``, so an illegal ending is told apart from a lost deal.

>>> from shedkit.envs.gymnasium import SingleAgentEnv
>>> env = SingleAgentEnv("doudizhu", seat=1, opponents="greedy")
>>> obs, info = env.reset(seed=3)
>>> bool(obs["action_mask"].any()), bool((info["action_mask"] == obs["action_mask"]).all())
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

import shedkit
from shedkit.agents import Agent, make_agent
from shedkit.core.errors import IllegalMoveError, OptionError
from shedkit.envs.encodings import Encoding, encoding_for
from shedkit.envs.encodings.base import render_state

__all__ = ["SingleAgentEnv"]

Observation = dict[str, NDArray[Any]]


class SingleAgentEnv(gym.Env[Observation, np.int64]):
    """One seat of a shedkit game as a Gymnasium environment (one deal per episode).

    ``opponents`` is one agent name for every other seat, or one name per
    other seat in seat order. ``reset(seed=s)`` fixes the deals and the
    opponents' choices. Options and ``preset`` go to [`shedkit.make`][shedkit.make].
    ``game_state`` is the engine's state of the deal in play.

    An action id whose ``action_mask`` entry is 0 is illegal. With
    ``illegal="raise"`` (the default) ``step`` raises
    [`IllegalMoveError`][shedkit.IllegalMoveError], naming the legal ids, and the
    episode goes on. With ``illegal="penalty"`` the episode ends: the reward is
    ``illegal_reward`` (-1.0 unless set, which is also what a Dou Di Zhu peasant
    loses at stake 1: choose a value below the game's lowest score to make it
    stand out) and ``info["illegal_action"]`` is True; it is False in every other
    ``info``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (the API's name)

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        illegal: Literal["raise", "penalty"] = "raise",
        illegal_reward: float = -1.0,
        preset: str = "standard",
        **options: Any,
    ) -> None:
        self.game = shedkit.make(game, preset=preset, **options)
        n = self.game.num_players
        if not isinstance(seat, int) or seat not in range(n):
            raise OptionError(f"seat must be 0…{n - 1}, not {seat!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise OptionError(f"opponents must name 1 or {n - 1} agents, not {len(names)}")
        for name in names:
            make_agent(name, self.game)  # an unknown agent fails here, not at reset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        if illegal not in ("raise", "penalty"):
            raise OptionError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        self.seat = seat
        self.opponent_names = names
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.encoding: Encoding = encoding_for(self.game)
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoding.layout.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: Any = None
        self._done = True
        self.opponents: dict[int, Agent] = {}

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        view = self.game_state.view(self.seat)
        mask = self.encoding.mask(view)
        obs: Observation = {"observation": self.encoding.encode(view), "action_mask": mask}
        return obs, {"action_mask": mask, "illegal_action": False}

    def _play_opponents(self) -> None:
        state = self.game_state
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            state.apply(self.opponents[seat].act(state.view(seat)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new hand and play the opponents up to the learner's first turn."""
        super().reset(seed=seed)
        others = [s for s in range(self.game.num_players) if s != self.seat]
        while True:
            deal_seed = int(self.np_random.integers(2**63))
            self.opponents = {
                s: make_agent(name, self.game, int(self.np_random.integers(2**63)))
                for s, name in zip(others, self.opponent_names, strict=True)
            }
            self.game_state = self.game.new_deal(seed=deal_seed)
            self._play_opponents()
            if not self.game_state.is_over:  # a deal that ends before the learner moves is redealt
                break
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observe()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents until its next turn or the end."""
        if self.game_state is None:
            raise OptionError("call reset() before step()")
        if self._done:
            raise OptionError("the episode is over; call reset()")
        action_id = int(action)
        legal = self.game_state.legal_moves()
        move = None
        if 0 <= action_id < self.game.num_actions:
            candidate = self.game.action_to_move(action_id)
            move = next((m for m in legal if m is candidate or m == candidate), None)
        if move is None:
            if self.illegal == "raise":
                ids = sorted(m.action_id for m in legal)
                shown = ", ".join(map(str, ids[:30])) + (
                    f", … ({len(ids)} in all)" if ids[30:] else ""
                )
                raise IllegalMoveError(
                    f"action {action_id} is not legal now; legal action ids: {shown} (the ids "
                    "where action_mask is 1; illegal='penalty' ends the episode instead)"
                )
            obs, info = self._observe()
            info["illegal_action"] = True
            self._done = True
            return obs, self.illegal_reward, True, False, info
        self.game_state.apply(move)
        self._play_opponents()
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        if self.game_state.is_over:
            self._done = True
            return obs, float(self.game_state.returns()[self.seat]), True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """The table as text ("ansi") or printed ("human"); every hand is shown."""
        return render_state(self.encoding, self.game_state, self.render_mode)
