"""Reading a move in the terminal: input with completion, and the numbered list of moves.

Input goes through `read_line`, which reads from any text stream: the
tests drive whole matches through a ``StringIO``, and on a terminal it uses
``input()`` so that the standard ``readline`` gives line editing and tab
completion over the legal moves.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from shedkit.core.errors import InvalidMoveError

__all__ = [
    "LIST_CAP",
    "Listing",
    "MoveCompleter",
    "full_listing",
    "interpret",
    "number_moves",
    "read_line",
    "render_listing",
]


#: How many moves the numbered list shows at most; the rest are typed (or tab-completed).
LIST_CAP = 40

#: Slots the combinatorial kinds get at least, however many basic moves there are.
_MIN_COMBO_SLOTS = 16


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
