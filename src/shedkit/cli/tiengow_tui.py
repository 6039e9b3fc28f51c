"""Tien Gow in the terminal: tiles drawn with their pips, the trick, the bank, payments, replays.

The match loop, input, the numbered move list and replays are shared by every
game (`shedkit.cli.common`, `shedkit.cli.moves`, `shedkit.cli.replays`); the
tiles, the narration and the payments are `shedkit.cli.tiengow_text`. This module
says how a Tien Gow table looks: the banker and its factor, each seat's
tiles, units won and tiles laid face down, the match totals, the trick in
play (face-up plays, discards as backs), the human's tiles, and after each
hand who pays whom.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from rich import box
from rich.columns import Columns
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
from shedkit.cli.tiengow_text import (
    back,
    early_death,
    face,
    kind_label,
    narrate,
    no_beat,
    payments,
    row_of,
    tile_name,
)
from shedkit.core.errors import IllegalMoveError
from shedkit.core.match import DealResult, Match
from shedkit.tiengow.combos import COMBO_IDS, KIND_RANK, SUPREME, TILE_KIND, Move, kinds_text
from shedkit.tiengow.rules import State, TienGow
from shedkit.tiengow.view import View

__all__ = ["TUI", "TienGowTUI", "narrate", "replay_deal"]

_KINDS = tuple(dict.fromkeys((*COMBO_IDS, "discard")))
_PLAY_KINDS = frozenset(_KINDS) - {"discard"}

HELP_TEXT = """\
[bold]Moves[/] — type the move itself, or # and its number in the list (#3):
  tiles    a-b, lower number first or not: 1-3, 3-1 and [1|3] are the same tile
  plays    the tiles of one combination, any order: 6-6   4-4 4-4   6-6 4-5   2-4 1-2
  discard  discard and the tiles to lay face down: discard 2-2 1-5
  The leader plays any combination face up. Each other player plays as many
  tiles as were led: a combination of the same class that ranks higher (it
  beats), or a discard face down. Civil and military tiles never beat each
  other; nothing beats a led Supreme (2-4 1-2). The last beat wins the trick,
  and the winner of the last trick wins the hand. 文 marks civil tiles,
  武 military ones.
[bold]Commands[/] — [bold]moves[/] lists every legal move, [bold]table[/] redraws the table,
  [bold]#N[/] picks option N; tiles you do not hold are refused.
  [bold]?[/]/[bold]help[/] shows this text, [bold]quit[/] ends the match (finished hands
  are already saved); shedkit rules tiengow shows the rules. On a terminal,
  Tab completes moves."""


def _factor(view: View) -> str:
    """The banker factor and where it comes from (TG-32)."""
    how = view.options.banker_multiplier
    if how != "increasing":
        return f"×{view.multiplier} ({how}, TG-32)"
    nth = view.banker_streak
    streak = "first hand as banker" if nth == 1 else f"banker {nth} hands in a row"
    return f"×{view.multiplier} ({streak}, TG-32)"


class TienGowTUI(MatchTUI):
    """Plays a Tien Gow match in the terminal: one human seat, bots in the others."""

    title = "Tien Gow"
    help_text = HELP_TEXT
    kind_order = _KINDS
    kind_labels = {k: kind_label(k) for k in _KINDS} | {"discard": "discard (face down)"}
    basic_kinds = _PLAY_KINDS
    score_columns = ("Banker", "Winner", "Units")

    def __init__(
        self,
        console: Console,
        game: TienGow,
        human: int | None,
        agents: Mapping[int, Agent],
        stream: TextIO,
        delay: float = 0.0,
    ) -> None:
        super().__init__(console, game, human, agents, stream, delay)
        self.tiengow = game
        self.totals = [0] * game.num_players

    def play_match(self, match: Match) -> bool:
        """Play the match, keeping its totals for the table."""
        self.totals = match.totals
        return super().play_match(match)

    def spread(self, kind: str, moves: list[Any], view: Any) -> list[Any]:
        """Discards of the weakest tiles first, the ones a player most likely gives up."""
        if kind != "discard":
            return moves
        return sorted(moves, key=lambda m: (sum(KIND_RANK[k] for k in m.kinds), m.action_id))

    def you(self, message: str) -> str:
        """Engine messages in the second person ("you hold", "you must")."""
        text = super().you(message)
        if text.startswith("you "):
            text = text.replace("you holds", "you hold").replace(": it must", ": you must")
        return text

    def read_move(self, text: str, state: Any, view: Any, listing: Listing) -> Any:
        """The move; or why not: tiles not held, and the rule a typed move breaks."""
        choice = super().read_move(text, state, view, listing)
        if not isinstance(choice, Move) or choice in view.legal_moves:
            return choice
        held = Counter(TILE_KIND[t] for t in view.hand)
        for kind, count in Counter(choice.kinds).items():
            if held[kind] < count:
                have = {0: "do not hold", 1: "hold only one"}[held[kind]]
                return f"you {have} {kinds_text([kind])}" + (
                    f" (you typed it {count} times)" if held[kind] else ""
                )
        try:
            state.clone().apply(choice, seat=self.human)
        except IllegalMoveError as err:
            message = str(err)
        else:  # pragma: no cover - a legal move is in view.legal_moves
            return choice
        high = view.high
        if message.endswith("(TG-22, TG-23)") and high is not None:
            message = no_beat(choice, high)
        as_discard = self.tiengow.tables.discard_by_need.get(choice.need)
        if not choice.is_discard and as_discard in view.legal_moves:
            them = "it" if choice.size == 1 else "them"
            message += f"; to lay {them} face down type: {as_discard}"
        return message

    def start_deal(self, state: Any) -> None:
        """The banker, its factor and the direction; a special hand that wins at once."""
        view: View = state.view(self.human)
        c = self.console
        banker = self.short[view.banker]
        you = view.banker == self.human
        c.print(
            f"{banker} {verb(you, 'are', 'is')} the banker, factor {_factor(view)}, "
            f"and {verb(you, 'lead', 'leads')} the first trick.",
            highlight=False,
        )
        if view.direction < 0:
            c.print("This hand is played the other way round (TG-02).", highlight=False)
        if view.special is not None:
            seat, factor = view.special
            c.print(
                f"[bold]{self.short[seat]} {verb(seat == self.human, 'win', 'wins')} at once "
                f"with a special hand (TG-64), factor {factor}:[/]",
                highlight=False,
            )
            c.print(row_of([face(TILE_KIND[t]) for t in view.special_hand]))

    def narrate(self, before: Any, seat: int, move: Any, after: Any) -> list[str]:
        """What the move did, as the human may know it (their own discards named)."""
        # The move as the human's view has it: another seat's discard is only a count.
        move = after.history[-1][1]
        return narrate(self.short, self.human, before, seat, move, after)

    def render_turn(self, view: View) -> RenderableType:
        """The table as the human sees it: bank, seats, the trick, own tiles, what to do."""
        parts: list[RenderableType] = [
            f"Banker: [bold]{escape(self.short[view.banker])}[/] {_factor(view)}",
            self.seats_table(view),
        ]
        if view.trick:
            lead_seat, lead = view.trick[0]
            parts.append(
                f"Trick {len(view.tricks) + 1}: {escape(self.short[lead_seat])} led a "
                f"{kind_label(lead.kind)}; high: [bold]{view.high}[/] "
                f"({escape(self.short[view.high_player])})"
            )
            parts.append(self.trick_area(view))
        parts.append(f"Your tiles ({len(view.hand)}):")
        parts.append(row_of([face(TILE_KIND[t]) for t in view.hand]))
        kinds = sorted(set(TILE_KIND[t] for t in view.hand))
        parts.append(Text(" · ".join(tile_name(k) for k in kinds), style="dim"))
        parts.append(f"[bold]Your turn[/]: {self.ask(view)}")
        return Panel(
            Group(*parts), title=self.deal_label or self.title, title_align="left", expand=False
        )

    def seats_table(self, view: View) -> Table:
        """One row a seat: tiles in hand, units won, tiles laid face down, the match total."""
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for col in ("", "Seat", "Tiles", "Units", "Face down", "Match"):
            table.add_column(col, justify="left" if col in ("", "Seat") else "right")
        for s in range(view.num_players):
            name = escape(self.names[s]) + (" [bold]莊 banker[/]" if s == view.banker else "")
            table.add_row(
                "▶" if s == view.current_player else "",
                f"{s} [bold]{name}[/]" if s == self.human else f"{s} {name}",
                str(view.tiles_left[s]),
                str(view.units[s]),
                str(view.discarded[s]),
                signed(self.totals[s]),
            )
        return table

    def trick_area(self, view: View) -> Columns:
        """Each play of the trick in turn: face up, or backs for a discard."""
        blocks: list[RenderableType] = []
        for seat, move in view.trick:
            if move.is_discard:
                known = move.kinds if view.options.discards_exposed else ()
                tiles = [face(k) for k in known] or [
                    back(k) for k in (move.kinds or [None] * move.size)
                ]
                what = "discards"
            else:
                tiles = [face(k) for k in move.kinds]
                what = "leads" if seat == view.trick[0][0] else "beats"
            star = " ★" if seat == view.high_player else ""
            head = Text(f"{self.short[seat]} {what}{star}", style="bold" if star else "")
            blocks.append(Group(head, row_of(tiles)))
        # Columns wraps whole plays onto a new row rather than breaking the drawings.
        return Columns(blocks, padding=(0, 3))

    def ask(self, view: View) -> str:
        """What the human is to do now, in a line."""
        legal = view.legal_moves
        if not view.trick:
            return "lead any combination face up (TG-20)"
        high = view.high
        assert high is not None
        size = view.trick[0][1].size
        discard = f"discard {size} tile{'s' if size > 1 else ''} face down"
        if early_death(view, self.human if self.human is not None else -1):
            return f"you have won no trick: {discard} (early death, TG-28)"
        if high.cls == SUPREME:
            return f"nothing beats a led Supreme (TG-24): {discard}"
        if any(not m.is_discard for m in legal):
            return (
                f"beat [bold]{high}[/] with a higher {kind_label(high.kind)}, or {discard} (TG-21)"
            )
        return f"nothing you hold beats [bold]{high}[/]: {discard}"

    def show_deal_end(self, state: Any, result: DealResult, match: Match) -> None:
        """Units, who pays whom and why, the scores so far, the next banker."""
        view: View = state.view(None)
        c = self.console
        if view.special is None:
            units = ", ".join(f"{self.short[s]} {u}" for s, u in enumerate(view.units))
            c.print(f"Units won: {units}", highlight=False)
        lines, _ = payments(view, self.short)
        c.print("[bold]Payments[/] (TG-30…34):", highlight=False)
        for line in lines:
            c.print(f"  {line}", highlight=False)
        if any(view.bonus):
            paid = ", ".join(f"{self.short[s]} {signed(b)}" for s, b in enumerate(view.bonus))
            c.print(f"  Bonuses paid during the hand (TG-61): {paid}", highlight=False)
        c.print(
            "Hand: "
            + ", ".join(f"{self.short[s]} {signed(r)}" for s, r in enumerate(view.returns)),
            highlight=False,
        )
        winner = view.winner
        assert winner is not None
        banker = f"{self.short[view.banker]} ×{view.multiplier}"
        units = "special" if view.special else "/".join(map(str, view.units))
        self.add_score_row(result, [banker, self.short[winner], units])
        if result.path is not None:
            c.print(f"  [dim]Record saved: {result.path}[/]")
        c.print(self.score_table(match))
        if not match.is_over:
            you = winner == self.human
            if winner == view.banker:
                nxt = f"{verb(you, 'keep', 'keeps')} the bank"
            else:
                nxt = f"{verb(you, 'become', 'becomes')} the banker"
            opts = self.tiengow.options
            left = min(match.deals or opts.hands, opts.hands) - match.deals_played
            target = f", or until a total reaches ±{opts.target}" if opts.target else ""
            c.print(
                f"[dim]{self.short[winner]} {nxt} for the next hand (TG-40); "
                f"{left} hand(s) left{target} (TG-41).[/]",
                highlight=False,
            )


#: The client ``shedkit play tiengow`` runs.
TUI = TienGowTUI


def replay_deal(
    console: Console,
    record: Mapping[str, Any],
    stream: TextIO,
    step: bool = False,
    title: str = "",
    names: Sequence[str] | None = None,
) -> bool:
    """Show a recorded hand: the hands as dealt, each move (discards named), the payments.

    ``names`` are the seats' names (default ``Seat 0``, ``Seat 1``, ...). With
    ``step``, wait for Enter after each move (``q`` stops). Raises
    `RecordError` for a record that does not replay.
    Returns ``False`` if stopped early.
    """

    def rows(start: State, final: State) -> list[tuple[str, str]]:
        shown, _ = replays.replay_names(names, start.num_players)
        return [
            (
                common.with_note(shown[s], f"banker ×{start.multiplier}")
                if s == start.banker
                else shown[s],
                " ".join(start.game.tile_str(t) for t in hand),
            )
            for s, hand in enumerate(start.dealt)
        ]

    final: State
    state: State
    final, state = open_replay(
        console,
        record,
        title,
        lambda s: f"Tien Gow, preset {s.game.preset!r}, seed {s.seed}",
        rows,
    )
    names, you = replays.replay_names(names, state.num_players)
    c = console

    def told(before: View, seat: int, move: Move, after: View) -> list[str]:
        return narrate(names, you, before, seat, move, after)

    moves = [(seat, move) for seat, move, _ in final.history]
    if not step_through(c, state, moves, told, stream, step):
        return False
    end = state.view(None)
    if not end.is_over:
        c.print("The record ends before the hand is over.")
        return True
    if end.special is not None:
        seat, factor = end.special
        c.print(f"{names[seat]} won at once with a special hand (TG-64), factor {factor}.")
    else:
        c.print("Units won: " + ", ".join(f"{names[s]} {u}" for s, u in enumerate(end.units)))
    lines, _ = payments(end, names)
    c.print("Payments (TG-30…34):", highlight=False)
    for line in lines:
        c.print(f"  {line}", highlight=False)
    if any(end.bonus):
        c.print("  Bonuses (TG-61): " + "  ".join(signed(b) for b in end.bonus), highlight=False)
    c.print("Returns: " + "  ".join(signed(r) for r in end.returns), highlight=False)
    return True
