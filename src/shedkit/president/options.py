"""President options (PRE-01, PRE-03, PRE-08, PRE-13, PRE-14, PRE-18, PRE-20/21) and presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PRESETS", "PRESET_HELP", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of President, with the defaults of preset ``"standard"``."""

    players: int = field(
        default=4,
        metadata={"help": "2 to 5 players (PRE-02); 13 cards each, 10 with 5 players"},
    )
    jokers: Literal[0, 1] = field(
        default=0,
        metadata={
            "help": (
                "add one joker: alone it beats every single, in a set it stands for any"
                " card (PRE-01, PRE-15)"
            )
        },
    )
    rank_order: Literal["ace-low", "two-high"] = field(
        default="ace-low",
        metadata={"help": "ace-low: A 2 3 ... K; two-high: 3 4 ... K A 2 (PRE-03)"},
    )
    pass_is_final: bool = field(
        default=False,
        metadata={"help": "a pass takes a player out of the trick until it ends (PRE-08)"},
    )
    revolution: bool = field(
        default=True,
        metadata={
            "help": "a quad reverses the rank order until another quad (PRE-13); off: a quad "
            "is an ordinary set of four"
        },
    )
    revolution_persists: bool = field(
        default=False,
        metadata={
            "help": "a revolution carries over to the next deal instead of resetting (PRE-14)"
        },
    )
    eight_stops: bool = field(
        default=False,
        metadata={"help": "a play containing an 8 cannot be beaten: the trick ends (PRE-18)"},
    )
    tax: bool = field(
        default=False,
        metadata={
            "help": (
                "from deal 2, the top finishers swap cards of their choice for random "
                "cards of the bottom ones (PRE-20)"
            )
        },
    )
    tax_style: Literal["drawn", "best"] = field(
        default="drawn",
        metadata={
            "help": (
                "how the tax takes cards: drawn, at random from the bottom finishers (PRE-20); "
                "best, their highest cards, the top ones giving back any (PRE-21)"
            )
        },
    )

    def __post_init__(self) -> None:
        from shedkit.core.errors import OptionError

        if not 2 <= self.players <= 5:
            raise OptionError(f"president option 'players' must be 2 to 5, not {self.players}")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (PRE-05)."""
        return 10 if self.players == 5 else 13


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # The common international reading: 2 high, the tax with the best cards (PRE-21).
    "international": {"rank_order": "two-high", "tax": True, "tax_style": "best"},
    "all-options": {"jokers": 1, "eight_stops": True, "tax": True},
}

#: What each preset changes, in a line (``shedkit play --help``).
PRESET_HELP: dict[str, str] = {
    "standard": "the rules as specified: ace low, no joker, no tax",
    "international": "2 high and the tax, the loser's best cards (tax_style=best)",
    "all-options": "a joker, eights stop, and the tax",
}
