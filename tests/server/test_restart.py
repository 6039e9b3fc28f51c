"""A server restart loses nothing: tables, seats, finished deals and the deal in progress are
rebuilt from the stored records, on SQLite and on PostgreSQL.

PostgreSQL runs when ``SHEDKIT_TEST_PG_URL`` names a database (``make test`` starts a
server on loopback and sets it); the tables of the test are dropped first.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from shedkit.server.storage import Storage, metadata
from tests.server.live import LiveServer, play_until

PG_URL = os.environ.get("SHEDKIT_TEST_PG_URL")


def seen(message: str) -> dict[str, Any]:
    """A state message without who is connected right now and without the clocks' deadlines
    (a restarted server gives the player to move a fresh turn clock)."""
    data: dict[str, Any] = json.loads(message)
    for seat in data["table"]["seats"]:
        del seat["connected"]
    del data["table"]["turn"], data["table"]["next_deal_at"]
    return data


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, db: str) -> str:
    if request.param == "sqlite":
        return db
    if not PG_URL:
        pytest.skip("SHEDKIT_TEST_PG_URL is not set (make test starts PostgreSQL and sets it)")
    storage = Storage(PG_URL)
    metadata.drop_all(storage.engine)
    storage.close()
    return PG_URL


def test_restart_mid_deal_continues_from_the_same_state(any_db: str) -> None:
    pick = lambda view: view["legal"][-1]["m"]  # noqa: E731
    with LiveServer(any_db) as live:
        tid = live.create(game="doudizhu", bots=1, seed=5, deals=3)["id"]
        tokens = [live.join(tid, 0, "Ana"), live.join(tid, 1, "Bo")]
        clients = [live.client(tid, t) for t in tokens]
        # One whole deal first, so that a finished deal and running totals are stored too.
        play_until(live, tid, clients, lambda t: t.status == "scored", pick=pick, timeout=120)
        clients[0].send({"type": "next"})
        for c in clients:
            c.wait_for(lambda m: m["type"] == "state" and m["table"]["deal_number"] == 2)
        # Stop on a person's turn: nothing moves until a client does.
        play_until(
            live,
            tid,
            clients,
            lambda t: len(t.state.record()["moves"]) >= 12 and t.state.current_player in (0, 1),
            pick=pick,
        )
        table = live.table(tid)
        record = table.state.record()
        views = [seen(live.room(tid).state_message(s)) for s in (0, 1, None)]
        totals = list(table.match.totals)
        history = list(table.summaries)
        for c in clients:
            c.close()
    with LiveServer(any_db) as live:
        table = live.table(tid)
        assert table.state.record() == record
        assert [seen(live.room(tid).state_message(s)) for s in (0, 1, None)] == views
        assert table.match.totals == totals and table.summaries == history
        assert table.status == "playing" and table.deal_counter == 2
        assert [s.name for s in table.seats] == ["Ana", "Bo", None]
        # The same tokens still hold the seats; the deal plays on to its end.
        clients = [live.client(tid, t) for t in tokens]
        state = clients[0].state
        assert state is not None and state["view"] == views[0]["view"]
        play_until(live, tid, clients, lambda t: t.status != "playing", pick=pick, timeout=120)
        deals = live.http.get(f"/api/tables/{tid}/deals").json()
        assert [d["number"] for d in deals] == [1, 2]
        replay = live.http.get(f"/api/tables/{tid}/deals/2").json()
        assert replay["record"]["moves"][: len(record["moves"])] == record["moves"]
        for c in clients:
            c.close()


def test_restart_during_the_president_tax_keeps_the_exchange(db: str) -> None:  # PRE-20
    """The second deal of an international match starts with the tax; a restart keeps it."""
    with LiveServer(db) as live:
        tid = live.create(game="president", preset="international", bots=2, seed=8)["id"]
        tokens = [live.join(tid, 0, "Ana"), live.join(tid, 1, "Bo")]
        clients = [live.client(tid, t) for t in tokens]
        play_until(live, tid, clients, lambda t: t.status == "scored", timeout=120)
        clients[0].send({"type": "next"})
        for c in clients:
            c.wait_for(lambda m: m["type"] == "state" and m["table"]["deal_number"] == 2)
        table = live.table(tid)
        # Stop at the first person's turn (the tax, or the play after it).
        play_until(live, tid, clients, lambda t: t.state.current_player in (0, 1))
        record = table.state.record()
        first = live.http.get(f"/api/tables/{tid}/deals/1").json()["record"]
        assert record["setup"]["previous_order"] == first["finished"]
        views = [seen(live.room(tid).state_message(s)) for s in range(4)]
        for c in clients:
            c.close()
    with LiveServer(db) as live:
        table = live.table(tid)
        assert table.state.record() == record
        assert [seen(live.room(tid).state_message(s)) for s in range(4)] == views
        clients = [live.client(tid, t) for t in tokens]
        play_until(live, tid, clients, lambda t: t.status != "playing", timeout=120)
        assert len(live.http.get(f"/api/tables/{tid}/deals").json()) == 2
        for c in clients:
            c.close()


def test_after_a_restart_a_player_who_does_not_return_is_played_for(db: str) -> None:
    with LiveServer(db) as live:
        tid = live.create(game="doudizhu", bots=2, seed=4)["id"]
        token = live.join(tid, 0, "Ana")
        assert not live.table(tid).seats[0].bot_plays
    with LiveServer(db, away_after=0.1) as live:
        table = live.table(tid)
        deadline = time.monotonic() + 20
        while not table.state.is_over and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.seats[0].away and table.state.is_over
        back = live.client(tid, token)
        assert back.state is not None and back.state["you"] == 0
        assert not table.seats[0].away
        back.close()


def test_restart_mid_hand_of_dominoes(db: str) -> None:
    with LiveServer(db) as live:
        tid = live.create(game="dominoes", preset="two-player", seed=6)["id"]
        tokens = [live.join(tid, 0, "Ana"), live.join(tid, 1, "Bo")]
        clients = [live.client(tid, t) for t in tokens]
        play_until(live, tid, clients, lambda t: len(t.state.record()["moves"]) >= 6)
        table = live.table(tid)
        record = table.state.record()
        views = [seen(live.room(tid).state_message(s)) for s in (0, 1, None)]
        for c in clients:
            c.close()
    with LiveServer(db) as live:
        table = live.table(tid)
        assert table.state.record() == record
        assert [seen(live.room(tid).state_message(s)) for s in (0, 1, None)] == views
        assert table.match.target == 100  # the game's own target (DOM-11)
        clients = [live.client(tid, t) for t in tokens]
        play_until(live, tid, clients, lambda t: t.status != "playing", timeout=120)
        assert len(live.http.get(f"/api/tables/{tid}/deals").json()) == 1
        for c in clients:
            c.close()
