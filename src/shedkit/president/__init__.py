"""President (Italian *Presidente*): 2–5 players, revolution, joker, eights, tax.

The modules form layers, each importing only from the layers below it:

1. ``options`` and ``combos``: the rule options, the cards and the moves;
2. ``actions`` and ``movegen``: the move tables and move generation;
3. ``notation``: moves and cards as text (PRE-30/31);
4. ``view``: what one seat may know of a deal;
5. ``rules``: the game and its state, which make the views.

Nothing below ``rules`` imports it: a function of ``view`` that needs a whole
deal asks the game it is given (its ``Dealer``) to build it.
"""

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
