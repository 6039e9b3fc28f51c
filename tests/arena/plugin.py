"""An agent outside shedkit's package, loaded by import path or entry point in the tests."""

from __future__ import annotations

from typing import Any


class FirstBot:
    """Always the first legal move."""

    name = "first"

    def __init__(self, game: Any = None, seed: int = 0) -> None:
        self.game = game

    def act(self, view: Any) -> Any:
        """The first legal move."""
        return view.legal_moves[0]


class NoAct:
    """Not an agent: no act method."""

    def __init__(self, game: Any = None, seed: int = 0) -> None:
        pass
