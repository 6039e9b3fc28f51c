"""Fair tables: each attack found by the audit of the table server, replayed and now refused.

A chosen seed is shown to everyone and an unchosen one never leaves the server before its
deal is over; a seat in play cannot be borrowed to look at a hand; a table moves on when a
player does not; a replay is built off the event loop; quotas, sizes, depth, stale moves,
copied names and foreign origins get clear errors.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from shedkit.server.connection import MAX_MESSAGE
from shedkit.server.settings import Settings
from shedkit.server.storage import Storage
from shedkit.server.table import commitment
from tests.server.live import TEST_SETTINGS, LiveServer, play_until, wait

FAST_CLOCK = dataclasses.replace(TEST_SETTINGS, turn_clock=0.05, time_bank=0.0)


# -- 1. a chosen seed shows every hand ---------------------------------------------------


def test_the_server_draws_the_seed_and_shows_it_only_after_the_deal(live: LiveServer) -> None:
    table = live.create(game="doudizhu", bots=2)
    tid = table["id"]
    assert table["fixed_seed"] is False
    runtime = live.table(tid)
    secret = str(runtime.seed)
    client = live.client(tid, live.join(tid, 0, "Ana"))
    state = client.state
    assert state is not None
    # Published before the deal: the commitment to this deal's seed, not the seed.
    promised = state["table"]["commitment"]
    assert promised == commitment(runtime.state.seed)
    play_until(live, tid, [client], lambda t: t.state.is_over, timeout=120)
    client.drain(0.2)
    for raw in [*client.raw, live.http.get(f"/api/tables/{tid}").text]:
        assert secret not in raw  # the table's seed, from which every deal's derives
    # After the deal the record carries its seed, and it keeps the promise.
    record = live.http.get(f"/api/tables/{tid}/deals/1").json()["record"]
    assert hashlib.sha256(str(record["seed"]).encode()).hexdigest() == promised
    assert live.http.get(f"/api/tables/{tid}/deals").json()[0]["commitment"] == promised


def test_a_fixed_seed_is_shown_to_every_player(live: LiveServer) -> None:
    tid = live.create(game="president", bots=2, seed=12345)["id"]
    listed = next(t for t in live.http.get("/api/tables").json() if t["id"] == tid)
    assert listed["fixed_seed"] is True
    watcher = live.client(tid)
    assert watcher.state is not None and watcher.state["table"]["fixed_seed"] is True
    bad = live.http.post("/api/tables", json={"game": "president", "seed": -1})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_seed"


# -- 2. peeking through a seat -----------------------------------------------------------


def test_a_bot_seat_in_play_cannot_be_taken_to_see_its_hand(live: LiveServer) -> None:
    tid = live.create(game="doudizhu", bots=1)["id"]
    live.join(tid, 0, "Ana")
    live.join(tid, 1, "Bo")
    assert live.table(tid).status == "playing"
    refused = live.try_join(tid, 2, "Eve")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seat_locked"
    assert "deal ends" in refused.json()["error"]["message"]


def test_one_seat_per_client_unless_the_table_allows_hot_seat(live: LiveServer) -> None:
    tid = live.create(game="president")["id"]
    token = live.join(tid, 0, "Ana", client="one-browser")
    for seat in (1, 2, 3):
        again = live.try_join(tid, seat, f"Ana{seat}", client="one-browser")
        assert again.json()["error"]["code"] == "one_seat"
    # The same token presented from another browser is the same player.
    other = live.try_join(tid, 1, "Ana2", client="another", token=token)
    assert other.json()["error"]["code"] == "one_seat"
    hot = live.create(game="president", hot_seat=True)["id"]
    for seat in range(4):
        live.join(hot, seat, f"P{seat}", client="one-browser")
    assert live.table(hot).status == "playing"


# -- 3. a table frozen for good --------------------------------------------------------


def test_a_seat_taken_over_http_and_never_connected_is_played_by_its_bot(db: str) -> None:
    with LiveServer(db, away_after=0.3) as live:
        tid = live.create(game="doudizhu", bots=1)["id"]
        ana = live.client(tid, live.join(tid, 0, "Ana"))
        live.join(tid, 1, "Ghost")  # never connects
        table = live.table(tid)
        wait(lambda: table.seats[1].away)
        assert table.seats[1].bot_plays
        play_until(live, tid, [ana], lambda t: t.state.is_over, timeout=120)


def test_a_player_who_never_moves_is_played_for_when_the_clock_runs_out(db: str) -> None:
    with LiveServer(db, settings=FAST_CLOCK) as live:
        tid = live.create(game="president", bots=2)["id"]
        ana = live.client(tid, live.join(tid, 0, "Ana"))
        silent = live.client(tid, live.join(tid, 1, "Sil"))  # connected, never moves
        table = live.table(tid)
        turn = silent.wait_for(lambda m: m["type"] == "state" and m["table"]["turn"] is not None)
        assert turn["table"]["turn"]["deadline"] > 0
        play_until(live, tid, [ana], lambda t: t.state.is_over, timeout=120)
        assert live.node.counters.timeouts >= 1
        assert table.seats[1].timeouts >= 2 and table.seats[1].away  # repeated: away


def test_one_client_holding_every_seat_cannot_stall_the_deal(db: str) -> None:
    with LiveServer(db, settings=FAST_CLOCK) as live:
        tid = live.create(game="president", hot_seat=True)["id"]
        tokens = [live.join(tid, s, f"P{s}", client="hog") for s in range(4)]
        holders = [live.client(tid, t) for t in tokens]  # connected, never moving
        table = live.table(tid)
        wait(lambda: table.status in ("scored", "finished"), timeout=120)
        assert all(s.timeouts >= 1 for s in table.seats)
        for c in holders:
            c.drain(0.3)  # read what is queued, so the closing handshake is not stuck behind it
            c.close()


def test_the_next_deal_starts_when_nobody_presses_next(db: str) -> None:
    settings = dataclasses.replace(FAST_CLOCK, next_deal_after=0.3)
    with LiveServer(db, settings=settings) as live:
        tid = live.create(game="doudizhu", bots=1, deals=2)["id"]
        clients = [live.client(tid, live.join(tid, s, f"P{s}")) for s in (0, 1)]
        table = live.table(tid)
        wait(lambda: table.deal_counter == 2, timeout=120)
        assert table.status in ("playing", "scored", "finished")
        for c in clients:
            c.drain(0.3)
            c.close()


# -- 4. replays stall the loop ---------------------------------------------------------


def test_a_replay_is_built_off_the_event_loop(db: str) -> None:
    # No cache here: every fetch builds the replay again, the work the audit measured.
    with LiveServer(db, settings=dataclasses.replace(TEST_SETTINGS, replay_cache=0)) as live:
        tid = live.create(game="doudizhu", bots=3, deals=2)["id"]
        wait(lambda: live.table(tid).status == "finished", timeout=120)
        # Four clients fetch replays while a player's messages make round trips; the round
        # trip is measured and printed (not asserted: timings depend on the machine).
        play = live.create(game="doudizhu", bots=2)["id"]
        ana = live.client(play, live.join(play, 0, "Ana"))
        done = threading.Event()
        fetched = threading.Semaphore(0)

        def fetch() -> None:
            with httpx.Client(base_url=live.url, timeout=30) as http:
                while True:
                    for number in (1, 2):
                        assert http.get(f"/api/tables/{tid}/deals/{number}").status_code == 200
                        fetched.release()
                    if done.is_set():
                        return

        fetchers = [threading.Thread(target=fetch) for _ in range(4)]
        for f in fetchers:
            f.start()
        rounds: list[float] = []
        try:
            for _ in range(4):
                assert fetched.acquire(timeout=60)  # the fetchers are at work
            for _ in range(20):
                ana.send({"type": "ping"})
                start = time.perf_counter()
                ana.wait_for(lambda m: m["type"] == "pong")
                rounds.append(1000 * (time.perf_counter() - start))
        finally:
            done.set()
            for f in fetchers:
                f.join()
        replays = live.app.state.replays
        print(
            f"\nround trip while 4 clients fetch replays: median "
            f"{statistics.median(rounds):.1f} ms, max {max(rounds):.1f} ms ({replays.built} built)"
        )
        assert replays.built >= 8
        # In a process of its own: never the event loop's, nor a thread sharing its interpreter.
        assert replays.builders and os.getpid() not in replays.builders


def test_a_finished_deal_replay_is_built_once(live: LiveServer) -> None:
    tid = live.create(game="dominoes", bots=4, deals=1)["id"]
    wait(lambda: live.table(tid).status == "finished", timeout=120)
    first = live.http.get(f"/api/tables/{tid}/deals/1").json()
    for _ in range(4):
        assert live.http.get(f"/api/tables/{tid}/deals/1").json() == first
    assert live.app.state.replays.built == 1


# -- 5. unbounded tables -----------------------------------------------------------------


def test_quotas_and_caps_answer_with_clear_errors(tmp_path: Path) -> None:
    def server(name: str, **limits: Any) -> LiveServer:
        settings = dataclasses.replace(TEST_SETTINGS, **limits)
        return LiveServer(f"sqlite:///{tmp_path / name}.db", settings=settings)

    with server("rate", creates_per_minute=3.0) as live:
        codes = [live.http.post("/api/tables", json={"game": "dominoes"}) for _ in range(4)]
        assert [r.status_code for r in codes] == [201, 201, 201, 429]
        assert codes[-1].json()["error"]["code"] == "rate_limited"
        assert "a minute" in codes[-1].json()["error"]["message"]
    with server("quota", tables_per_client=2) as live:
        for _ in range(2):
            live.create(game="dominoes")
        quota = live.http.post("/api/tables", json={"game": "dominoes"})
        assert quota.status_code == 429 and quota.json()["error"]["code"] == "quota"
    with server("full", max_tables=1) as live:
        live.create(game="dominoes")
        full = live.http.post("/api/tables", json={"game": "dominoes"})
        assert full.status_code == 503 and full.json()["error"]["code"] == "server_full"
    with server("bots", bot_only_max_deals=50) as live:
        for deals in (51, None):
            body = {"game": "doudizhu", "bots": 3, "deals": deals}
            many = live.http.post("/api/tables", json=body)
            assert many.status_code == 400 and many.json()["error"]["code"] == "bad_deals"
        live.create(game="doudizhu", bots=3, deals=50)


def test_idle_and_finished_tables_expire_and_their_deals_stay(db: str) -> None:
    with LiveServer(db) as live:
        done = live.create(game="doudizhu", bots=3, deals=1, seed=11)["id"]
        idle = live.create(game="dominoes")["id"]
        wait(lambda: live.table(done).status == "finished", timeout=120)
        node = live.node
        later = time.monotonic() + node.settings.finished_expiry + 1
        assert node.lobby.expire(later) == [done]
        assert sorted(node.lobby.expire(later + node.settings.idle_expiry)) == [idle]
        assert live.http.get(f"/api/tables/{done}").status_code == 404
    with LiveServer(db) as live:
        assert done not in live.node.lobby.rooms and idle not in live.node.lobby.rooms
    storage = Storage(db)
    # A deal thrown in (all passed in the auction, DDZ-08) is stored too, beside the one
    # played to the end.
    played = [d for d in storage.load_deals(done) if not d["record"].get("thrown_in")]
    assert len(played) == 1
    storage.close()


def test_the_lobby_lists_tables_with_open_seats_before_bot_tables(live: LiveServer) -> None:
    real = live.create(game="dominoes")["id"]
    for _ in range(30):
        live.create(game="doudizhu", bots=3, deals=1)
    listed = [t["id"] for t in live.http.get("/api/tables").json()]
    assert listed[0] == real


# -- 6/7. sizes, depth, stale moves, copied names, origins -----------------------------


def test_deeply_nested_json_gets_an_error_and_keeps_the_connection(live: LiveServer) -> None:
    tid = live.create(game="doudizhu", bots=2)["id"]
    ana = live.client(tid, live.join(tid, 0, "Ana"))
    nested = "[" * 2000 + "]" * 2000
    assert len(nested) <= MAX_MESSAGE
    assert ana.error(nested)["code"] == "bad_json"
    ana.send({"type": "ping", "id": 1})
    assert ana.wait_for(lambda m: m["type"] == "pong")["ref"] == 1
    deep = ('{"a":' * 5000 + "1" + "}" * 5000).encode()
    response = live.http.post(
        "/api/tables", content=deep, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400


def test_a_large_body_is_refused_before_it_is_parsed(live: LiveServer) -> None:
    big = json.dumps({"game": "doudizhu", "pad": "x" * (200 * 1024)})
    response = live.http.post(
        "/api/tables", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_a_late_duplicate_move_is_refused_as_stale(live: LiveServer) -> None:
    tid = live.create(game="dominoes", preset="two-player")["id"]
    clients = [live.client(tid, live.join(tid, s, f"P{s}")) for s in (0, 1)]
    table = live.table(tid)
    mover = clients[table.state.current_player]
    mover.drain(0.1)
    state = mover.state
    assert state is not None
    text = state["view"]["legal"][0]["m"]
    message = {"type": "move", "move": text, "state_id": state["state_id"]}
    mover.send(message)
    mover.wait_for(lambda m: m["type"] == "state" and m["state_id"] > state["state_id"])
    assert mover.error(message)["code"] == "stale_state"


@pytest.mark.parametrize("copy", ["bob\u200b", "BOB", "ｂｏｂ", " bob ", "b\u00adob"])
def test_a_copied_name_is_refused(live: LiveServer, copy: str) -> None:
    tid = live.create(game="president")["id"]
    live.join(tid, 0, "bob")
    refused = live.try_join(tid, 1, copy)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_taken"


def test_a_foreign_origin_cannot_open_a_websocket(live: LiveServer) -> None:
    tid = live.create(game="doudizhu")["id"]
    url = f"ws://127.0.0.1:{live.port}/ws/{tid}"
    foreign = {"Origin": "http://evil.example"}
    with (
        pytest.raises(Exception, match=r"4403|403|rejected|closed"),
        connect(url, additional_headers=foreign) as ws,
    ):
        ws.recv(timeout=5)
    own = f"http://127.0.0.1:{live.port}"
    with connect(url, additional_headers={"Origin": own}) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"


def test_an_unknown_host_name_is_refused(live: LiveServer) -> None:
    response = live.http.get("/api/games", headers={"Host": "evil.example"})
    assert response.status_code == 400


def test_settings_reject_nonsense() -> None:
    with pytest.raises(ValueError, match="seconds"):
        Settings(turn_clock=-1)


def test_the_client_cookie_is_set_with_the_pages(live: LiveServer) -> None:
    response = live.http.get("/")
    assert "sk_client" in response.cookies
