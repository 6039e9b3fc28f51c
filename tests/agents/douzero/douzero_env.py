"""DouZero's own game, set up at the start of a shedkit deal's card play (test helper)."""

from __future__ import annotations

from typing import Any

import pytest

from shedkit.agents.douzero.encoding import douzero_cards, position_of
from shedkit.doudizhu.combos import card_rank

env_module = pytest.importorskip(
    "douzero.env.env",
    reason="douzero is not installed (make installs it: pip install --no-deps douzero==1.1.0)",
)
game_module = pytest.importorskip("douzero.env.game")


def douzero_game(state: Any) -> Any:
    """DouZero's game at the start of ``state``'s card play (after shedkit's auction)."""
    landlord = state.landlord
    players = {p: env_module.DummyAgent(p) for p in ("landlord", "landlord_up", "landlord_down")}
    env = game_module.GameEnv(players)
    hands = {position_of(s, landlord): state.hand(s) for s in range(3)}
    env.card_play_init(
        {
            **{p: douzero_cards(card_rank(c) for c in h) for p, h in hands.items()},
            "three_landlord_cards": douzero_cards(card_rank(c) for c in state.kitty),
        }
    )
    return env
