"""Dou Di Zhu (斗地主): three players (or four with two packs), an auction, a landlord."""

from shedkit.doudizhu.combos import Move, card_str
from shedkit.doudizhu.options import PRESETS, Options
from shedkit.doudizhu.rules import DouDizhu, SetupError, State, make
from shedkit.doudizhu.view import View

__all__ = [
    "PRESETS",
    "DouDizhu",
    "Move",
    "Options",
    "SetupError",
    "State",
    "View",
    "card_str",
    "make",
]
