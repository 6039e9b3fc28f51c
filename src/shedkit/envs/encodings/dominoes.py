"""The Dominoes encoding: tile sets, the open ends, tiles held, the boneyard, the score.

A *tile set* is one slot per tile of the set (28 with double-six, 55 with
double-nine, 91 with double-twelve). Seats are relative (0 = the observer).
Segments, in order (``n`` players, ``T`` tiles, ``m`` the highest pip):

=============== =========== ======================================================
segment          width       meaning
=============== =========== ======================================================
``hand``         T           the observer's tiles
``played``       n × T       the tiles each seat has laid on the line
``unseen``       T           tiles in no known place: other hands and the boneyard
``ends``         4 × (m+2)   each end L R U D: its pip value one-hot, or closed
``tiles_left``   n           tiles in each hand / tiles in the set
``boneyard``     1           tiles left to draw / tiles in the set
``partner``      n           1 for the seats on the observer's side (DOM-02)
``scores``       n           each seat's side's points this hand / the target, at most 1
``count``        1           All Fives: the ends' count / (8 m), at most 1 (DOM-23)
=============== =========== ======================================================

``action_features`` describes each action id: its tile (T), its kind
one-hot (pass, draw, lead, play), its end one-hot (L R U D) and its pips / 2m.

>>> import shedkit
>>> from shedkit.envs.encodings.dominoes import DominoesEncoding
>>> game = shedkit.make("dominoes")
>>> enc = DominoesEncoding(game)
>>> state = game.new_deal(seed=1)
>>> int(enc.encode(state.view(state.current_player))[enc.layout.slice("hand")].sum())
7
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from shedkit.dominoes.combos import KINDS
from shedkit.envs.encodings.base import Layout, move_mask

if TYPE_CHECKING:
    from shedkit.dominoes.rules import Dominoes
    from shedkit.dominoes.view import View

__all__ = ["DominoesEncoding"]


class DominoesEncoding:
    """Observation, mask and action features of one Dominoes game (fixed options)."""

    def __init__(self, game: Dominoes) -> None:
        n = self.n = game.num_players
        tables = game.tables
        t = self.num_tiles = tables.num_tiles
        m = self.max_pips = tables.max_pips
        self.num_actions: int = game.num_actions
        self.layout = Layout(
            [
                ("hand", t),
                ("played", n * t),
                ("unseen", t),
                ("ends", 4 * (m + 2)),
                ("tiles_left", n),
                ("boneyard", 1),
                ("partner", n),
                ("scores", n),
                ("count", 1),
            ]
        )
        self._offsets = dict(self.layout.offsets)
        self._side_of = game.side_of
        self._target = float(game.options.target)
        self._names = tables.names
        self.action_features = self._action_features(game)

    def _action_features(self, game: Dominoes) -> NDArray[np.float32]:
        tables = game.tables
        t = self.num_tiles
        moves = tables.moves
        out = np.zeros((len(moves), t + len(KINDS) + 4 + 1), dtype=np.float32)
        for mv in moves:
            i = mv.action_id
            out[i, t + KINDS.index(mv.kind)] = 1.0
            if mv.kind in ("lead", "play"):
                out[i, mv.tile] = 1.0
                out[i, t + len(KINDS) + 4] = tables.pips[mv.tile] / (2 * self.max_pips)
            if mv.kind == "play":
                out[i, t + len(KINDS) + mv.end] = 1.0
        return out

    def encode(self, view: View) -> NDArray[np.float32]:
        """The observation vector of ``view`` (layout in the module docstring)."""
        if view.seat is None:
            raise ValueError("encode needs a seat's view, not a spectator's")
        n, t, m = self.n, self.num_tiles, self.max_pips
        me = view.seat
        out = np.zeros(self.layout.size, dtype=np.float32)
        idx = list(view.hand)
        for who, move, _, _ in view.history:
            if move.kind == "lead" or move.kind == "play":
                idx.append(t + ((who - me) % n) * t + move.tile)
        out[np.array(idx, dtype=np.intp)] = 1.0
        sets = out[: (n + 2) * t].reshape(n + 2, t)
        sets[n + 1] = 1.0 - np.minimum(sets[: n + 1].sum(axis=0), 1.0)
        off = self._offsets
        for e, value in enumerate(view.ends):
            out[off["ends"] + e * (m + 2) + (value if value >= 0 else m + 1)] = 1.0
        for s in range(n):
            rel = (s - me) % n
            out[off["tiles_left"] + rel] = view.tile_counts[s] / t
            if self._side_of[s] == self._side_of[me]:
                out[off["partner"] + rel] = 1.0
            out[off["scores"] + rel] = min(view.scores[s] / self._target, 1.0)
        out[off["boneyard"]] = view.boneyard_size / t
        out[off["count"]] = min(view.count / (8 * m), 1.0)
        return out

    def mask(self, view: View) -> NDArray[np.int8]:
        """The legal action ids of ``view`` as an int8 mask."""
        return move_mask(view.legal_moves, self.num_actions)

    def render(self, views: list[Any]) -> str:
        """Every hand, the line's open ends, the boneyard and the scores."""
        first = views[0]
        names = self._names
        lines = []
        for v in views:
            turn = ">" if v.seat == first.current_player else " "
            lines.append(f"{turn}{v.seat} {' '.join(names[x] for x in v.hand)}")
        ends = " ".join(f"{'LRUD'[e]}={value}" for e, value in enumerate(first.ends) if value >= 0)
        lines.append(
            f"ends {ends or '-'}, boneyard {first.boneyard_size}, scores {list(first.scores)}"
            + (f", returns {list(first.returns)}" if first.is_over else "")
        )
        return "\n".join(lines)
