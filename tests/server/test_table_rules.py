"""A table's rules of play, driven without a server: `shedkit.server.table.Table` does no I/O.

Seats, deals, moves and chat are checked by the same code the rooms run, here called
directly: no event loop, no storage, no socket.
"""

from __future__ import annotations

import time

import pytest

from shedkit.server.errors import ServerError
from shedkit.server.seats import SeatInfo
from shedkit.server.settings import Settings
from shedkit.server.table import Table

SETTINGS = Settings()


def new_table(game: str = "doudizhu", bots: int = 0, **more: object) -> Table:
    n = {"doudizhu": 3, "dominoes": 2, "president": 4}[game]
    seats = [SeatInfo(bot="greedy", human=i < n - bots) for i in range(n)]
    table = Table(
        id="t1",
        game_name=game,
        preset="standard",
        options={},
        seed=11,
        deals=3,
        target=None,
        seats=seats,
        created=time.time(),
        **more,  # type: ignore[arg-type]
    )
    table.banks = [SETTINGS.time_bank] * n
    return table


def code_of(call: object) -> str:
    with pytest.raises(ServerError) as caught:
        call()  # type: ignore[operator]
    return caught.value.code


def test_a_full_table_deals_and_a_seat_in_play_stays_its_player_s() -> None:
    table = new_table()
    ana = table.take_seat(0, "Ana", None, "browser-a", False, SETTINGS.time_bank)
    assert table.status == "waiting" and table.seat_of(ana) == 0
    assert code_of(lambda: table.take_seat(0, "Bo", None, "b", False, 30)) == "seat_taken"
    assert code_of(lambda: table.take_seat(1, "ana", None, "b", False, 30)) == "name_taken"
    assert code_of(lambda: table.take_seat(1, "Ana2", None, "browser-a", False, 30)) == "one_seat"
    table.take_seat(1, "Bo", None, "browser-b", False, 30)
    table.take_seat(2, "Cy", None, "browser-c", False, 30)
    assert table.status == "playing" and table.deal_counter == 1
    # Ana leaves mid-deal: nobody else may take her seat (and see her hand) until it ends.
    table.free_seat(0)
    assert code_of(lambda: table.take_seat(0, "Dee", None, "d", False, 30)) == "seat_locked"
    back = table.take_seat(0, "Ana", ana, "browser-a", False, 30)
    assert back == ana


def test_a_move_names_its_state_and_its_seat() -> None:
    table = new_table(bots=3)
    table.fill_with_bots(SETTINGS.time_bank)
    state = table.state
    seat = state.current_player
    text = str(state.legal_moves()[0])
    other = (seat + 1) % 3
    assert code_of(lambda: table.play(None, text, table.state_id)) == "not_seated"
    assert code_of(lambda: table.play(seat, text, table.state_id - 1)) == "stale_state"
    assert code_of(lambda: table.play(other, text, table.state_id)) == "not_your_turn"
    assert code_of(lambda: table.play(seat, "zz", table.state_id)) == "invalid_move"
    before = table.state_id
    move = table.play(seat, text, table.state_id)
    assert table.record_move(move) is None and table.state_id == before + 1
    assert table.deal_moves == [text]


def test_chat_is_checked_and_kept() -> None:
    table = new_table()
    assert code_of(lambda: table.say(None, "hi")) == "not_seated"
    assert code_of(lambda: table.say(0, "hi", phrase="thanks")) == "bad_message"
    assert code_of(lambda: table.say(0, None, phrase="nope")) == "bad_phrase"
    assert code_of(lambda: table.say(0, "x" * 301)) == "too_long"
    line = table.say(0, "  hi  ")
    assert line["text"] == "hi" and list(table.chat) == [line]


def test_timeouts_shorten_the_clock_and_mark_the_seat_away() -> None:
    table = new_table(turn_clock=30.0)
    table.take_seat(0, "Ana", None, "a", False, 30)
    assert table.turn_budget(0, SETTINGS) == 30.0 + SETTINGS.time_bank
    assert not table.timed_out(0, SETTINGS)
    assert table.timed_out(0, SETTINGS) and table.seats[0].away
    assert table.turn_budget(0, SETTINGS) == 15.0  # half the clock, no bank
    table.timed_out(0, SETTINGS)
    assert table.turn_budget(0, SETTINGS) == 7.5


def test_a_table_comes_back_from_its_stored_form() -> None:
    table = new_table(bots=3)
    table.fill_with_bots(SETTINGS.time_bank)
    for _ in range(5):
        state = table.state
        move = state.legal_moves()[-1]  # the highest bid, then the largest play
        state.apply(move)
        table.record_move(move)
    again = Table.from_data("t1", table.to_data(), [], SETTINGS)
    assert again.state.record() == table.state.record()
    assert again.public() == table.public()
