"""Dominoes: the draw and block games for 2–6 players, partnerships, All Fives with a spinner."""

from shedkit.dominoes.combos import Move, tile_halves, tile_index, tile_str
from shedkit.dominoes.options import PRESETS, Options
from shedkit.dominoes.rules import Dominoes, SetupError, State, make, round_to_five
from shedkit.dominoes.view import Line, View

__all__ = [
    "PRESETS",
    "Dominoes",
    "Line",
    "Move",
    "Options",
    "SetupError",
    "State",
    "View",
    "make",
    "round_to_five",
    "tile_halves",
    "tile_index",
    "tile_str",
]
