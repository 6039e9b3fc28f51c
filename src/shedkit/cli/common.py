"""What every game's terminal client shares: the match loop and the words it speaks in.

A game's client (``shedkit.cli.<game>_tui``) subclasses `MatchTUI` and
fills in what only it knows: how the table looks from the human's seat, how a
move is told, what a finished deal shows and which columns the score table
has. Everything drawn while a deal is on comes from ``state.view(human)``, so
no client can show a bot's hidden cards or tiles by mistake.

Reading a move and the numbered list of moves are `shedkit.cli.moves`; replays
are `shedkit.cli.replays`.
"""

from __future__ import annotations

import functools
import re
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from shedkit.agents.base import Agent
from shedkit.cli.moves import (
    Listing,
    MoveCompleter,
    full_listing,
    interpret,
    number_moves,
    read_line,
    render_listing,
)
from shedkit.core.errors import IllegalMoveError
from shedkit.core.match import DealResult, Match

__all__ = ["QUIT_WORDS", "YOU", "MatchTUI", "signed", "verb", "with_note"]

QUIT_WORDS = frozenset({"quit", "exit"})

#: Verbs of engine messages ("seat 0 has nothing to draw") said to the human instead.
_SECOND_PERSON = (
    ("you does", "you do"),
    ("you has", "you have"),
    ("you gives", "you give"),
    ("you's", "yours"),
)


#: The name a match gives the human's seat; replays speak to that seat as "you".
YOU: Final = "You"


def with_note(name: str, note: str) -> str:
    """``name`` with ``note`` in its brackets: "Bot 1 (greedy, team B)", "Seat 2 (landlord)"."""
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {note})"
    return f"{name} ({note})"


def verb(you: bool, plain: str, third: str) -> str:
    """``plain`` for the human ("you play"), ``third`` for anyone else ("Bot 1 plays")."""
    return plain if you else third


def signed(value: int) -> str:
    """A score with its sign, green when positive and red when negative (Rich markup)."""
    if value > 0:
        return f"[green]+{value}[/]"
    if value < 0:
        return f"[red]{value}[/]"
    return "0"


# -- playing a match ------------------------------------------------------------


class MatchTUI:
    """Plays a match in the terminal: one human seat, bots in the others.

    ``human`` ``None`` watches a match of bots only, shown as a spectator sees
    it (``shedkit play GAME --watch``). ``agents`` maps each bot seat to its
    agent. ``delay`` pauses after each bot move so that a person can follow the
    play; tests leave it at 0. A game's client overrides the hooks below the ``# -- hooks`` line.
    """

    #: The game's name for people ("Dou Di Zhu").
    title: ClassVar[str] = "shedkit"
    #: What ``?`` prints (Rich markup).
    help_text: ClassVar[str] = ""
    #: Move kinds in the order the list shows them, and their labels.
    kind_order: ClassVar[tuple[str, ...]] = ()
    kind_labels: ClassVar[Mapping[str, str]] = {}
    #: Kinds listed in full even when the list is capped.
    basic_kinds: ClassVar[frozenset[str]] = frozenset()
    #: Columns of the score table between "Deal" and the seats.
    score_columns: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        console: Console,
        game: Any,
        human: int | None,
        agents: Mapping[int, Agent],
        stream: TextIO,
        delay: float = 0.0,
    ) -> None:
        self.console = console
        self.game = game
        self.human = human
        self.agents = agents
        self.stream = stream
        self.delay = delay
        n = game.num_players
        self.names = [
            YOU if s == human else f"Bot {s} ({getattr(agents[s], 'name', 'bot')})"
            for s in range(n)
        ]
        self.short = [YOU if s == human else f"Bot {s}" for s in range(n)]
        # One row per deal of the score table: (number, cells, returns or None if void).
        self.score_rows: list[tuple[int, list[str], tuple[int, ...] | None]] = []
        self.tty = stream is sys.stdin and stream.isatty()
        self.completer = MoveCompleter()
        if self.tty:
            self.completer.install()
        self.deal_label = ""

    # -- hooks -------------------------------------------------------------------

    def start_deal(self, state: Any) -> None:
        """Say how the deal begins (who leads or bids first) and reset per-deal displays."""

    def narrate(self, before: Any, seat: int, move: Any, after: Any) -> list[str]:
        """Rich-markup lines telling what ``move`` by ``seat`` did."""
        return [f"{self.short[seat]}: {escape(str(move))}"]

    def render_turn(self, view: Any) -> RenderableType:
        """The table as the human sees it when asked for a move."""
        return Text(f"{self.deal_label}: your turn")

    def spread(self, kind: str, moves: list[Any], view: Any) -> list[Any]:
        """Moves of one kind in listing order (varied first where the list is capped)."""
        return moves

    def move_text(self, move: Any, view: Any) -> str:
        """How the lists and completion write ``move`` for the human seeing ``view``."""
        return str(move)

    def spell(self, move: Any) -> str:
        """The notation that names ``move`` and nothing else (for ambiguity messages)."""
        return str(move)

    def read_move(self, text: str, state: Any, view: Any, listing: Listing) -> Any:
        """What ``text`` names: a move, a message (``str``) or a list of moves it could mean.

        A game refines this: it says which typed cards are not in hand, and
        returns every legal reading of text that names more than one.
        """
        return interpret(text, listing, lambda s: self.game.parse_move(s, state))

    def you(self, message: str) -> str:
        """An engine message that names seats, reworded for the human: "you", "Bot 2"."""

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            if seat == self.human:
                return "you"
            return self.short[seat] if 0 <= seat < len(self.short) else match.group(0)

        text = re.sub(r"\bseat (\d+)\b", name, message)
        for third, second in _SECOND_PERSON:
            text = text.replace(third, second)
        if text.startswith("you "):
            text = text.replace(" and has ", " and have ")
        if "you give" in text:
            text = text.replace(" of its hand", " of your hand")
        return text

    def quit_conflict(self, listing: Listing) -> tuple[str, str] | None:
        """A legal move the word ``q`` could also mean, as (description, notation), or ``None``."""
        return None

    def show_deal_end(self, state: Any, result: DealResult, match: Match) -> None:
        """Who won the deal, its returns, and the score table."""
        self.add_score_row(result, [])
        self.console.print(self.score_table(match))

    # -- the match ---------------------------------------------------------------

    def play_match(self, match: Match) -> bool:
        """Play deals until the match is over; ``False`` if the human quit first."""
        while not match.is_over:
            number = match.deals_played + 1
            redeal = bool(match.results) and match.results[-1].thrown_in
            state = match.next_deal()
            of = f" of {match.deals}" if match.deals is not None else ""
            self.deal_label = f"Deal {number}{of}"
            self.console.rule(f"[bold]{self.deal_label}[/]" + (" (dealt again)" if redeal else ""))
            if not self.play_deal(state):
                return False
            result = match.finish_deal(state)
            for seat, agent in self.agents.items():
                tell = getattr(agent, "deal_end", None)  # bot programs hear how it ended
                if callable(tell):
                    tell(state.view(seat), result.number, result.returns)
            self.show_deal_end(state, result, match)
            if self.tty and not match.is_over:
                # Otherwise the next deal's screen scrolls the result away at once.
                answer = read_line(
                    "Enter for the next deal, q to quit> ", self.stream, self.console
                )
                if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
                    return False
        self.show_match_end(match)
        return True

    def play_deal(self, state: Any) -> bool:
        """Play one deal to its end; ``False`` if the human quit."""
        self.start_deal(state)
        while not state.is_over:
            seat = state.current_player
            before = state.view(self.human)
            forced = ""
            if seat == self.human and len(before.legal_moves) == 1:
                # One move only (a pass nothing in hand avoids, a forced draw): no need to ask.
                move = before.legal_moves[0]
                state.apply(move, seat=seat)
                forced = "  [dim](your only legal move)[/]"
            elif seat == self.human:
                picked = self.human_turn(state, before)
                if picked is None:
                    return False
                move = picked
            else:
                move = self.bot_move(state, seat)
                state.apply(move, seat=seat)
                if self.delay:
                    time.sleep(self.delay)
            after = state.view(self.human)
            lines = self.narrate(before, seat, move, after)
            lines[0] += forced
            for line in lines:
                self.console.print("  " + line, highlight=False)
        return True

    def bot_move(self, state: Any, seat: int) -> Any:
        """The bot's move; a bot that searches shows it is thinking meanwhile."""
        agent = self.agents[seat]
        view = state.view(seat)
        quick = not getattr(agent, "thinks_long", False) or len(view.legal_moves) < 2
        if quick or not self.console.is_terminal:
            return agent.act(view)
        with self.console.status(f"{self.short[seat]} is thinking…", spinner="dots"):
            return agent.act(view)

    # -- the human's turn --------------------------------------------------------

    def number(self, view: Any) -> Listing:
        """The numbered list of the view's legal moves, grouped and capped for this game."""
        return number_moves(
            view.legal_moves,
            self.kind_order,
            self.basic_kinds,
            lambda kind, moves: self.spread(kind, moves, view),
        )

    def show_choices(self, view: Any, listing: Listing) -> None:
        """Print the table and the numbered moves."""
        self.console.print(self.render_turn(view))
        text = functools.partial(self.move_text, view=view)
        self.console.print(render_listing(listing, self.kind_labels, self.tty, text))

    def human_turn(self, state: Any, view: Any) -> Any:
        """Ask the human for a move until a legal one is given and applied; ``None``: quit."""
        listing = self.number(view)
        write = functools.partial(self.move_text, view=view)
        self.completer.words = [write(m) for m in listing.moves] + ["moves", "help", "quit"]
        self.show_choices(view, listing)
        prompt = f"Your move (a move, or #1-#{len(listing.moves)} from the list; ? help)> "
        while True:
            line = read_line(prompt, self.stream, self.console)
            if line is None:
                return None
            text = line.strip()
            low = text.lower()
            if not text:
                self.console.print(
                    "[yellow]Type a move, or # and a number from the list; ? for help.[/]"
                )
                continue
            if low in QUIT_WORDS:
                return None
            if low == "q":
                clash = self.quit_conflict(listing)
                if clash is None:
                    return None
                what, notation = clash
                answer = read_line(
                    f"Quit the match (y) or play {what} (n)? ", self.stream, self.console
                )
                if answer is None or answer.strip().lower() in ("y", "yes"):
                    return None
                if answer.strip().lower() not in ("n", "no"):
                    continue
                text = notation
            if low in ("?", "help"):
                self.console.print(self.help_text, highlight=False)
                continue
            if low == "moves":
                self.console.print(full_listing(listing, self.kind_labels, self.kind_order, write))
                continue
            if low == "table":
                self.show_choices(view, listing)
                continue
            choice = self.read_move(text, state, view, listing)
            if isinstance(choice, list):
                choice = self.ask_which(text, choice, view)
                if choice is None:
                    continue
            if isinstance(choice, str):
                self.console.print(f"[red]{escape(self.you(choice))}[/]", highlight=False)
                continue
            try:
                state.apply(choice, seat=self.human)
            except IllegalMoveError as err:
                self.console.print(f"[red]{escape(self.you(str(err)))}[/]", highlight=False)
                continue
            return choice

    def ask_which(self, text: str, moves: Sequence[Any], view: Any) -> Any:
        """Ask which of ``moves`` the text meant; the move, or ``None`` to type again."""
        self.console.print(f"{text.strip()!r} can mean {len(moves)} plays:", markup=False)
        for n, move in enumerate(moves, start=1):
            how = self.spell(move)
            self.console.print(f"  {n}) {self.move_text(move, view)}   (type {how})", markup=False)
        answer = read_line(
            f"Which one (1-{len(moves)}, Enter to type another move)? ", self.stream, self.console
        )
        pick = (answer or "").strip()
        if pick.isdigit() and 1 <= int(pick) <= len(moves):
            return moves[int(pick) - 1]
        if pick:
            self.console.print(f"[yellow]{escape(pick)!r} is not 1 to {len(moves)}.[/]")
        return None

    # -- scores ------------------------------------------------------------------

    def add_score_row(self, result: DealResult, cells: Sequence[str], void: bool = False) -> None:
        """Remember a finished deal for the score table (``void``: it changed no score)."""
        self.score_rows.append((result.number, list(cells), None if void else result.returns))

    def score_table(self, match: Match) -> Table:
        """The deals so far (one row each) and the running totals."""
        n = self.game.num_players
        table = Table(
            title=f"Scores after {match.deals_played} deal(s)",
            box=box.SIMPLE_HEAVY,
            show_edge=False,
            title_justify="left",
        )
        table.add_column("Deal", justify="right")
        for column in self.score_columns:
            table.add_column(column)
        for s in range(n):
            table.add_column(self.short[s], justify="right")
        for i, (number, cells, returns) in enumerate(self.score_rows):
            seats = [""] * n if returns is None else [signed(r) for r in returns]
            table.add_row(str(number), *cells, *seats, end_section=i == len(self.score_rows) - 1)
        blanks = [""] * len(self.score_columns)
        table.add_row("Total", *blanks, *(f"[bold]{signed(t)}[/]" for t in match.totals))
        return table

    def show_match_end(self, match: Match) -> None:
        """The final standing: the highest total wins."""
        best = max(match.totals)
        leaders = [s for s, t in enumerate(match.totals) if t == best]
        names = " and ".join(self.short[s] for s in leaders)
        self.console.rule("[bold]Match over[/]")
        if len(leaders) == len(match.totals):
            self.console.print(f"After {match.deals_played} deal(s) the match is drawn.")
            return
        wins = verb(leaders == [self.human], "win", "win" if len(leaders) > 1 else "wins")
        self.console.print(
            f"After {match.deals_played} deal(s) [bold]{names} {wins} the match[/] "
            f"with {signed(best)}."
        )
