"""Dou Di Zhu's search knowledge: win or points, calm rollouts, kickers, inference, endgames.

Dou Di Zhu scores a win or a loss (``objective="wp"``, win probability, the
measure of strength) or the stake-weighted deal result (``"adp"``, average
difference in points), the two objectives DouZero trains for; peasants share
their result. Its rollouts never throw a bomb at random, and its root search
tries one kicker choice per combination (``paired=True`` plays each on the same
deals: a variant not yet shown stronger). With ``infer`` it draws its deals
among that many uniform ones, weighed by how likely each makes the bids and
plays seen so far if the other seats play greedy with ε-random moves; ``mcmc``
draws them from a Metropolis chain on the same likelihood instead (`_metropolis`),
which walks to the likely deals where ``infer``'s weights collapse onto a few of its
uniform ones (a variant not yet shown stronger). With ``endgame_cards`` it scores a
playout that reaches that many cards or fewer in all hands by solving the rest
exactly (`DouDizhuEndgame`, win objective only).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from shedkit.agents.greedy_doudizhu import GreedyDouDizhu
from shedkit.agents.search.endgame import DouDizhuEndgame
from shedkit.agents.search.knowledge.sampler import (
    GreedyRollouts,
    _Likelihood,
    _pooled,
    _scored,
    _Start,
    _weighed,
    _Weighted,
)
from shedkit.agents.search.knowledge.settings import SearchSettings
from shedkit.core.bits import members
from shedkit.core.compiled import mypyc_attr
from shedkit.core.errors import IllegalMoveError

__all__ = ["DouDizhuKnowledge"]


@mypyc_attr(allow_interpreted_subclasses=True)
class DouDizhuKnowledge(GreedyRollouts):
    """Dou Di Zhu: win or points as the objective, calm rollouts, one kicker choice per play.

    Bids are always searched on points (`for_root`): under the win objective every bid
    would look alike, though a higher one raises the stake.
    """

    #: The win, the measure of strength.
    defaults: ClassVar[SearchSettings] = SearchSettings()
    names: ClassVar[tuple[str, ...]] = (
        "objective",
        "group_kickers",
        "calm_rollouts",
        "paired",
        "infer",
        "model_epsilon",
        "endgame_cards",
        "endgame_nodes",
        "mcmc",
        "chains",
    )

    def __init__(self, game: Any, settings: SearchSettings | None = None) -> None:
        super().__init__(game, settings)
        self.endgame = DouDizhuEndgame(game.tables, game.num_players, self.settings.endgame_nodes)
        planner = self.greedy
        assert isinstance(planner, GreedyDouDizhu)
        self.planner: GreedyDouDizhu = planner
        self._bidding: DouDizhuKnowledge | None = None

    def reward(self, state: Any, seat: int) -> float:
        """1 for a win and -1 for a loss ("wp"), or the seat's stake-weighted score ("adp")."""
        return _scored(float(state.returns()[seat]), self.settings.objective)

    def for_root(self, view: Any) -> GreedyRollouts:
        """Points score a bid, whatever the objective: the bid sets the stake a win brings."""
        if view.phase != "auction" or self.settings.objective == "adp":
            return self
        if self._bidding is None:
            self._bidding = DouDizhuKnowledge(self.game, replace(self.settings, objective="adp"))
        return self._bidding

    def rollout_move(self, state: Any, rng: random.Random) -> Any:
        """The greedy move, or with probability ε a random legal move that is no bomb.

        A bomb or the rocket thrown at random doubles the stake and gives the lead away:
        such noise drowns the difference between the root moves.
        """
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        settings = self.settings
        if rng.random() < settings.epsilon:
            if not settings.calm_rollouts:
                return moves[rng.randrange(len(moves))]
            calm = [m for m in moves if not m.is_bomb]
            if calm:
                return calm[rng.randrange(len(calm))]
        return self.greedy.act(state.view(state.current_player))

    def exact(self, state: Any, seat: int) -> float | None:
        """Win (1) or loss (-1) with best play once at most ``endgame_cards`` cards are left.

        Only under the win objective: points would also need the bombs still to come.
        """
        limit = self.settings.endgame_cards
        if not limit or self.settings.objective != "wp" or state.phase != "play":
            return None
        left = 0
        for hand in state.hands:
            left += hand.bit_count()
        if left > limit:
            return None
        landlord = state.landlord
        won = self.endgame.landlord_wins(
            state.rank_counts,
            state.current_player,
            landlord,
            state.last_play,
            state.last_player,
            state.passes,
        )
        if won is None:
            return None
        return 1.0 if won == (seat == landlord) else -1.0

    def root_moves(self, view: Any) -> list[Any]:
        """One move per combination: of the kicker choices, the one leaving the best plan.

        A trio, plane or quad can take many sets of kickers (up to hundreds of legal
        moves), most of them plainly worse than the one the greedy planner would leave
        the hand best with; the budget goes to the real choices instead.
        """
        moves = list(view.legal_moves)
        if not self.settings.group_kickers or view.phase != "play" or len(moves) < 3:
            return moves
        best: dict[tuple[Any, ...], tuple[tuple[int, int, int], Any]] = {}
        order: list[tuple[Any, ...]] = []
        for move in moves:
            if not move.kickers:
                key: tuple[Any, ...] = (move,)
                cost = (0, 0, 0)
            else:
                key = (move.kind, move.rank, move.base)
                cost = self.planner.plan_after(view, move).cost
            seen = best.get(key)
            if seen is None:
                order.append(key)
                best[key] = (cost, move)
            elif cost < seen[0]:
                best[key] = (cost, move)
        return [best[key][1] for key in order]

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals weighed by how likely they make the other seats' bids and plays (``infer``).

        ``infer`` uniform deals are drawn and each is weighed by the chance that ε-greedy
        seats (ε = ``model_epsilon``) would have made every move of the history from it;
        playouts then draw among them by weight. A seat that passed over a pair it could
        have beaten makes the deals where it held a higher pair less likely, not
        impossible. ``mcmc``: once the kitty is shown, the deals of a Metropolis chain
        on the same likelihood (`_chain`). Neither: uniform deals.
        """
        settings = self.settings
        if settings.mcmc > 0 and view.kitty is not None:
            chain = self._chain(view, rng)
            if chain is not None:
                return chain
        if settings.infer <= 0 or not view.history:
            return super().determinizer(view, rng)
        from shedkit.doudizhu.view import determinize

        deals: list[Any] = []
        logs: list[float] = []
        for _ in range(settings.infer):
            likelihood = _Likelihood(self.greedy, view.seat, settings.model_epsilon)
            deals.append(determinize(self.game, view, rng, likelihood))
            logs.append(likelihood.log)
        return _weighed(deals, logs, rng)

    def _chain(self, view: Any, rng: random.Random) -> _Weighted | None:
        """Deals from a Metropolis chain of ``mcmc`` card swaps between the other seats.

        Only once the kitty is shown: before, the kitty's cards would need swaps of
        their own.
        """
        from shedkit.doudizhu.view import deal_from, known_cards

        me = view.seat
        if not any(seat != me for seat, _, _ in view.history):
            return None
        known = known_cards(view)
        kitty = list(view.kitty)
        greedy, epsilon, game = self.greedy, self.settings.model_epsilon, self.game

        def start() -> _Start:
            first = game.determinize(view, rng)
            free = {
                s: sorted(set(members(first.hands[s])) - known[s])
                for s in range(view.num_players)
                if s != me
            }
            seed = rng.randrange(2**63)

            def build(hands: dict[int, list[int]]) -> tuple[Any, float] | None:
                now = [sorted(known[s]) + hands.get(s, []) for s in range(view.num_players)]
                likelihood = _Likelihood(greedy, me, epsilon)
                try:
                    deal = deal_from(game, view, now, kitty, seed, likelihood)
                except IllegalMoveError:
                    return None
                return deal, likelihood.log

            return free, build

        return _pooled(start, None, self.settings.mcmc, self.settings.chains, rng)
