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
import difflib
import importlib
import importlib.util
import json
import re
import secrets
import socket
import sys
import time
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn, TextIO

from rich.console import Console

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.agents.base import load_entry_points
from shedkit.agents.external import BotLimits, ExternalAgent, is_external
from shedkit.arena.cli import add_arena_parser, run_arena
from shedkit.cli.bot_cmd import add_bot_parser, run_bot
from shedkit.cli.rules_cmd import add_rules_parser, run_rules
from shedkit.core.compiled import describe
from shedkit.core.errors import OptionError, RecordError, ShedkitError, did_you_mean
from shedkit.core.extras import MissingExtraError
from shedkit.core.match import Match
from shedkit.core.options import options_to_dict
from shedkit.core.records import load_record
from shedkit.core.rng import derive_seed

__all__ = ["PLAYABLE", "build_parser", "main", "option_fields", "parse_option_values"]


def _has_tui(name: str) -> bool:
    return importlib.util.find_spec(f"shedkit.cli.{name}_tui") is not None


#: Games with a terminal front end (``shedkit play GAME``).
PLAYABLE = tuple(name for name in sorted(shedkit.GAMES) if _has_tui(name))


def option_fields(games: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every rules option of ``games`` (default: all): ``{name: {game: type hint}}``.

    Each game package exports its ``Options`` dataclass (same module names in
    every game), so the command line needs no list of its own.
    """
    out: dict[str, dict[str, Any]] = {}
    for game in sorted(shedkit.GAMES) if games is None else games:
        cls = importlib.import_module(f"shedkit.{game}").Options
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            out.setdefault(f.name, {})[game] = hints[f.name]
    return out


def _option_docs(game: str) -> dict[str, tuple[str, Any]]:
    """``{option: (one-line help, default)}`` of a game, from its ``Options`` fields."""
    cls = importlib.import_module(f"shedkit.{game}").Options
    return {f.name: (f.metadata.get("help", ""), f.default) for f in dataclasses.fields(cls)}


def _value_text(value: Any) -> str:
    """A default as typed on the command line."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def presets_text(games: Sequence[str] = PLAYABLE) -> str:
    """Each game's presets with what they change, for ``shedkit play --help``."""
    lines = ["presets (--preset NAME):"]
    for game in games:
        module = importlib.import_module(f"shedkit.{game}.options")
        helps: dict[str, str] = getattr(module, "PRESET_HELP", {})
        lines.append(f"  {game}:")
        for name, changes in module.PRESETS.items():
            what = helps.get(name) or ", ".join(f"{k}={_value_text(v)}" for k, v in changes.items())
            lines.append(f"    {name:<14} {what}")
    return "\n".join(lines)


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
    args = typing.get_args(hint)
    if type(None) in args:
        return _describe(next(a for a in args if a is not type(None)))
    if typing.get_origin(hint) is typing.Literal:
        return "/".join(str(a) for a in args)
    if hint is int:
        return "a number"
    if hint is bool:
        return "yes/no"
    return getattr(hint, "__name__", str(hint))


def _add_option_flags(play: argparse.ArgumentParser, games: Sequence[str] | None = None) -> None:
    """One flag per rules option of ``games`` (default: all), named after the option."""
    one = games is not None and len(games) == 1
    group = play.add_argument_group(
        f"rules options of {games[0]}" if one and games else "rules options",
        None
        if one
        else "each game takes its own (the game named in brackets); "
        "'--help' after the game's name lists that game's only",
    )
    chosen = sorted(shedkit.GAMES) if games is None else list(games)
    docs = {game: _option_docs(game) for game in chosen}
    for name, by_game in option_fields(chosen).items():
        flag = "--" + name.replace("_", "-")
        if name in _MATCH_FLAGS:
            continue  # set by the match flag of the same name (--target)
        parts = []
        for game, hint in by_game.items():
            text, default = docs[game][name]
            values = _describe(hint)
            tail = f"; {values}" if hint is not bool else ""
            if default is not None:
                tail += f"; default {_value_text(default)}"
            parts.append(f"{text}{tail}" if one else f"[{game}] {text}{tail}")
        described = " | ".join(parts).replace("%", "%%")
        if all(h is bool for h in by_game.values()):
            group.add_argument(
                flag,
                dest=f"opt_{name}",
                action=argparse.BooleanOptionalAction,
                default=None,
                help=described,
            )
            continue
        group.add_argument(flag, dest=f"opt_{name}", default=None, metavar="VALUE", help=described)


class HelpFormatter(argparse.HelpFormatter):
    """Help with every flag's default shown, and descriptions kept as written when they
    are laid out in lines (a one-line description is wrapped as usual)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        shown = default not in (None, False, [], "", argparse.SUPPRESS)
        if action.option_strings and shown and "default" not in text and "%(default)" not in text:
            text += " (default: %(default)s)"
        return text


class ShedkitParser(argparse.ArgumentParser):
    """An argument parser whose help shows defaults (``HelpFormatter``) and whose errors
    name the nearest flag of a mistyped one (a missing ``--table`` typed ``--tabel``)."""

    #: The command line being parsed, for the errors' suggestions.
    argv: ClassVar[list[str]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["formatter_class"] = HelpFormatter
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message``, with the nearest flags of mistyped ones; exit 2."""
        known = [f for f in self._option_string_actions if f.startswith("--")]
        typed = [a.split("=", 1)[0] for a in self.argv if a.startswith("--")]
        hints = [
            f"{t} is not a flag here; did you mean {close[0]}?"
            for t in typed
            if t not in known and (close := difflib.get_close_matches(t, known, n=1, cutoff=0.6))
        ]
        # One line, as the other errors: a full usage of play's flags would fill the screen.
        said = "; ".join([message, *hints])
        self.exit(2, f"{self.prog}: {said} ('{self.prog} --help' lists what it takes)\n")


#: Flags people reach for that ``shedkit`` spells otherwise: {command: {typed: meant}}.
_MEANT = {
    "play": {"--level": "--bots", "--bot": "--bots", "--agent": "--bots", "--difficulty": "--bots"},
    "arena": {"--bots": "--agents", "--agent": "--agents", "--players-count": "--players"},
}


def unknown_flag_message(parser: argparse.ArgumentParser, command: str, extra: list[str]) -> str:
    """The error for arguments ``command`` (``"play"``, ``"bot connect"``) does not take,
    with the nearest flag it does."""
    sub: argparse.ArgumentParser | None = parser
    for word in command.split():
        sub = _subparser(sub, word) if sub is not None else None
    flags = [] if sub is None else [f for f in sub._option_string_actions if f.startswith("--")]
    first = extra[0]
    if first.startswith("-"):
        typed = first.split("=", 1)[0]
        meant = _MEANT.get(command.split()[0] if command else "", {}).get(typed)
        close = [meant] if meant else difflib.get_close_matches(typed, flags, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
        what = f"unknown flag {typed}{hint}"
    else:
        what = f"unexpected argument {first!r}"
    where = f"shedkit {command}" if command else "shedkit"
    return f"{where}: {what} ('{where} --help' lists what it takes)"


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser | None:
    """The parser of ``shedkit COMMAND``, if there is one."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(command)
            return found if isinstance(found, argparse.ArgumentParser) else None
    return None


_DESCRIPTION = """\
shedkit plays and studies shedding games (Dou Di Zhu, President, Dominoes):
play a match against bots in the terminal, replay saved deals, host tables in
the browser, or run bots against each other in an arena. Every deal is seeded
and recorded, so any match can be replayed exactly.

'shedkit COMMAND --help' describes a command and its options."""


def build_parser(game: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``shedkit``; with ``game``, ``play`` and ``arena`` take (and
    describe, for ``--help``) that game's rules options only."""
    games = None if game is None else [game]
    parser = ShedkitParser(prog="shedkit", description=_DESCRIPTION)
    parser.add_argument(
        "--version", action="version", version=f"shedkit {shedkit.__version__} ({describe()})"
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=ShedkitParser
    )
    add_rules_parser(sub)

    play = sub.add_parser(
        "play",
        help="play a match against bots in the terminal (--watch: bots only)",
        description=(
            "Play a match of several deals against bots, with running scores; "
            "type ? during play for how to write moves."
        ),
        epilog=presets_text(PLAYABLE if game is None else [game]),
    )
    play.add_argument("game", nargs="?", help=f"the game: {', '.join(PLAYABLE)}")
    play.add_argument("--preset", default="standard", help="rules preset (default: standard)")
    play.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    play.add_argument(
        "--bots",
        default="greedy",
        help="the bots' agent or level: random, easy, medium (greedy), hard or expert "
        "(search: seconds a move), or any registered agent (default: greedy)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    play.add_argument(
        "--move-time",
        type=float,
        default=5.0,
        help="seconds a bot program (--bots cmd:...) has for each move (default: 5)",
    )
    play.add_argument(
        "--startup-time",
        type=float,
        default=10.0,
        help="seconds a bot program has to start and answer hello (default: 10)",
    )
    play.add_argument(
        "--bot-logs",
        default="bot-logs",
        metavar="DIR",
        help="folder of the bot programs' stderr logs (default: bot-logs)",
    )
    play.add_argument(
        "--watch",
        action="store_true",
        help="bots in every seat: watch a match, no input needed",
    )
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
    _add_option_flags(play, games)
    play.add_argument(
        "--delay",
        type=float,
        default=None,
        help="seconds to pause after each bot move (default: 0.4 on a terminal, else 0)",
    )

    replay = sub.add_parser(
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

    serve = sub.add_parser(
        "serve",
        help="host tables in the browser (needs the [server] extra)",
        description="Serve the web client: tables with friends and bots, replays of every deal.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument(
        "--port",
        type=int,
        default=8000,
        help="port; 0 lets the system pick a free one, shown once bound (default: 8000)",
    )
    serve.add_argument(
        "--db", default=None, help="SQLAlchemy URL (default: sqlite:///shedkit.db here)"
    )
    serve.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds a bot waits before moving"
    )
    serve.add_argument(
        "--turn-clock",
        type=float,
        default=30.0,
        help="default seconds per move of a new table, 0 for none (default: 30); "
        "then the seat's time bank, then its bot plays that move",
    )
    serve.add_argument(
        "--time-bank", type=float, default=30.0, help="extra seconds per seat and deal"
    )
    serve.add_argument(
        "--away-after",
        type=float,
        default=20.0,
        help="seconds without a connection before a seat's bot plays for it",
    )
    serve.add_argument(
        "--max-tables", type=int, default=1000, help="tables this server hosts at most"
    )
    serve.add_argument(
        "--tables-per-client", type=int, default=20, help="open tables one address may create"
    )
    serve.add_argument(
        "--creates-per-minute",
        type=float,
        default=10.0,
        help="tables one address may create a minute",
    )
    serve.add_argument(
        "--joins-per-minute", type=float, default=30.0, help="seats one address may take a minute"
    )
    serve.add_argument(
        "--ws-per-client",
        type=int,
        default=16,
        metavar="N",
        help="WebSockets one browser (its cookie) may hold open (default: 16)",
    )
    serve.add_argument(
        "--ws-per-address",
        type=int,
        default=64,
        metavar="N",
        help="WebSockets one address may hold open (default: 64)",
    )
    serve.add_argument(
        "--ws-per-table",
        type=int,
        default=200,
        metavar="N",
        help="WebSockets (players and spectators) per table (default: 200)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=4096,
        metavar="N",
        help="connections served at once; more are answered 503 (default: 4096)",
    )
    serve.add_argument(
        "--connections-per-address",
        type=int,
        default=256,
        metavar="N",
        help="connections one address may hold open; more are answered 429 (default: 256; "
        "the addresses trusted for forwarded headers, a reverse proxy, are not capped)",
    )
    serve.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a request's head, or its body, may take to arrive (default: 10)",
    )
    serve.add_argument(
        "--send-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a client may leave an answer or its messages unread before it is "
        "disconnected (default: 10)",
    )
    serve.add_argument(
        "--replays-per-minute",
        type=float,
        default=30.0,
        metavar="N",
        help="replays not yet cached one address may ask for a minute (default: 30)",
    )
    serve.add_argument(
        "--bot-workers",
        type=int,
        default=0,
        metavar="N",
        help="processes in which search bots (hard, expert) compute their moves "
        "(default: 0, the cores but one, at most 4)",
    )
    serve.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a browser origin besides the page's own allowed to open WebSockets "
        "(repeatable, e.g. https://cards.example.org)",
    )
    serve.add_argument(
        "--trusted-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name the server answers to (repeatable; default: loopback names and "
        "--host; '*' for any)",
    )
    serve.add_argument(
        "--cluster",
        default=None,
        metavar="REDIS_URL",
        help="join a cluster of nodes through Redis (e.g. redis://127.0.0.1:6379/0); "
        "needs --db postgresql://… shared by every node",
    )
    serve.add_argument(
        "--node-id",
        default=None,
        metavar="NAME",
        help="this node's name in the cluster (default: the host name and port)",
    )
    serve.add_argument(
        "--lease",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds a node holds its tables without renewing: how soon another node "
        "takes over the tables of one that died (default: 5)",
    )
    serve.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="log lines as text (time, level, node, table, message) or as one JSON "
        "object per line, for a log collector (default: text)",
    )
    arena = add_arena_parser(sub)
    # The arena takes the same rules option flags as play (--players 5 as --option players=5).
    _add_option_flags(arena, games)
    add_bot_parser(sub)
    return parser


def _game_named(argv: Sequence[str]) -> str | None:
    """The game a ``play`` or ``arena`` command line names, if any (for its own help)."""
    if argv[:1] not in (["play"], ["arena"]):
        return None
    return next((a for a in argv[1:] if a in shedkit.GAMES), None)


def _node_name(port: int) -> str:
    """A default node name: this machine's name and the port, as a node id allows."""
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname())[:24] or "node"
    return f"{host}-{port}"


def _serve(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
    try:
        from shedkit.server.run import serve
        from shedkit.server.settings import Settings
    except ImportError as missing:
        # A missing extra's message already says what to install; a bare ImportError does not.
        advice = (
            ""
            if isinstance(missing, MissingExtraError)
            else ("; install the server extra: pip install 'shedkit[server]'")
        )
        err.print(f"shedkit serve: {missing}{advice}", markup=False)
        return 2
    try:
        settings = Settings(
            bot_delay=args.bot_delay,
            away_after=args.away_after,
            turn_clock=args.turn_clock,
            time_bank=args.time_bank,
            max_tables=args.max_tables,
            tables_per_client=args.tables_per_client,
            creates_per_minute=args.creates_per_minute,
            joins_per_minute=args.joins_per_minute,
            allowed_origins=tuple(args.allowed_origin),
            bot_workers=args.bot_workers,
            ws_per_client=args.ws_per_client,
            ws_per_address=args.ws_per_address,
            ws_per_table=args.ws_per_table,
            max_connections=args.max_connections,
            connections_per_address=args.connections_per_address,
            request_timeout=args.request_timeout,
            send_timeout=args.send_timeout,
            replays_per_minute=args.replays_per_minute,
            cluster_url=args.cluster,
            node_id=args.node_id or _node_name(args.port),
            lease_ttl=args.lease,
            log_format=args.log_format,
        )
        if args.cluster and not (args.db or "").startswith("postgresql"):
            raise ValueError("a cluster's nodes share one PostgreSQL: add --db postgresql://…")
    except ValueError as bad:
        err.print(f"shedkit serve: {bad}", markup=False)
        return 2
    return serve(args.host, args.port, args.db, settings, tuple(args.trusted_host), out)


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
        what = (
            "no game given"
            if args.game is None
            else f"unknown game {args.game!r}{did_you_mean(args.game, PLAYABLE)}"
        )
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
    if args.bots not in AGENTS and not (":" in args.bots or args.bots in _entry_point_agents()):
        raise OptionError(
            f"unknown bots {args.bots!r}{did_you_mean(args.bots, AGENTS)}; "
            f"valid bots: {', '.join(sorted(AGENTS))}, an import "
            "path package.module:Class or cmd:PROGRAM (a bot program)"
        )
    # A short random seed is easy to note down and type back to replay a match.
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    records = (
        Path(args.records)
        if args.records
        else Path("records") / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    )
    deals = args.deals if args.deals != 0 else None
    match = Match(game, seed=seed, deals=deals, target=args.target, records_dir=records)
    human = None if args.watch else args.seat
    agents: dict[int, Agent] = {}
    for s in range(n):
        if s != human:
            if is_external(args.bots):
                limits = BotLimits(args.move_time, args.startup_time, args.bot_logs)
                agents[s] = ExternalAgent(args.bots, game, derive_seed(seed, "bot", s), limits)
            else:
                agents[s] = make_agent(args.bots, game, derive_seed(seed, "bot", s))
    try:
        return _play_match(args, out, stdin, client, game, match, human, agents, records, seed)
    finally:
        for agent in agents.values():
            close = getattr(agent, "close", None)
            if callable(close):
                close()


def _entry_point_agents() -> set[str]:
    """The agent names installed packages register (entry points), loaded on demand."""
    load_entry_points()
    return set(AGENTS)


def _play_match(
    args: argparse.Namespace,
    out: Console,
    stdin: TextIO,
    client: Any,
    game: Any,
    match: Match,
    human: int | None,
    agents: dict[int, Agent],
    records: Path,
    seed: int,
) -> int:
    """Play the match of ``shedkit play`` once its bots are made; the exit status."""
    deals = match.deals
    tty = stdin is sys.stdin and stdin.isatty() and out.is_terminal
    delay = args.delay if args.delay is not None else (0.4 if tty else 0.0)
    tui = client.TUI(out, game, human, agents, stdin, delay=delay)
    limits = []
    if deals is not None:
        limits.append(f"{deals} deal(s)")
    if args.target is not None:
        limits.append(f"first to {args.target}")
    out.print(
        f"[bold]{client.TUI.title}[/] — {rules_text(game)}, seed {seed}, "
        f"{' or '.join(limits) or 'no end'}. "
        + (
            f"All seats are {args.bots} bots."
            if human is None
            else f"You are seat {human}; the others are {args.bots} bots."
        ),
        highlight=False,
    )
    help_hint = "" if human is None else "  (type ? for help)"
    out.print(f"Records go to {records}/{help_hint}", highlight=False)
    try:
        finished = tui.play_match(match)
    except KeyboardInterrupt:
        finished = None
    saved = sum(1 for r in match.results if r.path is not None)
    if saved:
        # Beside the records only: a match that saved no deal leaves no folder behind.
        _write_match_file(records, args.game, args.preset, seed, tui.names)
    if finished:
        out.print(f"Records of the deals are in {records}/", highlight=False)
        return 0
    what = "Quit." if finished is False else "\nInterrupted."
    if saved:
        out.print(f"{what} {saved} deal record(s) saved in {records}/", highlight=False)
    else:
        out.print(f"{what} No deal was finished, so no record was saved.", highlight=False)
    return 0 if finished is False else 130


def rules_text(game: Any) -> str:
    """The rules in force: the preset, and the options that flags changed from it."""
    preset = shedkit.make(game.name, preset=game.preset).options
    base, now = options_to_dict(preset), options_to_dict(game.options)
    changed = [f"{k}={_value_text(v)}" for k, v in now.items() if base.get(k) != v]
    return f"preset {game.preset!r}" + (f" with {', '.join(changed)}" if changed else "")


#: The file ``shedkit play`` writes beside the deal records: game, seed and seat names.
MATCH_FILE = "match.json"


def _write_match_file(
    records: Path, game: str, preset: str, seed: int, names: Sequence[str]
) -> None:
    """Note the match seed and the players' names, for ``shedkit replay`` of the folder."""
    info = {"game": game, "preset": preset, "seed": seed, "names": list(names)}
    (records / MATCH_FILE).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


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


def _replay(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
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


def main(argv: list[str] | None = None) -> int:
    """Run ``shedkit`` with ``argv`` (default: the process's arguments); return the exit status."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    program: list[str] = []
    if argv[:1] == ["bot"] and "--" in argv:
        # shedkit bot connect ... -- PROGRAM ARGS: the program's arguments are its own.
        cut = argv.index("--")
        argv, program = argv[:cut], argv[cut + 1 :]
    game = _game_named(argv)
    if game is not None and ("-h" in argv or "--help" in argv):
        # Only that game's options in its help; parsing takes every game's flags, so that the
        # game itself names a wrong option with the ones it takes.
        parser = build_parser(game)
    ShedkitParser.argv = list(argv)
    try:
        args, extra = parser.parse_known_args(argv)
        if program:
            args.program = program
    except SystemExit as stop:
        # argparse exits for --help, --version and usage errors; report the status instead.
        return stop.code if isinstance(stop.code, int) else 2
    if extra:
        path = [args.command or "", getattr(args, "bot_command", None) or ""]
        print(unknown_flag_message(parser, " ".join(filter(None, path)), extra), file=sys.stderr)
        return 2
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
            args.option = [
                *args.option,
                *(f"{k}={_value_text(v)}" for k, v in _flag_options(args).items()),
            ]
            return run_arena(args, out, err)
        if args.command == "bot":
            return run_bot(args, out, err)
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
