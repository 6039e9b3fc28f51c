"""The President encoding: card sets by card id, the play to beat, revolution, the tax.

Runs are one-suit (PRE-08), so suits matter: a card set is one slot per card
of the pack (52, or 53 with the joker). Seats are relative (0 = the
observer). Segments, in order (``n`` players, ``D`` cards in the pack):

=============== ========== =======================================================
segment          width      meaning
=============== ========== =======================================================
``hand``         D          the observer's cards
``played``       n × D      the cards each seat has played so far (tax gives excluded)
``leftover``     D          the public leftover cards (PRE-05)
``unseen``       D          cards in no known place: the other hands
``to_beat``      D          the play to beat, all 0 when leading
``to_beat_by``   n          the seat of the play to beat
``strength``     14         the play to beat's strength in the order in force, one-hot
``passed``       n          seats that passed in this trick
``finished``     n          seats already out
``cards_left``   n          cards in each hand / hand size
``revolution``   1          1 while the order is reversed (PRE-13)
``tax``          3          1 during the tax, then the cards to give (1 or 2) one-hot
=============== ========== =======================================================

``action_features`` describes each action id: its cards (D), its kind
one-hot (7 kinds), its size / 5 and its strength in the normal order / 13.

>>> import shedkit
>>> from shedkit.envs.encodings.president import PresidentEncoding
>>> game = shedkit.make("president", players=4)
>>> enc = PresidentEncoding(game)
>>> state = game.new_deal(seed=1)
>>> int(enc.encode(state.view(state.current_player))[enc.layout.slice("hand")].sum())
13
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from shedkit.envs.encodings.base import Layout, move_mask
from shedkit.president.combos import KINDS, card_str

if TYPE_CHECKING:
    from shedkit.president.rules import President
    from shedkit.president.view import View

__all__ = ["PresidentEncoding"]


class PresidentEncoding:
    """Observation, mask and action features of one President game (fixed options)."""

    def __init__(self, game: President) -> None:
        n = self.n = game.num_players
        d = self.deck_size = len(game.deck)
        self.num_actions: int = game.num_actions
        self.rows = 1 + n + 1 + 1 + 1
        self.layout = Layout(
            [
                ("hand", d),
                ("played", n * d),
                ("leftover", d),
                ("unseen", d),
                ("to_beat", d),
                ("to_beat_by", n),
                ("strength", 14),
                ("passed", n),
                ("finished", n),
                ("cards_left", n),
                ("revolution", 1),
                ("tax", 3),
            ]
        )
        self._offsets = dict(self.layout.offsets)
        self._hand_size = float(game.options.hand_size)
        self._strength = game.tables.strength
        self.action_features = self._action_features(game)

    def _action_features(self, game: President) -> NDArray[np.float32]:
        moves = game.tables.moves
        d = self.deck_size
        out = np.zeros((len(moves), d + len(KINDS) + 2), dtype=np.float32)
        for m in moves:
            i = m.action_id
            out[i, list(m.cards)] = 1.0
            out[i, d + KINDS.index(m.kind)] = 1.0
            out[i, d + len(KINDS)] = m.size / 5
            out[i, d + len(KINDS) + 1] = max(self._strength[i][0], 0) / 13
        return out

    def encode(self, view: View) -> NDArray[np.float32]:
        """The observation vector of ``view`` (layout in the module docstring)."""
        if view.seat is None:
            raise ValueError("encode needs a seat's view, not a spectator's")
        n, d = self.n, self.deck_size
        me = view.seat
        out = np.zeros(self.layout.size, dtype=np.float32)
        idx = list(view.hand)
        played_base = d
        for who, move, cards in view.history:
            if move.kind != "give":
                base = played_base + ((who - me) % n) * d
                idx += [base + c for c in cards]
        base = (n + 1) * d
        idx += [base + c for c in view.leftover]
        if view.last_play is not None:
            base = (n + 3) * d
            idx += [base + c for c in view.last_play.cards]
        out[np.array(idx, dtype=np.intp)] = 1.0
        sets = out[: self.rows * d].reshape(self.rows, d)
        # Unseen: the pack less the own hand, the plays and the leftover.
        sets[n + 2] = 1.0 - np.minimum(sets[0] + sets[1 : n + 2].sum(axis=0), 1.0)
        off = self._offsets
        if view.last_play is not None:
            out[off["to_beat_by"] + (view.last_player - me) % n] = 1.0
            strength = self._strength[view.last_play.action_id][int(view.revolution)]
            out[off["strength"] + min(max(strength, 0), 13)] = 1.0
        for s in range(n):
            rel = (s - me) % n
            if view.passed[s]:
                out[off["passed"] + rel] = 1.0
            out[off["cards_left"] + rel] = min(view.cards_left[s] / self._hand_size, 1.0)
        for s in view.finished:
            out[off["finished"] + (s - me) % n] = 1.0
        if view.revolution:
            out[off["revolution"]] = 1.0
        if view.phase == "tax":
            out[off["tax"]] = 1.0
            if view.tax_step < len(view.exchanges) and view.exchanges[view.tax_step][0] == me:
                out[off["tax"] + view.exchanges[view.tax_step][2]] = 1.0
        return out

    def mask(self, view: View) -> NDArray[np.int8]:
        """The legal action ids of ``view`` as an int8 mask."""
        return move_mask(view.legal_moves, self.num_actions)

    def render(self, views: list[Any]) -> str:
        """Every hand, the play to beat, the finishing order so far."""
        first = views[0]
        lines = []
        for v in views:
            turn = ">" if v.seat == first.current_player else " "
            lines.append(f"{turn}{v.seat} {' '.join(card_str(c) for c in v.hand)}")
        if first.last_play is not None:
            lines.append(f"to beat: {first.last_play} (seat {first.last_player})")
        lines.append(
            f"phase {first.phase}, revolution {'on' if first.revolution else 'off'}, "
            f"finished {list(first.finished)}"
            + (f", returns {list(first.returns)}" if first.is_over else "")
        )
        return "\n".join(lines)
