"""Pickling that works the same for compiled classes: games, tables, states, moves and views.

A class compiled by mypyc has no ``__new__`` that skips ``__init__``, so pickle's
default (allocate, then fill the attributes) fails on it. Each such class gives
a ``__reduce__`` made from these helpers: rebuild from the constructor's
arguments, which is also what the pure build then does.

>>> import pickle, shedkit
>>> game = shedkit.make("doudizhu")
>>> pickle.loads(pickle.dumps(game)).options == game.options
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["reduce_dataclass"]


def reduce_dataclass(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``(type, init arguments)`` of a dataclass instance, for its ``__reduce__``."""
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)
