"""Dou Di Zhu in the terminal: the table as the human's seat sees it, the bots' moves, replays.

The match loop, input, the numbered move list and replays are shared by every
game (`shedkit.cli.common`, `shedkit.cli.moves`, `shedkit.cli.replays`); this
module says how a Dou Di Zhu table looks:
roles, the auction, the stake and multiplier, the kitty once revealed, the
hand grouped by rank.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from shedkit.agents.base import Agent
from shedkit.cli import common, replays
from shedkit.cli import moves as move_list
from shedkit.cli.common import MatchTUI, signed, verb
from shedkit.cli.moves import LIST_CAP, Listing
from shedkit.cli.replays import open_replay, step_through
from shedkit.core.match import DealResult, Match
from shedkit.doudizhu.combos import KINDS, RANK_CHARS, Move, card_rank, card_str
from shedkit.doudizhu.rules import DouDizhu, State, sort_cards
from shedkit.doudizhu.view import View

__all__ = [
    "LIST_CAP",
    "TUI",
    "DouDizhuTUI",
    "Narrator",
    "cards_text",
    "group_ranks",
    "interpret",
    "number_moves",
    "replay_deal",
]

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
[bold]Moves[/] — type the move itself, or # and its number in the list (#3):
  ranks   3 4 5 6 7 8 9 T J Q K A 2 B R   (T or 10 = ten, B/R = black/red joker)
  plays   7   77   777   777+3   777+33   34567   334455   333444+59   8888   BR
          base cards first, then [bold]+[/] and the kickers; any order and lower case work
  others  pass (or p)   bid1 bid2 bid3
  a reading can be named with a kind prefix when one set of cards reads two ways:
          quad_pair:3333+44   solo:5
[bold]Commands[/] — [bold]moves[/] lists every legal move, [bold]table[/] redraws the table,
  [bold]#N[/] picks option N; text without # is always read as cards, so [bold]22[/] is
  the pair of twos, never option 22. Cards you do not hold are refused, and cards
  that make several plays are asked about. [bold]?[/]/[bold]help[/] shows this text,
  [bold]quit[/] ends the match (finished deals are already saved).
  On a terminal, Tab completes moves."""


def group_ranks(cards: Iterable[int]) -> str:
    """Cards as rank groups in playing order, e.g. ``33 5 777 T JJ Q K A 2 B``."""
    ranks = sorted(card_rank(c) for c in cards)
    return " ".join(RANK_CHARS[r] * len(list(g)) for r, g in itertools.groupby(ranks))


def cards_text(cards: Iterable[int]) -> str:
    """Cards with their suits in playing order, e.g. ``3d 3c 7s B``."""
    return " ".join(card_str(c) for c in sort_cards(list(cards)))


# -- the numbered list of moves -------------------------------------------------


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


def number_moves(legal: Sequence[Move], cap: int = LIST_CAP) -> Listing:
    """Number ``legal`` for the list: grouped by kind, at most about ``cap`` listed.

    Solos, pairs, trios and bombs are listed in full; the kinds with kickers and
    the chains share what is left of ``cap``, each showing a varied sample.
    """
    return move_list.number_moves(legal, _KIND_ORDER, _BASIC_KINDS, _spread, cap)


def _spell(move: Move) -> str:
    return f"{move.kind}:{move}"


def interpret(text: str, listing: Listing, game: DouDizhu, state: State) -> Move | str:
    """The move ``text`` asks for, or a one-line message saying why it names none.

    Only ``#N`` picks from the list: a bare number (``5``, ``22``, ``10``) is
    always read as ranks.
    """
    choice: Move | str = move_list.interpret(text, listing, lambda s: game.parse_move(s, state))
    return choice


_RANK_NAMES = {"T": "10", "B": "black joker (B)", "R": "red joker (R)"}


def _missing(move: Move, hand: Iterable[int]) -> str:
    """Why ``hand`` cannot make ``move`` ("you do not hold a 2"), or ``""`` if it can."""
    held = Counter(card_rank(c) for c in hand)
    parts = []
    for rank, need in sorted(Counter(move.ranks).items()):
        have = held[rank]
        name = _RANK_NAMES.get(RANK_CHARS[rank], RANK_CHARS[rank])
        if have == 0:
            article = "the" if "joker" in name else "an" if name in ("A", "8") else "a"
            parts.append(f"you do not hold {article} {name}")
        elif have < need:
            held_text = "only one" if have == 1 else f"only {have}"
            parts.append(f"{move} needs {need} × {name}; you hold {held_text}")
    return "; ".join(parts)


# -- narration and the trick ----------------------------------------------------


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
            text = f"{who} {verb(you, 'pass', 'passes')}"
        elif move.kind == "bid":
            text = f"{who} {verb(you, 'bid', 'bids')} [bold]{move.rank}[/]"
        else:
            text = f"{who} {verb(you, 'play', 'plays')} [bold]{escape(str(move))}[/]"
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
                f"[bold yellow]{self.names[lord]} {verb(lord_you, 'are', 'is')} the landlord[/] "
                f"at stake {after.stake} and {verb(lord_you, 'take', 'takes')} "
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
                f"[dim]{self.names[lead]} {verb(lead_you, 'win', 'wins')} the trick "
                f"and {verb(lead_you, 'lead', 'leads')}.[/]"
            )
        if after.phase == "over" and after.winner == seat:
            out.append(f"[bold]{who} {verb(you, 'go', 'goes')} out![/]")
        elif move.size and after.phase == "play" and not you and after.cards_left[seat] <= 2:
            left = after.cards_left[seat]
            out.append(f"[bold magenta]{who} has {left} card{'s' if left > 1 else ''} left![/]")
        return out


def _role(view: View, seat: int) -> str:
    if view.landlord is None:
        return "—"
    return "[bold yellow]landlord[/]" if seat == view.landlord else "peasant"


# -- playing a match ------------------------------------------------------------


class DouDizhuTUI(MatchTUI):
    """Plays a Dou Di Zhu match in the terminal: one human seat, bots in the others."""

    title = "Dou Di Zhu"
    help_text = HELP_TEXT
    kind_order = _KIND_ORDER
    kind_labels = _KIND_LABELS
    basic_kinds = _BASIC_KINDS
    score_columns = ("Landlord", "Bid", "Bombs", "Spring")

    def __init__(
        self,
        console: Console,
        game: DouDizhu,
        human: int | None,
        agents: Mapping[int, Agent],
        stream: TextIO,
        delay: float = 0.0,
    ) -> None:
        super().__init__(console, game, human, agents, stream, delay)
        self.narrator = Narrator(self.short, human)

    def spread(self, kind: str, moves: list[Any], view: Any) -> list[Any]:
        """Kicker kinds alternate their bases, chains their lengths."""
        return _spread(kind, moves)

    def spell(self, move: Any) -> str:
        """A kind prefix names one reading of cards that read two ways."""
        return _spell(move)

    def read_move(self, text: str, state: Any, view: Any, listing: Listing) -> Any:
        """The move, a message naming the ranks not in hand, or the legal readings of the cards.

        Cards that make more than one legal play (``3333+44`` as four with two
        solos or four with a pair) are asked about, unless a kind prefix names one.
        """
        choice = super().read_move(text, state, view, listing)
        if isinstance(choice, str) or text.strip().startswith("#") or not choice.ranks:
            return choice
        missing = _missing(choice, view.hand)
        if missing:
            return missing
        if ":" in text:
            return choice
        # Where the '+' splits the cards is what was typed: 333444555666 (a plane) is
        # not asked about against 333444555+666, only kinds with that same split are.
        split = (tuple(sorted(choice.base)), tuple(sorted(choice.kickers)))
        readings = [
            m
            for m in view.legal_moves
            if m.ranks and (tuple(sorted(m.base)), tuple(sorted(m.kickers))) == split
        ]
        if len(readings) > 1:
            return readings
        return readings[0] if readings else choice

    def quit_conflict(self, listing: Listing) -> tuple[str, str] | None:
        """``q`` is also the queen."""
        return ("the queen Q", "Q") if any(str(m) == "Q" for m in listing.moves) else None

    def start_deal(self, state: Any) -> None:
        """Say who bids first."""
        self.narrator.reset()
        first = state.view(self.human).first_bidder
        self.console.print(f"{self.short[first]} {verb(first == self.human, 'bid', 'bids')} first.")

    def narrate(self, before: Any, seat: int, move: Any, after: Any) -> list[str]:
        """The narrator's lines; it also keeps the trick shown on the table."""
        lines = self.narrator.lines(before, seat, move, after.history[-1][2], after)
        self.narrator.update(before, seat, move, after)
        return lines

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
        return Panel(body, title=self.deal_label or self.title, title_align="left", expand=False)

    def show_deal_end(self, state: Any, result: DealResult, match: Match) -> None:
        """Who won, the returns, bombs and spring, the hands left, and the scores so far."""
        view = state.view(None)
        c = self.console
        if result.thrown_in:
            c.print("[yellow]Thrown in: this deal does not count.[/]")
            self.add_score_row(result, ["[dim]thrown in[/]", "", "", ""], void=True)
        else:
            assert view.landlord is not None and view.winner is not None
            lord = view.landlord
            if view.winner == lord:
                wins = verb(lord == self.human, "win", "wins")
                c.print(f"[bold]{self.short[lord]} {wins} as the landlord![/]")
            else:
                peasants = " and ".join(self.short[s] for s in range(view.num_players) if s != lord)
                c.print(f"[bold]The peasants ({peasants}) win![/]")
            facts = [f"stake {view.stake}"]
            facts.append(f"{view.bombs} bomb{'s' if view.bombs != 1 else ''} (×{view.multiplier})")
            if view.spring:
                facts.append("spring (×2)")
            c.print("  " + ", ".join(facts))
            c.print(
                "  Returns: "
                + "   ".join(f"{self.short[s]} {signed(r)}" for s, r in enumerate(result.returns))
            )
            for s in range(view.num_players):
                left = state.hand(s)
                if left:
                    c.print(f"  [dim]{self.short[s]} still held: {group_ranks(left)}[/]")
            cells = [
                self.short[lord],
                str(view.stake),
                str(view.bombs),
                "yes" if view.spring else "",
            ]
            self.add_score_row(result, cells)
        if result.path is not None:
            c.print(f"  [dim]Record saved: {result.path}[/]")
        if not result.thrown_in:  # a thrown-in deal changes no score
            c.print(self.score_table(match))


#: The client ``shedkit play doudizhu`` runs.
TUI = DouDizhuTUI


# -- replays --------------------------------------------------------------------


def replay_deal(
    console: Console,
    record: Mapping[str, Any],
    stream: TextIO,
    step: bool = False,
    title: str = "",
    names: Sequence[str] | None = None,
) -> bool:
    """Show a recorded deal: every hand, then each move, then the returns.

    ``names`` are the seats' names (default ``Seat 0``, ``Seat 1``, ...). With
    ``step``, wait for Enter after each move (``q`` stops). Raises
    `RecordError` for a record that does not replay.
    Returns ``False`` if stopped early.
    """

    def rows(start: State, final: State) -> list[tuple[str, str]]:
        shown, _ = replays.replay_names(names, start.num_players)
        out = [
            (
                common.with_note(shown[s], "landlord") if s == final.landlord else shown[s],
                cards_text(hand),
            )
            for s, hand in enumerate(start.dealt)
        ]
        return [*out, ("Kitty", cards_text(start.kitty))]

    final: State
    state: State
    final, state = open_replay(
        console,
        record,
        title,
        lambda s: f"Dou Di Zhu, preset {s.game.preset!r}, seed {s.seed}",
        rows,
    )
    names, you = replays.replay_names(names, state.num_players)
    narrator = Narrator(names, you, show_cards=True)
    c = console
    if state.phase == "auction":
        first = state.first_bidder
        c.print(f"{names[first]} {verb(first == you, 'bid', 'bids')} first.")

    def narrate(before: View, seat: int, move: Move, after: View) -> list[str]:
        lines = narrator.lines(before, seat, move, after.history[-1][2], after)
        narrator.update(before, seat, move, after)
        return lines

    moves = [(seat, move) for seat, move, _ in final.history]
    if not step_through(c, state, moves, narrate, stream, step):
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
            "  Returns: " + "   ".join(f"{names[s]} {signed(r)}" for s, r in enumerate(end.returns))
        )
    else:
        c.print("The record ends before the deal is over.")
    return True
