"""The ``shedkit`` command: builds the parser from the commands' modules and runs one.

Each command (``shedkit.cli.<command>_cmd``) adds its parser and runs it. Every
error a user can cause (a bad preset, option, seat or record file) ends in a
one-line message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

import shedkit
from shedkit.cli.arena_cmd import add_arena_command, run_arena_command
from shedkit.cli.bot_cmd import add_bot_parser, run_bot
from shedkit.cli.parser import ShedkitParser, unknown_flag_message
from shedkit.cli.play_cmd import add_play_parser, run_play
from shedkit.cli.replay_cmd import add_replay_parser, run_replay
from shedkit.cli.rules_cmd import add_rules_parser, run_rules
from shedkit.cli.serve_cmd import add_serve_parser, run_serve
from shedkit.cli.train_cmd import add_train_parser, run_train
from shedkit.core.compiled import describe
from shedkit.core.errors import ShedkitError

__all__ = ["build_parser", "main"]

_DESCRIPTION = """\
shedkit plays and studies shedding games (Dou Di Zhu, President, Dominoes) and
Tien Gow: play a match against bots in the terminal, replay saved deals, host
tables in the browser, run bots against each other in an arena, or train a
learned agent. Every deal is seeded
and recorded, so any match can be replayed exactly.

'shedkit COMMAND --help' describes a command and its options."""


def build_parser(game: str | None = None, serve_flags: bool = True) -> argparse.ArgumentParser:
    """The argument parser of ``shedkit``; with ``game``, ``play`` and ``arena`` take (and
    describe, for ``--help``) that game's rules options only; without ``serve_flags``,
    ``serve`` is listed but takes none of its flags (they cost the server's import)."""
    games = None if game is None else [game]
    parser = ShedkitParser(prog="shedkit", description=_DESCRIPTION)
    parser.add_argument(
        "--version", action="version", version=f"shedkit {shedkit.__version__} ({describe()})"
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=ShedkitParser
    )
    add_rules_parser(sub)
    add_play_parser(sub, games)
    add_replay_parser(sub)
    add_serve_parser(sub, serve_flags)
    add_arena_command(sub, games)
    add_bot_parser(sub)
    add_train_parser(sub)
    return parser


def _game_named(argv: Sequence[str]) -> str | None:
    """The game a ``play`` or ``arena`` command line names, if any (for its own help)."""
    if argv[:1] not in (["play"], ["arena"]):
        return None
    return next((a for a in argv[1:] if a in shedkit.GAMES), None)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the command ``args`` name; its exit status."""
    out = Console(highlight=False)
    # Messages stay on one line so that they can be searched for and copied whole.
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    stdin = sys.stdin
    try:
        if args.command == "play":
            return run_play(args, out, err, stdin)
        if args.command == "replay":
            return run_replay(args, out, stdin)
        if args.command == "serve":
            return run_serve(args, out, err)
        if args.command == "rules":
            return run_rules(args, out)
        if args.command == "arena":
            return run_arena_command(args, out, err)
        if args.command == "bot":
            return run_bot(args, out, err)
        if args.command == "train":
            return run_train(args, out, err)
        parser.print_help()
        return 2
    except ShedkitError as error:
        err.print(f"shedkit {args.command}: {error}", markup=False)
        return 2
    except KeyboardInterrupt:
        out.print("\nInterrupted.")
        return 130


def main(argv: list[str] | None = None) -> int:
    """Run ``shedkit`` with ``argv`` (default: the process's arguments); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    program: list[str] = []
    if argv[:1] == ["bot"] and "--" in argv:
        # shedkit bot connect ... -- PROGRAM ARGS: the program's arguments are its own.
        cut = argv.index("--")
        argv, program = argv[:cut], argv[cut + 1 :]
    # Only a line with the word can be a serve command; a stray one costs only the import.
    serve_flags = "serve" in argv
    game = _game_named(argv)
    if game is not None and ("-h" in argv or "--help" in argv):
        # Only that game's options in its help; parsing takes every game's flags, so that the
        # game itself names a wrong option with the ones it takes.
        parser = build_parser(game, serve_flags)
    else:
        parser = build_parser(serve_flags=serve_flags)
    ShedkitParser.argv = list(argv)
    try:
        args, extra = parser.parse_known_args(argv)
        if program:
            args.program = program
    except SystemExit as stop:
        # argparse exits for --help, --version and usage errors; report the status instead.
        return stop.code if isinstance(stop.code, int) else 2
    # A command that cannot run here (a missing extra) says so whatever it was given.
    if extra and getattr(args, "unavailable", None) is None:
        path = [args.command or "", getattr(args, "bot_command", None) or ""]
        print(unknown_flag_message(parser, " ".join(filter(None, path)), extra), file=sys.stderr)
        return 2
    return _run(args, parser)


if __name__ == "__main__":
    sys.exit(main())
