"""Dou Di Zhu options (DDZ-04, DDZ-09, DDZ-16, DDZ-32, DDZ-40) and the named presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PRESETS", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of Dou Di Zhu, with the defaults of preset ``"standard"``.

    ``players=4`` is the two-pack game of DDZ-40…43 (25 cards each, an 8-card
    kitty, bombs of 4–8 cards, the four-joker rocket).
    """

    players: Literal[3, 4] = 3
    first_bidder: Literal["random", "rotate"] = "random"
    pass_is_final: bool = False
    kickers_may_repeat: bool = True
    rocket_as_kickers: bool = False
    spring: Literal["standard", "any_player", "off"] = "standard"
    quad_single_kicker: bool = False
    two_in_chains: bool = False

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
