"""Cross-check with the ``dominoes`` PyPI package (the ``[bench]`` extra) on 4-player block games.

Both engines play the same deals in lockstep; at every decision our legal
moves must equal the package's. Differences of convention, mapped here:

- the package plays the first tile (6-6) itself and skips passes; we make
  both explicit moves (DOM-04, DOM-07), so our passes are applied without a
  counterpart and the package's turn must then be ours;
- when both ends show the same number the package lists a tile once, on the
  left; we list it on both ends (they are different places in the line),
  so our moves are compared with ``R`` read as ``L`` in that case.
"""

from __future__ import annotations

import random

import pytest

import shedkit
from shedkit.dominoes import State, tile_halves

dominoes = pytest.importorskip(
    "dominoes", reason="the 'dominoes' package is not installed (pip install -e '.[bench]')"
)

POSITIONS = 10_000


def ours_as_peer(state: State) -> set[tuple[tuple[int, int], bool]]:
    left, right = state.ends[:2]
    out = set()
    for m in state.legal_moves():
        assert m.kind == "play"
        out.add((tile_halves(m.tile), m.end == 0 or left == right))
    return out


def peer_moves(game: object) -> set[tuple[tuple[int, int], bool]]:
    return {
        ((min(d.first, d.second), max(d.first, d.second)), left)
        for d, left in game.valid_moves  # type: ignore[attr-defined]
    }


def test_legal_moves_equal_the_dominoes_package() -> None:
    ours_game = shedkit.make("dominoes", players=4, variant="block")
    rng = random.Random(2024)
    saved = random.getstate()
    positions = 0
    deals = 0
    try:
        while positions < POSITIONS:
            random.seed(rng.randrange(2**32))  # the package deals with the global generator
            peer = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
            deals += 1
            hands = [
                [ours_game.parse_move(f"{d.first}-{d.second}").tile for d in hand]
                for hand in peer.hands
            ]
            hands[peer.starting_player].append(27)  # the 6-6 the package has already played
            state = ours_game.new_deal(seed=deals, hands=hands)
            assert state.current_player == peer.starting_player
            state.apply(ours_game.parse_move("6-6"))
            while True:
                while not state.is_over and state.legal_moves()[0].kind == "pass":
                    state.apply(state.legal_moves()[0])
                if state.is_over or peer.result is not None:
                    break
                assert state.current_player == peer.turn
                assert ours_as_peer(state) == peer_moves(peer)
                positions += 1
                d, left = peer.valid_moves[rng.randrange(len(peer.valid_moves))]
                tile = ours_game.parse_move(f"{d.first}-{d.second}").tile
                end = 0 if left else 1
                state.apply(ours_game.tables.play(tile, end))
                peer.make_move(d, left)
            assert state.is_over and peer.result is not None
            assert (state.end_reason == "domino") == peer.result.won
            assert not peer.hands[peer.result.player] or not peer.result.won
    finally:
        random.setstate(saved)
    assert positions >= POSITIONS and deals > POSITIONS // 30
