"""Tien Gow options (TG-02, TG-03, TG-28, TG-31…33, TG-41, TG-50…54, TG-60…64) and presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PRESETS", "PRESET_HELP", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rules switch of Tien Gow, with the defaults of preset ``"standard"``.

    ``hands`` and ``target`` end a match (TG-41); the rest change a hand.
    ``wen_supreme_capture`` is ignored without ``wen_supreme`` (TG-60).
    """

    first_banker: Literal["random"] | int = field(
        default="random",
        metadata={"help": "the first banker of a match: random, or a seat 0-3 (TG-03)"},
    )
    alternate_direction: bool = field(
        default=False,
        metadata={"help": "hands with an odd index in the match go the other way round (TG-02)"},
    )
    combinations: Literal["full", "pairs", "pure-pairs", "singles"] = field(
        default="full",
        metadata={
            "help": (
                "which combinations exist: full (pairs, triples, quads), pairs, pure-pairs "
                "(no mixed pairs), singles (TG-50)"
            )
        },
    )
    triplet_match: Literal["composition", "civil-guarded"] = field(
        default="composition",
        metadata={
            "help": (
                "composition: a triple beats only a triple of its own make-up; civil-guarded: "
                "a civil triple may also beat a lower military triple (TG-51)"
            )
        },
    )
    two_pairs: bool = field(
        default=False,
        metadata={"help": "two civil or two military pairs may be led as four tiles (TG-52)"},
    )
    must_follow_suit: bool = field(
        default=False,
        metadata={"help": "on a single-tile trick, play a tile of the led suit if held (TG-53)"},
    )
    discards_exposed: bool = field(
        default=False,
        metadata={"help": "discards are played face up for all to see (TG-54)"},
    )
    early_death: bool = field(
        default=True,
        metadata={"help": ("a player with no trick may not beat a single-tile last trick (TG-28)")},
    )
    zero_trick_payment: int = field(
        default=5,
        metadata={"help": "what a loser with no unit pays the winner (TG-31)"},
    )
    over_par_refund: bool = field(
        default=True,
        metadata={"help": "the winner pays back a loser with 5 units or more (TG-31)"},
    )
    banker_multiplier: Literal["increasing", "fixed", "none"] = field(
        default="increasing",
        metadata={
            "help": (
                "the banker's factor: increasing (2, 3, 4 … as the bank is kept), fixed (2), "
                "none (1) (TG-32)"
            )
        },
    )
    slam_multiplier: int = field(
        default=2,
        metadata={"help": "factor on what a winner with all 8 units is paid (TG-33)"},
    )
    hands: int = field(
        default=16,
        metadata={"help": "hands in a match (TG-41)"},
    )
    target: int | None = field(
        default=None,
        metadata={"help": "a match also ends when a total reaches +target or -target (TG-41)"},
    )
    wen_supreme: bool = field(
        default=False,
        metadata={"help": "1-5 1-5 is the Civil Supreme, above every civil pair (TG-60)"},
    )
    wen_supreme_capture: bool = field(
        default=False,
        metadata={"help": "1-6 1-6 captures a led Civil Supreme (TG-60)"},
    )
    supreme_bonus: int = field(
        default=0,
        metadata={"help": "chips from each player to the winner of a Supreme trick (TG-61)"},
    )
    quad_bonus: int = field(
        default=0,
        metadata={"help": "chips from each player to the winner of a quad trick (TG-61)"},
    )
    supreme_finish_multiplier: int = field(
        default=1,
        metadata={"help": "factor when the last trick is won by a Supreme (TG-62)"},
    )
    quad_finish_multiplier: int = field(
        default=1,
        metadata={"help": "factor when the last trick is won by a quad (TG-62)"},
    )
    yao_finish_multiplier: int = field(
        default=1,
        metadata={"help": "factor when a led 1-2 wins the last trick unbeaten (TG-62)"},
    )
    yao_capture_multiplier: int = field(
        default=0,
        metadata={
            "help": "the leader of a last 1-2 caught by 2-4 pays for all, times this; 0 off (TG-63)"
        },
    )
    special_hands: bool = field(
        default=False,
        metadata={"help": "hands with one or no red end, or 7-8 military tiles, win (TG-64)"},
    )

    def __post_init__(self) -> None:
        from shedkit.core.errors import OptionError

        def bad(name: str, want: str, value: object) -> OptionError:
            return OptionError(f"tiengow option {name!r} must be {want}, not {value!r}")

        if isinstance(self.first_banker, int) and not 0 <= self.first_banker <= 3:
            raise bad("first_banker", "'random' or a seat 0 to 3 (TG-03)", self.first_banker)
        for name in ("zero_trick_payment", "supreme_bonus", "quad_bonus", "yao_capture_multiplier"):
            value = getattr(self, name)
            if value < 0:
                raise bad(name, "0 or more", value)
        for name in (
            "slam_multiplier",
            "hands",
            "supreme_finish_multiplier",
            "quad_finish_multiplier",
            "yao_finish_multiplier",
        ):
            value = getattr(self, name)
            if value < 1:
                raise bad(name, "at least 1", value)
        if self.target is not None and self.target < 1:
            raise bad("target", "at least 1, or None", self.target)
        if self.combinations == "singles" and self.two_pairs:
            raise OptionError(
                "tiengow option 'two_pairs' needs pairs: combinations 'singles' has none (TG-52)"
            )
        if self.combinations == "singles" and self.wen_supreme:
            raise OptionError(
                "tiengow option 'wen_supreme' is a pair: combinations 'singles' has none (TG-60)"
            )

    @property
    def has_wen_capture(self) -> bool:
        """True when ``1-6 1-6`` captures a led Civil Supreme (TG-60)."""
        return self.wen_supreme and self.wen_supreme_capture


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # TG-65: the Helic table's extras.
    "hong-kong": {
        "wen_supreme": True,
        "wen_supreme_capture": True,
        "supreme_bonus": 2,
        "quad_bonus": 4,
        "supreme_finish_multiplier": 2,
        "quad_finish_multiplier": 4,
        "yao_finish_multiplier": 2,
        "yao_capture_multiplier": 4,
        "special_hands": True,
    },
    # TG-66: navpil's "ancient" rule set, his Macau reading and dominorules.com.
    "ancient": {"combinations": "pure-pairs", "early_death": False},
    "ku-pai": {
        "combinations": "singles",
        "discards_exposed": True,
        "early_death": False,
        "banker_multiplier": "fixed",
    },
    "dominorules": {"combinations": "pairs", "two_pairs": True, "must_follow_suit": True},
}

#: What each preset changes, in a line (``shedkit play --help``).
PRESET_HELP: dict[str, str] = {
    "standard": "the rules as specified: every combination, early death, growing banker factor",
    "hong-kong": "Civil Supreme and its capture, bonuses, finishing factors, special hands",
    "ancient": "no mixed combinations, no early death",
    "ku-pai": "single tiles only, open discards, no early death, banker factor 2",
    "dominorules": "singles and pairs, two pairs, follow suit",
}
