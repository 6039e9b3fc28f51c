"""shedkit: shedding games (Dou Di Zhu, President, Dominoes, Tien Gow) for play and study.

>>> import shedkit
>>> game = shedkit.make("doudizhu")
>>> state = game.new_deal(seed=1)
>>> state.phase
'auction'
"""

from shedkit.core.compiled import compiled_modules
from shedkit.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
    ShedkitError,
)
from shedkit.core.info import GameInfo
from shedkit.core.records import replay
from shedkit.core.registry import GAMES, make, register
from shedkit.dominoes import make as _make_dominoes
from shedkit.doudizhu import make as _make_doudizhu
from shedkit.president import make as _make_president
from shedkit.tiengow import make as _make_tiengow

register("doudizhu", _make_doudizhu)
register("president", _make_president)
register("dominoes", _make_dominoes)
register("tiengow", _make_tiengow)

__version__ = "0.1.0"

#: The hot rules modules running compiled (mypyc), empty in the pure build; see
#: `shedkit.core.compiled`.
compiled: tuple[str, ...] = compiled_modules()

__all__ = [
    "GAMES",
    "GameInfo",
    "IllegalMoveError",
    "InvalidMoveError",
    "OptionError",
    "RecordError",
    "ShedkitError",
    "compiled",
    "make",
    "register",
    "replay",
]
