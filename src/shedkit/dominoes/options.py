"""Dominoes options (DOM-01…05, DOM-07, DOM-09, DOM-11, DOM-20…24) and presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PRESETS", "PRESET_HELP", "Options"]

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

    players: int = field(
        default=4,
        metadata={"help": "2 to 6 players (DOM-02)"},
    )
    max_pips: Literal[6, 9, 12] = field(
        default=6,
        metadata={"help": "the set: double-six, double-nine or double-twelve (DOM-01)"},
    )
    variant: Literal["draw", "block", "fives"] = field(
        default="draw",
        metadata={
            "help": (
                "draw: draw from the boneyard when stuck; block: pass instead; fives: "
                "All Fives, ends counting to a multiple of 5 score"
            )
        },
    )
    partners: bool | None = field(
        default=None,
        metadata={
            "help": "4 players as two teams, 0+2 against 1+3 (default: yes with 4 players, DOM-02)"
        },
    )
    first_player: Literal["highest-double", "draw"] = field(
        default="highest-double",
        metadata={
            "help": (
                "who leads the first hand: the holder of the highest double, or a "
                "random seat (DOM-04)"
            )
        },
    )
    spinner_opens: Literal["after-both-sides", "immediately"] = field(
        default="after-both-sides",
        metadata={
            "help": (
                "All Fives: the spinner's cross sides open once both long sides have a "
                "tile, or at once (DOM-22)"
            )
        },
    )
    target: int = field(
        default=100,
        metadata={"help": "the match ends when a side's total reaches this (DOM-11)"},
    )
    hand_size: int | None = field(
        default=None,
        metadata={
            "help": (
                "tiles dealt to each player (default: 7, or 5 with 5 players, 4 with 6; DOM-03)"
            )
        },
    )
    count_partner_pips: bool | None = field(
        default=None,
        metadata={
            "help": (
                "the partner's pips count for the team that went out (default: yes, "
                "except in All Fives; DOM-09, DOM-24)"
            )
        },
    )
    void_cancels_count: bool = field(
        default=True,
        metadata={
            "help": (
                "All Fives: a tied blocked hand also cancels the counts scored during it "
                "(default: yes; DOM-24)"
            )
        },
    )

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

#: What each preset changes, in a line (``shedkit play --help``).
PRESET_HELP: dict[str, str] = {
    "standard": "the draw game, double-six, 4 players as partners, to 100",
    "block": "no drawing: a player who cannot play passes",
    "all-fives": "All Fives: ends counting to a multiple of 5 score, lots for the first lead",
    "two-player": "2 players, no partners",
    "double-nine": "the double-nine set (55 tiles)",
    "double-twelve": "the double-twelve set (91 tiles)",
}
