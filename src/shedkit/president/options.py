"""President options (PRE-01, PRE-03, PRE-08, PRE-13, PRE-14, PRE-18, PRE-20) and presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PRESETS", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of President, with the defaults of preset ``"standard"``."""

    players: int = 4
    jokers: Literal[0, 1] = 0
    rank_order: Literal["ace-low", "two-high"] = "ace-low"
    pass_is_final: bool = False
    revolution: bool = True
    revolution_persists: bool = False
    eight_stops: bool = False
    tax: bool = False

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
    # The common international reading: 2 high, tax on, a joker.
    "international": {"rank_order": "two-high", "tax": True},
    "all-options": {"jokers": 1, "eight_stops": True, "tax": True},
}
