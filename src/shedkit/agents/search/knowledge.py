"""The per-game pieces of the search engine: reward, rollout policy, root moves, endgames.

Dou Di Zhu scores a win or a loss (``objective="wp"``, win probability, the
measure of strength) or the stake-weighted deal result (``"adp"``, average
difference in points), the two objectives DouZero trains for; peasants share
their result. Its rollouts never throw a bomb at random, and its root search
tries one kicker choice per combination (``paired=True`` plays each on the same
deals: a variant not yet shown stronger). With ``infer`` it draws its deals
among that many uniform ones, weighed by how likely each makes the bids and
plays seen so far if the other seats play greedy with ε-random moves. With
``endgame_cards`` it scores a playout that reaches that many cards or fewer in
all hands by solving the rest exactly (`DouDizhuEndgame`, win objective only).
President scores the finishing place and, with ``infer``, weighs its deals by the
plays seen the same way (played again from the tax's end); ``paired`` compares its
root moves on the same deals too (a variant not yet shown stronger). In both games
``mcmc`` draws the deals from a Metropolis chain instead (`_metropolis`): it swaps
unknown cards between the other seats and keeps a swap by the ratio of the same
likelihoods, so it walks to the likely deals where ``infer``'s weights collapse onto
a few of its uniform ones (a variant not yet shown stronger). Dominoes scores the
points of the seat's side less the best other side's (``objective="adp"``) or the
side's win or loss (``"wp"``, as in Dou Di Zhu), and it solves small
endgames exactly by alpha-beta once the boneyard is empty; its ``mcmc`` chain
swaps tiles between the other seats, never onto a number a seat passed on, while
no tile has been drawn (`replay_hand`).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from shedkit.agents.base import make_agent
from shedkit.agents.greedy_doudizhu import GreedyDouDizhu
from shedkit.agents.search.endgame import DouDizhuEndgame
from shedkit.core.bits import mask_of, members
from shedkit.core.compiled import mypyc_attr
from shedkit.core.errors import IllegalMoveError

__all__ = [
    "OBJECTIVES",
    "DominoesKnowledge",
    "DouDizhuKnowledge",
    "GreedyRollouts",
    "PresidentKnowledge",
    "knowledge_for",
]

#: What a Dou Di Zhu or Dominoes search maximises: "wp" the chance to win, "adp" the points won.
OBJECTIVES: Final = ("wp", "adp")


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyRollouts:
    """Rollouts by the game's greedy bot with ε-random moves; reward from ``returns()``."""

    def __init__(self, game: Any, epsilon: float = 0.1) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        self.paired = False
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

    def root_moves(self, view: Any) -> list[Any]:
        """The moves the search tries at the root: every legal move."""
        return list(view.legal_moves)

    def for_root(self, view: Any) -> GreedyRollouts:
        """The knowledge that scores a search from ``view``: this one."""
        return self

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals consistent with ``view``, the unseen cards shuffled uniformly."""
        return _Uniform(self.game, view, rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class _Uniform:
    """Calls ``game.determinize(view, rng)``: one uniformly random consistent deal a call."""

    def __init__(self, game: Any, view: Any, rng: random.Random) -> None:
        self.game, self.view, self.rng = game, view, rng

    def __call__(self) -> Any:
        return self.game.determinize(self.view, self.rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class _Weighted:
    """Draws one of ``deals`` in proportion to its weight, a copy each call."""

    def __init__(self, deals: list[Any], weights: list[float], rng: random.Random) -> None:
        self.deals, self.weights, self.rng = deals, weights, rng
        self.cumulative: list[float] = list(itertools.accumulate(weights))
        self.total = self.cumulative[-1]

    def __call__(self) -> Any:
        return self.rng.choices(self.deals, cum_weights=self.cumulative)[0].clone()


@mypyc_attr(allow_interpreted_subclasses=True)
class _Likelihood:
    """The log-likelihood of the other seats' moves under ε-greedy play, summed as replayed.

    A seat plays the greedy move with probability 1 − ε and any legal move with ε; the
    seat searching (``seat``) and forced moves say nothing.
    """

    def __init__(self, greedy: Any, seat: int, epsilon: float) -> None:
        self.greedy, self.seat, self.epsilon = greedy, seat, epsilon
        self.log = 0.0

    def __call__(self, state: Any, move: Any) -> None:
        player = state.current_player
        if player == self.seat:
            return
        legal = state.legal_moves()
        if len(legal) < 2:
            return
        guess = self.greedy.act(state.view(player))
        chance = self.epsilon / len(legal) + (1.0 - self.epsilon if guess == move else 0.0)
        self.log += math.log(chance)


def _check_inference(infer: int, model_epsilon: float) -> None:
    """Clear errors for the inference settings of `DouDizhuKnowledge` and `PresidentKnowledge`."""
    if infer < 0:
        raise ValueError(f"infer must be 0 (off) or a number of deals, not {infer!r}")
    if not 0.0 < model_epsilon <= 1.0:
        raise ValueError(f"model_epsilon must be above 0 and at most 1, not {model_epsilon!r}")


def _check_chain(mcmc: int, infer: int) -> None:
    """Clear errors for ``mcmc``, the steps of a Metropolis chain of deals."""
    if mcmc < 0:
        raise ValueError(f"mcmc must be 0 (off) or a number of steps, not {mcmc!r}")
    if mcmc and infer:
        raise ValueError("infer and mcmc are two ways to weigh deals: set one of them")


def _weighed(deals: list[Any], logs: list[float], rng: random.Random) -> _Weighted:
    """Draws among ``deals`` in proportion to their likelihoods (``logs``, natural logs)."""
    top = max(logs)
    return _Weighted(deals, [math.exp(x - top) for x in logs], rng)


def _metropolis(
    free: dict[int, list[int]],
    fits: Callable[[int, int], bool] | None,
    build: Callable[[dict[int, list[int]]], tuple[Any, float] | None],
    steps: int,
    rng: random.Random,
) -> _Weighted | None:
    """The deals a Metropolis chain visits, to draw among (None: no chain to run).

    ``free`` maps each other seat to the cards it holds that the searching seat
    cannot place (a uniform draw to start from). A step swaps one such card between
    two seats, where ``fits(seat, card)`` allows both (None: any card may go to any
    of them), and keeps the swap with the
    chance min(1, L'/L); ``build(free)`` makes the deal and its log-likelihood L
    (None: no deal can have those hands). A swap is its own inverse and keeps the
    number of cards per seat, so the proposal is symmetric and the chain's deals
    come in proportion to their likelihood. The first third of the steps is
    burn-in; each later step counts its deal once.
    """
    seats = [s for s in sorted(free) if free[s]]
    first = build(free)
    if len(seats) < 2 or first is None:
        return None
    deal, log = first
    burn = steps // 3
    kept: list[Any] = []
    counts: list[float] = []
    for step in range(steps):
        a, b = rng.sample(seats, 2)
        i = rng.randrange(len(free[a]))
        j = rng.randrange(len(free[b]))
        x, y = free[a][i], free[b][j]
        moved = False
        if fits is None or (fits(a, y) and fits(b, x)):
            free[a][i], free[b][j] = y, x
            made = build(free)
            if made is not None and (made[1] >= log or rng.random() < math.exp(made[1] - log)):
                deal, log = made
                moved = True
            else:
                free[a][i], free[b][j] = x, y
        if step < burn:
            continue
        if kept and not moved:
            counts[-1] += 1.0
        else:
            kept.append(deal)
            counts.append(1.0)
    if not kept:
        kept, counts = [deal], [1.0]
    return _Weighted(kept, counts, rng)


#: A chain's start: the free cards of each other seat in a uniform deal, and the
#: function that makes a deal and its log-likelihood from such cards (`_metropolis`).
_Start = tuple[dict[int, list[int]], Callable[[dict[int, list[int]]], tuple[Any, float] | None]]


def _check_objective(objective: str) -> None:
    """A clear error for an ``objective`` that is not one of `OBJECTIVES`."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")


def _scored(score: float, objective: str) -> float:
    """``score`` itself under "adp"; under "wp" 1 for a win, -1 for a loss and 0 for a tie."""
    if objective == "adp":
        return score
    return 1.0 if score > 0 else -1.0 if score < 0 else 0.0


def _check_chains(chains: int, mcmc: int) -> None:
    """Clear errors for ``chains``, the Metropolis chains that share ``mcmc`` steps."""
    if chains < 1 or (mcmc and mcmc < 3 * chains):
        raise ValueError(
            f"chains must be at least 1 with 3 mcmc steps each, not {chains!r} for {mcmc!r}"
        )


def _pooled(
    start: Callable[[], _Start],
    fits: Callable[[int, int], bool] | None,
    steps: int,
    chains: int,
    rng: random.Random,
) -> _Weighted | None:
    """The deals of ``chains`` Metropolis chains, each from its own ``start()``, as one draw.

    The chains share the ``steps``. One chain stays near the uniform deal it started
    from, so its deals agree with each other more than with the true one; chains from
    several starts keep the deals as varied as the moves seen allow. With one chain
    this is `_metropolis` itself, drawing the same random numbers.
    """
    deals: list[Any] = []
    weights: list[float] = []
    for chain in range(chains):
        free, build = start()
        share = steps // chains + (chain < steps % chains)
        drawn = _metropolis(free, fits, build, share, rng)
        if drawn is None:
            return None
        deals += drawn.deals
        weights += drawn.weights
    return _Weighted(deals, weights, rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class DouDizhuKnowledge(GreedyRollouts):
    """Dou Di Zhu: win or points as the objective, calm rollouts, one kicker choice per play.

    Bids are always searched on points (`for_root`): under the win objective every bid
    would look alike, though a higher one raises the stake.
    """

    def __init__(
        self,
        game: Any,
        epsilon: float = 0.1,
        objective: str = "wp",
        group_kickers: bool = True,
        calm_rollouts: bool = True,
        paired: bool = False,
        infer: int = 0,
        model_epsilon: float = 0.25,
        endgame_cards: int = 0,
        endgame_nodes: int = 20_000,
        mcmc: int = 0,
        chains: int = 1,
    ) -> None:
        super().__init__(game, epsilon)
        _check_chain(mcmc, infer)
        _check_chains(chains, mcmc)
        self.mcmc = mcmc
        self.chains = chains
        if endgame_cards < 0:
            raise ValueError(
                f"endgame_cards must be 0 (off) or a number of cards, not {endgame_cards!r}"
            )
        self.endgame_cards = endgame_cards
        self.endgame_nodes = endgame_nodes
        self.endgame = DouDizhuEndgame(game.tables, game.num_players, endgame_nodes)
        _check_objective(objective)
        _check_inference(infer, model_epsilon)
        self.infer = infer
        self.model_epsilon = model_epsilon
        self.objective = objective
        self.group_kickers = group_kickers
        self.calm_rollouts = calm_rollouts
        self.paired = paired
        planner = self.greedy
        assert isinstance(planner, GreedyDouDizhu)
        self.planner: GreedyDouDizhu = planner
        self._bidding: DouDizhuKnowledge | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), (
            self.game,
            self.epsilon,
            self.objective,
            self.group_kickers,
            self.calm_rollouts,
            self.paired,
            self.infer,
            self.model_epsilon,
            self.endgame_cards,
            self.endgame_nodes,
            self.mcmc,
            self.chains,
        )

    def reward(self, state: Any, seat: int) -> float:
        """1 for a win and -1 for a loss ("wp"), or the seat's stake-weighted score ("adp")."""
        return _scored(float(state.returns()[seat]), self.objective)

    def for_root(self, view: Any) -> GreedyRollouts:
        """Points score a bid, whatever the objective: the bid sets the stake a win brings."""
        if view.phase != "auction" or self.objective == "adp":
            return self
        if self._bidding is None:
            self._bidding = DouDizhuKnowledge(
                self.game,
                self.epsilon,
                "adp",
                self.group_kickers,
                self.calm_rollouts,
                self.paired,
                self.infer,
                self.model_epsilon,
                self.endgame_cards,
                self.endgame_nodes,
                self.mcmc,
                self.chains,
            )
        return self._bidding

    def rollout_move(self, state: Any, rng: random.Random) -> Any:
        """The greedy move, or with probability ε a random legal move that is no bomb.

        A bomb or the rocket thrown at random doubles the stake and gives the lead away:
        such noise drowns the difference between the root moves.
        """
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if rng.random() < self.epsilon:
            if not self.calm_rollouts:
                return moves[rng.randrange(len(moves))]
            calm = [m for m in moves if not m.is_bomb]
            if calm:
                return calm[rng.randrange(len(calm))]
        return self.greedy.act(state.view(state.current_player))

    def exact(self, state: Any, seat: int) -> float | None:
        """Win (1) or loss (-1) with best play once at most ``endgame_cards`` cards are left.

        Only under the win objective: points would also need the bombs still to come.
        """
        limit = self.endgame_cards
        if not limit or self.objective != "wp" or state.phase != "play":
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
        if not self.group_kickers or view.phase != "play" or len(moves) < 3:
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
        if self.mcmc > 0 and view.kitty is not None:
            chain = self._chain(view, rng)
            if chain is not None:
                return chain
        if self.infer <= 0 or not view.history:
            return super().determinizer(view, rng)
        from shedkit.doudizhu.view import determinize

        deals: list[Any] = []
        logs: list[float] = []
        for _ in range(self.infer):
            likelihood = _Likelihood(self.greedy, view.seat, self.model_epsilon)
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
        greedy, epsilon, game = self.greedy, self.model_epsilon, self.game

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

        return _pooled(start, None, self.mcmc, self.chains, rng)


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

    def __init__(
        self,
        game: Any,
        epsilon: float = 0.1,
        endgame_tiles: int = 7,
        mcmc: int = 0,
        model_epsilon: float = 0.25,
        chains: int = 1,
        objective: str = "adp",
    ) -> None:
        super().__init__(game, epsilon)
        _check_inference(0, model_epsilon)
        _check_chain(mcmc, 0)
        _check_chains(chains, mcmc)
        _check_objective(objective)
        self.objective = objective
        self.endgame_tiles = endgame_tiles
        self.mcmc = mcmc
        self.model_epsilon = model_epsilon
        self.chains = chains
        self.side_of: tuple[int, ...] = game.side_of

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), (
            self.game,
            self.epsilon,
            self.endgame_tiles,
            self.mcmc,
            self.model_epsilon,
            self.chains,
            self.objective,
        )

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals from the chain once another seat has played (``mcmc``), else uniform ones.

        The chain needs a hand nobody has drawn in (`replay_hand`): the four-player
        partnership game deals every tile, so it never draws. Otherwise the deals are
        uniform among those that fit the passes (DOM-07).
        """
        if self.mcmc > 0 and not any(m.kind == "draw" for _, m, _, _ in view.history):
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
        greedy, epsilon = self.greedy, self.model_epsilon

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

        return _pooled(start, fits, self.mcmc, self.chains, rng)

    def reward(self, state: Any, seat: int) -> float:
        """The seat's side's points less the best other side's ("adp"), or its sign ("wp")."""
        returns = state.returns()
        mine = self.side_of[seat]
        others = [returns[s] for s in range(len(returns)) if self.side_of[s] != mine]
        return _scored(float(returns[seat] - max(others)), self.objective)

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


@mypyc_attr(allow_interpreted_subclasses=True)
class PresidentKnowledge(GreedyRollouts):
    """President: the finishing place; with ``infer``, deals weighed by the plays seen.

    With ``paired`` every root move is played out on the same deals with the same
    rollout dice (`run_paired`): who holds which card decides most of a place, and
    comparing two moves deal by deal takes that luck out of their difference.
    """

    def __init__(
        self,
        game: Any,
        epsilon: float = 0.1,
        infer: int = 0,
        model_epsilon: float = 0.25,
        paired: bool = False,
        mcmc: int = 0,
        chains: int = 1,
    ) -> None:
        super().__init__(game, epsilon)
        _check_inference(infer, model_epsilon)
        _check_chain(mcmc, infer)
        _check_chains(chains, mcmc)
        self.infer = infer
        self.model_epsilon = model_epsilon
        self.paired = paired
        self.mcmc = mcmc
        self.chains = chains

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), (
            self.game,
            self.epsilon,
            self.infer,
            self.model_epsilon,
            self.paired,
            self.mcmc,
            self.chains,
        )

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
        if (self.infer <= 0 and self.mcmc <= 0) or not any(
            seat != me and move.kind != "give" for seat, move, _ in view.history
        ):
            return super().determinizer(view, rng)
        from shedkit.president.view import replay_play

        if self.mcmc > 0:
            chain = self._chain(view, rng)
            if chain is not None:
                return chain
            return super().determinizer(view, rng)

        deals: list[Any] = []
        logs: list[float] = []
        for _ in range(self.infer):
            deal = self.game.determinize(view, rng)
            likelihood = _Likelihood(self.greedy, me, self.model_epsilon)
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
        greedy, epsilon, game = self.greedy, self.model_epsilon, self.game

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

        return _pooled(start, card_fits(game, view), self.mcmc, self.chains, rng)


#: The settings `knowledge_for` takes for each game beside ``epsilon`` (for experiments).
SETTINGS: Final = {
    "doudizhu": (
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
    ),
    "president": ("infer", "model_epsilon", "paired", "mcmc", "chains"),
    "dominoes": ("endgame_tiles", "mcmc", "model_epsilon", "chains", "objective"),
}


def knowledge_for(
    game: Any, epsilon: float = 0.1, settings: Mapping[str, Any] | None = None
) -> GreedyRollouts:
    """The search engine's knowledge of ``game`` (Dou Di Zhu, President or Dominoes).

    ``settings`` change a game's defaults (see `SETTINGS`), e.g. ``{"objective": "adp"}``.
    """
    settings = dict(settings or {})
    if "epsilon" in settings:
        epsilon = float(settings.pop("epsilon"))
    allowed = SETTINGS.get(game.name)
    if allowed is None:
        raise ValueError(f"no search knowledge for game {game.name!r}")
    unknown = sorted(set(settings) - set(allowed))
    if unknown:
        valid = ", ".join(allowed) or "none"
        raise ValueError(f"unknown {game.name} search setting(s) {unknown}; valid: {valid}")
    if game.name == "dominoes":
        return DominoesKnowledge(game, epsilon, **settings)
    if game.name == "doudizhu":
        return DouDizhuKnowledge(game, epsilon, **settings)
    return PresidentKnowledge(game, epsilon, **settings)
