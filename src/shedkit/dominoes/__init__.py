"""Dominoes: the draw and block games for 2–6 players, partnerships, All Fives with a spinner.

The modules form layers, each importing only from the layers below it:

1. ``options`` and ``combos``: the rule options, the tiles and the moves;
2. ``actions`` and ``movegen``: the move tables and move generation;
3. ``notation``: moves and tiles as text (DOM-40/41);
4. ``view``: what one seat may know of a hand;
5. ``rules``: the game and its state, which make the views.

Nothing below ``rules`` imports it: reading a move is given the moves legal
now rather than the state, and a function of ``view`` that needs a whole deal
asks the game it is given (its ``Dealer``) to build it.
``chinese``, a tile model no game plays yet, imports none of them.
"""

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
