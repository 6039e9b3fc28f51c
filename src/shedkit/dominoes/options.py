"""Dominoes options (DOM-01…05, DOM-07, DOM-09, DOM-11, DOM-20…24) and presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PRESETS", "Options"]

#: DOM-03: tiles per hand by player count (2, 3 and 4 players: 7; 5: 5; 6: 4).
HAND_SIZES = {2: 7, 3: 7, 4: 7, 5: 5, 6: 4}


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of Dominoes, with the defaults of preset ``"standard"``.

    ``partners`` ``None`` means the DOM-02 default: partnerships exactly with
    four players. ``first_player`` picks the first hand's leader (DOM-04); in
    the draw and block games the ``"highest-double"`` leader must lead that
    tile, in All Fives any tile (DOM-21). ``hand_size`` ``None`` means the DOM-03 table.
    ``count_partner_pips`` ``None`` means the spec's reading per variant: the
    partner's pips count for the team that went out in the draw and block games
    (DOM-09), not in All Fives (DOM-24). ``void_cancels_count`` (default on) makes a tied
    blocked All Fives hand cancel the points scored by counts during it too
    ("la mano viene annullata", DOM-24); off keeps them, as scored at once (DOM-23).
    """

    players: int = 4
    max_pips: Literal[6, 9, 12] = 6
    variant: Literal["draw", "block", "fives"] = "draw"
    partners: bool | None = None
    first_player: Literal["highest-double", "draw"] = "highest-double"
    spinner_opens: Literal["after-both-sides", "immediately"] = "after-both-sides"
    target: int = 100
    hand_size: int | None = None
    count_partner_pips: bool | None = None
    void_cancels_count: bool = True

    def __post_init__(self) -> None:
        from shedkit.core.errors import OptionError

        if not 2 <= self.players <= 6:
            raise OptionError(f"dominoes option 'players' must be 2 to 6, not {self.players}")
        if self.partners and self.players != 4:
            raise OptionError(
                f"dominoes option 'partners' needs 4 players (DOM-02), not {self.players}"
            )
        if self.target < 1:
            raise OptionError(f"dominoes option 'target' must be at least 1, not {self.target}")
        if self.hand_size is not None and not (
            self.hand_size >= 1 and self.hand_size * self.players <= self.num_tiles
        ):
            raise OptionError(
                f"dominoes option 'hand_size' must be 1 to {self.num_tiles // self.players} "
                f"for {self.players} players and max_pips {self.max_pips}, not {self.hand_size}"
            )

    @property
    def num_tiles(self) -> int:
        """Tiles in the set: every pair ``a-b`` with ``0 ≤ a ≤ b ≤ max_pips`` (DOM-01)."""
        return (self.max_pips + 1) * (self.max_pips + 2) // 2

    @property
    def tiles_per_hand(self) -> int:
        """Tiles dealt to each player (DOM-03, or the ``hand_size`` option)."""
        return self.hand_size if self.hand_size is not None else HAND_SIZES[self.players]

    @property
    def teams(self) -> bool:
        """True when seats 0+2 play against 1+3 (DOM-02)."""
        return self.players == 4 if self.partners is None else self.partners

    @property
    def partner_pips_count(self) -> bool:
        """Whether a team going out also scores the partner's pips (DOM-09 vs DOM-24)."""
        if self.count_partner_pips is not None:
            return self.count_partner_pips
        return self.variant != "fives"


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "block": {"variant": "block"},
    # All Fives as usually played: lots drawn for the first lead (DOM-20, DOM-21).
    "all-fives": {"variant": "fives", "first_player": "draw"},
    "two-player": {"players": 2},
    "double-nine": {"max_pips": 9},
    "double-twelve": {"max_pips": 12},
}
