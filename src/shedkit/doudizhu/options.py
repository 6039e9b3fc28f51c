"""Dou Di Zhu options (DDZ-04, DDZ-09, DDZ-16, DDZ-32, DDZ-40) and the named presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PRESETS", "PRESET_HELP", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of Dou Di Zhu, with the defaults of preset ``"standard"``.

    ``players=4`` is the two-pack game of DDZ-40…43 (25 cards each, an 8-card
    kitty, bombs of 4–8 cards, the four-joker rocket).
    """

    players: Literal[3, 4] = field(
        default=3,
        metadata={
            "help": (
                "3 players with one pack, or 4 with two packs, 25 cards each and an "
                "8-card kitty (DDZ-40)"
            )
        },
    )
    first_bidder: Literal["random", "rotate"] = field(
        default="random",
        metadata={
            "help": (
                "who bids first: a random seat each deal, or one seat further each deal (DDZ-04)"
            )
        },
    )
    pass_is_final: bool = field(
        default=False,
        metadata={"help": "a pass in the auction is final: that player bids no more (DDZ-09)"},
    )
    kickers_may_repeat: bool = field(
        default=True,
        metadata={"help": "solo kickers may share a rank, as in 8888+33 (DDZ-16)"},
    )
    rocket_as_kickers: bool = field(
        default=False,
        metadata={"help": "both jokers may be played together as kickers (DDZ-16)"},
    )
    spring: Literal["standard", "any_player", "off"] = field(
        default="standard",
        metadata={
            "help": (
                "when a spring doubles the stake: standard (a side never played), "
                "any_player (someone still holds every card dealt), or off (DDZ-32)"
            )
        },
    )
    quad_single_kicker: bool = field(
        default=False,
        metadata={
            "help": "four of a kind may also take one kicker: 3333+5 or 3333+44 (de-wikipedia)"
        },
    )
    two_in_chains: bool = field(
        default=False,
        metadata={
            "help": "a 2 may end a pair chain or a plane, never a single chain (de-wikipedia)"
        },
    )

    def chain_limit(self, width: int) -> int:
        """How many ranks from the 3 up a run of ``width`` cards per rank may use (DDZ-19).

        Rank 12 is the 2: never in a single chain; at the top of a pair chain or a plane
        only with ``two_in_chains`` (preset ``"de-wikipedia"``). Jokers never.
        """
        return 13 if self.two_in_chains and width > 1 else 12

    @property
    def decks(self) -> int:
        """Number of 54-card packs: one for three players, two for four (DDZ-40)."""
        return 1 if self.players == 3 else 2

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (DDZ-04, DDZ-40)."""
        return 17 if self.players == 3 else 25

    @property
    def kitty_size(self) -> int:
        """Cards left face down for the landlord (DDZ-04, DDZ-40)."""
        return 3 if self.players == 3 else 8


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # The German source's readings: quads with one kicker, 2 at the top of pair chains and
    # planes (never of a single chain), spring for any player still holding every card.
    "de-wikipedia": {"quad_single_kicker": True, "two_in_chains": True, "spring": "any_player"},
    "four-player": {"players": 4},
}

#: What each preset changes, in a line (``shedkit play --help``).
PRESET_HELP: dict[str, str] = {
    "standard": "the rules as specified, 3 players",
    "de-wikipedia": "four with one kicker, 2 in pair chains and planes, spring for any player",
    "four-player": "4 players with two packs, 25 cards each, an 8-card kitty",
}
