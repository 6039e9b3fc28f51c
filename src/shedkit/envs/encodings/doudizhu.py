"""The Dou Di Zhu encoding: rank-count card sets, roles, the auction, the play to beat.

A *card set* is encoded by rank counts as a thermometer: for each of the
15 ranks, ``decks * 4`` slots of which the first ``count`` are 1 (a joker
rank fills at most ``decks`` of them), so 60 numbers with one pack and 120
with two (DouZero's card matrix, flattened rank by rank). Seats are relative
(0 = the observer). Segments, in order (``n`` players, ``C`` card-set width):

=============== ============ =====================================================
segment          width        meaning
=============== ============ =====================================================
``hand``         C            the observer's cards
``played``       n × C        the cards each seat has played so far
``unseen``       C            cards neither held by the observer nor played
``kitty``        C            the kitty once the landlord has shown it (DDZ-10)
``to_beat``      C            the play to beat, all 0 when leading or bidding
``recent``       n × C        the last n moves of the play, most recent first
``recent_pass``  n            1 where that recent move was a pass
``to_beat_by``   n            the seat of the play to beat
``landlord``     n + 1        the landlord's seat, or the last slot while unknown
``cards_left``   n            cards in each hand / (hand size + kitty size)
``bombs``        8            bombs and rockets so far (DDZ-31), one-hot, 7 = 7+
``auction``      1            1 during the auction
``stake``        4            the highest bid so far, one-hot 0…3
``high_bidder``  n + 1        the highest bidder's seat, or the last slot for none
=============== ============ =====================================================

``action_features`` describes each action id: the thermometer of its cards
(C), its kind one-hot (18 kinds, ``pass`` and ``bid`` included) and the bid
value / 3.

>>> import shedkit
>>> from shedkit.envs.encodings.doudizhu import DouDizhuEncoding
>>> game = shedkit.make("doudizhu")
>>> enc = DouDizhuEncoding(game)
>>> state = game.new_deal(seed=1)
>>> obs = enc.encode(state.view(state.current_player))
>>> obs.shape == (enc.layout.size,), int(obs[enc.layout.slice("hand")].sum())
(True, 17)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from shedkit.doudizhu.combos import KINDS, NRANKS, RANK_CHARS, card_rank, card_str
from shedkit.envs.encodings.base import Layout, move_mask

if TYPE_CHECKING:
    from shedkit.doudizhu.rules import DouDizhu, State
    from shedkit.doudizhu.view import View

__all__ = ["DouDizhuEncoding"]

_BOMB_SLOTS = 8


class DouDizhuEncoding:
    """Observation, mask and action features of one Dou Di Zhu game (fixed options)."""

    def __init__(self, game: DouDizhu) -> None:
        opts = game.options
        n = self.n = game.num_players
        decks = opts.decks
        self.num_actions: int = game.num_actions
        self.slots = slots = 4 * decks
        self.card_width = width = NRANKS * slots
        self.recent = n
        # Card-set rows, in the order they open the vector.
        self.rows = 1 + n + 1 + 1 + 1 + n
        self.layout = Layout(
            [
                ("hand", width),
                ("played", n * width),
                ("unseen", width),
                ("kitty", width),
                ("to_beat", width),
                ("recent", n * width),
                ("recent_pass", n),
                ("to_beat_by", n),
                ("landlord", n + 1),
                ("cards_left", n),
                ("bombs", _BOMB_SLOTS),
                ("auction", 1),
                ("stake", 4),
                ("high_bidder", n + 1),
            ]
        )
        # thermo[c] has its first c slots set.
        self._thermo = (np.arange(slots)[None, :] < np.arange(slots + 1)[:, None]).astype(
            np.float32
        )
        self._rank_of = tuple(card_rank(c) for c in range(2 * 54))
        deck = np.zeros(NRANKS, dtype=np.intp)
        for c in game.deck:
            deck[card_rank(c)] += 1
        self._deck_counts = deck
        self._full_hand = float(opts.hand_size + opts.kitty_size)
        self._offsets = {name: self.layout.offsets[name] for name, _ in self.layout.segments}
        self.action_features = self._action_features(game)
        kitty = np.zeros(NRANKS, dtype=np.intp)
        self._deck_list = [int(x) for x in deck]
        self._kitty_counts: list[int] = kitty.tolist()
        # encode_state writes here: the card rows' counts, then the observation itself.
        self._counts = np.zeros((self.rows, NRANKS), dtype=np.intp)
        self._buffer = np.zeros(self.layout.size, dtype=np.float32)

    def _action_features(self, game: DouDizhu) -> NDArray[np.float32]:
        moves = game.tables.moves
        counts = np.zeros((len(moves), NRANKS), dtype=np.intp)
        for m in moves:
            for r in m.ranks:
                counts[m.action_id, r] += 1
        cards = self.card_sets(counts)
        kinds = np.zeros((len(moves), len(KINDS)), dtype=np.float32)
        kinds[np.arange(len(moves)), [KINDS.index(m.kind) for m in moves]] = 1.0
        bid = np.array([[m.rank / 3 if m.kind == "bid" else 0.0] for m in moves], np.float32)
        return np.concatenate([cards, kinds, bid], axis=1)

    def card_sets(self, counts: NDArray[np.intp]) -> NDArray[np.float32]:
        """Thermometer rows (``k × C``) of ``k × 15`` rank counts."""
        rows = counts.shape[0]
        return self._thermo[counts].reshape(rows, self.card_width)

    def encode(self, view: View) -> NDArray[np.float32]:
        """The observation vector of ``view`` (layout in the module docstring)."""
        if view.seat is None:
            raise ValueError("encode needs a seat's view, not a spectator's")
        n = self.n
        me = view.seat
        rank_of = self._rank_of
        # One flat list of (row * 15 + rank) for every card set, counted in one bincount.
        idx = [rank_of[c] for c in view.hand]
        for rel in range(n):
            base = (1 + rel) * NRANKS
            idx += [base + rank_of[c] for c in view.played[(me + rel) % n]]
        if view.kitty is not None:
            base = (n + 2) * NRANKS
            idx += [base + rank_of[c] for c in view.kitty]
        if view.last_play is not None:
            base = (n + 3) * NRANKS
            idx += [base + r for r in view.last_play.ranks]
        history = view.history
        start = len(view.bids)
        recent = history[max(start, len(history) - n) :][::-1]
        passes = []
        for i, (_, move, _) in enumerate(recent):
            base = (n + 4 + i) * NRANKS
            idx += [base + r for r in move.ranks]
            if not move.ranks:
                passes.append(i)
        counts = np.bincount(np.array(idx, dtype=np.intp), minlength=self.rows * NRANKS)
        counts = counts.reshape(self.rows, NRANKS)
        counts[n + 1] = self._deck_counts - counts[0] - counts[1 : n + 1].sum(axis=0)
        out = np.zeros(self.layout.size, dtype=np.float32)
        # The card rows open the vector: take the thermometers straight into it.
        cards = out[: self.rows * self.card_width].reshape(self.rows, NRANKS, self.slots)
        np.take(self._thermo, counts, axis=0, out=cards)
        off = self._offsets
        for i in passes:
            out[off["recent_pass"] + i] = 1.0
        if view.last_play is not None and view.last_player >= 0:
            out[off["to_beat_by"] + (view.last_player - me) % n] = 1.0
        landlord = n if view.landlord is None else (view.landlord - me) % n
        out[off["landlord"] + landlord] = 1.0
        left = off["cards_left"]
        for s, count in enumerate(view.cards_left):
            out[left + (s - me) % n] = count / self._full_hand
        out[off["bombs"] + min(view.bombs, _BOMB_SLOTS - 1)] = 1.0
        if view.phase == "auction":
            out[off["auction"]] = 1.0
        out[off["stake"] + view.stake] = 1.0
        high = n if view.high_bidder < 0 else (view.high_bidder - me) % n
        out[off["high_bidder"] + high] = 1.0
        return out

    def encode_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``encode(state.view(seat))``, read from the counts the state keeps, without a view.

        The vector is written into a buffer kept by the encoding and returned as a
        copy, so an observation a learner stores never changes afterwards.
        """
        n = self.n
        me = seat
        counts = state.rank_counts
        played = state.played_counts
        hand = counts[me]
        unseen = self._deck_list.copy()
        rows = [hand]
        for rel in range(n):
            row = played[(me + rel) % n]
            rows.append(row)
        for r in range(NRANKS):
            left = unseen[r] - hand[r]
            for row in rows[1:]:
                left -= row[r]
            unseen[r] = left
        rows.append(unseen)
        kitty = self._kitty_counts
        if state.landlord is not None:
            kitty = [0] * NRANKS
            for c in state.kitty:
                kitty[self._rank_of[c]] += 1
        rows.append(kitty)
        last = state.last_play
        beat = [0] * NRANKS
        if last is not None:
            for r in last.ranks:
                beat[r] += 1
        rows.append(beat)
        history = state.history
        start = len(state.bids)
        recent = history[max(start, len(history) - n) :]
        passes = []
        for i in range(n):
            row = [0] * NRANKS
            if i < len(recent):
                move = recent[len(recent) - 1 - i][1]
                for r in move.ranks:
                    row[r] += 1
                if not move.ranks:
                    passes.append(i)
            rows.append(row)
        table = self._counts
        table[:] = rows
        out = self._buffer
        width = self.rows * self.card_width
        np.take(self._thermo, table, axis=0, out=out[:width].reshape(self.rows, NRANKS, self.slots))
        out[width:] = 0.0
        off = self._offsets
        for i in passes:
            out[off["recent_pass"] + i] = 1.0
        if last is not None and state.last_player >= 0:
            out[off["to_beat_by"] + (state.last_player - me) % n] = 1.0
        landlord = n if state.landlord is None else (state.landlord - me) % n
        out[off["landlord"] + landlord] = 1.0
        left = off["cards_left"]
        for s in range(n):
            out[left + (s - me) % n] = state.hands[s].bit_count() / self._full_hand
        out[off["bombs"] + min(state.bombs, _BOMB_SLOTS - 1)] = 1.0
        if state.phase == "auction":
            out[off["auction"]] = 1.0
        out[off["stake"] + state.high_bid] = 1.0
        high = n if state.high_bidder < 0 else (state.high_bidder - me) % n
        out[off["high_bidder"] + high] = 1.0
        return out.copy()

    def mask(self, view: View) -> NDArray[np.int8]:
        """The legal action ids of ``view`` as an int8 mask."""
        return move_mask(view.legal_moves, self.num_actions)

    def render(self, views: list[Any]) -> str:
        """Every hand, the landlord, the stake and the last play, one line each."""
        lines = []
        first = views[0]
        for v in views:
            role = "L" if v.seat == first.landlord else " "
            turn = ">" if v.seat == first.current_player else " "
            lines.append(f"{turn}{v.seat}{role} {' '.join(card_str(c) for c in v.hand)}")
        if first.last_play is not None:
            lines.append(f"to beat: {first.last_play} (seat {first.last_player})")
        text = "".join(RANK_CHARS[card_rank(c)] for c in first.kitty or ())
        lines.append(
            f"phase {first.phase}, stake {first.stake}, bombs {first.bombs}"
            + (f", kitty {text}" if text else "")
            + (f", returns {list(first.returns)}" if first.is_over else "")
        )
        return "\n".join(lines)
