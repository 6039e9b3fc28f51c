"""``rlcard-rule``: RLCard's Dou Di Zhu rule model (``doudizhu-rule-v1``) playing from our views.

RLCard is a well-known baseline; this adapter lets anyone measure a bot
against it. Each decision translates the [`View`][shedkit.doudizhu.view.View]
into the raw state RLCard's ``DouDizhuRuleAgentV1`` reads (``current_hand``,
``trace`` of the play, legal ``actions`` as RLCard card strings, ``landlord``,
``self``), calls the rule agent, and reads its card string back as the legal
move with those cards.

What RLCard's model does not cover, and what this adapter does instead:

- RLCard's Dou Di Zhu has no auction, so the bids come from the ``greedy``
  bot's hand-strength rule (`bid_value`);
- the model is for three players and one pack: other options are refused;
- its random fallback draws from numpy's global generator, so each call runs
  under a generator seeded from the agent's seed and restored afterwards
  (the same seed gives the same moves);
- a move RLCard has no card string for (748 rare plane-with-solos of our
  action space) cannot be its target: facing one, the adapter passes when a
  partner played it and otherwise makes the cheapest legal play.

The agent is registered only when ``rlcard`` is importable (the ``[bench]``
extra); ``rlcard`` itself is imported on first use.
"""

from __future__ import annotations

import functools
import importlib.util
import random
from typing import TYPE_CHECKING, Any

from shedkit.agents.base import register_agent
from shedkit.agents.greedy_doudizhu import bid_value, hand_counts
from shedkit.core.errors import OptionError
from shedkit.doudizhu.combos import RANK_CHARS, Move, card_rank

if TYPE_CHECKING:
    from shedkit.doudizhu.rules import DouDizhu
    from shedkit.doudizhu.view import View

__all__ = ["RLCardRuleAgent", "rlcard_available", "rlcard_string"]


def rlcard_available() -> bool:
    """Whether RLCard can be imported."""
    return importlib.util.find_spec("rlcard") is not None


def rlcard_string(move: Move) -> str:
    """RLCard's action string of a move: its cards' ranks in ascending order, or ``pass``."""
    if move.kind == "pass":
        return "pass"
    return "".join(RANK_CHARS[r] for r in sorted(move.ranks))


class RLCardRuleAgent:
    """RLCard's ``DouDizhuRuleAgentV1`` behind the [`Agent`][shedkit.agents.Agent] protocol."""

    name = "rlcard-rule"

    def __init__(self, game: DouDizhu | None = None, seed: int = 0) -> None:
        if game is not None and (game.options.players != 3):
            raise OptionError("rlcard-rule plays three-player Dou Di Zhu only (RLCard's game)")
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self._agent = DouDizhuRuleAgentV1()
        self._types = _card_types()
        self.rng = random.Random(seed)

    def act(self, view: View) -> Move:
        """RLCard's choice for this view, as one of ``view.legal_moves``."""
        legal = view.legal_moves
        if not legal:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if view.options.players != 3:
            raise OptionError("rlcard-rule plays three-player Dou Di Zhu only (RLCard's game)")
        if view.phase == "auction":
            value = bid_value(hand_counts(view.hand), view.options)
            bids = [m for m in legal if m.kind == "bid" and m.rank == value]
            return bids[0] if bids else legal[0]
        by_string: dict[str, Move] = {}
        for m in legal:
            by_string.setdefault(rlcard_string(m), m)
        trace = [(seat, rlcard_string(m)) for seat, m, _ in view.history[len(view.bids) :]]
        target = view.last_play
        if target is not None and rlcard_string(target) not in self._types:
            return self._unknown_target(view, legal)
        hand = "".join(sorted((RANK_CHARS[card_rank(c)] for c in view.hand), key=RANK_CHARS.index))
        raw = {
            "current_hand": hand,
            "trace": trace,
            "actions": [a for a in by_string if a in self._types or a == "pass"],
            "landlord": view.landlord,
            "self": view.seat,
        }
        choice = self._call({"raw_obs": raw})
        move = by_string.get(choice) if isinstance(choice, str) else None
        if move is None:
            # The model found no combination holding its lowest card: lead the lowest play.
            move = min((m for m in legal if m.kind != "pass"), key=lambda m: (m.rank, -m.size))
        return move

    def _call(self, state: dict[str, Any]) -> Any:
        if not self._may_draw(state["raw_obs"]):
            return self._agent.step(state)
        import numpy as np

        saved = np.random.get_state()
        np.random.seed(self.rng.getrandbits(32))
        try:
            return self._agent.step(state)
        finally:
            np.random.set_state(saved)

    def _may_draw(self, raw: dict[str, Any]) -> bool:
        """Whether the model reaches its random fallback: following, with no play of the type."""
        trace = raw["trace"]
        if not trace or (len(trace) >= 3 and trace[-1][1] == "pass" and trace[-2][1] == "pass"):
            return False
        target = trace[-1][1] if trace[-1][1] != "pass" else trace[-2][1]
        kind = self._types[target]
        return not any(a != "pass" and self._types[a] == kind for a in raw["actions"])

    def _unknown_target(self, view: View, legal: tuple[Move, ...]) -> Move:
        partner = view.is_partner(view.last_player)
        plays = [m for m in legal if m.kind != "pass"] or list(legal)
        passes = [m for m in legal if m.kind == "pass"]
        if passes and (partner or not plays):
            return passes[0]
        return min(plays, key=lambda m: (m.is_bomb, m.rank))


@functools.cache
def _card_types() -> dict[str, str]:
    """RLCard's card strings with the first type it gives each (read once per process)."""
    from rlcard.games.doudizhu.utils import CARD_TYPE

    return {cards: types[0][0] for cards, types in CARD_TYPE[0].items()}


if rlcard_available():
    register_agent("rlcard-rule", "doudizhu", RLCardRuleAgent)
