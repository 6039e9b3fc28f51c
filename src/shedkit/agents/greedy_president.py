"""A rule-based President bot, ``greedy``: sheds low cards first and keeps its quads.

The bot sees only a [`View`][shedkit.president.view.View]. It thinks of its
hand as *groups*: all the cards of one face (a single, pair, triple or quad),
and it avoids breaking a group, since a broken pair costs an extra trick.

- **Tax** (PRE-20): it gives its worst cards: the lowest in the order in
  force, preferring cards that break no group and never the joker.
- **Leading**: whole groups or one-suit runs of loose singles, lowest first
  (a run before a single of the same low card). Near the end (three groups
  or fewer) it leads a group nobody can beat first, to keep the lead.
- **Responding**: the cheapest whole group that beats the trick; a high card
  (one of the top two faces in force) only when the hand is short or an
  opponent is close to going out, otherwise it passes. It breaks a group or
  spends the joker only when an opponent is close to going out.
- **Quads** (PRE-13): a quad reverses the order, so the bot keeps it until a
  revolution helps, meaning the rest of its hand is mostly low in the order
  in force, and then plays it at once; a quad it does not want to reverse is
  played when it is one of the last groups.
- A move that empties the hand is always taken.

The bot is deterministic: the same view gives the same move. ``seed`` is
accepted for the agent factory signature only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shedkit.agents.base import register_agent
from shedkit.core.compiled import mypyc_attr
from shedkit.president.combos import EIGHT, JOKER, Move
from shedkit.president.view import View

if TYPE_CHECKING:
    from shedkit.president.rules import President

__all__ = ["GreedyPresident", "face_counts", "wants_revolution"]

# An opponent holding this many cards or fewer makes the bot break groups and spend the joker.
_THREAT: Final = 3
# A hand this short spends its high cards freely.
_SHORT: Final = 5
# Faces this close to the top of the order in force count as high cards.
_HIGH: Final = 2
# Penalties when choosing the tax's cards: keep the joker and keep groups whole.
_KEEP_JOKER: Final = 100
_KEEP_GROUP: Final = 8


def face_counts(hand: tuple[int, ...] | list[int]) -> list[int]:
    """Cards of each face 0…12 in ``hand`` (the joker not counted)."""
    counts = [0] * 13
    for c in hand:
        if c != JOKER:
            counts[c // 4] += 1
    return counts


def wants_revolution(counts: list[int], position: list[int]) -> bool:
    """True if the cards outside quads sit mostly in the low half of the order in force."""
    total = cards = 0
    for f in range(13):
        n = counts[f]
        if 0 < n < 4:
            total += n * position[f]
            cards += n
    return cards > 0 and 2 * total < 12 * cards


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPresident:
    """Sheds low groups first, keeps quads for a useful revolution, gives its worst cards."""

    name = "greedy"

    def __init__(self, game: President | None = None, seed: int = 0) -> None:
        self.game = game

    def act(self, view: View) -> Move:
        """The bot's move for the seat of ``view``."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if view.phase == "tax":
            return self._give(view)
        for m in moves:
            if m.kind != "pass" and m.size == len(view.hand):
                return m  # going out ends the deal for this seat in the best place left
        position = [0] * 13
        for p, face in enumerate(view.order):
            position[face] = p
        counts = face_counts(view.hand)
        revolt = view.options.revolution and wants_revolution(counts, position)
        for m in moves:
            if m.kind == "quad" and not m.has_joker and revolt:
                return m
        # Without the revolution rule (PRE-13) a quad is an ordinary group to shed.
        quads_ok = revolt or not view.options.revolution
        if view.last_play is None:
            return self._lead(view, position, counts, quads_ok)
        return self._respond(view, position, counts, quads_ok)

    # -- helpers ---------------------------------------------------------------

    @staticmethod
    def _top(move: Move, position: list[int]) -> int:
        """The play's top card in the order in force (the lone joker above all)."""
        return max((position[f] for f in move.faces), default=13)

    @staticmethod
    def _low(move: Move, position: list[int]) -> int:
        return min((position[f] for f in move.faces), default=13)

    @staticmethod
    def _whole(move: Move, counts: list[int], revolt: bool) -> bool:
        """True if ``move`` plays whole groups and no joker (a quad only when wanted)."""
        if move.has_joker or move.kind == "pass":
            return False
        if move.kind == "run":
            return all(counts[f] == 1 for f in move.faces)
        face = move.faces[0]
        return counts[face] == move.size and (move.size < 4 or revolt)

    def _threat(self, view: View) -> bool:
        """True if an opponent still in the deal is close to going out."""
        return any(
            left <= _THREAT
            for seat, left in enumerate(view.cards_left)
            if seat != view.seat and seat not in view.finished
        )

    def _groups(self, counts: list[int], hand: tuple[int, ...]) -> int:
        return sum(1 for c in counts if c) + (JOKER in hand)

    def _unseen(self, view: View) -> list[int]:
        """Cards of each face that some opponent may still hold; the joker at index 13."""
        gone = set(view.hand) | set(view.leftover)
        gone |= {c for _, m, cards in view.history if m.kind != "give" for c in cards}
        out = [0] * 14
        deck = 52 + view.options.jokers
        for c in range(deck):
            if c not in gone:
                out[13 if c == JOKER else c // 4] += 1
        return out

    def _safe(self, move: Move, view: View, position: list[int], unseen: list[int]) -> bool:
        """True if no opponent can beat ``move`` (ignoring a revolution by a quad)."""
        if view.options.eight_stops and EIGHT in move.faces:
            return True
        if move.kind == "run":
            return False  # runs are too many to count; treat as beatable
        top = self._top(move, position)
        joker = unseen[13]
        if move.size == 1 and joker:
            return False
        return all(
            unseen[f] + joker < move.size for f in range(13) if position[f] > top and unseen[f]
        )

    # -- decisions -------------------------------------------------------------

    def _give(self, view: View) -> Move:
        position = [0] * 13
        for p, face in enumerate(view.order):
            position[face] = p
        counts = face_counts(view.hand)

        def cost(card: int) -> int:
            if card == JOKER:
                return _KEEP_JOKER
            face = card // 4
            return position[face] + (_KEEP_GROUP if counts[face] > 1 else 0)

        return min(view.legal_moves, key=lambda m: (sum(cost(c) for c in m.cards), m.action_id))

    def _lead(self, view: View, position: list[int], counts: list[int], revolt: bool) -> Move:
        moves = [m for m in view.legal_moves if m.kind != "pass"]
        whole = [m for m in moves if self._whole(m, counts, revolt)]
        if self._groups(counts, view.hand) <= 3 and whole:
            unseen = self._unseen(view)
            safe = [m for m in whole if self._safe(m, view, position, unseen)]
            if safe:
                return max(safe, key=lambda m: (m.size, -m.action_id))
        if whole:
            return min(whole, key=lambda m: (self._low(m, position), -m.size, m.action_id))
        plain = [m for m in moves if not m.has_joker]
        # Only quads left to lead (kept from a revolution), or only the joker.
        quads = [m for m in plain if m.kind == "quad"]
        if quads:
            return quads[0]
        if plain:
            return min(plain, key=lambda m: (self._low(m, position), -m.size, m.action_id))
        return moves[0]

    def _respond(self, view: View, position: list[int], counts: list[int], revolt: bool) -> Move:
        plays = [m for m in view.legal_moves if m.kind != "pass"]
        pass_move = next(m for m in view.legal_moves if m.kind == "pass")
        if not plays:
            return pass_move
        threat = self._threat(view)
        short = len(view.hand) <= _SHORT
        whole = [m for m in plays if self._whole(m, counts, revolt)]
        if whole:
            best = min(whole, key=lambda m: (self._top(m, position), m.action_id))
            if threat or short or self._top(best, position) < 13 - _HIGH:
                return best
            return pass_move  # high cards wait for a better trick
        if threat:
            plain = [m for m in plays if not m.has_joker and m.kind != "quad"]
            if plain:
                return min(plain, key=lambda m: (self._top(m, position), m.action_id))
            return min(plays, key=lambda m: (m.kind == "quad", m.size, m.action_id))
        return pass_move


register_agent("greedy", "president", GreedyPresident)
