"""A table's pace (``speed``) and card counter: checked when the table is made, stored with
it, shown in the lobby and the table's public data, and the bots' pause follows the pace."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import shedkit
from shedkit.server.node import Node
from shedkit.server.settings import Settings
from shedkit.server.storage import Storage


def test_speed_and_counter_are_public_and_in_the_lobby(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "doudizhu", "bots": 2, "speed": "relaxed", "card_counter": True},
    )
    assert made.status_code == 201, made.text
    body = made.json()
    assert (body["speed"], body["card_counter"]) == ("relaxed", True)
    shown = client.get(f"/api/tables/{body['id']}").json()
    assert (shown["speed"], shown["card_counter"]) == ("relaxed", True)
    line = next(t for t in client.get("/api/tables").json() if t["id"] == body["id"])
    assert (line["speed"], line["card_counter"]) == ("relaxed", True)


def test_defaults_are_normal_pace_and_no_counter(client: TestClient) -> None:
    body = client.post("/api/tables", json={"game": "president", "bots": 3}).json()
    assert (body["speed"], body["card_counter"]) == ("normal", False)


@pytest.mark.parametrize("speed", ["slow", "", "NORMAL"])
def test_an_unknown_speed_is_a_bad_option_naming_the_allowed_ones(
    client: TestClient, speed: str
) -> None:
    answer = client.post("/api/tables", json={"game": "doudizhu", "speed": speed})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_option"
    assert error["data"] == {
        "option": "speed",
        "allowed": ["relaxed", "normal", "fast"],
        "reason": "speed",
    }


def test_a_counter_that_is_no_boolean_is_refused(tmp_path: Path) -> None:
    node = Node(Storage(f"sqlite:///{tmp_path / 'db.sqlite'}"), bot_delay=0.0)
    with pytest.raises(shedkit.ShedkitError) as caught:
        node.lobby.create("doudizhu", card_counter="yes")  # type: ignore[arg-type]
    assert getattr(caught.value, "code", None) == "bad_option"
    node.storage.close()


def test_speed_and_counter_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    storage = Storage(url)
    first = Node(storage, bot_delay=0.0)
    table = first.lobby.create("doudizhu", bots=0, speed="fast", card_counter=True).table
    assert storage.flush(timeout=10.0)
    storage.close()
    again = Node(Storage(url), bot_delay=0.0)
    again.lobby.load()
    back = again.lobby.rooms[table.id].table
    assert (back.speed, back.card_counter) == ("fast", True)
    assert back.public()["speed"] == "fast"
    again.storage.close()


def test_the_bots_pause_follows_the_pace_and_is_longer_before_a_lead(tmp_path: Path) -> None:
    """DDZ-13: after two passes the trick is over; the bot that leads next waits longer."""
    node = Node(Storage(f"sqlite:///{tmp_path / 'db.sqlite'}"), bot_delay=0.5)
    pauses = {}
    for speed in ("relaxed", "normal", "fast"):
        table = node.lobby.create("doudizhu", bots=3, seed=3, speed=speed).table
        pauses[speed] = table.bot_pause(0.5)
    # The auction: a plain move at each pace.
    assert pauses == {"relaxed": 1.5, "normal": 1.0, "fast": 0.5}
    table = node.lobby.create("doudizhu", bots=3, seed=3, speed="normal").table
    state = table.state
    while state.phase == "auction":
        state.apply(state.legal_moves()[-1])
    assert table.bot_pause(0.5) == 2.0  # the landlord leads the first trick
    lead = next(m for m in state.legal_moves() if m.kind != "pass")
    state.apply(lead)
    assert table.bot_pause(0.5) == 1.0  # answering a play
    for _ in range(2):
        state.apply(next(m for m in state.legal_moves() if m.kind == "pass"))
    assert state.last_play is None
    assert table.bot_pause(0.5) == 2.0  # a new trick after the two passes
    node.storage.close()


def test_dominoes_has_no_trick_pause(tmp_path: Path) -> None:
    node = Node(Storage(f"sqlite:///{tmp_path / 'db.sqlite'}"), bot_delay=0.5)
    table = node.lobby.create("dominoes", bots=2, seed=1, speed="fast").table
    assert table.bot_pause(0.5) == 0.5
    node.storage.close()


def test_at_the_normal_pace_a_finished_trick_stays_over_a_second(tmp_path: Path) -> None:
    """DDZ-13: after the passes that end a trick, a bot that leads the next one waits, at
    the normal pace and with the server's default delay, long enough to read the trick."""
    settings = Settings()
    node = Node(Storage(f"sqlite:///{tmp_path / 'db.sqlite'}"), bot_delay=settings.bot_delay)
    table = node.lobby.create("doudizhu", bots=3, seed=3).table
    assert table.speed == "normal"
    state = table.state
    while state.phase == "auction":
        state.apply(state.legal_moves()[-1])
    state.apply(next(m for m in state.legal_moves() if m.kind != "pass"))
    for _ in range(2):
        state.apply(next(m for m in state.legal_moves() if m.kind == "pass"))
    assert state.opens_trick()
    assert table.bot_pause(settings.bot_delay) >= 1.1
    node.storage.close()
