"""A rule-based Dominoes bot, ``greedy``: heavy tiles first, keeps its suits, takes the count.

The bot sees only a [`View`][shedkit.dominoes.view.View]. Each legal play is
tried on a copy of the public board, and the plays are ordered by:

1. in All Fives, the points the play scores at once (DOM-23);
2. a weighted sum of what the play leaves: 4 per tile of the hand that fits
   an open end afterwards (the bot keeps being able to play), the pips of the
   tile played (heavy tiles are what the other side scores if the bot is
   caught, DOM-09, DOM-10), 2 per different number ("suit") left in the hand,
   6 if every open end shows a number the next seat, an opponent, showed it
   lacks by drawing or passing on it (it must draw or pass again), 1 for a
   double (doubles fit fewer ends);
3. the heavier tile, then the lowest action id, so the same view always
   gives the same move.

``draw`` and ``pass`` are taken when they are the only move. The weights were
picked by playing against ``random`` (``benchmarks/strength_dominoes.py``).
``seed`` is accepted for the agent factory signature only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shedkit.agents.base import register_agent
from shedkit.core.compiled import mypyc_attr
from shedkit.dominoes.combos import Move
from shedkit.dominoes.movegen import board_count, place
from shedkit.dominoes.view import View

if TYPE_CHECKING:
    from shedkit.dominoes.rules import Dominoes

__all__ = ["GreedyDominoes"]


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyDominoes:
    """Heavy tiles first, keeping its suits and its ability to play; in All Fives the count."""

    name = "greedy"

    def __init__(self, game: Dominoes, seed: int = 0) -> None:
        self.game = game
        self.tables = game.tables
        self.fives = game.options.variant == "fives"
        self.cross_now = game.options.spinner_opens == "immediately"

    def act(self, view: View) -> Move:
        """The best legal move by the order above."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        lacking = self.lacking(view)
        return max(moves, key=lambda m: self.score(view, m, lacking))

    def lacking(self, view: View) -> int:
        """Pip values (a bitmask) the next opponent showed it lacked by drawing or passing."""
        if view.seat is None:
            return 0
        n = view.num_players
        side_of = self.game.side_of
        opponent = (view.seat + 1) % n
        if side_of[opponent] == side_of[view.seat]:
            return 0
        board = [-1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1]
        out = 0
        halves = self.tables.halves
        for who, move, _, _ in view.history:
            if move.tile >= 0:
                place(board, halves[move.tile], move.end, self.fives, self.cross_now)
                if who == opponent:
                    out &= ~((1 << halves[move.tile][0]) | (1 << halves[move.tile][1]))
            elif who == opponent:
                for v in board[:4]:
                    if v >= 0:
                        out |= 1 << v
        return out

    def after(self, view: View, move: Move) -> list[int]:
        """The public board once ``move`` is made."""
        board = list(view.board)
        place(board, self.tables.halves[move.tile], move.end, self.fives, self.cross_now)
        return board

    def points(self, view: View, move: Move) -> int:
        """What ``move`` scores at once in All Fives (0 in the other variants)."""
        if not self.fives or move.tile < 0:
            return 0
        count = board_count(self.after(view, move))
        return count if count % 5 == 0 else 0

    def score(self, view: View, move: Move, lacking: int = 0) -> tuple[int, int, int, int]:
        """The ordering key of ``move``: higher is better."""
        if move.tile < 0:
            return (-1, -1, -1, -move.action_id)
        halves = self.tables.halves
        board = self.after(view, move)
        ends = {v for v in board[:4] if v >= 0}
        points = 0
        if self.fives:
            count = board_count(board)
            points = count if count % 5 == 0 else 0
        fits = 0
        suits: set[int] = set()
        for t in view.hand:
            if t != move.tile:
                suits.update(halves[t])
                if ends & set(halves[t]):
                    fits += 1
        lo, hi = halves[move.tile]
        shut = all(lacking >> v & 1 for v in ends)
        value = 4 * fits + (lo + hi) + 2 * len(suits) + 6 * shut + (lo == hi)
        return (points, value, lo + hi, -move.action_id)


def _make(game: Any, seed: int) -> GreedyDominoes:
    return GreedyDominoes(game, seed)


register_agent("greedy", "dominoes", _make)
