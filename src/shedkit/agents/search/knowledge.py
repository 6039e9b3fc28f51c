"""The per-game pieces of the search engine: reward, rollout policy, exact endgames.

Dou Di Zhu scores the stake-weighted deal result (peasants share theirs, so
both peasants get the same reward); President the finishing place; Dominoes
the points of the seat's side less the best other side's, and it solves small
endgames exactly by alpha-beta once the boneyard is empty.
"""

from __future__ import annotations

import math
import random
from typing import Any

from shedkit.agents.base import make_agent
from shedkit.core.compiled import mypyc_attr

__all__ = ["DominoesKnowledge", "GreedyRollouts", "knowledge_for"]


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyRollouts:
    """Rollouts by the game's greedy bot with ε-random moves; reward from ``returns()``."""

    def __init__(self, game: Any, epsilon: float = 0.1) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        self.game = game
        self.epsilon = epsilon
        self.greedy = make_agent("greedy", game)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Rebuilt from its settings (the greedy bot is made anew): compiled classes
        # cannot be unpickled by filling in the attributes of an empty object.
        return type(self), (self.game, self.epsilon)

    def reward(self, state: Any, seat: int) -> float:
        """The seat's own deal score (already a team's score where the game has teams)."""
        return float(state.returns()[seat])

    def rollout_move(self, state: Any, rng: random.Random) -> Any:
        """The greedy move, or with probability ε a uniformly random legal one."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if rng.random() < self.epsilon:
            return moves[rng.randrange(len(moves))]
        return self.greedy.act(state.view(state.current_player))

    def exact(self, state: Any, seat: int) -> float | None:
        """No exact solver for this game."""
        return None

    def prior_move(self, view: Any) -> Any:
        """The greedy bot's move: the search must beat it clearly to play another."""
        return self.greedy.act(view)


@mypyc_attr(allow_interpreted_subclasses=True)
class DominoesKnowledge(GreedyRollouts):
    """Dominoes: side points against the best other side; exact endgames (alpha-beta)."""

    def __init__(self, game: Any, epsilon: float = 0.1, endgame_tiles: int = 7) -> None:
        super().__init__(game, epsilon)
        self.endgame_tiles = endgame_tiles
        self.side_of: tuple[int, ...] = game.side_of

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), (self.game, self.epsilon, self.endgame_tiles)

    def reward(self, state: Any, seat: int) -> float:
        """The seat's side's points less the best other side's."""
        returns = state.returns()
        mine = self.side_of[seat]
        others = [returns[s] for s in range(len(returns)) if self.side_of[s] != mine]
        return float(returns[seat] - max(others))

    def exact(self, state: Any, seat: int) -> float | None:
        """Alpha-beta value once the boneyard is empty and few tiles are left in hands."""
        if state.boneyard_left or state.is_over:
            return None
        # Tiles in hands, counted on the bit masks: this runs at every rollout step.
        if sum(h.bit_count() for h in state.hands) > self.endgame_tiles:
            return None
        return self._alphabeta(state, seat, -math.inf, math.inf)

    def _alphabeta(self, state: Any, seat: int, alpha: float, beta: float) -> float:
        if state.is_over:
            return self.reward(state, seat)
        maximizing = self.side_of[state.current_player] == self.side_of[seat]
        value = -math.inf if maximizing else math.inf
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            score = self._alphabeta(child, seat, alpha, beta)
            if maximizing:
                value = max(value, score)
                alpha = max(alpha, value)
            else:
                value = min(value, score)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return value


def knowledge_for(game: Any, epsilon: float = 0.1) -> GreedyRollouts:
    """The search engine's knowledge of ``game`` (Dou Di Zhu, President or Dominoes)."""
    if game.name == "dominoes":
        return DominoesKnowledge(game, epsilon)
    if game.name in ("doudizhu", "president"):
        return GreedyRollouts(game, epsilon)
    raise ValueError(f"no search knowledge for game {game.name!r}")
