"""President's search knowledge: the finishing place, deals weighed by the plays seen.

President scores the finishing place and, with ``infer``, weighs its deals by the
plays seen as Dou Di Zhu does (played again from the tax's end); ``paired`` compares
its root moves on the same deals (a variant not yet shown stronger). ``mcmc`` draws
the deals from a Metropolis chain of card swaps between the other seats on the same
likelihood instead (`_metropolis`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from shedkit.agents.search.knowledge.sampler import (
    GreedyRollouts,
    _Likelihood,
    _pooled,
    _Start,
    _weighed,
    _Weighted,
)
from shedkit.agents.search.knowledge.settings import SearchSettings
from shedkit.core.bits import mask_of, members
from shedkit.core.compiled import mypyc_attr

__all__ = ["PresidentKnowledge"]


@mypyc_attr(allow_interpreted_subclasses=True)
class PresidentKnowledge(GreedyRollouts):
    """President: the finishing place; with ``infer``, deals weighed by the plays seen.

    With ``paired`` every root move is played out on the same deals with the same
    rollout dice (`run_paired`): who holds which card decides most of a place, and
    comparing two moves deal by deal takes that luck out of their difference.
    """

    #: No objective: the place is the score.
    defaults: ClassVar[SearchSettings] = SearchSettings()
    names: ClassVar[tuple[str, ...]] = ("infer", "model_epsilon", "paired", "mcmc", "chains")

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals weighed by how likely they make the other seats' plays (``infer``).

        Passing is free in President (PRE-08), so no play rules a hand out; but a seat
        that passed over a low pair while it held one, or led a high single while it
        held low ones, makes such hands less likely if the seats play like ε-greedy
        bots (ε = ``model_epsilon``). ``infer`` uniform deals are drawn, each is played
        again from the tax's end (`replay_play`) and weighed by that chance; playouts
        draw among them by weight. ``mcmc``: the deals of a Metropolis chain on the same
        likelihood (`_chain`). Neither, or nothing played by another seat yet: uniform
        deals.
        """
        me = view.seat
        settings = self.settings
        if (settings.infer <= 0 and settings.mcmc <= 0) or not any(
            seat != me and move.kind != "give" for seat, move, _ in view.history
        ):
            return super().determinizer(view, rng)
        from shedkit.president.view import replay_play

        if settings.mcmc > 0:
            chain = self._chain(view, rng)
            if chain is not None:
                return chain
            return super().determinizer(view, rng)

        deals: list[Any] = []
        logs: list[float] = []
        for _ in range(settings.infer):
            deal = self.game.determinize(view, rng)
            likelihood = _Likelihood(self.greedy, me, settings.model_epsilon)
            if replay_play(self.game, deal, likelihood) is None:
                continue
            deals.append(deal)
            logs.append(likelihood.log)
        if not deals:
            return super().determinizer(view, rng)
        return _weighed(deals, logs, rng)

    def _chain(self, view: Any, rng: random.Random) -> _Weighted | None:
        """Deals from a Metropolis chain of ``mcmc`` card swaps between the other seats."""
        from shedkit.president.view import card_fits, known_cards, replay_play

        me = view.seat
        known = known_cards(view)
        fixed = [mask_of(cards) for cards in known]
        greedy, epsilon, game = self.greedy, self.settings.model_epsilon, self.game

        def start() -> _Start:
            first = game.determinize(view, rng)
            free = {
                s: [c for c in members(first.hands[s]) if c not in known[s]]
                for s in range(view.num_players)
                if s != me
            }

            def build(hands: dict[int, list[int]]) -> tuple[Any, float] | None:
                deal = first.clone()
                for s, cards in hands.items():
                    deal.hands[s] = fixed[s] | mask_of(cards)
                likelihood = _Likelihood(greedy, me, epsilon)
                if replay_play(game, deal, likelihood) is None:
                    return None
                return deal, likelihood.log

            return free, build

        settings = self.settings
        return _pooled(start, card_fits(game, view), settings.mcmc, settings.chains, rng)
