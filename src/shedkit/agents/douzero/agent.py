"""The ``douzero`` agent: DouZero's trained networks playing shedkit's Dou Di Zhu.

``make_agent("douzero", game, weights=DIR)``, or the agent ``douzero:DIR`` in
``shedkit arena --agents`` and ``shedkit play --bots``; ``DIR`` holds the three
positions' weights (`shedkit.agents.douzero.model.weights_files`), read when the
agent is made (once per file and process: an arena makes an agent per game).

For each card-play decision the agent scores DouZero's legal actions for the
position (`shedkit.agents.douzero.encoding.legal_actions`), in DouZero's order,
keeping those shedkit allows, and then any shedkit move DouZero does not list,
and plays the best (the first of equal ones). The two rule sets agree on
nearly every position; where they do not:

- DouZero lets kickers hold both jokers or all four cards of a rank, which
  shedkit does not (DDZ-16): those actions are dropped;
- DouZero reads a few planes with solo kickers by another trio than shedkit
  (``333444555+777`` beats ``444555666+89T`` there, not here) or as a longer
  plane (``333444555+666``); its actions then map to shedkit's reading of the
  same cards, and the shedkit moves it lacks are appended.

A single legal move is played without scoring, as DouZero's ``DeepAgent`` does.

DouZero has no auction. A weights folder that also holds ``bidding.npz`` (or
``bidding.ckpt``), written by ``shedkit train doudizhu --bid``, bids with that
network (`shedkit.agents.douzero.bidding`); otherwise the agent bids as ``greedy``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from shedkit.agents.douzero.bidding import BidNet, bid_features
from shedkit.agents.douzero.encoding import (
    BOMB,
    CHAIN,
    PAIR,
    PAIR_CHAIN,
    PASS,
    PLANE,
    PLANE_PAIR,
    PLANE_SOLO,
    POSITIONS,
    QUAD_PAIRS,
    QUAD_SOLOS,
    ROCKET,
    SOLO,
    TRIO,
    TRIO_PAIR,
    TRIO_SOLO,
    X_SIZE,
    Action,
    action_type,
    check_rules,
    douzero_cards,
    encode,
    legal_actions,
    position_of,
    rival_of,
)
from shedkit.agents.douzero.model import (
    DouZeroNet,
    WeightsError,
    bidding_file,
    cached_net,
    load_weights,
    weights_files,
)
from shedkit.agents.greedy_doudizhu import GreedyDouDizhu
from shedkit.core.errors import OptionError
from shedkit.doudizhu.combos import Move, card_rank
from shedkit.doudizhu.view import View

if TYPE_CHECKING:
    from shedkit.doudizhu.rules import DouDizhu

__all__ = ["DouZeroAgent", "candidates"]

#: DouZero's action type of each shedkit combination.
_TYPE_OF_KIND: Final = {
    "pass": PASS,
    "solo": SOLO,
    "pair": PAIR,
    "trio": TRIO,
    "bomb": BOMB,
    "rocket": ROCKET,
    "trio_solo": TRIO_SOLO,
    "trio_pair": TRIO_PAIR,
    "chain": CHAIN,
    "pair_chain": PAIR_CHAIN,
    "plane": PLANE,
    "plane_solo": PLANE_SOLO,
    "plane_pair": PLANE_PAIR,
    "quad_two_solos": QUAD_SOLOS,
    "quad_two_pairs": QUAD_PAIRS,
}


def candidates(view: View) -> tuple[list[Action], list[Move]]:
    """The actions the network scores for ``view`` and the legal move each one plays.

    DouZero's legal actions in its order (duplicates kept) that match a legal
    move, then the legal moves with cards DouZero does not list. An action
    whose cards read as several moves plays the one of DouZero's reading.
    """
    by_cards: dict[tuple[int, ...], list[Move]] = {}
    for move in view.legal_moves:
        by_cards.setdefault(tuple(douzero_cards(move.ranks)), []).append(move)
    hand = douzero_cards(card_rank(c) for c in view.hand)
    actions: list[Action] = []
    moves: list[Move] = []
    for action in legal_actions(hand, rival_of(view)):
        found = by_cards.get(tuple(action))
        if found is None:
            continue
        kind = action_type(action)[0]
        actions.append(action)
        moves.append(next((m for m in found if _TYPE_OF_KIND.get(m.kind) == kind), found[0]))
    listed = {tuple(a) for a in actions}
    for cards, found in by_cards.items():
        if cards not in listed:
            actions.append(list(cards))
            moves.append(found[0])
    return actions, moves


class DouZeroAgent:
    """DouZero's networks behind the [`Agent`][shedkit.agents.Agent] protocol.

    ``weights`` is a folder of the three positions' weights files, or the
    networks by position (and ``"bidding"``: a `BidNet`, optional). Without a
    bidding network the agent bids as the ``greedy`` agent does (it hands the
    auction to a [`GreedyDouDizhu`][shedkit.agents.GreedyDouDizhu] made with its
    seed). Play is deterministic: the same view gives the same move.
    """

    name = "douzero"

    def __init__(
        self,
        game: DouDizhu | None = None,
        seed: int = 0,
        *,
        weights: str | os.PathLike[str] | Mapping[str, DouZeroNet | BidNet],
    ) -> None:
        if game is not None:
            if game.name != "doudizhu":
                raise OptionError(f"douzero plays Dou Di Zhu only, not {game.name}")
            check_rules(game.options)
        self.seed = seed
        self._bidder = GreedyDouDizhu(game, seed)
        self.bid_net: BidNet | None
        if isinstance(weights, Mapping):
            missing = [p for p in POSITIONS if p not in weights]
            if missing:
                raise WeightsError(f"douzero weights: no network for {', '.join(missing)}")
            self.nets: dict[str, DouZeroNet] = {}
            for position in POSITIONS:
                net = weights[position]
                if not isinstance(net, DouZeroNet):
                    raise WeightsError(f"douzero weights: the {position} network is not one")
                self.nets[position] = net
            bidder = weights.get("bidding")
            if bidder is not None and not isinstance(bidder, BidNet):
                raise WeightsError("douzero weights: 'bidding' is not a BidNet")
            self.bid_net = bidder
        else:
            if not str(weights):
                raise OptionError("douzero needs its weights folder: douzero:DIR")
            files = weights_files(weights)
            self.nets = {p: cached_net(files[p], p) for p in POSITIONS}
            bid_path = bidding_file(weights)
            self.bid_net = None if bid_path is None else BidNet(load_weights(bid_path))
        for position, net in self.nets.items():
            if net.x_size != X_SIZE[position]:
                raise WeightsError(f"douzero weights: the {position} network is another's")

    def act(self, view: View) -> Move:
        """Return one of ``view.legal_moves``: the best bid or play by the networks."""
        legal = view.legal_moves
        if not legal:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if view.phase == "auction":
            if self.bid_net is None or len(legal) == 1:
                return self._bidder.act(view)
            return legal[int(self.bid_net.values(bid_features(view)).argmax())]
        if len(legal) == 1:
            return legal[0]
        check_rules(view.options)
        actions, moves = candidates(view)
        obs = encode(view, actions)
        assert view.seat is not None and view.landlord is not None  # encode checked both
        net = self.nets[position_of(view.seat, view.landlord)]
        return moves[net.best(obs.z, obs.x_batch)]
