"""Dou Di Zhu (斗地主): three players (or four with two packs), an auction, a landlord.

The modules form layers, each importing only from the layers below it:

1. ``options`` and ``combos``: the rule options, the cards and the moves;
2. ``actions`` and ``movegen``: the move tables and move generation;
3. ``notation``: moves as text (DDZ-50/51);
4. ``view``: what one seat may know of a deal;
5. ``rules``: the game and its state, which make the views.

Nothing below ``rules`` imports it: reading a move is given the moves legal
now rather than the state, and a function of ``view`` that needs a whole deal
asks the game it is given (its ``Dealer``) to build it.
"""

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
