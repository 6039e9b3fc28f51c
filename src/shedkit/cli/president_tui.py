"""President in the terminal: the table as the human's seat sees it, the bots' moves, replays.

The match loop, input, the numbered move list and replays are shared by every
game (`shedkit.cli.common`, `shedkit.cli.moves`, `shedkit.cli.replays`); this
module says how a President table looks:
the order in force (a REVOLUTION banner while it is reversed), each seat's
card count, last play and title, the public leftover cards, the tax exchange
while the giver chooses, the hand low to high in the order in force, and the
finishing order with titles after each deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from shedkit.agents.base import Agent
from shedkit.cli import common, replays
from shedkit.cli.common import MatchTUI, signed, verb
from shedkit.cli.moves import Listing
from shedkit.cli.replays import open_replay, step_through
from shedkit.core.match import DealResult, Match
from shedkit.president.combos import EIGHT, FACE_CHARS, JOKER, KINDS, Move, card_str
from shedkit.president.rules import TITLES, President, State
from shedkit.president.rules import title as rule_title
from shedkit.president.view import View

__all__ = ["TUI", "Narrator", "PresidentTUI", "cards_text", "order_text", "replay_deal"]

_KIND_LABELS = {
    "pass": "pass",
    "give": "give",
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "quad": "quad (revolution)",
    "run": "run",
}
# Kinds with few moves per face: always listed in full.
_BASIC_KINDS = frozenset({"pass", "single", "pair", "quad"})

HELP_TEXT = """\
[bold]Moves[/] — type the move itself, or # and its number in the list (#3):
  cards   rank + suit: A 2 3 4 5 6 7 8 9 T J Q K (or 10) and s h d c (or ♠ ♥ ♦ ♣); Jk = joker
  plays   7c   7h 7c   9s 9h 9d   5s 5h 5d 5c   3s 4s 5s (a run of one suit)   any order works
  joker   in a pair, triple, quad or run say which card it stands for: 4h Jk=5h 6h
  others  pass (or p);  during the tax: give 3c 4d
  a play must be the same combination, same number of cards and higher in the order
  in force; a quad reverses the order (revolution) until another quad.
[bold]Commands[/] — [bold]moves[/] lists every legal move, [bold]table[/] redraws the table,
  [bold]#N[/] picks option N (a bare number is not a move: cards need a suit);
  cards you do not hold are refused. [bold]?[/]/[bold]help[/] shows this text,
  [bold]quit[/] ends the match (finished deals are already saved).
  On a terminal, Tab completes moves."""


def cards_text(cards: Iterable[int]) -> str:
    """Cards in notation, separated by spaces, in the order given."""
    return " ".join(card_str(c) for c in cards)


def order_text(order: Sequence[int]) -> str:
    """Faces low to high, e.g. ``A 2 3 … K``."""
    return " ".join("10" if FACE_CHARS[f] == "T" else FACE_CHARS[f] for f in order)


def _spelled(game: President, move: Move, revolution: bool) -> str:
    """``move`` written low to high in the order in force (PRE-31)."""
    return game.tables.text_reversed[move.action_id] if revolution else str(move)


def _strength(view: View, move: Move) -> tuple[int, int, int]:
    """A sort key: moves of a kind from the weakest up in the order in force.

    The joker ranks above every face (PRE-01); a give's faces may include it
    (a joker given at the tax), so it is not looked up in the order.
    """
    position = {face: p for p, face in enumerate(view.order)}
    if move.kind == "give":
        top = sum(13 if c == JOKER else position[c // 4] for c in move.cards)
    else:
        top = max((position.get(f, 13) for f in move.faces), default=13 if move.cards else -1)
    return (top, move.size, move.action_id)


# -- narration --------------------------------------------------------------------


#: The PRE-11 titles in English, as the web client names them (the rules use the Italian).
ENGLISH_TITLES: Final = dict(
    zip(TITLES, ("President", "Vice-president", "Citizen", "Vice-slave", "Slave"), strict=True)
)


def title_of(place: int, n: int) -> str:
    """The English title of finishing place ``place`` (0 = first) among ``n`` players."""
    return ENGLISH_TITLES[rule_title(place, n)]


@dataclass
class Narrator:
    """Says what each move did, and remembers the current trick for the table.

    ``reveal`` shows the tax's cards to everyone (a replay of a finished deal);
    otherwise a give is shown only to its two seats, as the view has it.
    """

    game: President
    names: Sequence[str]
    human: int | None = None
    reveal: bool = False
    trick: dict[int, str] = field(default_factory=dict)

    def reset(self) -> None:
        """Forget the trick (a new deal)."""
        self.trick = {}

    def lines(self, before: View, seat: int, move: Move, after: View) -> list[str]:
        """Rich-markup lines telling what ``move`` by ``seat`` did."""
        you = seat == self.human
        who = self.names[seat]
        out: list[str] = []
        if before.phase == "tax":
            receiver = next(r for g, r, _ in before.exchanges if g == seat)
            shown = move if self.reveal else after.history[-1][1]
            to = self.names[receiver] if receiver != self.human else "you"
            if shown.cards:
                out.append(
                    f"{who} {verb(you, 'give', 'gives')} {to} [bold]{cards_text(shown.cards)}[/]"
                )
            else:
                out.append(f"{who} {verb(you, 'give', 'gives')} {to} {move.size} card(s)")
            if after.phase == "play":
                out.append(self.lead_line(after))
            return out
        if move.kind == "pass":
            out.append(f"{who} {verb(you, 'pass', 'passes')}")
            self.trick[seat] = "pass"
        else:
            if before.last_play is None:
                self.trick = {}
            text = _spelled(self.game, move, before.revolution)
            self.trick[seat] = text
            out.append(f"{who} {verb(you, 'play', 'plays')} [bold]{escape(text)}[/]")
            if after.revolution != before.revolution:
                if after.revolution:
                    out.append(
                        "[bold red]REVOLUTION![/] The order is reversed: "
                        f"{order_text(after.order)} (low to high)"
                    )
                else:
                    out.append(
                        "[bold green]Counter-revolution![/] The order is back to normal: "
                        f"{order_text(after.order)}"
                    )
            if seat in after.finished:
                place = after.finished.index(seat)
                name = title_of(place, after.num_players)
                out.append(f"[bold]{who} {verb(you, 'go', 'goes')} out: {name}![/]")
            eight = after.options.eight_stops and EIGHT in move.faces and not move.has_joker
            if after.phase == "play" and after.last_play is None and eight:
                out.append("[dim]An 8 stops the trick.[/]")
        if after.phase == "play" and after.last_play is None:
            if move.kind != "pass":
                out.append(self.lead_line(after, move, seat))
            elif before.last_play is not None:
                out.append(self.lead_line(after, before.last_play, before.last_player))
        if after.phase == "over":
            last = after.finished[-1]
            out.append(
                f"[bold]{self.names[last]} {verb(last == self.human, 'are', 'is')} "
                f"the last one left: {title_of(after.num_players - 1, after.num_players)}.[/]"
            )
        return out

    def lead_line(self, after: View, play: Move | None = None, player: int = -1) -> str:
        """Who leads next, and why when it is not the trick's winner."""
        lead = after.current_player
        if lead is None:
            return ""
        lead_you = lead == self.human
        name = self.names[lead]
        if play is None:
            return f"[dim]{name} {verb(lead_you, 'lead', 'leads')}.[/]"
        if play.has_joker:
            return (
                f"[dim]The trick ends on a joker play: {name} "
                f"{verb(lead_you, 'lead', 'leads')} (the next player).[/]"
            )
        if lead != player:
            return f"[dim]The trick is over; {name} {verb(lead_you, 'lead', 'leads')}.[/]"
        return (
            f"[dim]{name} {verb(lead_you, 'win', 'wins')} the trick "
            f"and {verb(lead_you, 'lead', 'leads')}.[/]"
        )


# -- playing a match ----------------------------------------------------------------


class PresidentTUI(MatchTUI):
    """Plays a President match in the terminal: one human seat, bots in the others."""

    title = "President"
    help_text = HELP_TEXT
    kind_order = KINDS
    kind_labels = _KIND_LABELS
    basic_kinds = _BASIC_KINDS
    score_columns = ("Finishing order",)

    def __init__(
        self,
        console: Console,
        game: President,
        human: int | None,
        agents: Mapping[int, Agent],
        stream: TextIO,
        delay: float = 0.0,
    ) -> None:
        super().__init__(console, game, human, agents, stream, delay)
        self.narrator = Narrator(game, self.short, human)
        self.last_titles: dict[int, str] = {}

    def spread(self, kind: str, moves: list[Any], view: Any) -> list[Any]:
        """Moves of a kind from the lowest in the order in force; gives from the worst cards."""
        return sorted(moves, key=lambda m: _strength(view, m))

    def move_text(self, move: Any, view: Any) -> str:
        """Plays written low to high in the order in force (PRE-31)."""
        return _spelled(self.game, move, view.revolution)

    def read_move(self, text: str, state: Any, view: Any, listing: Listing) -> Any:
        """The move, or a message naming the cards typed that are not in hand."""
        choice = super().read_move(text, state, view, listing)
        if isinstance(choice, str):
            return choice
        missing = [c for c in choice.cards if c not in view.hand]
        if missing:
            return f"you do not hold {cards_text(missing)}"
        return choice

    def start_deal(self, state: Any) -> None:
        """The dealer, the public leftover, the order, the tax, and who leads."""
        self.narrator.reset()
        view: View = state.view(self.human)
        c = self.console
        dealer = self.short[view.dealer]
        c.print(f"{dealer} {verb(view.dealer == self.human, 'deal', 'deals')}.", highlight=False)
        if view.leftover:
            c.print(f"Out of play (public): [bold]{cards_text(view.leftover)}[/]", highlight=False)
        c.print(self.order_line(view), highlight=False)
        best = view.options.tax_style == "best"  # PRE-21: the loser's best cards, not drawn
        for giver, receiver, count in view.exchanges:
            me = giver == self.human
            taken = f"the {count} highest card(s) of" if best else f"{count} random card(s) from"
            c.print(
                f"Tax: {self.short[giver]} ({self.last_titles.get(giver, 'first')}) "
                f"{verb(me, 'take', 'takes')} {taken} "
                f"{self.short[receiver]} ({self.last_titles.get(receiver, 'last')}) and "
                f"{verb(me, 'give', 'gives')} back {count} of "
                f"{verb(me, 'your', 'their')} choice.",
                highlight=False,
            )
        if view.tax_drawn:
            how = "received [bold]{}[/], the best cards" if best else "drew [bold]{}[/] at random"
            c.print(f"You {how.format(cards_text(view.tax_drawn))}.", highlight=False)
        if view.tax_lost:
            how = ", your best cards, were handed over" if best else " were drawn from your hand"
            c.print(f"[bold]{cards_text(view.tax_lost)}[/]{how}.", highlight=False)
        if view.phase == "play":
            c.print(self.narrator.lead_line(view), highlight=False)

    def order_line(self, view: View) -> str:
        """The order in force, with a banner during a revolution."""
        order = order_text(view.order)
        if view.revolution:
            return (
                f"[bold white on red] REVOLUTION [/] order in force, low to high: [bold]{order}[/]"
            )
        return f"Order, low to high: [bold]{order}[/]"

    def narrate(self, before: Any, seat: int, move: Any, after: Any) -> list[str]:
        """The narrator's lines; it also keeps the trick shown on the table."""
        return [line for line in self.narrator.lines(before, seat, move, after) if line]

    def render_turn(self, view: View) -> RenderableType:
        """The table as the human sees it: order, seats, leftover, own hand, what to do."""
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for col in ("", "Seat", "Cards", "Title", "This trick"):
            seats.add_column(col, justify="right" if col == "Cards" else "left")
        n = view.num_players
        for s in range(n):
            name = f"[bold]{self.names[s]}[/]" if s == self.human else self.names[s]
            if s in view.finished:
                rank = f"[bold]{title_of(view.finished.index(s), n)}[/]"
            else:
                rank = f"[dim]{self.last_titles.get(s, '')}[/]" if s in self.last_titles else ""
            played = self.narrator.trick.get(s, "") if view.phase == "play" else ""
            if played and s == view.last_player and view.last_play is not None:
                played = f"[bold]{escape(played)}[/]"
            seats.add_row(
                "▶" if s == view.current_player else "",
                f"{s} {name}",
                str(view.cards_left[s]) if s not in view.finished else "out",
                rank,
                played,
            )
        parts: list[RenderableType] = [self.order_line(view), seats]
        if view.leftover:
            parts.append(f"Out of play: {cards_text(view.leftover)}")
        parts.append(f"Your hand ({len(view.hand)}): [bold cyan]{cards_text(view.hand)}[/]")
        if view.phase == "tax":
            _, receiver, count = view.exchanges[view.tax_step]
            ask = f"give {self.short[receiver]} {count} card(s) of your choice"
        elif view.last_play is None:
            ask = "lead any combination"
        else:
            text = _spelled(self.game, view.last_play, view.revolution)
            ask = (
                f"beat [bold]{escape(text)}[/] ({self.short[view.last_player]}) "
                f"with the same combination, higher, or pass"
            )
        parts.append(f"[bold]Your turn[/]: {ask}")
        return Panel(
            Group(*parts), title=self.deal_label or self.title, title_align="left", expand=False
        )

    def show_deal_end(self, state: Any, result: DealResult, match: Match) -> None:
        """The finishing order with titles, the points, and the scores so far."""
        view: View = state.view(None)
        c = self.console
        n = view.num_players
        c.print("[bold]Finishing order:[/]")
        self.last_titles = {}
        for place, seat in enumerate(view.finished):
            name = title_of(place, n)
            self.last_titles[seat] = name
            c.print(
                f"  {place + 1}. {self.short[seat]:<4} [bold]{name}[/]  {signed(n - 1 - place)}",
                highlight=False,
            )
        order = " > ".join(self.short[s] for s in view.finished)
        self.add_score_row(result, [order])
        if result.path is not None:
            c.print(f"  [dim]Record saved: {result.path}[/]")
        c.print(self.score_table(match))


#: The client ``shedkit play president`` runs.
TUI = PresidentTUI


# -- replays ------------------------------------------------------------------------


def replay_deal(
    console: Console,
    record: Mapping[str, Any],
    stream: TextIO,
    step: bool = False,
    title: str = "",
    names: Sequence[str] | None = None,
) -> bool:
    """Show a recorded deal: every hand, the leftover and the tax, each move, the result.

    ``names`` are the seats' names (default ``Seat 0``, ``Seat 1``, ...). With
    ``step``, wait for Enter after each move (``q`` stops). Raises
    `RecordError` for a record that does not replay.
    Returns ``False`` if stopped early.
    """

    def rows(start: State, final: State) -> list[tuple[str, str]]:
        shown, _ = replays.replay_names(names, start.num_players)
        out = [
            (
                common.with_note(shown[s], "dealer") if s == start.dealer else shown[s],
                cards_text(start.sort(hand)),
            )
            for s, hand in enumerate(start.dealt)
        ]
        if start.leftover:
            out.append(("Out of play", cards_text(start.sort(start.leftover))))
        return out

    final: State
    state: State
    final, state = open_replay(
        console,
        record,
        title,
        lambda s: f"President, preset {s.game.preset!r}, seed {s.seed}",
        rows,
    )
    n = state.num_players
    names, you = replays.replay_names(names, n)
    narrator = Narrator(state.game, names, you, reveal=True)
    c = console
    start = state.view(None)
    if start.revolution:
        c.print("The deal starts under a revolution.")
    best = state.game.options.tax_style == "best"  # PRE-21
    for (giver, loser, _), drawn in zip(state.exchanges, state.tax_draws, strict=True):
        if best:
            hands, own = verb(loser == you, "hand", "hands"), "your" if loser == you else "their"
            c.print(f"Tax: {names[loser]} {hands} {names[giver]} {own} best, {cards_text(drawn)}.")
        else:
            draws = verb(giver == you, "draw", "draws")
            c.print(f"Tax: {names[giver]} {draws} {cards_text(drawn)} from {names[loser]}.")
    if start.phase == "play":
        c.print(narrator.lead_line(start), highlight=False)

    def narrate(before: View, seat: int, move: Move, after: View) -> list[str]:
        return [line for line in narrator.lines(before, seat, move, after) if line]

    moves = [(seat, move) for seat, move, _ in final.history]
    if not step_through(c, state, moves, narrate, stream, step):
        return False
    end = state.view(None)
    if end.is_over:
        c.print("Finishing order:", highlight=False)
        for place, seat in enumerate(end.finished):
            c.print(
                f"  {place + 1}. {names[seat]} {title_of(place, n)} {signed(end.returns[seat])}",
                highlight=False,
            )
    else:
        c.print("The record ends before the deal is over.")
    return True
