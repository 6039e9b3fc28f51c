"""Replaying a deal record in the terminal: the hands as dealt, then each move narrated."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shedkit.cli.common import YOU
from shedkit.cli.moves import read_line
from shedkit.core.records import replay as replay_record

__all__ = ["open_replay", "replay_names", "step_through"]


def replay_names(names: Sequence[str] | None, n: int) -> tuple[list[str], int | None]:
    """A replay's seat names (default ``Seat 0`` …) and the seat that was "You", if any."""
    shown = list(names) if names else [f"Seat {s}" for s in range(n)]
    return shown, shown.index(YOU) if YOU in shown else None


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
