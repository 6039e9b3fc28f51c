"""``shedkit play president`` and ``shedkit replay`` of President records, through piped input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import shedkit
from shedkit.agents import make_agent
from shedkit.cli.president_tui import PresidentTUI, order_text
from shedkit.core.match import Match
from shedkit.core.records import load_record
from shedkit.president import President
from shedkit.president.combos import JOKER
from tests.cli.helpers import match_args, run


def play_args(records: Path, *extra: str, seed: int = 3, deals: int = 2) -> list[str]:
    return match_args("president", records, *extra, seed=seed, deals=deals)


ALL_FLAGS = ["--players", "4", "--jokers", "1", "--tax", "--eight-stops"]


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_full_match_with_every_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, bots: str
) -> None:
    argv = play_args(tmp_path, *ALL_FLAGS, "--bots", bots, deals=3)
    code, out, err = run(monkeypatch, capsys, argv, "#1\n" * 3000)
    assert code == 0, err
    assert "Scores after 3 deal(s)" in out and "Match over" in out
    assert out.count("Finishing order:") == 3
    # PRE-11 titles in English in the English terminal.
    assert "President" in out and "Slave" in out
    assert "Presidente" not in out and "Schiavo" not in out
    assert "Order, low to high: A 2 3 4 5 6 7 8 9 10 J Q K" in out
    assert "Out of play (public): " in out
    # Deals 2 and 3 start with the tax (PRE-20).
    assert out.count("Tax: ") == 4
    files = sorted(tmp_path.glob("deal-*.json"))
    assert len(files) == 3
    for path in files:
        record = load_record(path)
        assert record["options"]["jokers"] == 1 and record["options"]["tax"] is True
        assert record["options"]["eight_stops"] is True
        assert shedkit.replay(record).returns() == record["returns"]
    assert load_record(files[1])["moves"][0].startswith("give")


def test_same_seed_same_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = run(monkeypatch, capsys, play_args(tmp_path / "a", *ALL_FLAGS), "#1\n" * 2000)[1]
    second = run(monkeypatch, capsys, play_args(tmp_path / "a", *ALL_FLAGS), "#1\n" * 2000)[1]
    assert first == second


def test_screen_and_typed_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = shedkit.make("president")
    script = ["", "?", "xyz", "Jk", "pass", "#999", "moves", "quit"]
    code, out, err = run(
        monkeypatch, capsys, play_args(tmp_path, "--seat", "1", deals=1), "\n".join(script) + "\n"
    )
    assert code == 0, err
    assert "Your hand (13): " in out and "Your turn" in out
    assert "Type a move, or # and a number from the list" in out
    assert "'xyz' is not a card" in out
    assert "'Jk' is not a President combination" in out
    assert "#999" in out and "is not an option" in out
    assert "Quit. No deal was finished, so no record was saved." in out
    assert game.num_players == 4


def test_bad_flags_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for extra, needle in (
        (["--players", "7"], "'players' must be 2 to 5"),
        (["--jokers", "2"], "jokers"),
        (["--rank-order", "ace-high"], "two-high"),
        (["--seat", "4"], "--seat must be 0 to 3"),
    ):
        code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *extra), "")
        assert code == 2, extra
        assert needle in err
        assert "Traceback" not in out + err


def test_replay_of_a_president_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(monkeypatch, capsys, play_args(tmp_path, *ALL_FLAGS), "#1\n" * 2000)
    path = sorted(tmp_path.glob("deal-*.json"))[-1]
    record = load_record(path)
    # Alone, away from its match folder's names: the seats are numbered.
    alone = tmp_path / "alone" / path.name
    alone.parent.mkdir()
    alone.write_bytes(path.read_bytes())
    code, out, _ = run(monkeypatch, capsys, ["replay", str(alone)])
    assert code == 0
    assert "Tax: Seat" in out and "draws" in out
    assert f"  1. Seat {record['setup']['previous_order'][0]} gives Seat" in out
    assert "Finishing order:" in out
    first = record["finished"][0]
    assert f"1. Seat {first} President" in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"], "\nq\n")
    assert code == 0 and out.count("[Enter] next move") == 2


# -- the client on scripted deals -----------------------------------------------------


def client(game: President, stdin: str) -> tuple[PresidentTUI, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    agents = {s: make_agent("greedy", game, s) for s in range(1, game.num_players)}
    return PresidentTUI(console, game, 0, agents, io.StringIO(stdin)), out


def test_revolution_banner_and_the_order_in_force() -> None:
    game: President = shedkit.make("president", players=3)
    state = game.new_deal(seed=1, hands=["5s 5h 5d 5c 9s Ts Js", "Ks 3c", "Qs 4d"], dealer=2)
    tui, out = client(game, "5s 5h 5d 5c\n" + "#1\n" * 50)
    assert tui.play_deal(state)
    text = out.getvalue()
    assert "REVOLUTION!" in text
    assert f"The order is reversed: {order_text(tuple(reversed(range(13))))}" in text
    assert "REVOLUTION  order in force, low to high: K Q J 10 9 8 7 6 5 4 3 2 A" in text
    # The hand and the plays are shown low to high in the order in force (PRE-31).
    assert "Your hand (3): Js Ts 9s" in text
    assert "#1 Js  #2 Ts  #3 9s" in text


def test_pre_31_move_lists_write_runs_in_the_order_in_force() -> None:
    game: President = shedkit.make("president", players=3)
    hands = ["5s 5h 5d 5c 9s Ts Js 2c", "Ks 3c", "Qs 4d"]
    state = game.new_deal(seed=1, hands=hands, dealer=2)
    tui, out = client(game, "5s 5h 5d 5c\n" + "moves\n" + "#1\n" * 50)
    assert tui.play_deal(state)
    text = out.getvalue()
    # After the revolution the run 9s Ts Js is written high face first, low to high in force.
    assert "Js Ts 9s" in text.split("REVOLUTION!")[1]
    assert "9s Ts Js" not in text.split("REVOLUTION!")[1]


def test_the_human_chooses_the_tax() -> None:
    game: President = shedkit.make("president", players=4, tax=True)
    state = game.new_deal(seed=2, previous_order=[0, 1, 2, 3], dealer=3)
    hand = state.hand(0)
    give = f"give {' '.join(shedkit.president.card_str(c) for c in hand[:2])}"
    tui, out = client(game, "pass\n" + give + "\n" + "#1\n" * 200)
    assert tui.play_deal(state)
    text = out.getvalue()
    assert "You drew " in text and "at random" in text
    assert "Your turn: give Bot 3 2 card(s) of your choice" in text
    assert "the tax is on" in text  # 'pass' is refused during the tax
    assert f"You give Bot 3 {give[5:]}" in text
    assert "Bot 1 gives Bot 2 1 card(s)" in text  # another exchange stays hidden
    assert state.is_over


def test_pre_21_the_human_gets_the_best_cards_and_may_give_them_back() -> None:
    game: President = shedkit.make("president", preset="international")
    state = game.new_deal(seed=2, previous_order=[0, 1, 2, 3], dealer=3)
    best = " ".join(shedkit.president.card_str(c) for c in state.tax_draws[0])
    tui, out = client(game, f"give {best}\n" + "#1\n" * 200)
    assert tui.play_deal(state)
    text = out.getvalue()
    assert f"You received {best}, the best cards." in text
    assert "You (first) take the 2 highest card(s) of Bot 3" in text
    assert "takes the 1 highest card(s) of Bot 2" in text
    assert "random" not in text
    assert f"You give Bot 3 {best}" in text  # the cards received go straight back
    assert state.is_over


def test_pre_20_giving_at_the_tax_while_holding_the_joker(tmp_path: Path) -> None:
    # Seed 0, every deal-1 move the first legal one: seat 2 gives at deal 2's tax holding Jk.
    game = shedkit.make("president", players=4, jokers=1, tax=True)
    match = Match(game, seed=0, deals=2)
    state = match.next_deal()
    while not state.is_over:
        state.apply(state.legal_moves()[0], seat=state.current_player)
    match.finish_deal(state)
    state = match.next_deal()
    view = state.view(2)
    assert view.phase == "tax" and state.current_player == 2 and JOKER in view.hand
    agents = {s: make_agent("random", game, s) for s in (0, 1, 3)}
    console = Console(file=io.StringIO(), width=120)
    tui = PresidentTUI(console, game, 2, agents, io.StringIO("#1\n"))
    listing = tui.number(view)
    assert sorted(m.action_id for m in listing.moves) == sorted(
        m.action_id for m in view.legal_moves
    )
    # Gives are listed from the weakest cards: the joker, above every face, comes last.
    assert JOKER not in listing.moves[0].cards and JOKER in listing.moves[-1].cards
    assert tui.human_turn(state, view) is not None
