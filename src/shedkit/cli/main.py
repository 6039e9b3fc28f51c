"""The ``shedkit`` command: ``play`` a match against bots, ``replay`` a saved deal.

Every error a user can cause (a bad preset, option, seat or record file) ends
in a one-line message on stderr and exit status 2, never a traceback.

A game is playable in the terminal when ``shedkit.cli.<game>_tui`` exists and
names its client ``TUI`` and its replay function ``replay_deal``. Every field
of a game's ``Options`` is a flag of ``shedkit play`` (``--players 4``,
``--tax``, ``--no-pass-is-final``); the game itself checks the values.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import secrets
import sys
import time
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.arena.cli import add_arena_parser, run_arena
from shedkit.cli.rules_cmd import add_rules_parser, run_rules
from shedkit.core.errors import OptionError, RecordError, ShedkitError
from shedkit.core.match import Match
from shedkit.core.records import load_record
from shedkit.core.rng import derive_seed

__all__ = ["PLAYABLE", "build_parser", "main", "option_fields", "parse_option_values"]


def _has_tui(name: str) -> bool:
    return importlib.util.find_spec(f"shedkit.cli.{name}_tui") is not None


#: Games with a terminal front end (``shedkit play GAME``).
PLAYABLE = tuple(name for name in sorted(shedkit.GAMES) if _has_tui(name))


def option_fields() -> dict[str, dict[str, Any]]:
    """Every rules option of every game: ``{name: {game: type hint}}``.

    Each game package exports its ``Options`` dataclass (same module names in
    every game), so the command line needs no list of its own.
    """
    out: dict[str, dict[str, Any]] = {}
    for game in sorted(shedkit.GAMES):
        cls = importlib.import_module(f"shedkit.{game}").Options
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            out.setdefault(f.name, {})[game] = hints[f.name]
    return out


def _typed(name: str, text: str) -> Any:
    """Text as the Python value it most likely means (the game checks it)."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off") and name != "spring":
        # spring takes the word "off" as one of its values, not a boolean.
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text.strip()


def parse_option_values(items: Sequence[str]) -> dict[str, Any]:
    """Read ``name=value`` pairs; values ``true``/``false``, integers and ``none`` are typed.

    The game checks names and values; this only turns text into Python values.
    """
    out: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name:
            raise OptionError(f"--option wants name=value, not {item!r}")
        out[name] = _typed(name, text)
    return out


#: Flags of ``shedkit play`` that also name a rules option (Dominoes' ``target``, DOM-11).
_MATCH_FLAGS = frozenset({"target"})


def _describe(hint: Any) -> str:
    """The values an option takes, for ``--help``."""
    if typing.get_origin(hint) is typing.Literal:
        return "/".join(str(a) for a in typing.get_args(hint))
    if hint is int:
        return "a number"
    return "yes/no" if hint is bool else "a value"


def _add_option_flags(play: argparse.ArgumentParser) -> None:
    """One flag per rules option of any game, named after the option."""
    group = play.add_argument_group(
        "rules options", "each game takes its own; the game names the valid ones on a mistake"
    )
    for name, by_game in option_fields().items():
        flag = "--" + name.replace("_", "-")
        if name in _MATCH_FLAGS:
            continue  # set by the match flag of the same name (--target)
        games = ", ".join(by_game)
        if all(h is bool for h in by_game.values()):
            group.add_argument(
                flag,
                dest=f"opt_{name}",
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"({games})",
            )
            continue
        kinds = "; ".join(f"{game}: {_describe(hint)}" for game, hint in by_game.items())
        group.add_argument(flag, dest=f"opt_{name}", default=None, metavar="VALUE", help=kinds)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``shedkit``."""
    parser = argparse.ArgumentParser(
        prog="shedkit",
        description="Shedding card games in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"shedkit {shedkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_rules_parser(sub)

    play = sub.add_parser(
        "play",
        help="play a match against bots",
        description="Play a match of several deals against bots, with running scores.",
    )
    play.add_argument("game", nargs="?", help=f"the game: {', '.join(PLAYABLE)}")
    play.add_argument("--preset", default="standard", help="rules preset (default: standard)")
    play.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    play.add_argument(
        "--bots", default="greedy", help="the bots' agent: greedy or random (default: greedy)"
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    play.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals in the match, 0 for no limit (default: 5; a game with a target: no limit)",
    )
    play.add_argument(
        "--target", type=int, default=None, help="end the match when a total reaches this"
    )
    play.add_argument(
        "--records",
        default=None,
        help="folder for the deal records (default: ./records/<time>-seed<seed>)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules option, e.g. pass_is_final=true (repeatable)",
    )
    _add_option_flags(play)
    play.add_argument(
        "--delay",
        type=float,
        default=None,
        help="seconds to pause after each bot move (default: 0.4 on a terminal, else 0)",
    )

    replay = sub.add_parser(
        "replay",
        help="show a saved deal move by move",
        description="Show a saved deal: every hand, each move, the returns.",
    )
    replay.add_argument("file", help="a record written by 'shedkit play' (deal-NNNN.json)")
    replay.add_argument("--step", action="store_true", help="wait for Enter between moves")

    serve = sub.add_parser(
        "serve",
        help="host tables in the browser (needs the [server] extra)",
        description="Serve the web client: tables with friends and bots, replays of every deal.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument(
        "--db", default=None, help="SQLAlchemy URL (default: sqlite:///shedkit.db here)"
    )
    serve.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds a bot waits before moving"
    )
    add_arena_parser(sub)
    return parser


def _serve(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
    try:
        from shedkit.server.run import serve
    except ImportError as missing:
        err.print(
            f"shedkit serve: {missing}; install the server extra: pip install 'shedkit[server]'"
        )
        return 2
    return serve(args.host, args.port, args.db, args.bot_delay, out)


def _flag_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rules options given as flags (``--tax``, ``--players 4``), typed."""
    out: dict[str, Any] = {}
    for key, value in vars(args).items():
        if key.startswith("opt_") and value is not None:
            name = key[4:]
            out[name] = value if isinstance(value, bool) else _typed(name, value)
    return out


def _play(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
    if args.game not in PLAYABLE:
        what = "no game given" if args.game is None else f"unknown game {args.game!r}"
        err.print(f"shedkit play: {what}; valid games: {', '.join(PLAYABLE)}")
        return 2
    client = importlib.import_module(f"shedkit.cli.{args.game}_tui")
    options = {**parse_option_values(args.option), **_flag_options(args)}
    if args.target is not None and args.game in option_fields().get("target", {}):
        options.setdefault("target", args.target)  # the game's own match target (DOM-11)
    game = shedkit.make(args.game, preset=args.preset, **options)
    if isinstance(getattr(game.options, "target", None), int):
        # A game with its own match target (Dominoes, DOM-11) plays to it.
        args.target = game.options.target if args.target is None else args.target
        args.deals = 0 if args.deals is None else args.deals
    args.deals = 5 if args.deals is None else args.deals
    n = game.num_players
    if args.seat not in range(n):
        raise OptionError(f"--seat must be 0 to {n - 1}, not {args.seat}")
    if args.bots not in AGENTS:
        raise OptionError(f"unknown bots {args.bots!r}; valid bots: {', '.join(sorted(AGENTS))}")
    # A short random seed is easy to note down and type back to replay a match.
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    records = (
        Path(args.records)
        if args.records
        else Path("records") / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    )
    deals = args.deals if args.deals != 0 else None
    match = Match(game, seed=seed, deals=deals, target=args.target, records_dir=records)
    agents: dict[int, Agent] = {
        s: make_agent(args.bots, game, derive_seed(seed, "bot", s))
        for s in range(n)
        if s != args.seat
    }
    tty = stdin is sys.stdin and stdin.isatty() and out.is_terminal
    delay = args.delay if args.delay is not None else (0.4 if tty else 0.0)
    tui = client.TUI(out, game, args.seat, agents, stdin, delay=delay)
    limits = []
    if deals is not None:
        limits.append(f"{deals} deal(s)")
    if args.target is not None:
        limits.append(f"first to {args.target}")
    out.print(
        f"[bold]{client.TUI.title}[/] — preset {args.preset!r}, seed {seed}, "
        f"{' or '.join(limits) or 'no end'}. "
        f"You are seat {args.seat}; the others are {args.bots} bots.",
        highlight=False,
    )
    out.print(f"Records go to {records}/  (type ? for help)", highlight=False)
    try:
        finished = tui.play_match(match)
    except KeyboardInterrupt:
        finished = None
    saved = sum(1 for r in match.results if r.path is not None)
    if finished:
        out.print(f"Records of the deals are in {records}/", highlight=False)
        return 0
    what = "Quit." if finished is False else "\nInterrupted."
    out.print(f"{what} {saved} deal record(s) saved in {records}/", highlight=False)
    return 0 if finished is False else 130


def _replay(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
    record = load_record(args.file)
    game = record.get("game")
    if game not in PLAYABLE:
        raise RecordError(
            f"{args.file!r} is a record of {game!r}; this command replays {', '.join(PLAYABLE)}"
        )
    client = importlib.import_module(f"shedkit.cli.{game}_tui")
    client.replay_deal(out, record, stdin, step=args.step, title=str(args.file))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run ``shedkit`` with ``argv`` (default: the process's arguments); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        # argparse exits for --help, --version and usage errors; report the status instead.
        return stop.code if isinstance(stop.code, int) else 2
    out = Console(highlight=False)
    # Messages stay on one line so that they can be searched for and copied whole.
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    stdin = sys.stdin
    try:
        if args.command == "play":
            return _play(args, out, err, stdin)
        if args.command == "replay":
            return _replay(args, out, err, stdin)
        if args.command == "serve":
            return _serve(args, out, err, stdin)
        if args.command == "rules":
            return run_rules(args, out)
        if args.command == "arena":
            return run_arena(args, out, err)
        parser.print_help()
        return 2
    except ShedkitError as error:
        err.print(f"shedkit {args.command}: {error}", markup=False)
        return 2
    except KeyboardInterrupt:
        out.print("\nInterrupted.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
