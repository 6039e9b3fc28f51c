"""What every game's terminal client shares: input, completion, move lists, the match loop.

A game's client (``shedkit.cli.<game>_tui``) subclasses `MatchTUI` and
fills in what only it knows: how the table looks from the human's seat, how a
move is told, what a finished deal shows and which columns the score table
has. Everything drawn while a deal is on comes from ``state.view(human)``, so
no client can show a bot's hidden cards or tiles by mistake.

Input goes through `read_line`, which reads from any text stream: the
tests drive whole matches through a ``StringIO``, and on a terminal it uses
``input()`` so that the standard ``readline`` gives line editing and tab
completion over the legal moves.
"""

from __future__ import annotations

import functools
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TextIO

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from shedkit.agents.base import Agent
from shedkit.core.errors import IllegalMoveError, InvalidMoveError
from shedkit.core.match import DealResult, Match
from shedkit.core.records import replay as replay_record

__all__ = [
    "LIST_CAP",
    "Listing",
    "MatchTUI",
    "MoveCompleter",
    "full_listing",
    "interpret",
    "number_moves",
    "open_replay",
    "read_line",
    "render_listing",
    "signed",
    "step_through",
    "verb",
]

#: How many moves the numbered list shows at most; the rest are typed (or tab-completed).
LIST_CAP = 40

#: Slots the combinatorial kinds get at least, however many basic moves there are.
_MIN_COMBO_SLOTS = 16

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


def replay_names(names: Sequence[str] | None, n: int) -> tuple[list[str], int | None]:
    """A replay's seat names (default ``Seat 0`` …) and the seat that was "You", if any."""
    shown = list(names) if names else [f"Seat {s}" for s in range(n)]
    return shown, shown.index(YOU) if YOU in shown else None


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


# -- reading input --------------------------------------------------------------


def read_line(prompt: str, stream: TextIO, console: Console) -> str | None:
    """One line from ``stream`` without its line end; ``None`` at the end of input.

    On an interactive stdin this is ``input()``, so that ``readline`` edits and
    completes the line. From any other stream (a pipe, a test's ``StringIO``)
    the line is echoed after the prompt, which keeps a transcript readable.
    """
    if stream is sys.stdin and stream.isatty():
        try:
            return input(prompt)
        except EOFError:
            console.print()
            return None
    console.print(prompt, end="", markup=False, highlight=False)
    line = stream.readline()
    if not line:
        console.print()
        return None
    line = line.rstrip("\r\n")
    console.print(line, markup=False, highlight=False)
    return line


class MoveCompleter:
    """A ``readline`` completer over the current legal moves (case-insensitive)."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self._matches: list[str] = []

    def __call__(self, text: str, index: int) -> str | None:
        if index == 0:
            low = text.lower()
            self._matches = [w for w in self.words if w.lower().startswith(low)]
        return self._matches[index] if index < len(self._matches) else None

    def install(self) -> bool:
        """Make this readline's completer; ``False`` where there is no readline."""
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input still works
            return False
        readline.set_completer(self)
        # Moves contain '+', ':', '=' and '@', which readline splits words on by default.
        readline.set_completer_delims("\t\n")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        return True


# -- the numbered list of moves -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listing:
    """The legal moves numbered from 1; the first ``shown`` are listed, grouped by kind.

    Moves past ``shown`` keep their numbers (typing one works) but are not
    printed, so a lead with hundreds of moves stays one screen.
    """

    moves: tuple[Any, ...]
    shown: int
    groups: tuple[tuple[str, int, int], ...]  # (kind, first number, last number) listed
    hidden: tuple[tuple[str, int], ...]  # (kind, how many not listed)

    def option(self, number: int) -> Any:
        """The move numbered ``number``, or ``None``."""
        return self.moves[number - 1] if 1 <= number <= len(self.moves) else None


def _share(counts: Sequence[int], cap: int) -> list[int]:
    """Split ``cap`` list slots among kinds: small kinds in full, the rest evenly."""
    out = [0] * len(counts)
    left = cap
    order = sorted(range(len(counts)), key=lambda i: counts[i])
    for j, i in enumerate(order):
        give = min(counts[i], max(1, left // (len(counts) - j)))
        out[i] = give
        left = max(0, left - give)
    return out


def number_moves(
    legal: Sequence[Any],
    kind_order: Sequence[str],
    basic_kinds: frozenset[str] = frozenset(),
    spread: Callable[[str, list[Any]], list[Any]] | None = None,
    cap: int = LIST_CAP,
) -> Listing:
    """Number ``legal`` for the list: grouped by ``move.kind``, at most about ``cap`` listed.

    Kinds in ``basic_kinds`` are listed in full; the other kinds share what is
    left of ``cap``, each showing the front of its ``spread`` order (a varied
    sample rather than every variant of the lowest play).
    """
    by_kind: dict[str, list[Any]] = {}
    for m in legal:
        by_kind.setdefault(m.kind, []).append(m)
    order = list(kind_order)
    kinds = sorted(by_kind, key=lambda k: order.index(k) if k in order else len(order))
    ordered = [spread(k, by_kind[k]) if spread else by_kind[k] for k in kinds]
    if len(legal) <= cap + cap // 4:
        # Hiding a handful of moves saves no screen and only sends the player to 'moves'.
        cap = len(legal)
    basic = sum(len(ms) for k, ms in zip(kinds, ordered, strict=True) if k in basic_kinds)
    combos = [i for i, k in enumerate(kinds) if k not in basic_kinds]
    shares = _share([len(ordered[i]) for i in combos], max(cap - basic, _MIN_COMBO_SLOTS))
    quota = [len(ms) for ms in ordered]
    for i, q in zip(combos, shares, strict=True):
        quota[i] = q
    numbered: list[Any] = []
    groups: list[tuple[str, int, int]] = []
    for kind, ms, q in zip(kinds, ordered, quota, strict=True):
        groups.append((kind, len(numbered) + 1, len(numbered) + q))
        numbered += ms[:q]
    shown = len(numbered)
    hidden: list[tuple[str, int]] = []
    for kind, ms, q in zip(kinds, ordered, quota, strict=True):
        numbered += ms[q:]
        if len(ms) > q:
            hidden.append((kind, len(ms) - q))
    return Listing(tuple(numbered), shown, tuple(groups), tuple(hidden))


def _rows(
    numbers_by_kind: Sequence[tuple[str, Sequence[int]]],
    listing: Listing,
    labels: Mapping[str, str],
    text: Callable[[Any], str],
) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for kind, numbers in numbers_by_kind:
        items = [Text.assemble((f"#{n}", "cyan"), " ", text(listing.moves[n - 1])) for n in numbers]
        grid.add_row(labels.get(kind, kind), Columns(items, padding=(0, 2)))
    return grid


def render_listing(
    listing: Listing,
    labels: Mapping[str, str],
    tty: bool = False,
    text: Callable[[Any], str] = str,
) -> RenderableType:
    """The numbered moves, one row per kind, with a hint when some are not listed.

    ``text`` writes a move (by default ``str``; a game may write it in the
    order in force, say).
    """
    rows = [(kind, range(first, last + 1)) for kind, first, last in listing.groups]
    parts: list[RenderableType] = [_rows(rows, listing, labels, text)]
    if listing.hidden:
        more = sum(n for _, n in listing.hidden)
        kinds = ", ".join(f"{labels.get(k, k)} {n}" for k, n in listing.hidden)
        example = text(listing.moves[listing.shown])
        how = "type a move (Tab completes)" if tty else "type a move"
        parts.append(
            Text(
                f"… and {more} more not listed ({kinds}): {how}, e.g. {example}; "
                "'moves' lists them all",
                style="dim",
            )
        )
    return Group(*parts)


def full_listing(
    listing: Listing,
    labels: Mapping[str, str],
    kind_order: Sequence[str],
    text: Callable[[Any], str] = str,
) -> RenderableType:
    """Every legal move, grouped by kind, under the numbers the capped list gave them."""
    by_kind: dict[str, list[int]] = {}
    for n, m in enumerate(listing.moves, start=1):
        by_kind.setdefault(m.kind, []).append(n)
    order = list(kind_order)
    kinds = sorted(by_kind, key=lambda k: order.index(k) if k in order else len(order))
    return _rows([(k, sorted(by_kind[k])) for k in kinds], listing, labels, text)


def interpret(
    text: str,
    listing: Listing,
    parse: Callable[[str], Any],
) -> Any:
    """The move ``text`` asks for, or a one-line message (a ``str``) saying why it names none.

    ``#N`` picks option N from the list; any other text is read as a move, so
    that a typed ``22`` (the pair of twos) can never be taken for option 22. A
    bare number that names no move gets a hint to add the ``#``. The move
    returned may still be illegal: applying it says why.
    """
    s = text.strip()
    count = len(listing.moves)
    if s.startswith("#"):
        number = s[1:].strip()
        picked = listing.option(int(number)) if number.isdigit() else None
        if picked is None:
            return f"{s!r} is not an option; options are #1 to #{count}"
        return picked
    try:
        return parse(s)
    except InvalidMoveError as err:
        if s.isdigit() and listing.option(int(s)) is not None:
            return f"{s!r} is not a move; to pick option {s} from the list, type #{s}"
        return str(err)


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


# -- replays --------------------------------------------------------------------


def open_replay(
    console: Console,
    record: Mapping[str, Any],
    title: str,
    heading: Callable[[Any], str],
    rows: Callable[[Any, Any], Sequence[tuple[str, str]]],
) -> tuple[Any, Any]:
    """Rebuild a record's final state and its deal as dealt, and print the replay's opening.

    ``heading(start)`` is the line under the rule; ``rows(start, final)`` the
    (label, cards or tiles) rows of the table of hands. Raises
    `RecordError` for a record that does not replay.
    """
    final = replay_record(record)
    # The same record without its moves is the deal as dealt; stepping it again
    # gives each move's before/after views for the narration.
    start = replay_record({**record, "moves": [], "returns": None})
    console.rule(f"[bold]Replay[/] {escape(title)}" if title else "[bold]Replay[/]")
    console.print(heading(start), highlight=False)
    hands = Table.grid(padding=(0, 2))
    hands.add_column(style="bold")
    hands.add_column()
    for label, text in rows(start, final):
        hands.add_row(label, text)
    console.print(hands, highlight=False)
    return final, start


def step_through(
    console: Console,
    start: Any,
    moves: Sequence[tuple[int, Any]],
    narrate: Callable[[Any, int, Any, Any], list[str]],
    stream: TextIO,
    step: bool = False,
) -> bool:
    """Apply ``moves`` (``(seat, move)`` pairs) to ``start``, printing each move's narration.

    ``narrate(before, seat, move, after)`` gets spectator views. With ``step``,
    wait for Enter after each move (``q`` stops; the end of input shows the
    rest). Returns ``False`` if stopped early.
    """
    for number, (seat, move) in enumerate(moves, start=1):
        before = start.view(None)
        start.apply(move, seat=seat)
        after = start.view(None)
        for i, line in enumerate(narrate(before, seat, move, after)):
            lead = f"{number:3d}. " if i == 0 else "     "
            console.print(lead + line, highlight=False)
        if step and number < len(moves):
            answer = read_line("[Enter] next move, q to stop> ", stream, console)
            if answer is None:
                step = False
            elif answer.strip().lower() in ("q", "quit"):
                console.print("Stopped.")
                return False
    return True
