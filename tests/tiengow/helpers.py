"""Scenario helpers for the Tien Gow tests: fixed hands, moves by notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import shedkit
from shedkit.tiengow import State, TienGow


def game(preset: str = "standard", **options: Any) -> TienGow:
    """A Tien Gow game with ``options`` over ``preset``."""
    g = shedkit.make("tiengow", preset=preset, **options)
    assert isinstance(g, TienGow)
    return g


def table(
    hands: Sequence[str | None],
    leader: int = 0,
    *,
    banker: int | None = None,
    units: Sequence[int] | None = None,
    streak: int = 1,
    preset: str = "standard",
    **options: Any,
) -> State:
    """A hand in play with exactly these tiles (``"6-6 4-5"``); ``leader`` leads the trick.

    The banker is the leader unless given; with fewer than 8 tiles a hand, the
    tiles in no hand count as won before (``units``, default none).
    """
    g = game(preset, **options)
    return g.new_deal(
        seed=1,
        hands=list(hands),
        leader=leader,
        banker=leader if banker is None else banker,
        banker_streak=streak,
        units=None if units is None else list(units),
    )


def play(state: State, *moves: str) -> State:
    """Apply moves written in TG-81/82 notation, in turn."""
    for text in moves:
        state.apply(state.game.parse_move(text, state))
    return state


def legal(state: State) -> set[str]:
    """The legal moves as notation."""
    return {str(m) for m in state.legal_moves()}


def beats(state: State) -> set[str]:
    """The legal face-up plays (the beats, when following)."""
    return {str(m) for m in state.legal_moves() if not m.is_discard}


def discards(state: State) -> set[str]:
    """The legal discards."""
    return {str(m) for m in state.legal_moves() if m.is_discard}
