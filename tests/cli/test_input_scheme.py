"""What typed text means: ``#N`` picks, text is a move, cards not held and several readings."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

import shedkit
from shedkit.agents import make_agent
from shedkit.cli.common import MatchTUI
from shedkit.cli.dominoes_tui import DominoesTUI
from shedkit.cli.doudizhu_tui import DouDizhuTUI
from shedkit.cli.president_tui import PresidentTUI
from tests.cli.helpers import run


def _turn(cls: type[MatchTUI], game: object, state: object, human: int, typed: str) -> tuple:
    """One human turn of ``cls`` on ``state`` with ``typed`` as input; (move, screen)."""
    n = game.num_players  # type: ignore[attr-defined]
    agents = {s: make_agent("random", game, s) for s in range(n) if s != human}
    console = Console(file=io.StringIO(), width=120)
    tui = cls(console, game, human, agents, io.StringIO(typed))
    move = tui.human_turn(state, state.view(human))  # type: ignore[attr-defined]
    return move, console.file.getvalue()  # type: ignore[attr-defined]


def test_ddz_16a_cards_that_make_two_plays_are_asked_about() -> None:
    # Under de-wikipedia 3333+44 is four with two solos or four with a pair (DDZ-16a).
    game = shedkit.make("doudizhu", preset="de-wikipedia")
    hands = ["3 3 3 3 4 4 9 T J Q K A 2 B", None, None]
    state = game.new_deal(seed=1, hands=hands, landlord=0)
    move, screen = _turn(DouDizhuTUI, game, state, 0, "3333+44\n1\n")
    assert "'3333+44' can mean 2 plays:" in screen
    assert "quad_pair:3333+44" in screen and "quad_two_solos:3333+44" in screen
    assert move is not None and move.kind in ("quad_pair", "quad_two_solos")
    # A kind prefix names one reading: nothing to ask.
    state = game.new_deal(seed=1, hands=hands, landlord=0)
    move, screen = _turn(DouDizhuTUI, game, state, 0, "quad_pair:3333+44\n")
    assert move.kind == "quad_pair" and "can mean" not in screen


def test_ddz_typed_ranks_not_held_are_refused_and_numbers_are_ranks() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=1, hands=["3 4 5 6 8 8 9 T J Q K A 2 B", None, None], landlord=0)
    move, screen = _turn(DouDizhuTUI, game, state, 0, "R\n2222\n88\n")
    assert "you do not hold the red joker (R)" in screen
    assert "2222 needs 4 × 2; you hold only one" in screen
    assert str(move) == "88"


def test_pre_typed_cards_not_held_are_refused() -> None:
    game = shedkit.make("president")
    state = game.new_deal(seed=3)
    human = state.current_player
    hand = state.view(human).hand
    absent = next(c for c in range(52) if c not in hand)
    from shedkit.president.combos import card_str

    typed = f"{card_str(absent)}\n5\n#1\n"
    move, screen = _turn(PresidentTUI, game, state, human, typed)
    assert f"you do not hold {card_str(absent)}" in screen
    assert "'5' is not a move; to pick option 5 from the list, type #5" in screen
    assert move is not None


def test_dom_41_a_tile_that_fits_both_ends_is_asked_about() -> None:
    game = shedkit.make("dominoes", players=2)
    state = game.new_deal(seed=1, hands=["6-6 0-1", "6-3 0-0"])
    state.apply(state.legal_moves()[0], seat=0)  # 6-6 down: both ends show 6
    move, screen = _turn(DominoesTUI, game, state, 1, "1-2\ndraw\n6-3\n2\n")
    assert "you can play, so may not draw (DOM-07)" in screen
    assert "you do not hold 1-2" in screen
    assert "'6-3' can mean 2 plays:" in screen and "3-6@L" in screen and "3-6@R" in screen
    assert str(move) == "3-6@R"
    assert "seat 1" not in screen


ARTIFACTS = Path(os.environ.get("SHEDKIT_TEST_ARTIFACTS", "build/test-artifacts"))


@pytest.mark.parametrize(
    ("game", "argv", "typed"),
    [
        ("doudizhu", ["--seed", "0"], "bid3\n22\nAA\nKK\n11\n#1\nquit\n"),
        ("president", ["--jokers", "1", "--seed", "9"], "7\nQs\n#1\nquit\n"),
        ("dominoes", ["--preset", "two-player", "--seed", "3"], "6-6\n2-3\n2\nquit\n"),
        ("tiengow", ["--seed", "3", "--first-banker", "0"], "5-5\n6-6 1-1\n#1\nquit\n"),
    ],
)
def test_screens_are_saved_for_people_to_look_at(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
    argv: list[str],
    typed: str,
) -> None:
    head = ["play", game, "--deals", "1", "--records", str(tmp_path)]
    code, out, err = run(monkeypatch, capsys, [*head, *argv], typed)
    assert code == 0, err
    assert "you do not hold" in out and "Traceback" not in out + err
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"cli-{game}.txt").write_text(out, encoding="utf-8")


def test_engine_messages_address_the_human_as_you() -> None:
    game = shedkit.make("dominoes", players=2)
    tui = DominoesTUI(
        Console(file=io.StringIO()), game, 0, {1: make_agent("random", game, 1)}, io.StringIO()
    )
    said = tui.you("seat 0 cannot play and has nothing to draw: pass (DOM-07)")
    assert said == "you cannot play and have nothing to draw: pass (DOM-07)"
    assert tui.you("it is seat 1's turn, not seat 0's") == "it is Bot 1's turn, not yours"
    assert tui.you("the tax is on: seat 0 gives seat 1 2 card(s) of its hand") == (
        "the tax is on: you give Bot 1 2 card(s) of your hand"
    )
