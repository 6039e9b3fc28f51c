"""PettingZoo AEC environments for every game: ``env("doudizhu", **options)``.

Agents are named by seat (``player_0`` …), actions are the game's dense
action ids (``Discrete(game.num_actions)``), and each observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` built from the
acting seat's view by the game's encoding (see
`shedkit.envs.encodings`). A deal is one episode; every seat's reward is
its deal score (``game_state.returns()``), given when the deal ends.
``aec.game_state`` is the engine's state of the deal in play; ``aec.state()``
is PettingZoo's global state, which a card game does not define: it raises
`NotImplementedError`, as in PettingZoo's classic card games.

>>> from shedkit.envs.pettingzoo import env
>>> e = env("doudizhu")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["action_mask"].dtype.name, e.agent_selection in e.agents
(['action_mask', 'observation'], 'int8', True)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

import shedkit
from shedkit.core.errors import IllegalMoveError, OptionError
from shedkit.envs.encodings import Encoding, encoding_for
from shedkit.envs.encodings.base import move_mask, render_state

__all__ = ["ShedkitAECEnv", "env", "raw_env"]

Observation = dict[str, NDArray[Any]]


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat."""
    return f"player_{seat}"


class ShedkitAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One game of shedkit as a PettingZoo AEC environment (one deal per episode).

    ``reset(seed=s)`` makes the next deals reproducible: the deal seeds are
    drawn from ``random.Random(s)``; without a seed the first reset draws one.
    An action that is not legal raises [`IllegalMoveError`][shedkit.IllegalMoveError].
    The environment enforces the call order itself (``reset`` first), so it
    needs no PettingZoo wrapper forwarding every attribute on the hot path.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (the PettingZoo API's attribute)
        "render_modes": ["ansi", "human"],
        "name": "shedkit_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str, render_mode: str | None = None, preset: str = "standard", **options: Any
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.game = shedkit.make(game, preset=preset, **options)
        self.encoding: Encoding = encoding_for(self.game)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"shedkit_{game}_v0"}
        n = self.game.num_players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.encoding.layout.size
        num_actions = self.game.num_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng: random.Random | None = None
        # The engine's state of the deal in play (every hand in it); not PettingZoo's state().
        self.game_state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(game.num_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``seed`` reseeds the stream of deal seeds."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_deal(seed=self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.game_state.is_over:  # no move at all (impossible in the games so far)
            self._finish(self.agents[0])
        else:
            self.agent_selection = agent_name(self.game_state.current_player)
        if self.render_mode == "human":
            self.render()

    def state(self) -> NDArray[np.float32]:
        """PettingZoo's global state, which these games do not define: raises `NotImplementedError`.

        A global state would show every hidden hand, so, like PettingZoo's classic
        card games, the environment has none (and no ``state_space``): a
        centralised critic can build one from ``game_state``, the engine's state.
        """
        raise NotImplementedError(
            f"state() method has not been implemented in the environment "
            f"{self.metadata['name']}: a card game's global state would show every hidden "
            "hand; use observe(agent) for what a seat sees, or game_state for the engine's "
            "state of the deal"
        )

    def observe(self, agent: str) -> Observation:
        """The encoded view of ``agent``'s seat and its legal-action mask."""
        if self.game_state is None:
            raise OptionError("call reset() before observe()")
        seat = self._seats[agent]
        state = self.game_state
        fast = getattr(self.encoding, "encode_state", None)
        if fast is not None:
            # The same vector as encode(view), without building a View on every step.
            moves = state.legal_moves() if seat == state.current_player else ()
            return {
                "observation": fast(state, seat),
                "action_mask": move_mask(moves, self.encoding.num_actions),
            }
        view = state.view(seat)
        return {"observation": self.encoding.encode(view), "action_mask": self.encoding.mask(view)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the action id of the agent to move (``None`` for a finished agent)."""
        if self.game_state is None:
            raise OptionError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move; None is only for finished agents")
        move = self.game.action_to_move(int(action))
        self.game_state.apply(move)
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_over:
            self._finish(agent)
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = agent_name(self.game_state.current_player)
        if self.render_mode == "human":
            self.render()

    def _finish(self, last: str) -> None:
        returns = self.game_state.returns()
        for a in self.agents:
            self.rewards[a] = float(returns[self._seats[a]])
            self.terminations[a] = True
        self._accumulate_rewards()
        self.agent_selection = last

    def render(self) -> str | None:
        """The table as text ("ansi") or printed ("human"); every hand is shown."""
        return render_state(self.encoding, self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release; present for the PettingZoo API."""


def env(game: str, render_mode: str | None = None, **options: Any) -> ShedkitAECEnv:
    """The AEC environment of ``game``; ``preset`` and options as for `shedkit.make`."""
    return ShedkitAECEnv(game, render_mode=render_mode, **options)


#: PettingZoo's name for the unwrapped environment; here the two are the same.
raw_env = env
