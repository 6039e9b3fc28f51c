"""Play over the WebSocket: every bad message is answered with an error, changes nothing and
keeps the connection; bots fill seats and stand in for players who leave or go away.

Each test runs on one node and, where PostgreSQL and Redis are at hand, on a cluster of two
nodes with every socket relayed from the node it reached to the table's owner (the tests
that look into a node's memory run on one node only).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from shedkit.server.connection import BURST, MAX_MESSAGE
from tests.server.cluster_nodes import LiveCluster
from tests.server.live import Client, LiveServer, play_until


@pytest.fixture(params=["one node", "two nodes"])
def live(request: pytest.FixtureRequest, live: LiveServer) -> Iterator[Any]:
    if request.param == "one node":
        yield live
        return
    relayed = LiveCluster(request.getfixturevalue("two_nodes"))
    yield relayed
    relayed.http.close()


def seated_table(live: LiveServer, **body: Any) -> tuple[str, list[str], list[Client]]:
    """A Dou Di Zhu table with two people (seats 0, 1) and a greedy bot (seat 2), dealt."""
    table = live.create(game="doudizhu", bots=1, seed=3, **body)
    tid = table["id"]
    tokens = [live.join(tid, 0, "Ana"), live.join(tid, 1, "Bo")]
    clients = [live.client(tid, t) for t in tokens]
    return tid, tokens, clients


def snapshot(live: LiveServer, tid: str) -> Any:
    table = live.table(tid)
    return json.dumps([table.state.record(), table.to_data()["seats"], table.status])


def test_state_message_holds_the_seat_view(live: LiveServer) -> None:
    tid, _, (ana, _) = seated_table(live)
    state = ana.state
    assert state is not None and state["you"] == 0 and state["table"]["status"] == "playing"
    view = state["view"]
    assert view["seat"] == 0 and view["phase"] == "auction" and len(view["hand"]) == 17
    assert {"c", "t", "k"} <= set(view["hand"][0])
    spectator = live.client(tid)
    assert spectator.state is not None and spectator.state["you"] is None
    assert spectator.state["view"]["hand"] == [] and spectator.state["view"]["legal"] == []


def test_every_bad_message_gets_an_error_and_changes_nothing(live: LiveServer) -> None:
    tid, _, clients = seated_table(live)
    table = live.table(tid)
    turn = table.state.current_player
    if turn == 2:  # let the bot bid first so that a person is to move
        play_until(live, tid, clients, lambda t: t.state.current_player != 2)
        turn = table.state.current_player
    mover, other = clients[turn], clients[1 - turn]
    for c in clients:
        c.drain()
    before = snapshot(live, tid)
    sid = table.state_id
    cases: list[tuple[Client, Any, str]] = [
        (mover, "{not json", "bad_json"),
        (mover, "[1, 2]", "bad_message"),
        (mover, {"type": "teleport"}, "unknown_type"),
        (mover, {"no": "type"}, "unknown_type"),
        (mover, {"type": "move"}, "bad_message"),
        (mover, {"type": "move", "move": 42}, "bad_message"),
        (mover, {"type": "move", "move": "pass"}, "bad_message"),  # no state_id
        (mover, {"type": "move", "move": "zzz", "state_id": sid}, "invalid_move"),
        # a play during the auction
        (mover, {"type": "move", "move": "34567", "state_id": sid}, "illegal_move"),
        (mover, {"type": "move", "move": "pass", "state_id": sid - 1}, "stale_state"),
        (other, {"type": "move", "move": "pass", "state_id": sid}, "not_your_turn"),
        (other, {"type": "hello", "token": "forged-token"}, "bad_token"),
        (mover, {"type": "chat", "text": "x" * 301}, "too_long"),
        (mover, {"type": "chat", "text": ""}, "bad_message"),
        (mover, {"type": "next"}, "bad_state"),
        (mover, {"type": "start"}, "bad_state"),
        (mover, json.dumps({"type": "chat", "text": "y" * MAX_MESSAGE}), "too_large"),
    ]
    for client, message, code in cases:
        err = client.error(message)
        assert err["code"] == code, (message, err)
        assert err["message"]
        assert snapshot(live, tid) == before, message
    # A forged hello leaves the seat bound as before; the connection still works.
    other.send({"type": "ping", "id": 7})
    assert other.wait_for(lambda m: m["type"] == "pong")["ref"] == 7
    spectator = live.client(tid)
    assert spectator.error({"type": "move", "move": "pass"})["code"] == "not_seated"
    assert spectator.error({"type": "chat", "text": "hi"})["code"] == "not_seated"
    assert snapshot(live, tid) == before
    # And the right move is still accepted afterwards.
    mover.move("pass")
    mover.wait_for(lambda m: m["type"] == "state" and len(m["view"]["history"]) >= 1)
    assert live.table(tid).state.record()["moves"][0] == "pass"


def test_a_flood_is_cut_off_with_one_error_and_the_connection_survives(live: LiveServer) -> None:
    tid, _, (ana, _) = seated_table(live)
    ana.drain()
    before = snapshot(live, tid)
    for i in range(BURST * 3):
        ana.send({"type": "ping", "id": i})
    pongs, limited = 0, 0
    while True:
        try:
            m = ana.recv(timeout=0.5)
        except TimeoutError:
            break
        pongs += m["type"] == "pong"
        limited += m.get("code") == "rate_limited"
    assert limited == 1
    # The hello spent one message of the burst; the rest were cut off.
    assert BURST - 1 <= pongs < BURST * 3
    assert snapshot(live, tid) == before
    time.sleep(0.5)  # the bucket refills
    ana.send({"type": "ping", "id": "after"})
    assert ana.wait_for(lambda m: m["type"] == "pong")["ref"] == "after"


def test_an_oversized_frame_closes_only_that_connection(live: LiveServer) -> None:
    tid, _, (ana, bo) = seated_table(live)
    before = snapshot(live, tid)
    ana.send("x" * (128 * 1024))
    try:
        while True:
            ana.recv(timeout=5)
    except Exception as closed:  # the server closed it: message too big (1009)
        assert "1009" in str(closed) or "closed" in str(closed).lower()
    assert snapshot(live, tid) == before
    bo.send({"type": "ping"})
    assert bo.wait_for(lambda m: m["type"] == "pong")


def test_chat_reaches_everybody_and_is_kept(live: LiveServer) -> None:
    tid, _, (ana, bo) = seated_table(live)
    ana.send({"type": "chat", "text": "  good luck  "})
    line = bo.wait_for(lambda m: m["type"] == "chat")
    assert (line["name"], line["text"], line["seat"]) == ("Ana", "good luck", 0)
    late = live.client(tid)
    assert any(m["type"] == "chat" and m["text"] == "good luck" for m in late.messages) or (
        late.wait_for(lambda m: m["type"] == "chat")["text"] == "good luck"
    )


def test_bots_take_over_a_seat_that_leaves_and_only_its_player_takes_it_back(
    live: LiveServer,
) -> None:
    tid, tokens, (ana, bo) = seated_table(live)
    bo.send({"type": "leave"})
    bo.wait_for(lambda m: m["type"] == "state" and m["you"] is None)
    table = live.table(tid)
    assert table.seats[1].bot_plays
    # Only seat 0 is a person now: the bots play every other turn.
    play_until(live, tid, [ana], lambda t: len(t.state.record()["moves"]) >= 6)
    assert bo.error({"type": "move", "move": "pass"})["code"] == "not_seated"
    # Mid-deal nobody else may take the seat (and see its hand); its player may.
    refused = live.try_join(tid, 1, "Cy")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seat_locked"
    token = live.join(tid, 1, "Bo", token=tokens[1])
    back = live.client(tid, token)
    assert back.state is not None and back.state["you"] == 1
    assert not table.seats[1].bot_plays and table.seats[1].name == "Bo"
    play_until(live, tid, [ana, back], lambda t: t.state.is_over, timeout=120)
    assert table.status == "scored"
    # Between deals the hands are over: a seat given up now is anybody's.
    back.send({"type": "leave"})
    back.wait_for(lambda m: m["type"] == "state" and m["you"] is None)
    cy = live.client(tid, live.join(tid, 1, "Cy"))
    assert cy.state is not None and cy.state["you"] == 1


def test_a_player_away_too_long_is_played_for_then_resumes(db: str) -> None:
    with LiveServer(db, away_after=0.2) as live:
        tid, tokens, (ana, bo) = seated_table(live)
        bo.close()
        table = live.table(tid)
        deadline = time.monotonic() + 10
        while not table.seats[1].away and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.seats[1].away and table.seats[1].bot_plays
        play_until(live, tid, [ana], lambda t: len(t.state.record()["moves"]) >= 8)
        back = live.client(tid, tokens[1])
        assert back.state is not None and back.state["you"] == 1
        assert not table.seats[1].away


def test_unknown_table_is_refused(live: LiveServer) -> None:
    try:
        c = live.client("no-such-table")
    except Exception:
        return
    raise AssertionError(f"connected to an unknown table: {c.messages}")


def test_fill_with_bots_then_next_deal_and_rematch(live: LiveServer) -> None:
    table = live.create(game="doudizhu", seed=9, deals=1)
    tid = table["id"]
    ana = live.client(tid, live.join(tid, 0, "Ana"))
    assert live.table(tid).status == "waiting"
    ana.send({"type": "start"})
    ana.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    play_until(live, tid, [ana], lambda t: t.status in ("scored", "finished"), timeout=120)
    runtime = live.table(tid)
    while runtime.status == "scored":  # a thrown-in deal does not count
        ana.send({"type": "next"})
        ana.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        play_until(live, tid, [ana], lambda t: t.status != "playing", timeout=120)
    assert runtime.status == "finished"
    totals = list(runtime.match.totals)
    assert sum(totals) == 0 and any(totals)
    ana.send({"type": "next"})
    ana.wait_for(lambda m: m["type"] == "state" and m["table"]["match_no"] == 1)
    assert runtime.match.totals == [0, 0, 0] and runtime.status == "playing"
