"""``shedkit replay FILE``: a saved deal, or every deal of a match folder, move by move."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from shedkit.cli.play_cmd import MATCH_FILE, PLAYABLE
from shedkit.core.errors import RecordError
from shedkit.core.records import load_record

__all__ = ["add_replay_parser", "run_replay"]


def add_replay_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``replay`` command to ``sub`` (the result of ``add_subparsers``)."""
    replay: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="show a saved deal or match move by move",
        description=(
            "Show a saved deal: every hand, each move, the returns. Given a folder "
            "that 'shedkit play' wrote, show every deal of the match in order."
        ),
    )
    replay.add_argument(
        "file",
        help="a record written by 'shedkit play' (deal-NNNN.json) or the folder of a match",
    )
    replay.add_argument("--step", action="store_true", help="wait for Enter between moves")
    return replay


def _match_info(folder: Path) -> dict[str, Any]:
    """The folder's match file, or ``{}`` when it has none (records from elsewhere)."""
    path = folder / MATCH_FILE
    if not path.exists():
        return {}
    info = load_record(path)
    names = info.get("names")
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise RecordError(f"{str(path)!r}: 'names' must be a list of names")
    return info


def run_replay(args: argparse.Namespace, out: Console, stdin: TextIO) -> int:
    """Run ``shedkit replay`` with parsed ``args``; the exit status (a bad record raises
    ``RecordError``)."""
    path = Path(args.file)
    if path.is_dir():
        return _replay_match(path, args, out, stdin)
    record = load_record(path)
    game = record.get("game")
    if game not in PLAYABLE:
        raise RecordError(
            f"{args.file!r} is a record of {game!r}; this command replays {', '.join(PLAYABLE)}"
        )
    client = importlib.import_module(f"shedkit.cli.{game}_tui")
    # A deal of a match folder gets the players' names the folder's match file keeps.
    names = _match_info(path.parent).get("names") or None
    if names is not None and len(names) != len(record.get("returns") or names):
        names = None
    client.replay_deal(out, record, stdin, step=args.step, title=str(args.file), names=names)
    return 0


def _replay_match(folder: Path, args: argparse.Namespace, out: Console, stdin: TextIO) -> int:
    """Every deal record of a match folder in order, with the players' names and the seed."""
    files = sorted(folder.glob("deal-*.json"))
    if not files:
        raise RecordError(f"{str(folder)!r} holds no deal records (deal-NNNN.json)")
    info = _match_info(folder)
    records = [load_record(f) for f in files]
    games = {r.get("game") for r in records}
    if len(games) != 1 or not games <= set(PLAYABLE):
        raise RecordError(
            f"{str(folder)!r} holds records of {sorted(map(str, games))}; "
            f"a match folder holds deals of one game of {', '.join(PLAYABLE)}"
        )
    game = records[0]["game"]
    client = importlib.import_module(f"shedkit.cli.{game}_tui")
    names = info.get("names")
    seed = info.get("seed", "unknown (no match.json)")
    out.print(
        f"[bold]{client.TUI.title}[/] match in {folder}: {len(files)} deal(s), match seed {seed}",
        highlight=False,
    )
    if names:
        out.print("Players: " + ", ".join(f"{s} {n}" for s, n in enumerate(names)), markup=False)
    totals: list[int] = []
    for path, record in zip(files, records, strict=True):
        if not client.replay_deal(out, record, stdin, step=args.step, title=path.name, names=names):
            return 0
        returns = record.get("returns") or []
        totals = [a + b for a, b in zip(totals or [0] * len(returns), returns, strict=False)]
    if totals:
        who = names or [f"Seat {s}" for s in range(len(totals))]
        line = ", ".join(f"{who[s]} {t:+d}" for s, t in enumerate(totals))
        out.print(f"Totals after {len(files)} deal(s): {line}", markup=False)
    return 0
