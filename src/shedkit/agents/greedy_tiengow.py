"""A rule-based Tien Gow bot, ``greedy``: takes tricks it cannot lose, keeps the Supreme, sheds low.

The bot sees only a [`View`][shedkit.tiengow.view.View]. It counts the tiles
no face-up play has shown (*unseen*: the other hands and every hidden
discard, so it errs on the side of caution) and calls a combination *safe*
when no combination that beats it can be made of unseen tiles.

- **Leading**: a combination that is the whole hand is played at once. Else
  the largest safe combination, the Supreme (TG-24) last among them: it is
  kept for the last trick, which wins the hand (TG-27), unless nothing else is
  safe. With nothing safe, it gives the lead away as cheaply as it can: its
  lowest tile that belongs to no combination.
- **Following**: on the last trick it beats with its highest beat, to win the
  hand. Otherwise it beats a trick of two tiles or more with its cheapest
  beat, and a single when the beating tile is cheap to spend (in no
  combination, not a Supreme tile) or when it has no unit yet and early
  death (TG-28) threatens.
- **Discarding** (TG-21 b): the tiles worth least, counting a tile's rank,
  whether it belongs to a combination in hand, and both Supreme tiles as
  worth keeping.

The bot is deterministic: the same view gives the same move. ``seed`` is
accepted for the agent factory signature only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shedkit.agents.base import register_agent
from shedkit.core.compiled import mypyc_attr
from shedkit.tiengow.actions import Tables, tables_for
from shedkit.tiengow.combos import (
    CIVIL,
    KIND_RANK,
    KIND_SUIT,
    NUM_KINDS,
    SUPREME,
    SUPREME_KINDS,
    TILE_KIND,
    Move,
    fits,
    pack,
)
from shedkit.tiengow.movegen import lead_moves
from shedkit.tiengow.view import View

if TYPE_CHECKING:
    from shedkit.tiengow.rules import TienGow

__all__ = ["GreedyTienGow", "tile_values"]

# A tile's worth on top of its rank when it belongs to a combination in hand.
_IN_COMBINATION: Final = 8
# A Supreme tile's worth while both are in hand.
_SUPREME_KEPT: Final = 40
# A tile worth this much or less is spent on beating a single.
_CHEAP: Final = 7


def tile_values(hand_kinds: list[int], combos: list[Move]) -> list[int]:
    """Each kind's worth in a hand: its rank (military ranks scaled to the civil range), more
    when it belongs to one of ``combos`` (the combinations the hand holds), most for both
    Supreme tiles together."""
    values = [0] * NUM_KINDS
    held = set(hand_kinds)
    for k in held:
        values[k] = KIND_RANK[k] if KIND_SUIT[k] == CIVIL else 2 * KIND_RANK[k]
    for m in combos:
        if m.size >= 2:
            if m.cls == SUPREME:
                for k in m.kinds:
                    values[k] += _SUPREME_KEPT
            else:
                for k in m.kinds:
                    values[k] += _IN_COMBINATION
    return values


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyTienGow:
    """Takes safe tricks, keeps the Supreme for the last trick, discards its worst tiles."""

    name = "greedy"

    def __init__(self, game: TienGow | None = None, seed: int = 0) -> None:
        self.game = game

    def act(self, view: View) -> Move:
        """The bot's move for the seat of ``view``."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        tables = self.game.tables if self.game is not None else tables_for(view.options)
        hand_kinds = [TILE_KIND[t] for t in view.hand]
        counts = pack(hand_kinds)
        combos = lead_moves(counts, tables.plays)
        values = tile_values(hand_kinds, combos)
        if not view.trick:
            return self._lead(view, moves, tables, values)
        return self._follow(view, moves, tables, values)

    # -- helpers ---------------------------------------------------------------

    @staticmethod
    def unseen(view: View) -> int:
        """The packed count of the tiles no face-up play, open discard or own tile has shown."""
        kinds = [k for k in range(NUM_KINDS) for _ in range(2 if KIND_SUIT[k] == CIVIL else 1)]
        out = pack(kinds)
        shown = [TILE_KIND[t] for t in (*view.hand, *view.out_of_play)]
        for _, move, tiles in view.history:
            if tiles:
                shown += [TILE_KIND[t] for t in tiles]
            elif not move.hidden:
                shown += list(move.kinds)
        return out - pack(shown)

    @staticmethod
    def safe(move: Move, tables: Tables, unseen: int) -> bool:
        """True if no combination beating ``move`` can be made of unseen tiles."""
        return not any(fits(unseen, b.need) for b in tables.beaters[move.action_id])

    @staticmethod
    def worth(move: Move, values: list[int]) -> int:
        """What the tiles of ``move`` are worth to the hand."""
        return sum(values[k] for k in move.kinds)

    # -- decisions -------------------------------------------------------------

    def _lead(self, view: View, moves: tuple[Move, ...], tables: Tables, values: list[int]) -> Move:
        size = len(view.hand)
        for m in moves:
            if m.size == size:
                return m  # the last trick: the whole hand
        unseen = self.unseen(view)
        safe = [m for m in moves if self.safe(m, tables, unseen)]
        supreme = set(SUPREME_KINDS)
        others = [m for m in safe if m.cls != SUPREME and not supreme & set(m.kinds)]
        if others:
            return max(others, key=lambda m: (m.size, -self.worth(m, values), -m.action_id))
        if safe:
            return max(safe, key=lambda m: (m.size, -m.action_id))
        singles = [m for m in moves if m.size == 1]
        return min(singles, key=lambda m: (values[m.kinds[0]], m.action_id))

    def _follow(
        self, view: View, moves: tuple[Move, ...], tables: Tables, values: list[int]
    ) -> Move:
        seat = view.seat
        assert seat is not None
        beats = [m for m in moves if not m.is_discard]
        discards = [m for m in moves if m.is_discard]
        size = view.trick[0][1].size
        last = len(view.hand) == size
        if beats:
            if last:
                return max(beats, key=lambda m: (m.rank, -m.action_id))
            cheapest = min(beats, key=lambda m: (self.worth(m, values), m.action_id))
            no_units = view.units[seat] == 0 and len(view.hand) <= 3
            if size >= 2 or no_units or self.worth(cheapest, values) <= _CHEAP:
                return cheapest
        if not discards:
            return beats[0]
        return min(discards, key=lambda m: (self.worth(m, values), m.action_id))


def _make(game: TienGow, seed: int = 0) -> GreedyTienGow:
    return GreedyTienGow(game, seed)


register_agent("greedy", "tiengow", _make)
