"""What one seat may know of a deal, and deals consistent with it (DDZ-10).

A [`View`][shedkit.doudizhu.view.View] is the only thing outside the engine that sees a deal: agents
act on it, the terminal draws it. It holds the seat's own hand, the public
history (with the physical cards of every play), and the kitty once the
landlord has shown it; never another seat's hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shedkit.core.pickling import reduce_dataclass
from shedkit.doudizhu.combos import Move
from shedkit.doudizhu.options import Options

if TYPE_CHECKING:
    from shedkit.doudizhu.rules import DouDizhu, State

__all__ = ["View", "deal_from", "determinize", "known_cards"]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a deal (``seat=None``: a spectator's).

    ``history`` is every move so far with the cards it played; ``bids`` the
    auction's moves; ``trick`` the moves of the trick in progress.
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
    first_bidder: int
    landlord: int | None
    kitty: tuple[int, ...] | None
    stake: int
    high_bidder: int
    bombs: int
    history: tuple[tuple[int, Move, tuple[int, ...]], ...]
    bids: tuple[tuple[int, Move], ...]
    trick: tuple[tuple[int, Move], ...]
    played: tuple[tuple[int, ...], ...]
    last_play: Move | None
    last_player: int
    passes: int
    legal_moves: tuple[Move, ...]
    thrown_in: bool
    winner: int | None
    spring: bool
    returns: tuple[int, ...]

    @property
    def multiplier(self) -> int:
        """2 to the number of bombs and rockets played so far (DDZ-31)."""
        return 1 << self.bombs

    @property
    def is_over(self) -> bool:
        """True once the deal has ended."""
        return self.phase == "over"

    def is_partner(self, seat: int) -> bool:
        """True if ``seat`` is on this view's side (both peasants, or oneself)."""
        if seat == self.seat:
            return True
        return (
            self.landlord is not None
            and self.seat is not None
            and (seat != self.landlord and self.seat != self.landlord)
        )


def known_cards(view: View) -> list[set[int]]:
    """Per seat, the cards ``view``'s seat knows that seat still holds.

    Its own hand, and the landlord's kitty cards not played yet once the kitty is
    shown (DDZ-10).
    """
    if view.seat is None:
        raise ValueError("known_cards needs a seat's view, not a spectator's")
    known: list[set[int]] = [set() for _ in range(view.num_players)]
    known[view.seat] = set(view.hand)
    if view.kitty is not None and view.landlord is not None and view.landlord != view.seat:
        known[view.landlord] |= set(view.kitty) - set(view.played[view.landlord])
    return known


def determinize(
    game: DouDizhu,
    view: View,
    rng: random.Random,
    observe: Callable[[State, Move], None] | None = None,
) -> State:
    """Deal the cards ``view`` cannot see at random and replay its public history.

    The result holds the view's own hand, every card already played where it
    was played, the shown kitty, and the right number of cards in each hand.
    ``observe(state, move)``, if given, sees each move of the history before it
    is replayed (a search weighs the deal by how likely the seats' moves were).
    """
    if view.seat is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    n = view.num_players
    played = [set(p) for p in view.played]
    known = known_cards(view)
    seen = set().union(*known, *played)
    unseen = [c for c in game.deck if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for seat in range(n):
        need = view.cards_left[seat] - len(known[seat])
        if need < 0 or need > len(unseen):
            raise ValueError(
                f"view is inconsistent: seat {seat} holds {view.cards_left[seat]} cards"
            )
        hands.append(sorted(known[seat]) + unseen[:need])
        unseen = unseen[need:]
    # During the auction the kitty is some of the cards in no hand (a scenario
    # deal may leave cards out of play, and the view cannot say which).
    kitty = unseen[: view.options.kitty_size] if view.kitty is None else list(view.kitty)
    return deal_from(game, view, hands, kitty, rng.randrange(2**63), observe)


def deal_from(
    game: DouDizhu,
    view: View,
    hands: list[list[int]],
    kitty: list[int],
    seed: int,
    observe: Callable[[State, Move], None] | None = None,
) -> State:
    """The deal in which each seat holds ``hands`` now, replayed through ``view``'s history.

    Each seat was dealt its hand now and the cards it played (the landlord less the
    ``kitty``); ``observe`` sees each move before it is replayed, as in `determinize`.
    """
    played = [set(p) for p in view.played]
    dealt: list[list[int]] = []
    for seat, hand in enumerate(hands):
        original = set(hand) | played[seat]
        if seat == view.landlord and view.kitty is not None:
            original -= set(view.kitty)
        dealt.append(sorted(original))
    from shedkit.doudizhu.rules import State

    # A deal that skipped the auction (new_deal(landlord=..., bid=...)) has a
    # landlord and no bids: it starts in play, else its plays would replay as bids.
    skipped = view.landlord is not None and not view.bids
    landlord = view.landlord if skipped else None
    state = State(game, seed, dealt, kitty, view.first_bidder, landlord, view.stake)
    for _, move, cards in view.history:
        if observe is not None:
            observe(state, move)
        state._apply(move, cards if move.size else None)
    return state
