"""Tien Gow at the server: its view's JSON, the payments of a hand, what the lobby offers,
and that another seat's face-down tile never reaches anyone (TG-25), in views, over the
WebSocket, in the deal list or in replays."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

import shedkit
from shedkit.protocol.views import HIDDEN_FOR_GOOD, public_hands, public_record, serialize_view
from shedkit.server.replays import replay_steps
from shedkit.tiengow.combos import KIND_NAMES, TILE_KIND
from shedkit.tiengow.options import PRESETS
from tests.server.live import LiveServer, play_until


def random_deal(preset: str = "standard", seed: int = 4, **options: Any) -> Any:
    """A finished hand of random legal moves."""
    game = shedkit.make("tiengow", preset=preset, **options)
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def replayed(state: Any, moves: int) -> Any:
    """The hand ``state`` comes from, after its first ``moves`` moves."""
    return shedkit.replay(state.record(), steps=moves)


def net(payments: list[dict[str, Any]]) -> list[int]:
    out = [0, 0, 0, 0]
    for p in payments:
        out[p["payer"]] -= p["amount"]
        out[p["payee"]] += p["amount"]
    return out


# -- the view's JSON ----------------------------------------------------------------------


def test_a_seat_sees_its_own_discards_and_only_counts_of_the_others() -> None:  # TG-25, TG-82
    game = shedkit.make("tiengow", first_banker=0)
    state = game.new_deal(seed=7, hands=["4-5 1-1", "3-6 6-6", "2-6 1-2", "5-5 2-2"], banker=0)
    for text in ("4-5", "discard 6-6", "discard 1-2", "discard 2-2"):
        state.apply(game.parse_move(text, state))
    for seat in [0, 1, 2, 3, None]:
        data = serialize_view("tiengow", state.view(seat))
        lead, *follows = data["history"]
        assert lead["lead"] and lead["kind"] == "single"
        assert [c["t"] for c in lead["cards"]] == ["4-5"]
        assert lead["cards"][0]["s"] == "military"
        for who, entry in enumerate(follows, start=1):
            assert entry["kind"] == "discard" and entry["size"] == 1 and not entry["lead"]
            if who == seat:
                assert not entry["hidden"] and len(entry["cards"]) == 1
            else:
                assert entry["hidden"] and entry["cards"] == [] and entry["move"] == "discard ??"
        # The trick is won by the lead (TG-25): the last entry says so, and the trick stays
        # shown as the one just finished until the next lead.
        assert follows[-1]["winner"] == 0
        assert data["trick"] == [] and data["finished_trick"] == data["history"]
        assert data["units"] == [1, 0, 0, 0] and data["discarded"] == [0, 1, 1, 1]
        assert data["banker"] == 0 and data["multiplier"] == 2


def test_open_discards_are_shown_to_everyone() -> None:  # TG-54
    game = shedkit.make("tiengow", preset="ku-pai")
    state = game.new_deal(seed=7, hands=["4-5", "3-6", "2-6", "5-5"], banker=0)
    state.apply(game.parse_move("4-5", state))
    state.apply(game.parse_move("discard 3-6", state))
    data = serialize_view("tiengow", state.view(2))
    assert data["discards_exposed"] and data["history"][1]["cards"][0]["t"] == "3-6"


def test_legal_moves_and_the_hand_share_keys_and_early_death_is_said() -> None:  # TG-28
    game = shedkit.make("tiengow")
    state = game.new_deal(
        seed=1, hands=["2-3", "1-2", "4-5", "6-6"], banker=1, leader=0, units=[3, 4, 0, 0]
    )
    state.apply(game.parse_move("2-3", state))
    state.apply(game.parse_move("discard 1-2", state))
    data = serialize_view("tiengow", state.view(2))
    assert data["early_death"] is True
    assert [m["m"] for m in data["legal"]] == ["discard 4-5"]
    assert data["legal"][0]["k"] == [c["k"] for c in data["hand"]]
    assert serialize_view("tiengow", state.view(3))["early_death"] is False


def test_the_hand_carries_kind_suit_and_rank() -> None:  # TG-05, TG-06
    state = shedkit.make("tiengow").new_deal(seed=3)
    data = serialize_view("tiengow", state.view(0))
    for item in data["hand"]:
        kind = TILE_KIND[item["c"]]
        assert item["k"] == kind
        assert item["s"] == ("civil" if kind < 11 else "military")
    heaven = serialize_view(
        "tiengow",
        shedkit.make("tiengow").new_deal(seed=1, hands=["6-6", "1-5", "3-6", "1-2"]).view(0),
    )
    assert heaven["hand"][0]["r"] == 11


# -- payments -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_payments_add_up_to_the_returns(preset: str) -> None:  # TG-30
    for seed in range(40):
        state = random_deal(preset, seed)
        for seat in [0, 2, None]:
            data = serialize_view("tiengow", state.view(seat))
            assert net(data["payments"]) == data["returns"] == state.returns()
    before = serialize_view("tiengow", replayed(state, 3).view(0))
    assert before["payments"] == []


def settled(preset: str, hands: list[str], moves: list[str], **setup: Any) -> dict[str, Any]:
    game = shedkit.make("tiengow", preset=preset)
    state = game.new_deal(seed=1, hands=hands, **setup)
    for text in moves:
        state.apply(game.parse_move(text, state))
    assert state.is_over
    data: dict[str, Any] = serialize_view("tiengow", state.view(None))
    return data


def test_payments_of_early_death_name_units_and_the_banker() -> None:  # TG-28, TG-31, TG-32
    data = settled(
        "standard",
        ["2-3", "1-2", "4-5", "6-6"],
        ["2-3", "discard 1-2", "discard 4-5", "discard 6-6"],
        banker=1,
        leader=0,
        units=[3, 4, 0, 0],
    )
    rows = {p["payer"]: p for p in data["payments"]}
    assert rows[2] == {
        "payer": 2,
        "payee": 0,
        "amount": 5,
        "reason": "units",
        "base": 5,
        "factors": [],
        "units": 0,
    }
    assert rows[1]["amount"] == 0 and rows[1]["units"] == 4
    assert data["returns"] == [10, 0, -5, -5]


def test_a_capture_is_paid_by_the_caught_leader() -> None:  # TG-63, test case 9 (b)
    data = settled(
        "hong-kong",
        ["1-2", "1-1", "2-4", "2-2"],
        ["1-2", "discard 1-1", "2-4", "discard 2-2"],
        banker=1,
        leader=0,
        units=[2, 3, 2, 0],
    )
    assert {p["reason"] for p in data["payments"]} == {"capture"}
    assert all(p["payer"] == 0 and p["payee"] == 2 for p in data["payments"])
    assert sorted(p["for"] for p in data["payments"]) == [0, 1, 3]
    banker_row = next(p for p in data["payments"] if p["for"] == 1)
    assert [f["code"] for f in banker_row["factors"]] == ["banker", "capture"]
    assert data["returns"] == [-36, 0, 36, 0]


# -- what the lobby offers ----------------------------------------------------------------


def test_the_lobby_offers_tien_gow_with_its_presets_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    tg = games["tiengow"]
    assert tg["title"] == "Tien Gow" and tg["players"] == 4
    assert set(tg["presets"]) == set(PRESETS)
    assert {"random", "greedy"} <= set(tg["agents"]) and tg["default_agent"] == "greedy"
    options = {o["name"]: o for o in tg["options"]}
    assert options["first_banker"] == {
        "name": "first_banker",
        "kind": "choice",
        "choices": ["random", 0, 1, 2, 3],
    }
    assert options["combinations"]["choices"] == ["full", "pairs", "pure-pairs", "singles"]
    assert options["target"] == {"name": "target", "kind": "int", "nullable": True}
    assert tg["presets"]["hong-kong"]["wen_supreme"] is True
    made = client.post(
        "/api/tables",
        json={"game": "tiengow", "preset": "hong-kong", "options": {"first_banker": 2}, "bots": 3},
    )
    assert made.status_code == 201, made.text
    assert made.json()["options"]["first_banker"] == 2 and made.json()["players"] == 4


# -- nothing face down ever leaks (TG-25) -------------------------------------------------


def test_a_seats_message_is_the_same_whatever_the_others_discarded() -> None:
    """Each seat's JSON is a function of what it may know: a deal dealt again with the other
    seats' unseen tiles and face-down discards drawn afresh gives that seat the same JSON."""
    game = shedkit.make("tiengow")
    rng = random.Random(5)
    compared = 0
    for seed in range(6):
        state = random_deal("standard", seed)
        for step in range(0, len(state.history) + 1, 3):
            at = replayed(state, step)
            for seat in range(4):
                view = at.view(seat)
                mine = serialize_view("tiengow", view)
                other = game.determinize(view, rng)
                assert serialize_view("tiengow", other.view(seat)) == mine
                compared += 1
    assert compared > 100


def face_up_kinds(final: Any, moves: int, seat: int) -> Counter[int]:
    """Kinds ``seat`` may have seen after ``moves`` moves: its own tiles, the face-up plays."""
    kinds: Counter[int] = Counter(TILE_KIND[t] for t in final.dealt[seat])
    for who, move, _ in final.history[:moves]:
        if who != seat and not move.is_discard:
            kinds.update(move.kinds)
    return kinds


def kinds_in(message: Any) -> list[int]:
    """Every tile kind a message names: tile objects and tile notation in strings."""
    found: list[int] = []
    names = {name: k for k, name in enumerate(KIND_NAMES)}
    stack = [message]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "c" in item and "t" in item:
                found.append(item["k"])
                continue
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found += [names[w] for w in item.replace(",", " ").split() if w in names]
    return found


def check_no_discard_leaks(final: Any, seat: int | None, messages: list[Any]) -> int:
    """No message to ``seat`` names a kind that seat could not know (TG-25)."""
    checked = 0
    for message in messages:
        if message["type"] != "state" or message["view"] is None:
            continue
        view = message["view"]
        moves = len(view["history"])
        for entry in view["history"]:
            if entry["kind"] == "discard" and entry["seat"] != seat:
                assert entry["hidden"] and entry["cards"] == []
                assert set(entry["move"].split()[1:]) == {"??"}
        may = face_up_kinds(final, moves, seat) if seat is not None else Counter()
        if seat is None:
            for _, move, _ in final.history[:moves]:
                if not move.is_discard:
                    may.update(move.kinds)
        leaked = set(kinds_in(message)) - set(may)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}"
        checked += 1
    return checked


def test_no_message_of_a_whole_deal_holds_another_seats_face_down_tile(
    live: LiveServer,
) -> None:
    table = live.create(game="tiengow", bots=2, seed=21)
    tid = table["id"]
    people = [live.client(tid, live.join(tid, s, f"P{s}")) for s in range(2)]
    watcher = live.client(tid)
    for c in [*people, watcher]:
        c.messages.clear()
    # Discard whenever discarding is legal: many face-down tiles to keep secret.
    pick = lambda view: view["legal"][-1]["m"]  # noqa: E731
    play_until(live, tid, people, lambda t: t.state.is_over, pick=pick, timeout=120)
    for c in [*people, watcher]:
        c.drain(0.2)
    final = live.table(tid).state
    assert sum(1 for _, m, _ in final.history if m.is_discard) > 6
    checked = sum(
        check_no_discard_leaks(final, seat, c.messages)
        for seat, c in [(0, people[0]), (1, people[1]), (None, watcher)]
    )
    assert checked > 20
    # The deal over, its list hides the seed (it would deal the hands again) and its
    # replay shows what anyone may know.
    deals = live.http.get(f"/api/tables/{tid}/deals").json()
    assert deals[0]["seed"] is None and deals[0]["commitment"]
    replay = live.http.get(f"/api/tables/{tid}/deals/1")
    assert replay.status_code == 200
    check_public_replay(final, replay.json())


def check_public_replay(final: Any, data: dict[str, Any]) -> None:
    """A replay of a finished hand names no face-down tile: its record has no seed and no
    hands, its moves show discards as ``??``, and each hand shows only the tiles its seat
    plays face up later, the rest as backs."""
    record = data["record"]
    assert record["public"] and "seed" not in record and "hands" not in record["setup"]
    assert "hands_text" not in record
    hidden = [m for m in record["moves"] if m.startswith("discard")]
    assert hidden and all(set(m.split()[1:]) == {"??"} for m in hidden)
    for step, snap in enumerate(data["steps"]):
        if snap["move"] is not None and snap["move"].startswith("discard"):
            assert set(snap["move"].split()[1:]) == {"??"}
        for seat, hand in enumerate(snap["hands"]):
            later: Counter[int] = Counter()
            held = 0
            for who, move, _ in final.history[step:]:
                if who == seat:
                    held += move.size
                    if not move.is_discard:
                        later.update(move.kinds)
            shown = Counter(c["k"] for c in hand if not c.get("back"))
            assert shown == later and len(hand) == held
        for entry in snap["public"]["history"]:
            if entry["kind"] == "discard":
                assert entry["cards"] == []


def test_replays_show_what_anyone_may_know() -> None:
    assert "tiengow" in HIDDEN_FOR_GOOD
    rng = random.Random(2)
    game = shedkit.make("tiengow")
    for seed in range(3):
        final = random_deal("standard", seed)
        data = replay_steps(final.record())
        check_public_replay(final, data)
        assert data["record"] == public_record(final)
        assert data["steps"][0]["hands"] == public_hands(final, 0)
        # Dealt again with the other seats' unseen tiles and face-down discards drawn
        # afresh, the replay is the very same.
        other = game.determinize(final.view(0), rng)
        assert json.dumps(replay_steps(other.record())) == json.dumps(data)
