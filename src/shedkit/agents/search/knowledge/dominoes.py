"""Dominoes' search knowledge: side points or the side's win, chains of tile swaps, endgames.

Dominoes scores the points of the seat's side less the best other side's
(``objective="adp"``) or the side's win or loss (``"wp"``, as in Dou Di Zhu), and
it solves small endgames exactly by alpha-beta once the boneyard is empty; its
``mcmc`` chain swaps tiles between the other seats, never onto a number a seat
passed on, while no tile has been drawn (`replay_hand`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, ClassVar

from shedkit.agents.search.knowledge.sampler import (
    GreedyRollouts,
    _Likelihood,
    _pooled,
    _scored,
    _Start,
    _Weighted,
)
from shedkit.agents.search.knowledge.settings import SearchSettings
from shedkit.core.bits import mask_of, members
from shedkit.core.compiled import mypyc_attr

__all__ = ["DominoesKnowledge"]


@mypyc_attr(allow_interpreted_subclasses=True)
class DominoesKnowledge(GreedyRollouts):
    """Dominoes: side points against the best other side, or the side's win; exact endgames.

    ``objective="adp"`` scores a playout by the side's points less the best other
    side's, ``"wp"`` by its sign: a won hand is worth the same whatever it is won by.
    Small endgames are solved by alpha-beta on the same score.

    With ``mcmc`` the deals come from Metropolis chains (`_chain`) on how likely the
    other seats' plays are if they play like ε-greedy bots (ε = ``model_epsilon``):
    ``chains`` chains from as many uniform deals share the ``mcmc`` steps. One chain
    stays near the deal it started from; several keep the deals as varied as the
    plays allow.
    """

    #: The points: a hand's score is what a match adds up.
    defaults: ClassVar[SearchSettings] = SearchSettings(objective="adp")
    names: ClassVar[tuple[str, ...]] = (
        "endgame_tiles",
        "mcmc",
        "model_epsilon",
        "chains",
        "objective",
    )

    def __init__(self, game: Any, settings: SearchSettings | None = None) -> None:
        super().__init__(game, settings)
        self.side_of: tuple[int, ...] = game.side_of

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals from the chain once another seat has played (``mcmc``), else uniform ones.

        The chain needs a hand nobody has drawn in (`replay_hand`): the four-player
        partnership game deals every tile, so it never draws. Otherwise the deals are
        uniform among those that fit the passes (DOM-07).
        """
        if self.settings.mcmc > 0 and not any(m.kind == "draw" for _, m, _, _ in view.history):
            me = view.seat
            if any(s != me and m.kind == "play" for s, m, _, _ in view.history):
                chain = self._chain(view, rng)
                if chain is not None:
                    return chain
        return super().determinizer(view, rng)

    def _chain(self, view: Any, rng: random.Random) -> _Weighted | None:
        """Deals from ``chains`` Metropolis chains of tile swaps between the other seats.

        A swap never gives a seat a tile showing a number it passed on (DOM-07). Each
        chain starts from its own uniform deal and takes its share of the ``mcmc``
        steps; the deals of all of them are drawn from as one.
        """
        from shedkit.dominoes.view import missing_values, replay_hand

        me = view.seat
        game = self.game
        lacks = [mask_of(values) for values in missing_values(game, view)]
        suits = [(1 << a) | (1 << b) for a, b in game.tables.halves]
        greedy, epsilon = self.greedy, self.settings.model_epsilon

        def fits(seat: int, tile: int) -> bool:
            return not suits[tile] & lacks[seat]

        def start() -> _Start:
            first = game.determinize(view, rng)
            free = {s: members(first.hands[s]) for s in range(view.num_players) if s != me}

            def build(hands: dict[int, list[int]]) -> tuple[Any, float] | None:
                deal = first.clone()
                for s, tiles in hands.items():
                    deal.hands[s] = mask_of(tiles)
                deal._legal = None
                likelihood = _Likelihood(greedy, me, epsilon)
                if replay_hand(game, deal, likelihood) is None:
                    return None
                return deal, likelihood.log

            return free, build

        return _pooled(start, fits, self.settings.mcmc, self.settings.chains, rng)

    def reward(self, state: Any, seat: int) -> float:
        """The seat's side's points less the best other side's ("adp"), or its sign ("wp")."""
        returns = state.returns()
        mine = self.side_of[seat]
        others = [returns[s] for s in range(len(returns)) if self.side_of[s] != mine]
        return _scored(float(returns[seat] - max(others)), self.settings.objective)

    def exact(self, state: Any, seat: int) -> float | None:
        """Alpha-beta value once the boneyard is empty and few tiles are left in hands."""
        if state.boneyard_left or state.is_over:
            return None
        # Tiles in hands, counted on the bit masks: this runs at every rollout step.
        if sum(h.bit_count() for h in state.hands) > self.settings.endgame_tiles:
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
