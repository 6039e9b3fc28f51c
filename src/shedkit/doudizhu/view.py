"""What one seat may know of a deal, and deals consistent with it (DDZ-10).

A [`View`][shedkit.doudizhu.view.View] is the only thing outside the engine that sees a deal: agents
act on it, the terminal draws it. It holds the seat's own hand, the public
history (with the physical cards of every play), and the kitty once the
landlord has shown it; never another seat's hidden cards.

``rules`` makes the views and so sits above this module: where a function here
needs a whole deal, it asks the game it is given (a [`Dealer`][shedkit.doudizhu.view.Dealer]).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from shedkit.core.pickling import reduce_dataclass
from shedkit.doudizhu.combos import Move
from shedkit.doudizhu.options import Options

__all__ = ["Dealer", "View", "deal_from", "determinize", "known_cards"]

StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)


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
    #: The trick that has just ended (DDZ-13), until the next move: what the table keeps
    #: in front of the seats, dimmed, and a page loaded then can draw.
    finished_trick: tuple[tuple[int, Move], ...] = ()

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


class Dealer(Protocol[StateT_co]):
    """What this module asks of the game (`DouDizhu`): its pack, and a deal built from hands."""

    @property
    def deck(self) -> tuple[int, ...]:
        """Every card of the game."""
        ...

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        kitty: list[int],
        seed: int,
        observe: Callable[[StateT_co, Move], None] | None = None,
    ) -> StateT_co:
        """The deal in which each seat holds ``hands`` now, replayed through ``view``'s history."""
        ...


def determinize(
    game: Dealer[StateT],
    view: View,
    rng: random.Random,
    observe: Callable[[StateT, Move], None] | None = None,
) -> StateT:
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
    return game.deal_from(view, hands, kitty, rng.randrange(2**63), observe)


def deal_from(
    game: Dealer[StateT],
    view: View,
    hands: list[list[int]],
    kitty: list[int],
    seed: int,
    observe: Callable[[StateT, Move], None] | None = None,
) -> StateT:
    """The deal in which each seat holds ``hands`` now, replayed through ``view``'s history.

    Each seat was dealt its hand now and the cards it played (the landlord less the
    ``kitty``); ``observe`` sees each move before it is replayed, as in `determinize`.
    The game builds it (``game.deal_from``), for the state is its own.
    """
    return game.deal_from(view, hands, kitty, seed, observe)
