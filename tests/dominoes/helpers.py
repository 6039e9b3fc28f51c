"""Scenario helpers for the Dominoes tests: fixed hands, a fixed boneyard, moves by notation."""

from __future__ import annotations

from typing import Any

import shedkit
from shedkit.dominoes import Dominoes, State


def game(**options: Any) -> Dominoes:
    """A Dominoes game with ``options`` over the standard preset."""
    g = shedkit.make("dominoes", **options)
    assert isinstance(g, Dominoes)
    return g


def deal(
    hands: list[str | None],
    boneyard: str | None = None,
    leader: int | None = 0,
    seed: int = 1,
    **options: Any,
) -> State:
    """A hand with the given tiles (``"6-6 3-5"``), one player per hand, ``leader`` to lead."""
    g = game(players=len(hands), **options)
    return g.new_deal(seed=seed, hands=hands, boneyard=boneyard, leader=leader)


def play(state: State, *moves: str) -> State:
    """Apply moves written in DOM-41 notation, in turn."""
    for text in moves:
        state.apply(state.game.parse_move(text, state))
    return state


def texts(state: State) -> list[str]:
    """The legal moves as notation."""
    return [str(m) for m in state.legal_moves()]
