"""Bots that think long move in worker processes: no table waits on another table's bot."""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from pathlib import Path

import pytest

import shedkit
from shedkit.server.bots import BotPool, Job, think
from tests.server.live import TEST_SETTINGS, LiveServer


def _job(agent: str, seed: int = 1) -> Job:
    """A Dominoes deal three moves in, for its current player."""
    start = shedkit.make("dominoes").new_deal(seed=4)
    state = shedkit.replay(start.record())
    moves = []
    for _ in range(3):
        move = state.legal_moves()[0]
        moves.append(str(move))
        state.apply(move)
    return Job(start.record(), tuple(moves), state.current_player, agent, seed)


def test_think_replays_the_deal_and_answers_a_legal_move_for_the_seat() -> None:
    job = _job("greedy")
    text = think(job)
    state = shedkit.replay(job.start)
    for move in job.moves:
        state.apply(state.game.parse_move(move, state))
    assert state.game.parse_move(text, state) in state.legal_moves()
    with pytest.raises(ValueError, match="not seat"):
        think(dataclasses.replace(job, seat=(job.seat + 1) % 4))


def test_a_pool_worker_gives_the_same_move_for_the_same_seed() -> None:
    pool = BotPool(1)
    try:
        job = _job("random", seed=7)
        answers = {pool.submit(job).result(timeout=120) for _ in range(3)}
        assert answers == {think(job)}
    finally:
        pool.close()


def test_closing_the_pool_ends_its_workers_even_mid_search() -> None:
    """A stopping server waits for no search: its bot processes are gone at once."""
    pool = BotPool(1)
    pool.submit(_job("greedy")).result(timeout=120)
    workers = multiprocessing.active_children()
    assert workers
    pool.submit(_job("expert"))  # still searching when the pool closes
    pool.close()
    assert not [w for w in workers if w.is_alive()]


def _bot_only_record(db: str) -> list[str]:
    settings = dataclasses.replace(TEST_SETTINGS, pooled_agents=("random",), bot_workers=2)
    with LiveServer(db, settings=settings) as server:
        tid = server.create(game="president", bots=4, bot="random", deals=1, seed=99)["id"]
        deadline = time.monotonic() + 120
        while server.table(tid).status != "finished":
            assert time.monotonic() < deadline, "the bot-only deal did not finish"
            time.sleep(0.05)
        deals = server.http.get(f"/api/tables/{tid}/deals").json()
        record = server.http.get(f"/api/tables/{tid}/deals/{deals[-1]['number']}").json()
        moves: list[str] = record["record"]["moves"]
        return moves


def test_a_fixed_seed_bot_only_table_plays_the_same_record_through_the_pool(
    tmp_path: Path,
) -> None:
    """Seeds come from the table seed and the state: whichever worker answers, same record."""
    first = _bot_only_record(f"sqlite:///{tmp_path / 'a.db'}")
    second = _bot_only_record(f"sqlite:///{tmp_path / 'b.db'}")
    assert first == second and len(first) > 10


def test_a_thinking_bot_does_not_hold_up_another_table(tmp_path: Path) -> None:
    """While a hard bot searches at one table, a player's move at another is answered.

    On the event loop the search would hold every table until it ends; here the other
    table's move is acknowledged while the first table still shows the bot thinking at
    the same state, and the thinking mark clears once the bot has moved.
    """
    with LiveServer(f"sqlite:///{tmp_path / 'db'}") as server:
        slow = server.create(game="doudizhu", bots=3, bot="hard", deals=1, seed=5)["id"]
        quick = server.create(game="dominoes", preset="two-player", bots=1, bot="greedy")
        token = server.join(quick["id"], 0, "Ana")
        player = server.client(quick["id"], token)
        held = 0
        deadline = time.monotonic() + 240
        while held < 2 and server.table(slow).status == "playing":
            assert time.monotonic() < deadline, "no move was made while the bot thought"
            public = server.http.get(f"/api/tables/{slow}").json()
            if public["thinking"] is None:
                time.sleep(0.01)
                continue
            before = public["state_id"]
            player.drain(0.0)
            state = player.state
            assert state is not None and state["view"] is not None
            if state["view"]["current_player"] != 0:
                player.wait_for(lambda m: m["type"] == "state" and m["view"]["current_player"] == 0)
                continue
            sent = state["state_id"]
            player.move(state["view"]["legal"][0]["m"])
            player.wait_for(lambda m, sent=sent: m["type"] == "state" and m["state_id"] > sent)
            after = server.http.get(f"/api/tables/{slow}").json()
            if after["state_id"] == before and after["thinking"] == public["thinking"]:
                held += 1
        assert held == 2
        player.close()
        while server.table(slow).status == "playing":
            assert time.monotonic() < deadline + 240, "the hard bots did not finish the deal"
            time.sleep(0.1)
        assert server.http.get(f"/api/tables/{slow}").json()["thinking"] is None
        assert server.node.counters.late_answers == 0
