"""DouZero's observation from shedkit's views equals the ``douzero`` package's own.

Seeded self-play games (random and greedy agents, after shedkit's auction or
with a fixed landlord) are replayed move by move through DouZero's ``GameEnv``;
at every card-play position both sides' ``x_batch``, ``z_batch``,
``x_no_action``, ``z`` and legal actions must be equal.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from douzero_env import douzero_game, game_module

import shedkit
from shedkit.agents import GreedyDouDizhu, RandomAgent
from shedkit.agents.douzero.encoding import (
    X_SIZE,
    action_type,
    check_rules,
    douzero_cards,
    encode,
    legal_actions,
)
from shedkit.core.errors import OptionError

env_module = pytest.importorskip(
    "douzero.env.env",
    reason="douzero is not installed (make installs it: pip install --no-deps douzero==1.1.0)",
)
move_detector = pytest.importorskip("douzero.env.move_detector")
move_generator = pytest.importorskip("douzero.env.move_generator")

DECK = [v for v in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
POSITIONS_WANTED = 5000


def compare(view: Any, infoset: Any) -> None:
    """Every array and the actions of both observations are equal, dtypes included."""
    ours = encode(view)
    theirs = env_module.get_obs(infoset)
    assert ours.position == theirs["position"] == infoset.player_position
    assert [list(a) for a in ours.actions] == infoset.legal_actions
    for name in ("x_batch", "z_batch", "x_no_action", "z"):
        mine, ref = getattr(ours, name), theirs[name]
        assert mine.dtype == ref.dtype and mine.shape == ref.shape, name
        assert np.array_equal(mine, ref), name
    assert ours.x_batch.shape[1] == X_SIZE[ours.position]


def test_x_and_z_equal_douzero_on_self_play_positions() -> None:
    game = shedkit.make("doudizhu")
    positions = 0
    seen: Counter[str] = Counter()
    for deal in range(2000):
        if positions >= POSITIONS_WANTED and deal >= 30:
            break
        # Even deals go through shedkit's auction; odd ones fix the landlord.
        if deal % 2:
            state = game.new_deal(seed=deal, landlord=deal % 3, bid=1)
        else:
            state = game.new_deal(seed=deal)
        agents = [
            GreedyDouDizhu(game, deal) if (deal + s) % 3 == 0 else RandomAgent(game, deal * 3 + s)
            for s in range(3)
        ]
        while state.phase == "auction":
            state.apply(agents[state.current_player].act(state.view(state.current_player)))
        if state.thrown_in:
            continue
        env = douzero_game(state)
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            infoset = env.game_infoset
            compare(view, infoset)
            positions += 1
            seen[infoset.player_position] += 1
            seen["bombs played"] += infoset.bomb_num > 0
            seen["following"] += bool(infoset.last_move)
            # Both engines must stay on the same cards: play a move DouZero lists too.
            listed = {tuple(a) for a in infoset.legal_actions}
            both = tuple(m for m in view.legal_moves if tuple(douzero_cards(m.ranks)) in listed)
            move = agents[seat].act(dataclasses.replace(view, legal_moves=both))
            state.apply(move)
            action = douzero_cards(move.ranks)
            env.players[infoset.player_position].set_action(action)
            env.step()
        assert env.game_over
    assert positions >= POSITIONS_WANTED
    assert min(seen[p] for p in ("landlord", "landlord_up", "landlord_down")) > 100
    assert seen["bombs played"] > 0 and seen["following"] > 100


def douzero_legal(hand: list[int], rival: list[int]) -> list[list[int]]:
    """DouZero's legal actions for ``hand`` facing ``rival``, from its own game."""
    env = game_module.GameEnv({})
    env.acting_player_position = "landlord"
    env.info_sets["landlord"].player_hand_cards = list(hand)
    env.card_play_action_seq = [list(rival)] if rival else []
    result: list[list[int]] = env.get_legal_card_play_actions()
    return result


def test_legal_actions_and_types_equal_douzero_on_random_hands() -> None:
    """Random hands against a play of every type DouZero knows (its odd readings too)."""
    rng = random.Random(11)
    types: Counter[int] = Counter()
    for i in range(600):
        hand = sorted(rng.sample(DECK, rng.randint(1, 20)))
        other = sorted(rng.sample(DECK, 20))
        by_type: dict[int, list[list[int]]] = {}
        for m in move_generator.MovesGener(other).gen_moves():
            m = sorted(m)
            detected = move_detector.get_move_type(m)
            assert action_type(m) == (detected["type"], detected.get("len", 1)), m
            by_type.setdefault(detected["type"], []).append(m)
        rival = [] if i % 6 == 0 else rng.choice(by_type[rng.choice(sorted(by_type))])
        types[action_type(rival)[0]] += 1
        assert legal_actions(hand, rival) == douzero_legal(hand, rival), (hand, rival)
    assert len(types) >= 14  # every type but (rarely) one


def test_odd_readings_of_douzero() -> None:
    # A plane with a trio of kickers outside it is ranked by its highest trio...
    assert action_type([3, 3, 3, 4, 4, 4, 5, 5, 5, 7, 7, 7]) == (11, 3)
    # ...a plane whose kickers extend it is a longer plane, and four trios with a
    # fourth card of a kicker rank is no combination DouZero can read.
    assert action_type([3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]) == (10, 4)
    assert action_type([3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8]) == (15, 1)
    hand = [4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 9, 10]
    assert legal_actions(hand, [3, 3, 3, 4, 4, 4, 5, 5, 5, 7, 7, 7]) == douzero_legal(
        hand, [3, 3, 3, 4, 4, 4, 5, 5, 5, 7, 7, 7]
    )


def test_other_rules_are_refused() -> None:
    for preset in ("four-player", "de-wikipedia"):
        with pytest.raises(OptionError, match="standard rules"):
            check_rules(shedkit.make("doudizhu", preset=preset).options)
    check_rules(shedkit.make("doudizhu", pass_is_final=True, spring="off").options)
    game = shedkit.make("doudizhu", preset="four-player")
    state = game.new_deal(seed=1, landlord=0)
    with pytest.raises(OptionError, match="players=4"):
        encode(state.view(0))
    auction = shedkit.make("doudizhu").new_deal(seed=1)
    with pytest.raises(ValueError, match="card play"):
        encode(auction.view(auction.current_player))
