"""Hidden information: every WebSocket message of a full deal holds no card another seat hides.

The check walks each message for card objects (``{"c": id, "t": text}``) and for
card names in any string, and allows a seat only its own cards, cards already
played, and the cards the rules make public (the shown kitty, DDZ-10; the
leftover, PRE-05).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.server.live import TEST_SETTINGS, Client, LiveServer, play_until


def cards_in(message: Any, names: dict[str, int]) -> set[int]:
    """Every card id a message names: card objects, and card names as whole strings."""
    found: set[int] = set()
    stack = [message]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "c" in item and "t" in item:
                found.add(item["c"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            for word in item.replace(",", " ").split():
                if word in names:
                    found.add(names[word])
    return found


def allowed(game: str, final: Any, record: dict[str, Any], seat: int | None, msg: Any) -> set[int]:
    """The cards ``seat`` may know when ``msg`` was sent (judged by how many moves it shows)."""
    view = msg["view"]
    if view is None:
        return set()
    moves = len(view["history"])
    setup = record["setup"]
    if game == "dominoes":
        # Played tiles are public; a seat also knows its own hand and its own draws.
        out = {m.tile for _, m, _, _ in final.history[:moves] if m.kind in ("lead", "play")}
        if seat is not None:
            out |= set(setup["hands"][seat])
            out |= {d for w, _, d, _ in final.history[:moves] if w == seat and d >= 0}
        return out
    played = {c for _, _, cards in final.history[:moves] for c in cards}
    out = set(played)
    if seat is not None:
        out |= set(setup["hands"][seat])
    if game == "doudizhu":
        if view["landlord"] is not None:
            out |= set(setup["kitty"])
    else:
        out |= set(setup["leftover"])
    return out


def names_of(game: str) -> dict[str, int]:
    if game == "dominoes":
        from shedkit.dominoes.combos import tile_str

        return {tile_str(t): t for t in range(28)}
    if game == "doudizhu":
        from shedkit.doudizhu.combos import card_str as ddz

        # Jokers print as one letter (B, R), which a move such as "BR" never is alone.
        return {ddz(c): c for c in range(52)}
    from shedkit.president.combos import card_str as pre

    return {pre(c): c for c in range(53)}


@pytest.mark.parametrize(
    ("game", "preset", "bots"),
    [
        ("doudizhu", "standard", 1),
        ("president", "standard", 2),
        ("dominoes", "standard", 2),
        ("dominoes", "two-player", 0),  # a boneyard: each seat's draws are its own
    ],
)
def test_no_message_of_a_full_deal_holds_a_hidden_card(
    live: LiveServer, game: str, preset: str, bots: int
) -> None:
    table = live.create(game=game, preset=preset, bots=bots, seed=21)
    tid = table["id"]
    people = [live.client(tid, live.join(tid, s, f"P{s}")) for s in range(2)]
    watcher = live.client(tid)
    for c in people:
        c.messages.clear()
    watcher.messages.clear()
    # Bid high and play the last legal move: a full deal, never thrown in.
    pick = lambda view: view["legal"][-1]["m"]  # noqa: E731
    play_until(live, tid, people, lambda t: t.state.is_over, pick=pick, timeout=120)
    for c in [*people, watcher]:
        c.drain(0.2)
    final = live.table(tid).state
    record = final.record()
    names = names_of(game)
    checked = 0
    for seat, client in [(0, people[0]), (1, people[1]), (None, watcher)]:
        checked += check_messages(game, final, record, seat, client, names)
    assert checked > 20
    # The final view shows the deal over, and returns that add up as the rules say.
    last = people[0].state
    assert last is not None and last["view"]["is_over"]


def check_messages(
    game: str, final: Any, record: dict[str, Any], seat: int | None, client: Client, names: Any
) -> int:
    """Check every message ``client`` got; the seat is the one each state says it speaks for."""
    checked = 0
    seen_hand = False
    may: set[int] = set()
    for message in client.messages:
        if message["type"] == "state":
            seat = message["you"]
            may = allowed(game, final, record, seat, message)
        # Every message, not only states: chat, errors and pongs must not leak either.
        leaked = cards_in(message, names) - may
        assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}"
        if message["type"] != "state":
            continue
        if seat is not None and message["view"]["hand"]:
            seen_hand = True
        checked += 1
    assert seen_hand or seat is None
    return checked


@pytest.mark.parametrize(("game", "bots"), [("doudizhu", 1), ("president", 2), ("dominoes", 2)])
def test_no_hidden_card_leaks_through_seat_changes_and_timeouts(
    db: str, game: str, bots: int
) -> None:
    """Seat 1 never moves (its clock runs out, its bot plays, it goes away); seat 0 leaves
    mid-deal, a stranger is refused that seat, and seat 0's player takes it back."""
    settings = dataclasses.replace(TEST_SETTINGS, turn_clock=0.2, time_bank=0.0)
    with LiveServer(db, settings=settings) as live:
        tid = live.create(game=game, bots=bots, seed=33)["id"]
        tokens = [live.join(tid, s, f"P{s}") for s in range(2)]
        first, silent = live.client(tid, tokens[0]), live.client(tid, tokens[1])
        watcher = live.client(tid)
        table = live.table(tid)
        pick = lambda view: view["legal"][-1]["m"]  # noqa: E731
        play_until(live, tid, [first], lambda t: len(t.state.record()["moves"]) >= 4, pick=pick)
        first.send({"type": "leave"})
        first.wait_for(lambda m: m["type"] == "state" and m["you"] is None)
        assert live.try_join(tid, 0, "Eve").json()["error"]["code"] == "seat_locked"
        back = live.client(tid, live.join(tid, 0, "P0", token=tokens[0]))
        play_until(live, tid, [back], lambda t: t.state.is_over, pick=pick, timeout=120)
        for c in (first, silent, watcher, back):
            c.drain(0.2)
        assert table.seats[1].timeouts >= 1
        final = table.state
        record = final.record()
        names = names_of(game)
        checked = sum(
            check_messages(game, final, record, seat, client, names)
            for seat, client in [(0, first), (1, silent), (None, watcher), (0, back)]
        )
        assert checked > 20


def test_the_checker_finds_a_planted_card() -> None:
    """The check above can fail: another seat's card in a message is found, by object or name."""
    names = names_of("doudizhu")
    msg = {"view": {"history": [], "hand": [{"c": 5, "t": "4h"}], "note": "he holds Ts"}}
    assert cards_in(msg, names) == {5, names["Ts"]}
