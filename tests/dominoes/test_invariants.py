"""Randomized invariants for every player count (2–6), variant and set size.

Tiles are conserved, every legal move applies, returns are non-negative and
shared by partners, views hide other hands and the boneyard order, the line
as laid out agrees with the open ends, records replay exactly, and
``parse_move(str(m)) is m`` for every legal move.
"""

from __future__ import annotations

import json
import random

import pytest

import shedkit
from shedkit.dominoes import Dominoes, State

VARIANTS = ("draw", "block", "fives")
DEALS = {6: 150, 9: 40, 12: 20}
CONFIGS = [(n, v, m) for n in range(2, 7) for v in VARIANTS for m in (6, 9, 12)]


def tiles_everywhere(state: State) -> list[int]:
    tiles = [t for seat in range(state.num_players) for t in state.hand(seat)]
    tiles += [m.tile for _, m, _, _ in state.history if m.kind in ("lead", "play")]
    tiles += state.remaining_boneyard()
    return sorted(tiles)


def check_view(state: State, seat: int) -> None:
    view = state.view(seat)
    assert view.hand == state.hand(seat)
    hidden = {t for other in range(state.num_players) if other != seat for t in state.hand(other)}
    hidden |= set(state.remaining_boneyard())
    assert not set(view.hand) & hidden
    for who, move, drawn, _ in view.history:
        assert drawn == -1 or (who == seat and move.kind == "draw")
    assert view.boneyard_size == state.boneyard_left
    assert view.tile_counts == tuple(len(state.hand(s)) for s in range(state.num_players))
    assert view.legal_moves == (state.legal_moves() if seat == state.current_player else ())
    # The public record of moves, with only this seat's own draws showing their tiles.
    assert [(w, m, s) for w, m, _, s in view.history] == [(w, m, s) for w, m, _, s in state.history]
    own = [d for w, m, d, _ in state.history if w == seat and m.kind == "draw"]
    assert [d for w, m, d, _ in view.history if m.kind == "draw" and d >= 0] == own
    assert view.lead_tile in (-1, *view.hand)


def check_line(state: State) -> None:
    line = state.view(None).line
    plays = sum(1 for _, m, _, _ in state.history if m.kind in ("lead", "play"))
    assert len(line.main) + len(line.up) + len(line.down) == plays
    if plays:
        ends = state.ends
        assert (line.main[0][0], line.main[-1][1]) == ends[:2]
        for arm, end in ((line.up, ends[2]), (line.down, ends[3])):
            if arm:
                assert arm[-1][1] == end
        for (_, right), (left, _) in zip(line.main, line.main[1:], strict=False):
            assert right == left


@pytest.mark.parametrize(("players", "variant", "max_pips"), CONFIGS)
def test_random_hands(players: int, variant: str, max_pips: int) -> None:
    game = shedkit.make("dominoes", players=players, variant=variant, max_pips=max_pips)
    assert isinstance(game, Dominoes)
    all_tiles = list(range(game.tables.num_tiles))
    for seed in range(DEALS[max_pips]):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        step = 0
        while not state.is_over:
            assert tiles_everywhere(state) == all_tiles
            moves = state.legal_moves()
            assert moves
            for m in moves:
                assert game.parse_move(str(m)) is m
                assert game.action_to_move(m.action_id) is m
            if step % 5 == 0:
                for seat in range(players):
                    check_view(state, seat)
                check_line(state)
                for m in moves:
                    state.clone().apply(m)
            state.apply(moves[rng.randrange(len(moves))])
            step += 1
        assert tiles_everywhere(state) == all_tiles
        assert len(state.history) <= game.info.max_game_length
        check_line(state)
        returns = state.returns()
        assert all(0 <= r <= game.info.max_score for r in returns)
        if game.teams:
            assert returns[0] == returns[2] and returns[1] == returns[3]
        if variant == "fives":
            assert all(r % 5 == 0 for r in returns)
        else:
            assert sum(1 for side in range(game.num_sides) if returns[side] > 0) <= 1
        if state.end_reason == "domino":
            assert any(not state.hand(s) for s in range(players))
        record = json.loads(json.dumps(state.record()))
        again = shedkit.replay(record)
        assert again.record() == state.record() and again.returns() == returns
        assert (
            shedkit.replay(record, steps=len(record["moves"]) // 2).record()["moves"]
            == (record["moves"][: len(record["moves"]) // 2])
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_determinize_is_consistent_with_the_view(variant: str) -> None:
    game = shedkit.make("dominoes", players=3, variant=variant)
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        for _ in range(rng.randrange(1, 20)):
            if state.is_over:
                break
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if state.is_over:
            continue
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        sample = game.determinize(view, random.Random(seed))
        assert sample.hand(seat) == state.hand(seat)
        assert sample.board == state.board and sample.current_player == seat
        assert sample.legal_moves() == state.legal_moves()
        assert [len(sample.hand(s)) for s in range(3)] == list(view.tile_counts)
        assert sample.boneyard_left == state.boneyard_left
        assert sample.scores() == state.scores()
        on_table = [m.tile for _, m, _, _ in view.history if m.kind in ("lead", "play")]
        everything = [t for s in range(3) for t in sample.hand(s)]
        everything += on_table + list(sample.remaining_boneyard())
        assert sorted(everything) == list(range(game.tables.num_tiles))
        # A seat that passed holds no tile of the values it passed on (DOM-07).
        from shedkit.dominoes.movegen import empty_board, place

        board = empty_board()
        for who, move, _, _ in view.history:
            if move.kind == "pass":
                for t in sample.hand(who):
                    assert not set(game.tables.halves[t]) & {v for v in board[:4] if v >= 0}
            elif move.kind in ("lead", "play"):
                place(board, game.tables.halves[move.tile], move.end, variant == "fives")
        while not sample.is_over:
            moves = sample.legal_moves()
            sample.apply(moves[0])
