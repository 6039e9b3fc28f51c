"""President (Italian *Presidente*): 2–5 players, revolution, joker, eights, tax."""

from shedkit.president.combos import Move, card_str
from shedkit.president.options import PRESETS, Options
from shedkit.president.rules import TITLES, President, SetupError, State, make
from shedkit.president.view import View

__all__ = [
    "PRESETS",
    "TITLES",
    "Move",
    "Options",
    "President",
    "SetupError",
    "State",
    "View",
    "card_str",
    "make",
]
