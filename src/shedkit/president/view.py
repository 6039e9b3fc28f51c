"""What one seat may know of a President deal, and deals consistent with it.

The leftover cards are public (PRE-05); the tax's randomly drawn cards (or,
with ``tax_style = "best"``, the best cards handed over) and the chosen cards
are known only to the two seats of each exchange; the other seats see how many
(PRE-20, PRE-21).

``rules`` makes the views and so sits above this module: where a function here
needs a whole deal, it asks the game it is given (a [`Dealer`][shedkit.president.view.Dealer]).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from shedkit.core.pickling import reduce_dataclass
from shedkit.president.actions import Tables
from shedkit.president.combos import Move, card_key
from shedkit.president.options import Options

__all__ = [
    "HIDDEN_GIVE",
    "Dealer",
    "View",
    "card_fits",
    "determinize",
    "known_cards",
    "replay_play",
]

StateT = TypeVar("StateT")

#: A tax ``give`` as seen by a seat outside the exchange: who gave, not what.
HIDDEN_GIVE: Final = Move("give", text="give (hidden)")


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a deal (``seat=None``: a spectator's).

    ``order`` is the faces low to high in the order in force; ``finished`` the
    seats out so far, first first; ``exchanges`` the tax's ``(giver, receiver,
    count)``; ``tax_drawn``/``tax_lost`` the cards this seat drew or lost (with
    ``tax_style = "best"``: the best cards it received or handed over, PRE-21).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    seat: int | None
    num_players: int
    options: Options
    phase: str
    current_player: int | None
    hand: tuple[int, ...]
    cards_left: tuple[int, ...]
    leftover: tuple[int, ...]
    dealer: int
    revolution: bool
    order: tuple[int, ...]
    exchanges: tuple[tuple[int, int, int], ...]
    tax_step: int
    tax_drawn: tuple[int, ...]
    tax_lost: tuple[int, ...]
    history: tuple[tuple[int, Move, tuple[int, ...]], ...]
    trick: tuple[tuple[int, Move], ...]
    last_play: Move | None
    last_player: int
    passes: int
    passed: tuple[bool, ...]
    finished: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    returns: tuple[int, ...]
    #: The trick that has just ended (PRE-09), until the next move: what the table keeps
    #: in front of the seats, dimmed, and a page loaded then can draw.
    finished_trick: tuple[tuple[int, Move], ...] = ()

    @property
    def is_over(self) -> bool:
        """True once the finishing order is complete."""
        return self.phase == "over"


class Dealer(Protocol[StateT]):
    """What this module asks of the game (`President`): its cards, and deals built from hands."""

    @property
    def deck(self) -> tuple[int, ...]:
        """Every card of the game."""
        ...

    @property
    def tables(self) -> Tables:
        """The game's moves and card order."""
        ...

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        tax_draws: list[tuple[int, ...]],
        seed: int,
    ) -> StateT:
        """The deal in which each seat holds ``hands`` now, at the point ``view`` shows."""
        ...

    def replay_play(self, state: StateT, observe: Callable[[StateT, Move], None]) -> StateT | None:
        """Play ``state``'s deal again from the tax's end, showing ``observe`` every play first."""
        ...


def determinize(game: Dealer[StateT], view: View, rng: random.Random) -> StateT:
    """Deal the cards ``view`` cannot see at random; keep everything public as it is."""
    if view.seat is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    me = view.seat
    n = view.num_players
    played = {c for _, m, cards in view.history if m.kind != "give" for c in cards}
    known = known_cards(view)
    seen = set(view.leftover) | played | set().union(*known)
    unseen = [c for c in game.deck if c not in seen]
    rng.shuffle(unseen)
    best = view.options.tax_style == "best" and bool(view.exchanges)
    hands: list[list[int]] = []
    taken: list[tuple[int, ...]] = []
    if best:
        hands, taken = _deal_best(game, view, known, unseen, rng)
    else:
        for s in range(n):
            need = view.cards_left[s] - len(known[s])
            hands.append(sorted(known[s]) + unseen[:need])
            unseen = unseen[need:]
    seed = rng.randrange(2**63)
    # PRE-20: a giver chooses among the cards not just drawn, so each exchange keeps its
    # draw: known to the giver and the loser, sampled from the giver's hand otherwise.
    draws: list[tuple[int, ...]] = []
    for i, (giver, loser, count) in enumerate(view.exchanges):
        if giver == me:
            draws.append(tuple(sorted(view.tax_drawn)))
        elif loser == me:
            draws.append(tuple(sorted(view.tax_lost)))
        elif best:
            draws.append(taken[i])
        elif i >= view.tax_step:
            draws.append(tuple(sorted(rng.sample(hands[giver], min(count, len(hands[giver]))))))
        else:
            draws.append(())
    return game.deal_from(view, hands, draws, seed)


def known_cards(view: View) -> list[set[int]]:
    """Per seat, the cards ``view``'s seat knows that seat still holds.

    Its own hand; the cards it gave in the tax, while the receiver has not played
    them; the cards the tax took from it, while the taker has not played them (PRE-20).
    """
    me = view.seat
    if me is None:
        raise ValueError("known_cards needs a seat's view, not a spectator's")
    played = {c for _, m, cards in view.history if m.kind != "give" for c in cards}
    mine = set(view.hand)
    known: list[set[int]] = [set() for _ in range(view.num_players)]
    known[me] = mine
    for who, move, cards in view.history:
        if move.kind == "give" and cards and who == me:
            receiver = next(r for g, r, _ in view.exchanges if g == me)
            known[receiver] |= set(cards)
    for giver, loser, _ in view.exchanges:
        if loser == me:
            known[giver] |= set(view.tax_lost)
    for s in range(view.num_players):
        if s != me:
            known[s] -= played | mine
    return known


def card_fits(game: Dealer[Any], view: View) -> Callable[[int, int], bool] | None:
    """``fits(seat, card)``: whether ``seat`` may hold ``card`` among its unknown cards.

    PRE-21: with ``tax_style = "best"``, a loser that handed ``view``'s seat its best
    cards kept only lower ones (in the order at the deal's start); every other card
    may be anywhere that `known_cards` leaves open. None where no card is bound so.
    """
    if view.options.tax_style != "best" or not view.tax_drawn:
        return None
    rev = _start_revolution(view)
    position = game.tables.position
    bar = min(card_key(c, position, rev) for c in view.tax_drawn)
    bound = {loser for giver, loser, _ in view.exchanges if giver == view.seat}

    def fits(seat: int, card: int) -> bool:
        return seat not in bound or card_key(card, position, rev) < bar

    return fits


def _start_revolution(view: View) -> bool:
    """Whether the order at the deal's start was revolutionised: each quad since flipped it."""
    rev = view.revolution
    if view.options.revolution and sum(1 for _, m, _ in view.history if m.kind == "quad") % 2:
        rev = not rev
    return rev


def _deal_best(
    game: Dealer[Any],
    view: View,
    known: list[set[int]],
    unseen: list[int],
    rng: random.Random,
) -> tuple[list[list[int]], list[tuple[int, ...]]]:
    """The hands of a deal under ``tax_style = "best"`` that agree with what ``view`` knows.

    PRE-21: a loser handed over its highest cards in the order in force at the
    deal's start. A seat that received them knows the loser kept only lower
    cards, so the loser's unknown cards are dealt from those. For an exchange
    the seat is not in and whose giver has not given back yet, the giver must
    hold cards above all of the loser's: the highest of the two hands go to the
    giver, those being the cards handed over. (Once a giver has given back, any
    hands agree: it may have given back the very cards it received.) Returns the
    hands and, per exchange, the best cards so dealt (``()`` where not dealt here).
    """
    me = view.seat
    n = view.num_players
    # The order at the deal's start: each quad played since flipped it (PRE-13).
    rev = _start_revolution(view)
    position = game.tables.position

    def key(c: int) -> tuple[int, int]:
        return card_key(c, position, rev)

    need = [view.cards_left[s] - len(known[s]) for s in range(n)]
    fixed: dict[int, list[int]] = {}
    for giver, loser, _ in view.exchanges:
        if giver == me and view.tax_drawn:
            bar = min(key(c) for c in view.tax_drawn)
            low = [c for c in unseen if key(c) < bar][: need[loser]]
            fixed[loser] = low
            gone = set(low)
            unseen = [c for c in unseen if c not in gone]
    hands: list[list[int]] = []
    for s in range(n):
        extra = fixed.get(s)
        if extra is None:
            extra = unseen[: need[s]]
            unseen = unseen[need[s] :]
        hands.append(sorted(known[s]) + extra)
    taken: list[tuple[int, ...]] = []
    for i, (giver, loser, count) in enumerate(view.exchanges):
        if i < view.tax_step or me in (giver, loser):
            taken.append(())
            continue
        pool = sorted(hands[giver] + hands[loser], key=key)
        top = pool[len(pool) - min(count, len(hands[giver])) :]
        rest = pool[: len(pool) - len(top)]
        rng.shuffle(rest)
        keep = len(hands[giver]) - len(top)
        hands[giver] = sorted(top + rest[:keep])
        hands[loser] = sorted(rest[keep:])
        taken.append(tuple(sorted(top)))
    return hands, taken


def replay_play(
    game: Dealer[StateT], state: StateT, observe: Callable[[StateT, Move], None]
) -> StateT | None:
    """Play ``state``'s deal again from the tax's end, showing ``observe`` every play first.

    ``state`` is a whole deal with every hand known (a `determinize` draw): each seat
    held its hand now and the cards it has played since the tax, and the order in
    force was flipped by each quad played since (PRE-13). ``observe(before, move)``
    sees each move of the play in the state it was made from, so a search can weigh
    the deal by how likely those hands make the moves seen. Returns the state
    replayed to the end of the history, or ``None`` if those hands could not have
    made its moves. The game replays it (``game.replay_play``), for the state is its own.
    """
    return game.replay_play(state, observe)
