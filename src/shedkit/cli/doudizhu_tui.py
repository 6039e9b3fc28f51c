"""Dou Di Zhu in the terminal: the table as the human's seat sees it, the bots' moves, replays.

While a deal is on, everything drawn comes from ``state.view(human_seat)``, so
the screen never shows a bot's hidden cards; the hands left over are shown only
once the deal is over. Input goes through :func:`read_line`, which reads from
any text stream: the tests drive whole matches through a ``StringIO``, and on a
terminal it uses ``input()`` so that stdlib ``readline`` gives line editing and
tab completion over the legal moves.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shedkit.agents.base import Agent
from shedkit.core.errors import IllegalMoveError, InvalidMoveError
from shedkit.core.match import DealResult, Match
from shedkit.core.records import replay as replay_record
from shedkit.doudizhu.combos import KINDS, RANK_CHARS, Move, card_rank, card_str
from shedkit.doudizhu.rules import DouDizhu, State, sort_cards
from shedkit.doudizhu.view import View

__all__ = [
    "LIST_CAP",
    "DouDizhuTUI",
    "Listing",
    "MoveCompleter",
    "Narrator",
    "cards_text",
    "group_ranks",
    "interpret",
    "number_moves",
    "read_line",
    "replay_deal",
]

#: How many moves the numbered list shows at most; the rest are typed (or tab-completed).
LIST_CAP = 40

# Display order of the move kinds: cheap shapes first, bombs last since they cost the most.
_KIND_ORDER = (*(k for k in KINDS if k not in ("bomb", "rocket")), "bomb", "rocket")

_KIND_LABELS = {
    "pass": "pass",
    "bid": "bid",
    "solo": "solo",
    "pair": "pair",
    "trio": "trio",
    "trio_solo": "trio + solo",
    "trio_pair": "trio + pair",
    "chain": "chain",
    "pair_chain": "pair chain",
    "plane": "plane",
    "plane_solo": "plane + solos",
    "plane_pair": "plane + pairs",
    "quad_solo": "four + solo",
    "quad_pair": "four + pair",
    "quad_two_solos": "four + 2 solos",
    "quad_two_pairs": "four + 2 pairs",
    "bomb": "bomb",
    "rocket": "rocket",
}

_CHAIN_KINDS = frozenset({"chain", "pair_chain", "plane"})

HELP_TEXT = """\
[bold]Moves[/] — type the number of a listed move, or the move itself:
  ranks   3 4 5 6 7 8 9 T J Q K A 2 B R   (T or 10 = ten, B/R = black/red joker)
  plays   7   77   777   777+3   777+33   34567   334455   333444+59   8888   BR
          base cards first, then [bold]+[/] and the kickers; any order and lower case work
  others  pass (or p)   bid1 bid2 bid3
  a reading can be named with a kind prefix when one set of cards reads two ways:
          quad_pair:3333+44   solo:5
[bold]Commands[/] — [bold]moves[/] lists every legal move, [bold]table[/] redraws the table,
  [bold]#N[/] always means option N, [bold]?[/]/[bold]help[/] shows this text,
  [bold]quit[/] ends the match (finished deals are already saved).
  On a terminal, Tab completes moves."""


def group_ranks(cards: Iterable[int]) -> str:
    """Cards as rank groups in playing order, e.g. ``33 5 777 T JJ Q K A 2 B``."""
    ranks = sorted(card_rank(c) for c in cards)
    return " ".join(RANK_CHARS[r] * len(list(g)) for r, g in itertools.groupby(ranks))


def cards_text(cards: Iterable[int]) -> str:
    """Cards with their suits in playing order, e.g. ``3d 3c 7s B``."""
    return " ".join(card_str(c) for c in sort_cards(list(cards)))


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
        # Moves contain '+' and ':', which readline splits words on by default.
        readline.set_completer_delims(" \t\n")
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

    moves: tuple[Move, ...]
    shown: int
    groups: tuple[tuple[str, int, int], ...]  # (kind, first number, last number) listed
    hidden: tuple[tuple[str, int], ...]  # (kind, how many not listed)

    def option(self, number: int) -> Move | None:
        """The move numbered ``number``, or ``None``."""
        return self.moves[number - 1] if 1 <= number <= len(self.moves) else None


def _kind_key(kind: str) -> int:
    return _KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER)


def _spread(kind: str, moves: list[Move]) -> list[Move]:
    """Moves of one kind in listing order, varied first so a capped list shows the options.

    Kicker kinds alternate their bases (``555+3 QQQ+3 555+4 ...``) and chains
    their lengths, instead of listing every kicker of the lowest trio first.
    """
    moves = sorted(moves, key=lambda m: (m.length, m.rank, m.kickers))
    if kind in _CHAIN_KINDS:
        groups: dict[object, list[Move]] = {}
        for m in moves:
            groups.setdefault(m.length, []).append(m)
    elif any(m.kickers for m in moves):
        groups = {}
        for m in moves:
            groups.setdefault(m.base, []).append(m)
    else:
        return moves
    columns = list(groups.values())
    return [m for row in itertools.zip_longest(*columns) for m in row if m is not None]


# Kinds with at most one move per rank: always listed in full, since hiding a lone 2
# or the rocket behind a wall of kicker variants would hide the moves that matter.
_BASIC_KINDS = frozenset({"pass", "bid", "solo", "pair", "trio", "bomb", "rocket"})

#: Slots the combinatorial kinds (kickers, chains) get at least, however many basic moves.
_MIN_COMBO_SLOTS = 16


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


def number_moves(legal: Sequence[Move], cap: int = LIST_CAP) -> Listing:
    """Number ``legal`` for the list: grouped by kind, at most about ``cap`` listed.

    Solos, pairs, trios and bombs are listed in full; the kinds with kickers and
    the chains share what is left of ``cap``, each showing a varied sample.
    """
    by_kind: dict[str, list[Move]] = {}
    for m in legal:
        by_kind.setdefault(m.kind, []).append(m)
    kinds = sorted(by_kind, key=_kind_key)
    ordered = [_spread(k, by_kind[k]) for k in kinds]
    if len(legal) <= cap + cap // 4:
        # Hiding a handful of moves saves no screen and only sends the player to 'moves'.
        cap = len(legal)
    basic = sum(len(ms) for k, ms in zip(kinds, ordered, strict=True) if k in _BASIC_KINDS)
    combos = [i for i, k in enumerate(kinds) if k not in _BASIC_KINDS]
    shares = _share([len(ordered[i]) for i in combos], max(cap - basic, _MIN_COMBO_SLOTS))
    quota = [len(ms) for ms in ordered]
    for i, q in zip(combos, shares, strict=True):
        quota[i] = q
    numbered: list[Move] = []
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


def render_listing(listing: Listing, tty: bool = False) -> RenderableType:
    """The numbered moves, one row per kind, with a hint when some are not listed."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for kind, first, last in listing.groups:
        items = [
            Text.assemble((f"{n})", "cyan"), " ", str(listing.moves[n - 1]))
            for n in range(first, last + 1)
        ]
        grid.add_row(_KIND_LABELS.get(kind, kind), Columns(items, padding=(0, 2)))
    parts: list[RenderableType] = [grid]
    if listing.hidden:
        more = sum(n for _, n in listing.hidden)
        kinds = ", ".join(f"{_KIND_LABELS.get(k, k)} {n}" for k, n in listing.hidden)
        example = next(m for m in listing.moves[listing.shown :])
        how = "type a move (Tab completes)" if tty else "type a move"
        parts.append(
            Text(
                f"… and {more} more not listed ({kinds}): {how}, e.g. {example}; "
                "'moves' lists them all",
                style="dim",
            )
        )
    return Group(*parts)


def interpret(text: str, listing: Listing, game: DouDizhu, state: State) -> Move | str:
    """The move ``text`` asks for, or a one-line message saying why it names none.

    A number picks from the list and ``#N`` always does. A bare number that is
    also a legal play (``5``, ``33``, ``10``) is ambiguous, and the message says
    how to write each reading, rather than guessing and playing the wrong cards.
    The move returned may still be illegal: applying it says why.
    """
    s = text.strip()
    count = len(listing.moves)
    if s.startswith("#"):
        number = s[1:].strip()
        picked = listing.option(int(number)) if number.isdigit() else None
        if picked is None:
            return f"{s!r} is not an option; options are #1 to #{count}"
        return picked
    option = listing.option(int(s)) if s.isdigit() else None
    try:
        move = game.parse_move(s, state)
    except InvalidMoveError as err:
        if option is not None:
            return option
        if s.isdigit():
            return f"{s} is not an option (1 to {count})"
        return str(err)
    legal = state.legal_moves()
    if option is not None:
        if move == option or move not in legal:
            return option
        return (
            f"{s!r} is ambiguous: type #{s} for option {s} ({option}), "
            f"or {move.kind}:{move} to play {move}"
        )
    return move


# -- narration and the trick ----------------------------------------------------


def _verb(you: bool, plain: str, third: str) -> str:
    return plain if you else third


@dataclass
class Narrator:
    """Says what each move did, and remembers the current trick for the table."""

    names: Sequence[str]
    human: int | None = None
    show_cards: bool = False
    trick: dict[int, str] = field(default_factory=dict)

    def reset(self) -> None:
        """Forget the trick (a new deal)."""
        self.trick = {}

    def update(self, before: View, seat: int, move: Move, after: View) -> None:
        """Record ``move`` in the trick display (the auction counts as one trick)."""
        if before.phase == "auction":
            if after.phase == "auction":
                self.trick[seat] = str(move)
            else:
                self.trick = {}
            return
        if move.kind != "pass" and before.last_play is None:
            self.trick = {}
        self.trick[seat] = str(move)

    def lines(
        self, before: View, seat: int, move: Move, cards: Sequence[int], after: View
    ) -> list[str]:
        """Rich-markup lines telling what ``move`` by ``seat`` did."""
        you = seat == self.human
        who = self.names[seat]
        if move.kind == "pass":
            text = f"{who} {_verb(you, 'pass', 'passes')}"
        elif move.kind == "bid":
            text = f"{who} {_verb(you, 'bid', 'bids')} [bold]{move.rank}[/]"
        else:
            text = f"{who} {_verb(you, 'play', 'plays')} [bold]{escape(str(move))}[/]"
            if self.show_cards:
                text += f"  [dim]({cards_text(cards)})[/]"
            if move.is_bomb:
                text += f"  [bold red]{move.kind}! stakes ×{after.multiplier}[/]"
        out = [text]
        if before.phase == "auction" and after.phase == "play" and after.landlord is not None:
            lord = after.landlord
            lord_you = lord == self.human
            kitty = group_ranks(after.kitty or ())
            out.append(
                f"[bold yellow]{self.names[lord]} {_verb(lord_you, 'are', 'is')} the landlord[/] "
                f"at stake {after.stake} and {_verb(lord_you, 'take', 'takes')} "
                f"the kitty: [bold]{kitty}[/]"
            )
        if after.thrown_in:
            out.append("[yellow]Everyone passed: the cards are thrown in and dealt again.[/]")
        elif (
            before.phase == "play"
            and after.phase == "play"
            and move.kind == "pass"
            and after.last_play is None
            and after.current_player is not None
        ):
            lead = after.current_player
            lead_you = lead == self.human
            out.append(
                f"[dim]{self.names[lead]} {_verb(lead_you, 'win', 'wins')} the trick "
                f"and {_verb(lead_you, 'lead', 'leads')}.[/]"
            )
        if after.phase == "over" and after.winner == seat:
            out.append(f"[bold]{who} {_verb(you, 'go', 'goes')} out![/]")
        elif move.size and after.phase == "play" and not you and after.cards_left[seat] <= 2:
            left = after.cards_left[seat]
            out.append(f"[bold magenta]{who} has {left} card{'s' if left > 1 else ''} left![/]")
        return out


def _role(view: View, seat: int) -> str:
    if view.landlord is None:
        return "—"
    return "[bold yellow]landlord[/]" if seat == view.landlord else "peasant"


def _signed(value: int) -> str:
    if value > 0:
        return f"[green]+{value}[/]"
    if value < 0:
        return f"[red]{value}[/]"
    return "0"


# -- playing a match ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One finished deal, for the score table."""

    number: int
    thrown_in: bool
    landlord: int | None
    stake: int
    bombs: int
    spring: bool
    returns: tuple[int, ...]


class DouDizhuTUI:
    """Plays a match in the terminal: one human seat, bots in the others.

    ``agents`` maps each bot seat to its agent. ``delay`` pauses after each bot
    move so that a person can follow the play; tests leave it at 0.
    """

    def __init__(
        self,
        console: Console,
        game: DouDizhu,
        human: int,
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
            "You" if s == human else f"Bot {s} ({getattr(agents[s], 'name', 'bot')})"
            for s in range(n)
        ]
        self.short = ["You" if s == human else f"Bot {s}" for s in range(n)]
        self.narrator = Narrator(self.short, human)
        self.summaries: list[DealSummary] = []
        self.tty = stream is sys.stdin and stream.isatty()
        self.completer = MoveCompleter()
        if self.tty:
            self.completer.install()
        self.deal_label = ""

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

    def play_deal(self, state: State) -> bool:
        """Play one deal to its end; ``False`` if the human quit."""
        self.narrator.reset()
        view = state.view(self.human)
        first = view.first_bidder
        self.console.print(
            f"{self.short[first]} {_verb(first == self.human, 'bid', 'bids')} first."
        )
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            before = state.view(self.human)
            forced = ""
            if seat == self.human and before.phase == "play" and len(before.legal_moves) == 1:
                # Only one move (usually a pass that nothing in hand can avoid): no need to ask.
                move = before.legal_moves[0]
                state.apply(move, seat=seat)
                forced = "  [dim](your only legal move)[/]"
            elif seat == self.human:
                picked = self.human_turn(state, before)
                if picked is None:
                    return False
                move = picked
            else:
                move = self.agents[seat].act(state.view(seat))
                state.apply(move, seat=seat)
                if self.delay:
                    time.sleep(self.delay)
            after = state.view(self.human)
            cards = after.history[-1][2]
            lines = self.narrator.lines(before, seat, move, cards, after)
            lines[0] += forced
            for line in lines:
                self.console.print("  " + line, highlight=False)
            self.narrator.update(before, seat, move, after)
        return True

    # -- the human's turn --------------------------------------------------------

    def render_turn(self, view: View) -> RenderableType:
        """The table as the human sees it: seats, trick, stake, kitty, own hand."""
        if view.phase == "auction":
            trick_title = "Auction"
        elif not self.narrator.trick:
            trick_title = "Trick"
        elif view.last_play is None:
            trick_title = "Last trick"
        else:
            trick_title = "This trick"
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        seats.add_column("")
        seats.add_column("Seat")
        seats.add_column("Role")
        seats.add_column("Cards", justify="right")
        seats.add_column(trick_title)
        for s in range(view.num_players):
            name = f"[bold]{self.names[s]}[/]" if s == self.human else self.names[s]
            played = self.narrator.trick.get(s, "")
            if played and s == view.last_player and view.last_play is not None:
                played = f"[bold]{played}[/]"
            seats.add_row(
                "▶" if s == view.current_player else "",
                f"{s} {name}",
                _role(view, s),
                str(view.cards_left[s]),
                played,
            )
        if view.phase == "auction":
            high = (
                f"high bid {view.stake} ({self.short[view.high_bidder]})"
                if view.stake
                else "no bid yet"
            )
            stake = f"Auction: {high}"
            kitty = f"Kitty: {view.options.kitty_size} cards face down"
        else:
            bombs = f"{view.bombs} bomb{'s' if view.bombs != 1 else ''}"
            stake = f"Stake: {view.stake} × {view.multiplier} ({bombs})"
            kitty = f"Kitty: [bold]{group_ranks(view.kitty or ())}[/]"
        hand = f"Your hand ({len(view.hand)}): [bold cyan]{group_ranks(view.hand)}[/]"
        if view.phase == "auction":
            ask = f"bid more than {view.stake} or pass" if view.stake else "bid 1, 2 or 3, or pass"
        elif view.last_play is None:
            ask = "lead any combination"
        else:
            ask = (
                f"beat [bold]{escape(str(view.last_play))}[/] "
                f"({self.short[view.last_player]}) or pass"
            )
        body = Group(seats, f"{stake}    {kitty}", hand, f"[bold]Your turn[/]: {ask}")
        return Panel(body, title=self.deal_label or "Dou Di Zhu", title_align="left", expand=False)

    def human_turn(self, state: State, view: View) -> Move | None:
        """Ask the human for a move until a legal one is given and applied; ``None``: quit."""
        listing = number_moves(view.legal_moves)
        self.completer.words = [str(m) for m in listing.moves] + ["moves", "help", "quit"]
        self.console.print(self.render_turn(view))
        self.console.print(render_listing(listing, self.tty))
        prompt = f"Your move (1-{len(listing.moves)}, notation, ? help, quit)> "
        while True:
            line = read_line(prompt, self.stream, self.console)
            if line is None:
                return None
            text = line.strip()
            low = text.lower()
            if not text:
                self.console.print("[yellow]Type a number from the list or a move; ? for help.[/]")
                continue
            if low in ("quit", "exit"):
                return None
            if low == "q":
                # 'q' is also the queen: ask when playing a lone queen is a legal move.
                if not any(str(m) == "Q" for m in listing.moves):
                    return None
                answer = read_line(
                    "Quit the match (y) or play the queen Q (n)? ", self.stream, self.console
                )
                if answer is None or answer.strip().lower() in ("y", "yes"):
                    return None
                if answer.strip().lower() not in ("n", "no"):
                    continue
                text = "Q"
            if low in ("?", "help"):
                self.console.print(HELP_TEXT, highlight=False)
                continue
            if low == "moves":
                self.console.print(_full_listing(listing))
                continue
            if low == "table":
                self.console.print(self.render_turn(view))
                self.console.print(render_listing(listing, self.tty))
                continue
            choice = interpret(text, listing, self.game, state)
            if isinstance(choice, str):
                self.console.print(f"[red]{escape(choice)}[/]", highlight=False)
                continue
            try:
                state.apply(choice, seat=self.human)
            except IllegalMoveError as err:
                msg = str(err).replace(f"seat {self.human} does not", "you do not")
                self.console.print(f"[red]{escape(msg)}[/]", highlight=False)
                continue
            return choice

    # -- after a deal ------------------------------------------------------------

    def show_deal_end(self, state: State, result: DealResult, match: Match) -> None:
        """Who won, the returns, bombs and spring, the hands left, and the scores so far."""
        view = state.view(None)
        summary = DealSummary(
            number=result.number,
            thrown_in=result.thrown_in,
            landlord=view.landlord,
            stake=view.stake,
            bombs=view.bombs,
            spring=view.spring,
            returns=result.returns,
        )
        self.summaries.append(summary)
        c = self.console
        if result.thrown_in:
            c.print("[yellow]Thrown in: this deal does not count.[/]")
        else:
            assert view.landlord is not None and view.winner is not None
            lord = view.landlord
            if view.winner == lord:
                wins = _verb(lord == self.human, "win", "wins")
                c.print(f"[bold]{self.short[lord]} {wins} as the landlord![/]")
            else:
                peasants = " and ".join(self.short[s] for s in range(view.num_players) if s != lord)
                c.print(f"[bold]The peasants ({peasants}) win![/]")
            facts = [f"stake {view.stake}"]
            facts.append(f"{view.bombs} bomb{'s' if view.bombs != 1 else ''} (×{view.multiplier})")
            if summary.spring:
                facts.append("spring (×2)")
            c.print("  " + ", ".join(facts))
            c.print(
                "  Returns: "
                + "   ".join(f"{self.short[s]} {_signed(r)}" for s, r in enumerate(result.returns))
            )
            for s in range(view.num_players):
                left = state.hand(s)
                if left:
                    c.print(f"  [dim]{self.short[s]} still held: {group_ranks(left)}[/]")
        if result.path is not None:
            c.print(f"  [dim]Record saved: {result.path}[/]")
        if not result.thrown_in:  # a thrown-in deal changes no score
            c.print(self.score_table(match))

    def score_table(self, match: Match) -> Table:
        """The deals so far and the running totals."""
        n = self.game.num_players
        table = Table(
            title=f"Scores after {match.deals_played} deal(s)",
            box=box.SIMPLE_HEAVY,
            show_edge=False,
            title_justify="left",
        )
        table.add_column("Deal", justify="right")
        table.add_column("Landlord")
        table.add_column("Bid", justify="right")
        table.add_column("Bombs", justify="right")
        table.add_column("Spring")
        for s in range(n):
            table.add_column(self.short[s], justify="right")
        for d in self.summaries:
            if d.thrown_in:
                table.add_row(str(d.number), "[dim]thrown in[/]", "", "", "", *[""] * n)
                continue
            lord = self.short[d.landlord] if d.landlord is not None else ""
            table.add_row(
                str(d.number),
                lord,
                str(d.stake),
                str(d.bombs),
                "yes" if d.spring else "",
                *(_signed(r) for r in d.returns),
                end_section=d is self.summaries[-1],
            )
        table.add_row("Total", "", "", "", "", *(f"[bold]{_signed(t)}[/]" for t in match.totals))
        return table

    def show_match_end(self, match: Match) -> None:
        """The final standing."""
        best = max(match.totals)
        leaders = [s for s, t in enumerate(match.totals) if t == best]
        names = " and ".join(self.short[s] for s in leaders)
        self.console.rule("[bold]Match over[/]")
        if len(leaders) == len(match.totals):
            self.console.print(f"After {match.deals_played} deal(s) the match is drawn.")
            return
        wins = _verb(leaders == [self.human], "win", "win" if len(leaders) > 1 else "wins")
        self.console.print(
            f"After {match.deals_played} deal(s) [bold]{names} {wins} the match[/] "
            f"with {_signed(best)}."
        )


def _full_listing(listing: Listing) -> RenderableType:
    """Every legal move, grouped by kind, under the numbers the capped list gave them."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    by_kind: dict[str, list[int]] = {}
    for n, m in enumerate(listing.moves, start=1):
        by_kind.setdefault(m.kind, []).append(n)
    for kind in sorted(by_kind, key=_kind_key):
        items = [
            Text.assemble((f"{n})", "cyan"), " ", str(listing.moves[n - 1]))
            for n in sorted(by_kind[kind])
        ]
        grid.add_row(_KIND_LABELS.get(kind, kind), Columns(items, padding=(0, 2)))
    return grid


# -- replays --------------------------------------------------------------------


def replay_deal(
    console: Console,
    record: Mapping[str, Any],
    stream: TextIO,
    step: bool = False,
    title: str = "",
) -> bool:
    """Show a recorded deal: every hand, then each move, then the returns.

    With ``step``, wait for Enter after each move (``q`` stops). Raises
    :class:`~shedkit.core.errors.RecordError` for a record that does not replay.
    Returns ``False`` if stopped early.
    """
    final: State = replay_record(record)
    # The same record without its moves is the deal as dealt; stepping it again
    # gives each move's before/after views for the narration.
    state: State = replay_record({**record, "moves": [], "returns": None})
    n = state.num_players
    names = [f"Seat {s}" for s in range(n)]
    narrator = Narrator(names, None, show_cards=True)
    c = console
    game = state.game
    c.rule(f"[bold]Replay[/] {escape(title)}" if title else "[bold]Replay[/]")
    c.print(f"Dou Di Zhu, preset {game.preset!r}, seed {state.seed}", highlight=False)
    hands = Table.grid(padding=(0, 2))
    hands.add_column(style="bold")
    hands.add_column()
    for s in range(n):
        role = " (landlord)" if s == final.landlord else ""
        hands.add_row(f"{names[s]}{role}", cards_text(state.dealt[s]))
    hands.add_row("Kitty", cards_text(state.kitty))
    c.print(hands, highlight=False)
    if state.phase == "auction":
        c.print(f"{names[state.first_bidder]} bids first.")
    for number, (seat, move, _) in enumerate(final.history, start=1):
        before = state.view(None)
        state.apply(move, seat=seat)
        after = state.view(None)
        cards = after.history[-1][2]
        for i, line in enumerate(narrator.lines(before, seat, move, cards, after)):
            lead = f"{number:3d}. " if i == 0 else "     "
            c.print(lead + line, highlight=False)
        narrator.update(before, seat, move, after)
        if step and number < len(final.history):
            answer = read_line("[Enter] next move, q to stop> ", stream, console)
            if answer is None:
                step = False  # end of input: show the rest without waiting
            elif answer.strip().lower() in ("q", "quit"):
                c.print("Stopped.")
                return False
    end = state.view(None)
    if end.thrown_in:
        c.print("Thrown in: no returns.")
    elif end.is_over:
        facts = [f"stake {end.stake}", f"{end.bombs} bomb(s) ×{end.multiplier}"]
        if end.spring:
            facts.append("spring ×2")
        c.print(f"Final ({', '.join(facts)}):", highlight=False)
        c.print(
            "  Returns: "
            + "   ".join(f"{names[s]} {_signed(r)}" for s, r in enumerate(end.returns))
        )
    else:
        c.print("The record ends before the deal is over.")
    return True
