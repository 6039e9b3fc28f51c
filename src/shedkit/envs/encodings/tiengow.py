"""The Tien Gow encoding: tile sets by kind, the trick in play, units, discards, the banker.

Play never tells the two copies of a civil tile apart (TG-01), so a *tile set*
counts kinds: 32 slots, one per tile of the set, where kind ``k`` fills its
own slots lowest first (``6-6`` twice is slots 0 and 1, once slot 0 only; a
military tile has one slot). Seats are relative (0 = the observer, ``k`` the
seat ``k`` places after it in turn order, TG-02). Segments, in order (``n``
players, ``T`` the 32 tiles):

=============== ========== =======================================================
segment          width      meaning
=============== ========== =======================================================
``hand``         T          the observer's tiles
``played``       n × T      the tiles each seat has played face up (beats and leads)
``discards``     n × T      discards whose tiles the observer knows: its own, all with TG-54
``unseen``       T          tiles in no known place: other hands and face-down discards
``high``         T          the current high of the trick in play, all 0 when leading
``high_by``      n          the seat of the current high
``high_class``   12         the current high's class (TG-22) one-hot, numbered as in ``combos``
``high_rank``    1          its rank in its class / 11
``captured``     1          1 when a Civil Supreme was captured in this trick (TG-60)
``trick_size``   4          the tiles each plays in this trick (1 to 4) one-hot, 0 when leading
``in_trick``     n          the seats that have played in this trick
``units``        n          trick units each seat has won / 8 (TG-26)
``discarded``    n          tiles each seat has laid face down in the hand / 8
``tiles_left``   n          tiles in each hand / 8
``banker``       n          the banker, one-hot (TG-03)
``multiplier``   1          the banker factor / its largest value in a match (TG-32)
``direction``    1          1 when play goes the other way round (TG-02)
=============== ========== =======================================================

``action_features`` describes each action id: its tiles as a tile set (T), its
class one-hot (the 12 classes, then discard), its tiles / 4 and its rank / 11.

>>> import shedkit
>>> from shedkit.envs.encodings.tiengow import TienGowEncoding
>>> game = shedkit.make("tiengow")
>>> enc = TienGowEncoding(game)
>>> state = game.new_deal(seed=1)
>>> int(enc.encode(state.view(state.current_player))[enc.layout.slice("hand")].sum())
8
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from shedkit.envs.encodings.base import Layout, move_mask
from shedkit.tiengow.combos import (
    COMBO_IDS,
    KIND_TILES,
    NUM_KINDS,
    NUM_TILES,
    TILE_KIND,
    TILE_NAMES,
)

if TYPE_CHECKING:
    from shedkit.tiengow.rules import TienGow
    from shedkit.tiengow.view import View

__all__ = ["TienGowEncoding"]

#: The combination classes (`shedkit.tiengow.combos`, 0 … 11).
NUM_CLASSES = len(COMBO_IDS)
#: Per kind, its lowest tile id: a tile set fills a kind's slots from there.
FIRST_SLOT = tuple((KIND_TILES[k] & -KIND_TILES[k]).bit_length() - 1 for k in range(NUM_KINDS))
#: Per kind, how many tiles of it the set holds (TG-01).
COPIES = tuple(KIND_TILES[k].bit_count() for k in range(NUM_KINDS))
HAND = 8
MAX_RANK = 11.0


def kind_counts(kinds: Any) -> list[int]:
    """How many of each kind ``kinds`` holds."""
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def fill(out: NDArray[np.float32], base: int, counts: list[int]) -> None:
    """Write the tile set of ``counts`` (per kind) into ``out`` from offset ``base``."""
    for k, c in enumerate(counts):
        if c:
            start = base + FIRST_SLOT[k]
            out[start : start + min(c, COPIES[k])] = 1.0


class TienGowEncoding:
    """Observation, mask and action features of one Tien Gow game (fixed options)."""

    def __init__(self, game: TienGow) -> None:
        n = self.n = game.num_players
        t = NUM_TILES
        self.num_actions: int = game.num_actions
        self.layout = Layout(
            [
                ("hand", t),
                ("played", n * t),
                ("discards", n * t),
                ("unseen", t),
                ("high", t),
                ("high_by", n),
                ("high_class", NUM_CLASSES),
                ("high_rank", 1),
                ("captured", 1),
                ("trick_size", 4),
                ("in_trick", n),
                ("units", n),
                ("discarded", n),
                ("tiles_left", n),
                ("banker", n),
                ("multiplier", 1),
                ("direction", 1),
            ]
        )
        self._offsets = dict(self.layout.offsets)
        opts = game.options
        # The largest banker factor of a match (TG-32, TG-41): a banker kept every hand.
        self._max_multiplier = float(
            {"increasing": opts.hands + 1, "fixed": 2, "none": 1}[opts.banker_multiplier]
        )
        self.action_features = self._action_features(game)

    def _action_features(self, game: TienGow) -> NDArray[np.float32]:
        moves = game.tables.moves
        t = NUM_TILES
        out = np.zeros((len(moves), t + NUM_CLASSES + 3), dtype=np.float32)
        for m in moves:
            i = m.action_id
            row = out[i]
            fill(row, 0, kind_counts(m.kinds))
            row[t + (NUM_CLASSES if m.is_discard else m.cls)] = 1.0
            row[t + NUM_CLASSES + 1] = m.size / 4
            row[t + NUM_CLASSES + 2] = 0.0 if m.is_discard else m.rank / MAX_RANK
        return out

    def encode(self, view: View) -> NDArray[np.float32]:
        """The observation vector of ``view`` (layout in the module docstring)."""
        if view.seat is None:
            raise ValueError("encode needs a seat's view, not a spectator's")
        n, t = self.n, NUM_TILES
        me = view.seat
        direction = view.direction

        def rel(seat: int) -> int:
            return ((seat - me) * direction) % n

        out = np.zeros(self.layout.size, dtype=np.float32)
        off = self._offsets
        hand = kind_counts(TILE_KIND[x] for x in view.hand)
        fill(out, off["hand"], hand)
        played = [[0] * NUM_KINDS for _ in range(n)]
        discards = [[0] * NUM_KINDS for _ in range(n)]
        for who, move, tiles in view.history:
            if move.hidden:
                continue
            kinds = [TILE_KIND[x] for x in tiles] if who == me else move.kinds
            target = discards if move.is_discard else played
            for k in kinds:
                target[rel(who)][k] += 1
        known = list(hand)
        for s in range(n):
            fill(out, off["played"] + s * t, played[s])
            fill(out, off["discards"] + s * t, discards[s])
            for k in range(NUM_KINDS):
                known[k] += played[s][k] + discards[s][k]
        for x in view.out_of_play:
            known[TILE_KIND[x]] += 1
        fill(out, off["unseen"], [COPIES[k] - known[k] for k in range(NUM_KINDS)])
        high = view.high
        if view.trick and high is not None:
            fill(out, off["high"], kind_counts(high.kinds))
            out[off["high_by"] + rel(view.high_player)] = 1.0
            out[off["high_class"] + high.cls] = 1.0
            out[off["high_rank"]] = high.rank / MAX_RANK
            out[off["captured"]] = float(view.captured)
            out[off["trick_size"] + view.trick[0][1].size - 1] = 1.0
            for who, _ in view.trick:
                out[off["in_trick"] + rel(who)] = 1.0
        for s in range(n):
            r = rel(s)
            out[off["units"] + r] = view.units[s] / HAND
            out[off["discarded"] + r] = view.discarded[s] / HAND
            out[off["tiles_left"] + r] = view.tiles_left[s] / HAND
        out[off["banker"] + rel(view.banker)] = 1.0
        out[off["multiplier"]] = min(view.multiplier / self._max_multiplier, 1.0)
        out[off["direction"]] = float(direction == -1)
        return out

    def mask(self, view: View) -> NDArray[np.int8]:
        """The legal action ids of ``view`` as an int8 mask."""
        return move_mask(view.legal_moves, self.num_actions)

    def render(self, views: list[Any]) -> str:
        """Every hand, the trick in play, the units and the banker."""
        first = views[0]
        lines = []
        for v in views:
            turn = ">" if v.seat == first.current_player else " "
            banker = " (banker)" if v.seat == first.banker else ""
            lines.append(f"{turn}{v.seat} {' '.join(TILE_NAMES[x] for x in v.hand)}{banker}")
        if first.trick:
            plays = ", ".join(f"{who}: {move}" for who, move in first.trick)
            lines.append(f"trick: {plays}; high {first.high} (seat {first.high_player})")
        lines.append(
            f"units {list(first.units)}, banker factor {first.multiplier}"
            + (f", winner {first.winner}, returns {list(first.returns)}" if first.is_over else "")
        )
        return "\n".join(lines)
