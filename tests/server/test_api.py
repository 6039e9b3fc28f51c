"""The lobby's HTTP API: every action, and every bad input answered with an error.

Each test runs on one node (TestClient) and, where PostgreSQL and Redis are at hand, on
a cluster of two nodes with every request sent to the next node in turn, as a load
balancer without stickiness would: the same answers from any node.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import shedkit
from tests.server.cluster_nodes import round_robin_client
from tests.server.live import wait


@pytest.fixture(params=["one node", "two nodes"])
def client(request: pytest.FixtureRequest, client: TestClient) -> Iterator[Any]:
    if request.param == "one node":
        yield client  # the single node of conftest
        return
    nodes = request.getfixturevalue("two_nodes")
    with round_robin_client(nodes) as c:
        yield c


def one_node(client: Any) -> bool:
    """True for the single node (whose internals a test may look at)."""
    return isinstance(client, TestClient)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doudizhu", **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    err = response.json()["error"]
    assert err["code"] == code, err
    message: str = err["message"]
    assert message
    return message


def join(
    client: TestClient, tid: str, seat: int, name: str, token: str | None = None
) -> httpx.Response:
    """``POST /join`` from a browser of its own (a ``sk_client`` cookie per name)."""
    body: dict[str, object] = {"seat": seat, "name": name}
    if token is not None:
        body["token"] = token
    cookie = f"sk_client=browser-{name.strip().encode().hex()}"
    return client.post(f"/api/tables/{tid}/join", json=body, headers={"Cookie": cookie})


def test_pages_are_served(client: TestClient) -> None:
    paths = ("/", "/t/abc", "/replay/abc/1", "/howto/doudizhu", "/static/pages/table.js")
    for path in (*paths, "/static/games/index.js", "/static/i18n/zh/table.json"):
        response = client.get(path)
        assert response.status_code == 200, path
    # Every page is drawn in the browser, in its language, by its module.
    assert "/static/pages/lobby.js" in client.get("/").text
    assert "/static/pages/howto.js" in client.get("/howto/president").text
    assert "/static/pages/table.js" in client.get("/t/abc").text
    assert "/static/pages/replay.js" in client.get("/replay/abc/1").text


def test_games_list_presets_with_every_option_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert {"doudizhu", "president"} <= set(games)
    ddz = games["doudizhu"]
    assert set(ddz["presets"]) == {"standard", "de-wikipedia", "four-player"}
    names = {o["name"] for o in ddz["options"]}
    assert names == set(ddz["presets"]["standard"])
    assert ddz["presets"]["four-player"]["players"] == 4
    spring = next(o for o in ddz["options"] if o["name"] == "spring")
    assert spring == {
        "name": "spring",
        "kind": "choice",
        "choices": ["standard", "any_player", "off"],
    }
    assert "greedy" in ddz["agents"] and ddz["default_agent"] == "greedy"
    assert "random" in games["president"]["agents"]
    dom = {o["name"]: o for o in games["dominoes"]["options"]}
    assert dom["partners"] == {
        "name": "partners",
        "kind": "choice",
        "choices": [None, True, False],
        "nullable": True,
    }
    assert dom["hand_size"] == {"name": "hand_size", "kind": "int", "nullable": True}
    assert games["dominoes"]["presets"]["all-fives"]["variant"] == "fives"


def test_create_list_get_join_leave(client: TestClient) -> None:
    table = create(client, preset="de-wikipedia", options={"pass_is_final": True}, bots=1, deals=3)
    assert table["status"] == "waiting"
    assert table["options"]["pass_is_final"] is True
    assert table["options"]["two_in_chains"] is True  # from the preset
    assert table["invite"] == f"/t/{table['id']}"
    assert table["open_seats"] == [0, 1, 2]
    # The seats named by who sits there: two kept for people, one the server's bot plays.
    assert table["seats_for_people"] == [0, 1]
    assert table["seats_for_house_bots"] == [2]
    assert table["seats_with_bot_programs"] == []
    assert [s["human_seat"] for s in table["seats"]] == [True, True, False]
    listed = [t["id"] for t in client.get("/api/tables").json()]
    if one_node(client):
        assert listed == [table["id"]]
    else:
        # Another node's lobby reads the owner's list from Redis, renewed with every
        # heartbeat: after a stall of the owner it may lag behind for a beat or two.
        deadline = time.monotonic() + 30
        while table["id"] not in listed:
            assert time.monotonic() < deadline, "the other node's lobby never listed the table"
            time.sleep(0.1)
            listed = [t["id"] for t in client.get("/api/tables").json()]

    tid = table["id"]
    first = join(client, tid, 0, "  Ana  ").json()
    assert first["seat"] == 0 and len(first["token"]) > 16
    got = client.get(f"/api/tables/{tid}").json()
    assert got["seats"][0]["name"] == "Ana" and got["status"] == "waiting"
    join(client, tid, 1, "Bo")
    got = client.get(f"/api/tables/{tid}").json()
    assert got["status"] == "playing" and got["deal_number"] == 1
    assert "hand" not in str(got) and "hands" not in str(got)

    left = client.post(f"/api/tables/{tid}/leave", json={"token": first["token"]}).json()
    assert left == {"seat": 0}
    got = client.get(f"/api/tables/{tid}").json()
    assert got["seats"][0]["taken"] is False and got["seats"][0]["bot_plays"] is True
    # Mid-deal the seat is Ana's alone: nobody else may look at that hand through it.
    error_of(join(client, tid, 0, "Cy"), 409, "seat_locked")
    again = join(client, tid, 0, "Ana", token=first["token"])
    assert again.status_code == 200 and again.json()["token"] == first["token"]
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Ana"
    assert client.get(f"/api/tables/{tid}/deals").json() == []
    if one_node(client):
        stats = client.get("/api/stats").json()
        assert stats["tables"] == 1
        assert stats["build"] == ("compiled" if shedkit.compiled else "pure")


def test_bot_only_table_plays_and_stores_deals_for_replay(client: TestClient) -> None:
    table = create(client, bots=3, deals=2, seed=11)
    tid = table["id"]
    # Two nodes play bots with a delay per move: poll with a pause, not a count of polls
    # (a count is a clock that runs faster on a fast machine).
    wait(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished", timeout=180)
    got = client.get(f"/api/tables/{tid}").json()
    assert got["status"] == "finished" and got["deals_played"] == 2
    deals = client.get(f"/api/tables/{tid}/deals").json()
    assert len(deals) >= 2
    assert sum(deals[-1]["returns"]) == 0
    assert got["totals"] == [sum(d["returns"][s] for d in deals) for s in range(3)]
    replay = client.get(f"/api/tables/{tid}/deals/{deals[0]['number']}").json()
    record = replay["record"]
    assert len(replay["steps"]) == len(record["moves"]) + 1
    first = replay["steps"][0]
    assert [len(h) for h in first["hands"]] == [17, 17, 17]
    assert [c["c"] for c in first["hands"][0]] == sorted(
        record["setup"]["hands"][0], key=lambda c: (c // 4 if c < 52 else 13 + c - 52, c)
    )
    assert replay["steps"][-1]["public"]["returns"] == deals[0]["returns"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "bad_game"),
        ({"game": "doudizhu", "preset": "nope"}, "bad_option"),
        ({"game": "doudizhu", "options": {"colour": "red"}}, "bad_option"),
        ({"game": "doudizhu", "options": {"players": 5}}, "bad_option"),
        ({"game": "doudizhu", "bots": 4}, "bad_bots"),
        ({"game": "doudizhu", "bots": -1}, "bad_bots"),
        ({"game": "doudizhu", "bot": "alphazero"}, "bad_bot"),
        ({"game": "doudizhu", "deals": 0}, "bad_deals"),
        ({"game": "doudizhu", "target": 0}, "bad_target"),
        ({"game": "doudizhu", "bots": "two"}, "bad_request"),
        ({"preset": "standard"}, "bad_request"),
        ({"game": "president", "options": {"players": 9}}, "bad_option"),
    ],
)
def test_create_rejects_bad_input(client: TestClient, body: dict[str, Any], code: str) -> None:
    before = client.get("/api/tables").json()
    error_of(client.post("/api/tables", json=body), 400, code)
    assert client.get("/api/tables").json() == before


def test_malformed_bodies_are_errors(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    error_of(response, 400, "bad_request")
    tid = create(client)["id"]
    error_of(client.post(f"/api/tables/{tid}/join", json={"seat": 0}), 400, "bad_request")
    error_of(client.post(f"/api/tables/{tid}/leave", json={}), 400, "bad_request")


def test_join_and_leave_errors_leave_the_table_unchanged(client: TestClient) -> None:
    tid = create(client)["id"]
    before = client.get(f"/api/tables/{tid}").json()
    error_of(client.post("/api/tables/nope/join", json={"seat": 0, "name": "A"}), 404, "not_found")
    error_of(client.get("/api/tables/nope"), 404, "not_found")
    for seat in (-1, 3, 99):
        r = client.post(f"/api/tables/{tid}/join", json={"seat": seat, "name": "A"})
        error_of(r, 400, "bad_seat")
    for name in ("", "   ", "x" * 25):
        r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": name})
        error_of(r, 400, "bad_name")
    error_of(client.post(f"/api/tables/{tid}/leave", json={"token": "forged"}), 403, "bad_token")
    assert client.get(f"/api/tables/{tid}").json() == before
    join(client, tid, 0, "Ana")
    taken = join(client, tid, 0, "Bo")
    assert "Ana" in error_of(taken, 409, "seat_taken")


def test_replay_errors(client: TestClient) -> None:
    tid = create(client)["id"]
    error_of(client.get(f"/api/tables/{tid}/deals/1"), 404, "not_found")
    error_of(client.get("/api/tables/nope/deals"), 404, "not_found")
    assert client.get(f"/api/tables/{tid}/deals/x").status_code == 400


def test_a_table_keeps_its_last_deal_summaries_and_no_records_in_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long match's memory stays flat: records live in the database, summaries are capped."""
    if not one_node(client):
        pytest.skip("looks into one node's memory")
    from shedkit.server import table as table_module

    monkeypatch.setattr(table_module, "SUMMARIES_KEPT", 2)
    tid = create(client, bots=3, deals=4, seed=5)["id"]
    for _ in range(4000):
        got = client.get(f"/api/tables/{tid}").json()
        if got["status"] == "finished":
            break
    assert got["status"] == "finished" and got["deals_played"] == 4
    deals = client.get(f"/api/tables/{tid}/deals").json()
    assert [d["number"] for d in deals] == [got["deal_number"] - 1, got["deal_number"]]
    assert client.get(f"/api/tables/{tid}/deals/1").status_code == 200
    runtime = client.app.state.node.lobby.room(tid).table  # type: ignore[attr-defined]
    assert all(result.record is None for result in runtime.match.results)


def test_a_seat_is_answered_only_once_stored(client: Any) -> None:
    """Nothing is acknowledged before it is stored: with the writer held back, a join's
    answer waits for its commit, and the token it returns is in the stored row."""
    if not one_node(client):
        pytest.skip("holds back the writer of one node's storage")
    import threading

    tid = create(client)["id"]
    storage = client.app.state.node.storage  # type: ignore[attr-defined]
    gate = threading.Event()
    store = storage._store

    def held(*args: Any) -> Any:
        gate.wait(10)
        return store(*args)

    storage._store = held
    answers: list[httpx.Response] = []
    worker = threading.Thread(target=lambda: answers.append(join(client, tid, 0, "Ana")))
    worker.start()
    worker.join(0.5)
    assert not answers  # the seat is taken in memory, but not yet stored
    gate.set()
    worker.join(10)
    storage._store = store
    assert answers and answers[0].status_code == 200, answers
    assert storage.load_table(tid)["seats"][0]["name"] == "Ana"
