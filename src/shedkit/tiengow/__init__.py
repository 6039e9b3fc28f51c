"""Tien Gow (天九): the trick-taking game of the Chinese 32-tile set, 4 players, a rotating banker.

The modules form layers, each importing only from the layers below it:

1. ``options`` and ``combos``: the rule options, the tiles and the moves;
2. ``actions`` and ``movegen``: the combinations, the move tables and move generation;
3. ``notation``: moves and tiles as text (TG-80…82);
4. ``view``: what one seat may know of a hand;
5. ``rules``: the game and its state, which make the views.

Nothing below ``rules`` imports it: a function of ``view`` that needs a whole
deal asks the game it is given (its ``Dealer``) to build it. The tiles are
those of `shedkit.dominoes.chinese` (DOM-30…32).
"""

from shedkit.tiengow.combos import KIND_NAMES, TILE_NAMES, Move
from shedkit.tiengow.options import PRESETS, Options
from shedkit.tiengow.rules import SetupError, State, TienGow, banker_factor, make, settle
from shedkit.tiengow.view import View

__all__ = [
    "KIND_NAMES",
    "PRESETS",
    "TILE_NAMES",
    "Move",
    "Options",
    "SetupError",
    "State",
    "TienGow",
    "View",
    "banker_factor",
    "make",
    "settle",
]
