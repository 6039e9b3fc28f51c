"""Dominoes in the terminal: the line of play, the open ends and their count, replays.

The match loop, input, the numbered move list and replays are shared by every
game (`shedkit.cli.common`, `shedkit.cli.moves`, `shedkit.cli.replays`); this
module says how a Dominoes table looks:
the line laid out from end ``L`` to end ``R`` with doubles crosswise (drawn
upright across three rows), the spinner and its cross arms ``U`` and ``D``
(All Fives), the open ends and their count, each seat's tile count and
points this hand, the boneyard's size, the human's tiles, and after each
hand how it ended and the pips left in every hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shedkit.agents.base import Agent
from shedkit.cli import common, replays
from shedkit.cli.common import MatchTUI, signed, verb
from shedkit.cli.moves import Listing
from shedkit.cli.replays import open_replay, step_through
from shedkit.core.errors import InvalidMoveError
from shedkit.core.match import DealResult, Match
from shedkit.dominoes.combos import END_NAMES, Move
from shedkit.dominoes.notation import parse_tile
from shedkit.dominoes.rules import Dominoes, State, round_to_five
from shedkit.dominoes.view import Line, View

__all__ = [
    "TUI",
    "DominoesTUI",
    "ends_text",
    "line_rows",
    "narrate",
    "replay_deal",
    "score_line",
    "tiles_text",
]

_KIND_LABELS = {"lead": "first tile", "play": "play", "draw": "draw", "pass": "pass"}
_KINDS = ("lead", "play", "draw", "pass")

HELP_TEXT = """\
[bold]Moves[/] — type the move itself, or # and its number in the list (#3):
  tiles   a-b, like 3-5 (5-3 and [3|5] work too)
  plays   tile @ end: 3-5@R; the ends are L and R, and in All Fives a spinner's
          cross sides U and D. A tile alone is enough; if it fits several ends
          you are asked which.
  first   the first tile of a hand is written alone: 6-6
  others  draw (when you cannot play and the boneyard has tiles), pass
  a tile fits an end when one of its halves shows that end's number; its other
  half becomes the new end. In All Fives, a count of the open ends that is a
  multiple of 5 scores at once.
[bold]Commands[/] — [bold]moves[/] lists every legal move, [bold]table[/] redraws the table,
  [bold]#N[/] picks option N (a bare number is not a tile); tiles you do not hold
  are refused. [bold]?[/]/[bold]help[/] shows this text,
  [bold]quit[/] ends the match (finished hands are already saved).
  On a terminal, Tab completes moves."""


def tiles_text(game: Dominoes, tiles: Sequence[int]) -> str:
    """Tiles in notation, separated by spaces."""
    return " ".join(game.tile_str(t) for t in tiles)


def ends_text(view: View) -> str:
    """The open ends and, in All Fives, their count (``L 3 · R 5   count 8``)."""
    if view.board[0] < 0:
        return "No tile down yet."
    parts = [f"{END_NAMES[e]} {v}" for e, v in enumerate(view.ends) if v >= 0]
    text = "Open ends: " + " · ".join(parts)
    if view.options.variant == "fives":
        text += f"   count {view.count}"
        if view.count and view.count % 5 == 0:
            text += " (scored)"
    return text


def _cells(line: Line) -> list[tuple[str, str, str]]:
    """Each tile of the main line as three rows: upright doubles, flat others."""
    out = []
    for i, (a, b) in enumerate(line.main):
        if a == b:
            mark = "*" if i == line.spinner else "─"
            out.append((f" {a} ", f" {mark} ", f" {b} "))
        else:
            flat = f"[{a}|{b}]"
            out.append((" " * len(flat), flat, " " * len(flat)))
    return out


def line_rows(line: Line, width: int = 100) -> list[str]:
    """The line as plain text rows, at most ``width`` wide.

    The main line is three rows (doubles stand across it, ``*`` marks the
    spinner); the spinner's arms are printed above (``U``) and below (``D``)
    it. A line too wide loses its middle tiles (``…``); the ends stay.
    """
    if not line.main:
        return []
    cells = _cells(line)
    widths = [len(c[1]) for c in cells]
    keep = list(range(len(cells)))
    if sum(widths) + len(cells) > width:
        left, right, used = 0, len(cells) - 1, 3
        chosen: list[int] = []
        while left <= right and used + widths[left] + widths[right] + 2 <= width:
            chosen += [left, right] if left != right else [left]
            used += widths[left] + widths[right] + 2
            left, right = left + 1, right - 1
        keep = sorted(set(chosen))
    rows = ["", "", ""]
    column = -1
    previous = -1
    for i in keep:
        if previous >= 0 and i != previous + 1:
            for r in range(3):
                rows[r] += " … " if r == 1 else "   "
        if i == line.spinner:
            column = len(rows[1]) + 1
        for r in range(3):
            rows[r] += cells[i][r] + " "
        previous = i
    out = [r.rstrip() for r in rows]
    out = [r for r in out if r] if not any(a == b for a, b in line.main) else out

    def arm(name: str, tiles: tuple[tuple[int, int], ...]) -> str:
        text = " ".join(f"[{a}|{b}]" for a, b in tiles)
        pad = " " * max(0, column - 1) if column >= 0 else ""
        return f"{pad}{name} {text}"

    if line.up:
        out.insert(0, arm("U▲", line.up))
    if line.down:
        out.append(arm("D▼", line.down))
    return out


def narrate(
    game: Dominoes, names: Sequence[str], human: int | None, before: View, seat: int, move: Move
) -> list[str]:
    """Rich-markup lines telling what ``move`` by ``seat`` did (from views taken around it)."""
    you = seat == human
    who = names[seat]
    if move.kind == "pass":
        return [f"{who} {verb(you, 'pass', 'passes')} (cannot play, nothing to draw)"]
    if move.kind == "draw":
        return [f"{who} {verb(you, 'draw', 'draws')} from the boneyard"]
    tile = game.tile_str(move.tile)
    if move.kind == "lead":
        return [f"{who} {verb(you, 'lead', 'leads')} [bold]{tile}[/]"]
    return [f"{who} {verb(you, 'play', 'plays')} [bold]{tile}[/] on {END_NAMES[move.end]}"]


def _ending(
    game: Dominoes, view: View, names: Sequence[str], human: int | None = None
) -> list[str]:
    """How a finished hand ended and the pips left in each hand."""
    n = view.num_players
    pips = ", ".join(f"{names[s]} {view.pips[s]}" for s in range(n))
    if view.winner is None:
        head = "Blocked, and the fewest pips are tied: the hand is void"
    else:
        seats = [s for s in range(n) if game.side_of[s] == view.winner]
        who = " and ".join(names[s] for s in seats)
        plural = len(seats) > 1 or seats == [human]
        score = "score" if plural else "scores"
        if view.end_reason == "domino":
            out = next(s for s in seats if view.tile_counts[s] == 0)
            head = f"Domino! {names[out]} went out; {who} {score}"
        else:
            hold = "hold" if plural else "holds"
            head = f"Blocked: {who} {hold} the fewest pips and {score}"
        head += f" {view.returns[seats[0]]}"
        if view.options.variant == "fives":
            head += " (counts included)"
    return [f"[bold]{head}.[/]", score_line(game, view, names, human), f"Pips left: {pips}"]


def score_line(game: Dominoes, view: View, names: Sequence[str], human: int | None = None) -> str:
    """One line on how the hand's end was scored: whose pips, partners or not, the rounding.

    DOM-09 (domino), DOM-10 (blocked) and, in All Fives, DOM-24 (the
    partner's pips do not count; the score is rounded to a multiple of 5).
    """
    n = view.num_players
    if view.winner is None:
        return "The fewest pips are tied: nobody scores for the hand (DOM-10)."
    side = view.winner
    ours = [s for s in range(n) if game.side_of[s] == side]
    theirs = [s for s in range(n) if game.side_of[s] != side]
    fives = view.options.variant == "fives"
    rule = "DOM-24" if fives else "DOM-09" if view.end_reason == "domino" else "DOM-10"
    hands = "the opponents' hands" if game.teams or n > 2 else "the opponent's hand"
    if view.end_reason == "domino":
        out = next(s for s in ours if view.tile_counts[s] == 0)
        counted = list(theirs)
        if game.teams and view.options.partner_pips_count:
            counted += [s for s in ours if s != out]
            hands = "the other three hands, the partner's included"
        elif game.teams:
            hands += " (not the partner's)"
        won = sum(view.pips[s] for s in counted)
        who = "You" if out == human else names[out]
        text = f"{who} went out: {won} pips in {hands}"
    else:
        own = sum(view.pips[s] for s in ours)
        other = sum(view.pips[s] for s in theirs)
        won = other - own
        mine = human in ours
        who = "You" if mine and len(ours) == 1 else " and ".join(names[s] for s in ours)
        plural = mine or len(ours) > 1
        them = "the opponents hold" if len(theirs) > 1 else "the opponent holds"
        text = f"Blocked: {who} {'hold' if plural else 'holds'} {own} pips, {them} {other}: "
        text += f"{other} - {own} = {won}"
    if fives:
        rounded = round_to_five(won)
        text += f", rounded to {rounded}" if rounded != won else " (a multiple of 5)"
    return f"{text} ({rule})."


class DominoesTUI(MatchTUI):
    """Plays a Dominoes match in the terminal: one human seat, bots in the others."""

    title = "Dominoes"
    help_text = HELP_TEXT
    kind_order = _KINDS
    kind_labels = _KIND_LABELS
    basic_kinds = frozenset(_KINDS)
    score_columns = ("How it ended",)

    def __init__(
        self,
        console: Console,
        game: Dominoes,
        human: int | None,
        agents: Mapping[int, Agent],
        stream: TextIO,
        delay: float = 0.0,
    ) -> None:
        super().__init__(console, game, human, agents, stream, delay)
        self.dominoes = game

    def read_move(self, text: str, state: Any, view: Any, listing: Listing) -> Any:
        """The move; a message for a tile not in hand; every end a lone tile fits."""
        s = text.strip()
        head, at, _ = s.partition("@")
        if s.startswith("#") or s.lower() in ("draw", "pass"):
            return super().read_move(text, state, view, listing)
        try:
            tile = parse_tile(head, self.dominoes.options.max_pips)
        except InvalidMoveError:
            return super().read_move(text, state, view, listing)
        if tile not in view.hand:
            return f"you do not hold {self.dominoes.tile_str(tile)}"
        fits = [m for m in view.legal_moves if m.kind in ("lead", "play") and m.tile == tile]
        if not at and len(fits) > 1:
            return fits
        if not at and not fits:
            return f"{self.dominoes.tile_str(tile)} fits no open end ({ends_text(view)})"
        return super().read_move(text, state, view, listing)

    def start_deal(self, state: Any) -> None:
        """Partnerships, the boneyard, and who leads (DOM-04, DOM-05)."""
        view: View = state.view(self.human)
        game = self.dominoes
        c = self.console
        if game.teams:
            c.print(
                f"Partners: {self.short[0]} and {self.short[2]} against "
                f"{self.short[1]} and {self.short[3]}.",
                highlight=False,
            )
        c.print(f"Boneyard: {view.boneyard_size} tile(s).", highlight=False)
        leader = self.short[view.leader]
        you = view.leader == self.human
        if state.lead_tile >= 0:
            tile = game.tile_str(state.lead_tile)
            c.print(
                f"{leader} {verb(you, 'hold', 'holds')} {tile}, the highest, and "
                f"{verb(you, 'lead', 'leads')} it.",
                highlight=False,
            )
        else:
            c.print(f"{leader} {verb(you, 'lead', 'leads')} with any tile.", highlight=False)

    def narrate(self, before: Any, seat: int, move: Any, after: Any) -> list[str]:
        """The move, what the human drew, the count scored, and the end of the hand."""
        lines = narrate(self.dominoes, self.short, self.human, before, seat, move)
        if move.kind == "draw" and seat == self.human:
            lines[0] += f": [bold]{self.dominoes.tile_str(after.history[-1][2])}[/]"
        scored = after.history[-1][3] if after.history else 0
        if scored:
            lines.append(f"[green]Count {scored}: {self.short[seat]} +{scored}[/]")
        if after.is_over:
            lines += _ending(self.dominoes, after, self.short, self.human)
        return lines

    def render_turn(self, view: View) -> RenderableType:
        """The table as the human sees it: line, ends, seats, boneyard, own tiles, the ask."""
        game = self.dominoes
        width = max(40, self.console.width - 6)
        parts: list[RenderableType] = []
        rows = line_rows(view.line, width)
        if rows:
            parts.append(Text("\n".join(rows)))
        parts.append(ends_text(view))
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for col in ("", "Seat", "Tiles", "Points"):
            seats.add_column(col, justify="left" if col in ("", "Seat") else "right")
        for s in range(view.num_players):
            name = self.names[s]
            if game.teams:
                name = common.with_note(name, f"team {'AB'[game.side_of[s]]}")
            name = f"[bold]{escape(name)}[/]" if s == self.human else escape(name)
            seats.add_row(
                "▶" if s == view.current_player else "",
                f"{s} {name}",
                str(view.tile_counts[s]),
                str(view.scores[s]),
            )
        parts.append(seats)
        parts.append(f"Boneyard: {view.boneyard_size} tile(s)")
        parts.append(f"Your tiles ({len(view.hand)}): [bold cyan]{tiles_text(game, view.hand)}[/]")
        legal = view.legal_moves
        if legal and legal[0].kind == "lead":
            ask = "lead a tile" if len(legal) > 1 else f"lead {legal[0]}"
        else:
            ask = "play a tile on an open end"
        parts.append(f"[bold]Your turn[/]: {ask}")
        return Panel(
            Group(*parts), title=self.deal_label or self.title, title_align="left", expand=False
        )

    def show_deal_end(self, state: Any, result: DealResult, match: Match) -> None:
        """The hands left, how the hand ended, and the scores so far."""
        view: View = state.view(None)
        c = self.console
        for s in range(view.num_players):
            left = tiles_text(self.dominoes, state.hand(s)) or "(none)"
            c.print(f"  {self.short[s]:<6} {left}", highlight=False)
        if view.winner is None:
            how = "void"
        else:
            seats = [s for s in range(view.num_players) if self.dominoes.side_of[s] == view.winner]
            how = f"{view.end_reason}: {' + '.join(self.short[s] for s in seats)}"
        self.add_score_row(result, [how], void=view.winner is None and not any(view.returns))
        if result.path is not None:
            c.print(f"  [dim]Record saved: {result.path}[/]")
        c.print(self.score_table(match))
        target = self.dominoes.options.target
        c.print(f"[dim]First to {target} wins the match (DOM-11).[/]")


#: The client ``shedkit play dominoes`` runs.
TUI = DominoesTUI


def replay_deal(
    console: Console,
    record: Mapping[str, Any],
    stream: TextIO,
    step: bool = False,
    title: str = "",
    names: Sequence[str] | None = None,
) -> bool:
    """Show a recorded hand: the hands and the boneyard, each move with the line, the result.

    ``names`` are the seats' names (default ``Seat 0``, ``Seat 1``, ...). With
    ``step``, wait for Enter after each move (``q`` stops). Raises
    `RecordError` for a record that does not replay.
    Returns ``False`` if stopped early.
    """

    def rows(start: State, final: State) -> list[tuple[str, str]]:
        shown, _ = replays.replay_names(names, start.num_players)
        out = [
            (
                common.with_note(shown[s], "leads") if s == start.leader else shown[s],
                tiles_text(start.game, hand),
            )
            for s, hand in enumerate(start.dealt)
        ]
        return [*out, ("Boneyard", tiles_text(start.game, start.boneyard) or "(empty)")]

    final: State
    state: State
    final, state = open_replay(
        console,
        record,
        title,
        lambda s: f"Dominoes, preset {s.game.preset!r}, {s.game.options.variant}, seed {s.seed}",
        rows,
    )
    game = state.game
    names, you = replays.replay_names(names, state.num_players)
    c = console

    def told(before: View, seat: int, move: Move, after: View) -> list[str]:
        lines = narrate(game, names, you, before, seat, move)
        if after.history[-1][3]:
            scores = verb(seat == you, "score", "scores")
            lines.append(f"[green]Count {after.history[-1][3]}: {names[seat]} {scores}[/]")
        if move.kind in ("lead", "play"):
            lines += [f"  {row}" for row in line_rows(after.line, 120)]
            lines.append(f"  [dim]{ends_text(after)}[/]")
        return lines

    moves = [(seat, move) for seat, move, _, _ in final.history]
    if not step_through(c, state, moves, told, stream, step):
        return False
    end = state.view(None)
    if end.is_over:
        for line in _ending(game, end, names):
            c.print(line, highlight=False)
        c.print("Returns: " + "  ".join(signed(r) for r in end.returns), highlight=False)
    else:
        c.print("The record ends before the hand is over.")
    return True
