"""Tien Gow's search knowledge: chips or the hand, deals weighed by the plays and discards seen.

A playout scores the seat's chips for the hand (``objective="adp"``, TG-30…34, the
game's own score) or whether the seat won it (``"wp"``: 1 for the last trick, -1
otherwise, TG-27). Deals are drawn at random among those the view allows
(`shedkit.tiengow.view.determinize`: under ``must_follow_suit`` every face-down
discard stays one the rules allowed, TG-53).

With ``infer`` or ``mcmc`` the deals are weighed by how likely they make what the
other seats did if they play like ε-greedy bots (ε = ``model_epsilon``). A
face-up play counts as that play; a face-down discard counts only as *a
discard*, its tiles being hidden (TG-25). Greedy beats every trick of two tiles
or more that it can, so a seat that discarded over one makes the deals in
which it held a beating combination less likely (not impossible: TG-21 lets a
player discard all the same, and ε keeps such deals). ``infer`` draws that many
deals and weighs each; ``mcmc`` walks ``chains`` Metropolis chains of tile swaps
between the other seats' hands and hidden discards (`_chain`).

Which tiles a hidden discard held is part of a deal too, and the ε-greedy seats
the likelihood models lay down the tiles worth least to their hand: a uniform
deal, and a chain of swaps that weighs a discard only as *a discard*, give a
discard tiles at random, so the seat keeps tiles it would have thrown away and
has thrown away some it would have kept. With ``model_discards`` the chains swap
tiles between the other seats' *pools* instead (a seat's hand and its hidden
discards together), and the replay lays each hidden discard down as the model
does: greedy's discard when greedy discards there, else the discard greedy
values least (`_modelled_discard`); what a seat still holds is what it did not
lay down (`_pool_chain`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from shedkit.agents.greedy_tiengow import tile_values
from shedkit.agents.search.knowledge.sampler import (
    GreedyRollouts,
    _pooled,
    _Start,
    _weighed,
    _Weighted,
)
from shedkit.agents.search.knowledge.settings import SearchSettings
from shedkit.core.compiled import mypyc_attr
from shedkit.core.errors import IllegalMoveError
from shedkit.tiengow.combos import KIND_TILES, NUM_KINDS, TILE_KIND, fits, pack
from shedkit.tiengow.movegen import lead_moves

__all__ = ["TienGowKnowledge", "replay_hand"]


@mypyc_attr(allow_interpreted_subclasses=True)
class TienGowKnowledge(GreedyRollouts):
    """Tien Gow: chips or the hand won; deals weighed by the moves seen (``infer``, ``mcmc``)."""

    #: Chips: the hand's payments are what a match adds up (TG-30).
    defaults: ClassVar[SearchSettings] = SearchSettings(objective="adp")
    names: ClassVar[tuple[str, ...]] = (
        "objective",
        "infer",
        "model_epsilon",
        "mcmc",
        "chains",
        "paired",
        "model_discards",
    )

    def reward(self, state: Any, seat: int) -> float:
        """The seat's chips for the hand ("adp"), or 1 if it won the hand and -1 if not ("wp")."""
        if self.settings.objective == "wp":
            return 1.0 if state.winner == seat else -1.0
        return float(state.returns()[seat])

    def determinizer(self, view: Any, rng: random.Random) -> Callable[[], Any]:
        """Deals weighed by the other seats' moves (``infer`` or ``mcmc``), else uniform ones.

        Until another seat has moved there is nothing to weigh by: uniform deals.
        """
        settings = self.settings
        me = view.seat
        if (settings.infer <= 0 and settings.mcmc <= 0) or not any(
            who != me for who, _, _ in view.history
        ):
            return super().determinizer(view, rng)
        if settings.mcmc > 0:
            chain = (
                self._pool_chain(view, rng) if settings.model_discards else self._chain(view, rng)
            )
            if chain is not None:
                return chain
            return super().determinizer(view, rng)
        game = self.game
        deals: list[Any] = []
        logs: list[float] = []
        for _ in range(settings.infer):
            deal = game.determinize(view, rng)
            likelihood = _Seen(self.greedy, me, settings.model_epsilon, view.options)
            moves = [move for _, move, _ in deal.history]
            hands = [list(h) for h in deal.dealt]
            if replay_hand(game, view, hands, moves, likelihood, deal.seed) is None:
                continue
            deals.append(deal)
            logs.append(likelihood.log)
        if not deals:
            return super().determinizer(view, rng)
        return _weighed(deals, logs, rng)

    def _chain(self, view: Any, rng: random.Random) -> _Weighted | None:
        """Deals from ``chains`` Metropolis chains of swaps of the tiles this seat cannot place.

        A chain's places are each other seat's hand (keyed by its seat) and each hidden
        discard (keyed by the number of seats plus its history index); a swap moves one tile
        each way between two places, so every place keeps its number of tiles. Each
        chain starts from its own uniform deal; a swap the rules forbid (TG-53) gives
        no deal and is refused.
        """
        game, me = self.game, view.seat
        n = view.num_players
        greedy, epsilon = self.greedy, self.settings.model_epsilon
        by_need = game.tables.discard_by_need
        known, taken, mine = _known(view)
        hidden = [i for i, (who, move, _) in enumerate(view.history) if who != me and move.hidden]

        def start() -> _Start:
            first = game.determinize(view, rng)
            free: dict[int, list[int]] = {}
            for s in range(n):
                if s != me:
                    free[s] = [TILE_KIND[t] for t in first.hand(s)]
            for i in hidden:
                free[n + i] = list(first.history[i][1].kinds)

            def build(places: dict[int, list[int]]) -> tuple[Any, float] | None:
                moves = [
                    by_need[pack(places[n + i])] if n + i in places else move
                    for i, (_, move, _) in enumerate(view.history)
                ]
                kinds: list[list[int]] = [list(known[s]) for s in range(n)]
                for key, held in places.items():
                    owner = key if key < n else view.history[key - n][0]
                    kinds[owner] += held
                hands = _tiles(kinds, me, mine, taken)
                likelihood = _Seen(greedy, me, epsilon, view.options)
                deal = replay_hand(game, view, hands, moves, likelihood, first.seed)
                if deal is None:
                    return None
                return deal, likelihood.log

            return free, build

        return _pooled(start, None, self.settings.mcmc, self.settings.chains, rng)

    def _pool_chain(self, view: Any, rng: random.Random) -> _Weighted | None:
        """Deals from Metropolis chains over the other seats' pools, discards laid by the model.

        A seat's pool is the tiles it held at the start and did not play face up: its
        hand and its hidden discards together. A swap moves one tile each way between two
        pools; the replay of the history then lays each hidden discard down as an
        ε-greedy seat would (`_modelled_discard`), out of the tiles the seat does not
        still play face up later, and weighs it as *a discard*; every face-up play is
        weighed as itself (`_Seen`). A pool that cannot make the moves seen gives no deal.
        """
        game, me = self.game, view.seat
        n = view.num_players
        greedy, epsilon = self.greedy, self.settings.model_epsilon
        history = view.history
        known, taken, mine = _known(view)
        # The packed tiles each move's seat still plays face up after it: a discard keeps them.
        later = [0] * len(history)
        face_up = [0] * n
        for i in range(len(history) - 1, -1, -1):
            who, move, _ = history[i]
            later[i] = face_up[who]
            if who != me and not move.hidden:
                face_up[who] += move.need

        def start() -> _Start:
            first = game.determinize(view, rng)
            pools: dict[int, list[int]] = {}
            for s in range(n):
                if s != me:
                    pools[s] = [TILE_KIND[t] for t in first.hand(s)]
            for i, (who, move, _) in enumerate(history):
                if who != me and move.hidden:
                    pools[who] += first.history[i][1].kinds

            def build(places: dict[int, list[int]]) -> tuple[Any, float] | None:
                kinds = [known[s] + places.get(s, []) for s in range(n)]
                state = _dealt_like(game, view, _tiles(kinds, me, mine, taken), first.seed)
                if state is None:
                    return None
                seen = _Seen(greedy, me, epsilon, view.options)
                log = 0.0
                try:
                    for i, (who, move, _) in enumerate(history):
                        if who != me and move.hidden:
                            made = _modelled_discard(state, greedy, epsilon, later[i])
                            if made is None:
                                return None
                            move, chance = made
                            log += math.log(chance)
                        else:
                            seen(state, move)
                        state.apply(move)
                except IllegalMoveError:
                    return None
                return state, seen.log + log

            return pools, build

        return _pooled(start, None, self.settings.mcmc, self.settings.chains, rng)


def _modelled_discard(
    state: Any, greedy: Any, epsilon: float, keep: int
) -> tuple[Any, float] | None:
    """The discard an ε-greedy current player lays down keeping the packed tiles ``keep``,
    and the chance that it discards there at all (1 for a forced move).

    Greedy's own move when it discards and keeps ``keep`` (chance 1 − ε plus ε's share of
    the discards); else (greedy would beat, or throw away a tile it plays face up later)
    the discard greedy values least among those that keep them, as `GreedyTienGow` ranks
    discards (chance ε's share alone). None if no discard keeps them.
    """
    seat = state.current_player
    counts = state.counts[seat]
    legal = state.legal_moves()
    allowed = [m for m in legal if m.is_discard and fits(counts - m.need, keep)]
    if not allowed:
        return None
    if len(legal) < 2:
        return allowed[0], 1.0
    discards = 0
    for m in legal:
        discards += m.is_discard
    chance = epsilon * discards / len(legal)
    guess = greedy.act(state.view(seat))
    if guess in allowed:
        return guess, chance + 1.0 - epsilon
    if len(allowed) == 1:
        return allowed[0], chance
    kinds = [TILE_KIND[t] for t in state.hand(seat)]
    values = tile_values(kinds, lead_moves(counts, state.game.tables.plays))
    return min(allowed, key=lambda m: (sum(values[k] for k in m.kinds), m.action_id)), chance


def _tiles(kinds: list[list[int]], me: int, mine: list[int], taken: int) -> list[list[int]]:
    """Tile ids for each seat's starting kinds; ``me`` starts with ``mine``.

    The copies of a civil kind are one tile to play (TG-01): which copy a seat gets
    does not matter, as long as no two seats get the same one.
    """
    free = [KIND_TILES[k] & ~taken for k in range(NUM_KINDS)]
    hands: list[list[int]] = []
    for s, held in enumerate(kinds):
        if s == me:
            hands.append(list(mine))
            continue
        ids: list[int] = []
        for k in held:
            low = free[k] & -free[k]
            free[k] ^= low
            ids.append(low.bit_length() - 1)
        hands.append(sorted(ids))
    return hands


def _known(view: Any) -> tuple[list[list[int]], int, list[int]]:
    """What ``view`` tells of the tiles: the kinds each seat played face up, the tiles no
    other seat can hold (its own and those out of play, a bitmask of tile ids), and the
    seat's own starting tiles."""
    me = view.seat
    known: list[list[int]] = [[] for _ in range(view.num_players)]
    taken = 0
    for who, move, tiles in view.history:
        if who == me:
            for t in tiles:
                taken |= 1 << t
        elif not move.hidden:
            known[who] += move.kinds
    for t in (*view.hand, *view.out_of_play):
        taken |= 1 << t
    mine = sorted({*view.hand, *(t for who, _, ts in view.history if who == me for t in ts)})
    return known, taken, mine


def _dealt_like(game: Any, view: Any, hands: list[list[int]], seed: int) -> Any:
    """A hand dealt ``hands`` as ``view``'s hand started (its banker, leader, units and
    direction), or None if it ends at once (TG-64)."""
    state = game.deal_as_started(view, hands, seed)
    return None if state.is_over else state


def replay_hand(
    game: Any,
    view: Any,
    hands: list[list[int]],
    moves: Sequence[Any],
    observe: Callable[[Any, Any], None],
    seed: int = 0,
) -> Any:
    """Deal ``hands`` as ``view``'s hand started and play ``moves``, showing each to ``observe``.

    ``observe(state, move)`` sees each move in the state it is made from. Returns the
    state after the last move, or None if those hands could not have made those moves
    (a move the rules refuse, TG-53, or a hand that would have won at once, TG-64).
    """
    state = _dealt_like(game, view, hands, seed)
    if state is None:
        return None
    try:
        for move in moves:
            observe(state, move)
            state.apply(move)
    except IllegalMoveError:
        return None
    return state


@mypyc_attr(allow_interpreted_subclasses=True)
class _Seen:
    """The log-likelihood of the other seats' moves as ``seat`` saw them, under ε-greedy play.

    A seat plays the greedy move with probability 1 − ε and any legal move with ε.
    Another seat's face-down discard shows only that it discarded (TG-25), so its
    chance is that of any discard; with open discards (TG-54) the tiles count too.
    The searching seat and forced moves say nothing.
    """

    def __init__(self, greedy: Any, seat: int, epsilon: float, options: Any) -> None:
        self.greedy, self.seat, self.epsilon = greedy, seat, epsilon
        self.hidden = not options.discards_exposed
        self.log = 0.0

    def __call__(self, state: Any, move: Any) -> None:
        player = state.current_player
        if player == self.seat:
            return
        legal = state.legal_moves()
        if len(legal) < 2:
            return
        guess = self.greedy.act(state.view(player))
        eps = self.epsilon
        if self.hidden and move.is_discard:
            discards = 0
            for m in legal:
                discards += m.is_discard
            chance = eps * discards / len(legal) + (1.0 - eps if guess.is_discard else 0.0)
        else:
            chance = eps / len(legal) + (1.0 - eps if guess == move else 0.0)
        self.log += math.log(chance)
