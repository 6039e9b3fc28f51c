"""No input crashes a terminal client: whole matches driven by seeded random typing.

Each game is played under the options of every preset (plus President's tax
and joker, Dominoes from 2 to 6 players, and Tien Gow's other switches) with
a scripted player who types a seeded mix of legal moves in every accepted
form, illegal moves, cards or tiles not held, garbage, empty lines, ``?``,
list picks out of range, and finally reaches the end of input. Any exception fails the test.
"""

from __future__ import annotations

import io
import random
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import shedkit
from shedkit.agents import make_agent
from shedkit.cli import dominoes_tui, doudizhu_tui, president_tui, tiengow_tui
from shedkit.cli.common import MatchTUI
from shedkit.core.match import Match

CLIENTS: dict[str, type[MatchTUI]] = {
    "doudizhu": doudizhu_tui.TUI,
    "president": president_tui.TUI,
    "dominoes": dominoes_tui.TUI,
    "tiengow": tiengow_tui.TUI,
}

GARBAGE = [
    "",
    "   ",
    "?",
    "help",
    "moves",
    "table",
    "#",
    "#0",
    "#-1",
    "#999",
    "#x",
    "0",
    "999",
    "-1",
    "1e3",
    "[red]x[/]",
    "::",
    "+",
    "solo:",
    "bomb:",
    "give",
    "give zz",
    "bid9",
    "pass pass",
    "p p",
    "n",
    "10",
    "♥",
    "Jk=",
    "3-",
    "-3",
    "[3|",
    "3-5-7",
    "@",
    "draw draw",
    "é",
    "\t",
    "x" * 300,
    "discard",
    "discard ?? ??",
    "discard 7-7",
    "6-6 6-6 6-6",
    "[1|3",
    "1|3]",
    "discard discard",
]


def _not_held(game: str, rng: random.Random, view: Any) -> str:
    """Text in the game's notation naming cards or tiles, most likely not in hand."""
    if game == "doudizhu":
        ranks = "3456789TJQKA2BR"
        return "".join(rng.choice(ranks) for _ in range(rng.randint(1, 5)))
    if game == "president":
        cards = [f"{r}{s}" for r in "A23456789TJQK" for s in "shdc"] + ["Jk"]
        return " ".join(rng.sample(cards, rng.randint(1, 4)))
    if game == "tiengow":
        tiles = " ".join(
            f"{rng.randint(0, 7)}-{rng.randint(1, 6)}" for _ in range(rng.randint(1, 4))
        )
        return rng.choice(["", "discard "]) + tiles
    top = view.options.max_pips + 1
    return f"{rng.randint(0, top)}-{rng.randint(0, top)}"


class ScriptedPlayer(io.StringIO):
    """A stream whose lines are made up at each read from the table the client shows."""

    def __init__(self, game: str, seed: int, budget: int) -> None:
        super().__init__()
        self.game = game
        self.rng = random.Random(seed)
        self.budget = budget
        self.turn: tuple[MatchTUI, Any, Any] | None = None

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.budget <= 0:
            return ""
        self.budget -= 1
        return self.line() + "\n"

    def line(self) -> str:
        rng = self.rng
        if self.turn is None:
            return rng.choice(GARBAGE)
        tui, _state, view = self.turn
        roll = rng.random()
        legal = view.legal_moves
        if roll < 0.5 and legal:
            move = rng.choice(legal)
            listing = tui.number(view)
            forms = [
                str(move),
                str(move).lower(),
                tui.move_text(move, view),
                tui.spell(move),
                f"#{listing.moves.index(move) + 1}",
                f"  {move}  ",
            ]
            return rng.choice(forms)
        if roll < 0.75:
            return _not_held(self.game, rng, view)
        return rng.choice(GARBAGE)


def _scripted(cls: type[MatchTUI]) -> type[MatchTUI]:
    class Scripted(cls):  # type: ignore[misc, valid-type]
        def human_turn(self, state: Any, view: Any) -> Any:
            self.stream.turn = (self, state, view)
            return super().human_turn(state, view)

    return Scripted


def _configs() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for game in CLIENTS:
        for name in import_module(f"shedkit.{game}.options").PRESETS:
            out.append((game, {"preset": name}))
    out += [
        ("president", {"tax": True}),
        ("president", {"jokers": 1}),
        ("president", {"jokers": 1, "tax": True, "players": 5, "rank_order": "two-high"}),
        ("president", {"jokers": 1, "tax": True, "players": 3, "eight_stops": True}),
        ("president", {"jokers": 1, "tax": True, "players": 2}),
    ]
    out += [("dominoes", {"players": n}) for n in (3, 5, 6)]
    out += [("dominoes", {"players": 3, "variant": "fives"})]
    out += [("tiengow", {"must_follow_suit": True, "two_pairs": True, "wen_supreme": True})]
    out += [("tiengow", {"alternate_direction": True, "triplet_match": "civil-guarded"})]
    return out


CONFIGS = _configs()


@pytest.mark.parametrize(
    ("game", "options"), CONFIGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)]
)
@pytest.mark.parametrize("seed", [1, 9])
def test_scripted_random_input_never_crashes(
    tmp_path: Path, game: str, options: dict[str, Any], seed: int
) -> None:
    options = dict(options)
    preset = options.pop("preset", "standard")
    g = shedkit.make(game, preset=preset, **options)
    n = g.num_players
    human = seed % n
    agents = {s: make_agent("random", g, seed * 10 + s) for s in range(n) if s != human}
    player = ScriptedPlayer(game, seed, budget=400)
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    tui = _scripted(CLIENTS[game])(console, g, human, agents, player)
    match = Match(g, seed=seed, deals=2, records_dir=tmp_path)
    finished = tui.play_match(match)
    # A lowercase "q" (the queen solo) may be read as quitting; that ends the match cleanly.
    assert isinstance(finished, bool)
    assert "Deal 1" in console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", list(CLIENTS))
def test_end_of_input_mid_match_stops_cleanly(tmp_path: Path, game: str) -> None:
    g = shedkit.make(game)
    agents = {s: make_agent("random", g, s) for s in range(1, g.num_players)}
    player = ScriptedPlayer(game, 5, budget=12)
    console = Console(file=io.StringIO(), width=100)
    tui = _scripted(CLIENTS[game])(console, g, 0, agents, player)
    assert tui.play_match(Match(g, seed=5, deals=3, records_dir=tmp_path)) is False
    assert player.budget == 0
