"""Exact solving of small Dou Di Zhu endgames with every hand known.

A determinized playout knows every hand, so once few cards are left the
rest of the deal is a two-sided game of perfect information: the landlord
against the peasants, who win or lose together. `DouDizhuEndgame` decides
it by a depth-first AND/OR search on win or loss (a boolean alpha-beta: a
side stops at the first move that wins for it) over hands as rank counts,
with a transposition table shared by every solve. A search that would visit
more than ``max_nodes`` new positions gives up and the playout goes on.

>>> import shedkit
>>> game = shedkit.make("doudizhu")
>>> solver = DouDizhuEndgame(game.tables, game.num_players)
>>> hands = [[0] * 15 for _ in range(3)]
>>> hands[0][12] = 2          # the landlord holds 2 2 and leads
>>> hands[1][11] = 1          # a peasant holds one A
>>> hands[2][0] = 1           # the other one 3
>>> solver.landlord_wins(hands, seat=0, landlord=0, last=None, last_player=0, passes=0)
True
"""

from __future__ import annotations

from typing import Any, Final

from shedkit.core.compiled import mypyc_attr
from shedkit.doudizhu.combos import Move
from shedkit.doudizhu.movegen import bomb_ranks, lead_moves, response_moves

__all__ = ["DouDizhuEndgame"]

#: Bits per rank in a hand's key: counts reach 8 with two decks.
_BITS: Final = 4
#: Entries kept in the transposition table before it is emptied.
_TABLE_LIMIT: Final = 400_000


class _GiveUp(Exception):
    """The node budget ran out: the endgame is too large to solve here."""


@mypyc_attr(allow_interpreted_subclasses=True)
class DouDizhuEndgame:
    """Solves Dou Di Zhu endgames exactly: does the landlord win with best play on both sides?"""

    def __init__(self, tables: Any, num_players: int, max_nodes: int = 20_000) -> None:
        if max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes!r}")
        self.tables = tables
        self.num_players = num_players
        self.max_nodes = max_nodes
        self.table: dict[tuple[int, ...], bool] = {}
        self.nodes = 0
        #: Per move id, what playing it takes off its player's hand key.
        self._codes: dict[int, int] = {}

    def landlord_wins(
        self,
        hands: list[list[int]],
        seat: int,
        landlord: int,
        last: Move | None,
        last_player: int,
        passes: int,
    ) -> bool | None:
        """True if the landlord wins with best play, False if the peasants do, None if too big.

        ``hands`` are the seats' rank counts (not changed once this returns), ``seat``
        the player to move, ``last`` the play to beat (None: ``seat`` leads),
        ``last_player`` who made it and ``passes`` how many passed since.
        """
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()
        counts = [list(h) for h in hands]
        keys = [_key(h) for h in counts]
        self.nodes = 0
        try:
            return self._wins(counts, keys, seat, landlord, last, last_player, passes)
        except _GiveUp:
            return None

    def _code(self, move: Move) -> int:
        code = self._codes.get(move.action_id)
        if code is None:
            code = 0
            for r in move.ranks:
                code += 1 << (_BITS * r)
            self._codes[move.action_id] = code
        return code

    def _wins(
        self,
        counts: list[list[int]],
        keys: list[int],
        seat: int,
        landlord: int,
        last: Move | None,
        last_player: int,
        passes: int,
    ) -> bool:
        last_id = -1 if last is None else last.action_id
        key = (*keys, seat, last_id, last_player if last is not None else -1, passes)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _GiveUp
        hand = counts[seat]
        left = sum(hand)
        bombs = bomb_ranks(hand)
        if last is None:
            moves = lead_moves(hand, self.tables, bombs)
        else:
            moves = response_moves(hand, self.tables, last, bombs)
        mine = seat == landlord
        n = self.num_players
        # Going out wins at once; else the larger plays first, which end deals sooner.
        moves.sort(key=lambda m: -len(m.ranks))
        result = not mine
        for move in moves:
            size = len(move.ranks)
            if size == left:
                result = mine
                break
            if size == 0:
                if passes + 1 == n - 1:
                    won = self._wins(counts, keys, last_player, landlord, None, last_player, 0)
                else:
                    won = self._wins(
                        counts, keys, (seat + 1) % n, landlord, last, last_player, passes + 1
                    )
            else:
                code = self._code(move)
                for r in move.ranks:
                    hand[r] -= 1
                keys[seat] -= code
                try:
                    won = self._wins(counts, keys, (seat + 1) % n, landlord, move, seat, 0)
                finally:
                    keys[seat] += code
                    for r in move.ranks:
                        hand[r] += 1
            if won == mine:
                result = mine
                break
        self.table[key] = result
        return result


def _key(counts: list[int]) -> int:
    key = 0
    for r, k in enumerate(counts):
        key += k << (_BITS * r)
    return key
