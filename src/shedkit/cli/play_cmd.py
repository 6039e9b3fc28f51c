"""``shedkit play GAME``: a match of several deals against bots in the terminal.

A game is playable in the terminal when ``shedkit.cli.<game>_tui`` exists and
names its client ``TUI`` and its replay function ``replay_deal``. Every field
of a game's ``Options`` is a flag of ``shedkit play`` (``--players 4``,
``--tax``, ``--no-pass-is-final``); the game itself checks the values.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.agents.base import AGENTS_WITH_ARGUMENT, agent_names, load_entry_points
from shedkit.agents.external import BotLimits, ExternalAgent, is_external
from shedkit.core.errors import OptionError, did_you_mean
from shedkit.core.match import Match
from shedkit.core.option_flags import (
    add_option_flags,
    flag_options,
    option_fields,
    parse_option_values,
    value_text,
)
from shedkit.core.options import options_to_dict
from shedkit.core.rng import derive_seed

__all__ = [
    "MATCH_FILE",
    "PLAYABLE",
    "add_play_parser",
    "presets_text",
    "rules_text",
    "run_play",
]


def _has_tui(name: str) -> bool:
    return importlib.util.find_spec(f"shedkit.cli.{name}_tui") is not None


#: Games with a terminal front end (``shedkit play GAME``).
PLAYABLE = tuple(name for name in sorted(shedkit.GAMES) if _has_tui(name))

#: The file ``shedkit play`` writes beside the deal records: game, seed and seat names.
MATCH_FILE = "match.json"


def presets_text(games: Sequence[str] = PLAYABLE) -> str:
    """Each game's presets with what they change, for ``shedkit play --help``."""
    lines = ["presets (--preset NAME):"]
    for game in games:
        module = importlib.import_module(f"shedkit.{game}.options")
        helps: dict[str, str] = getattr(module, "PRESET_HELP", {})
        lines.append(f"  {game}:")
        for name, changes in module.PRESETS.items():
            what = helps.get(name) or ", ".join(f"{k}={value_text(v)}" for k, v in changes.items())
            lines.append(f"    {name:<14} {what}")
    return "\n".join(lines)


def add_play_parser(sub: Any, games: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Add the ``play`` command to ``sub``; its rules option flags are those of ``games``
    (default: every game's)."""
    play: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a match against bots in the terminal (--watch: bots only)",
        description=(
            "Play a match of several deals against bots, with running scores; "
            "type ? during play for how to write moves."
        ),
        epilog=presets_text(PLAYABLE if games is None else games),
    )
    play.add_argument("game", nargs="?", help=f"the game: {', '.join(PLAYABLE)}")
    play.add_argument("--preset", default="standard", help="rules preset (default: standard)")
    play.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    play.add_argument(
        "--bots",
        default="greedy",
        help="the bots' agent or level: random, easy, medium (greedy), hard or expert "
        "(search: seconds a move), douzero:DIR (DouZero's networks, weights in DIR), "
        "or any registered agent (default: greedy)",
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
        help="deals in the match, 0 for no limit (default: 5; a game with a target: no limit; "
        "tiengow: its --hands)",
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
    add_option_flags(play, games)
    play.add_argument(
        "--delay",
        type=float,
        default=None,
        help="seconds to pause after each bot move (default: 0.4 on a terminal, else 0)",
    )
    return play


def run_play(args: argparse.Namespace, out: Console, err: Console, stdin: TextIO) -> int:
    """Run ``shedkit play`` with parsed ``args``; the exit status (bad options raise
    ``ShedkitError``)."""
    if args.game not in PLAYABLE:
        what = (
            "no game given"
            if args.game is None
            else f"unknown game {args.game!r}{did_you_mean(args.game, PLAYABLE)}"
        )
        err.print(f"shedkit play: {what}; valid games: {', '.join(PLAYABLE)}")
        return 2
    client = importlib.import_module(f"shedkit.cli.{args.game}_tui")
    options = {**parse_option_values(args.option), **flag_options(args)}
    if args.target is not None and args.game in option_fields().get("target", {}):
        options.setdefault("target", args.target)  # the game's own match target (DOM-11)
    game = shedkit.make(args.game, preset=args.preset, **options)
    hands = getattr(game.options, "hands", None)
    if isinstance(hands, int) and args.deals is None:
        # A game whose rules set the match's length plays it in full (Tien Gow, TG-41).
        args.deals = hands
    if isinstance(getattr(game.options, "target", None), int):
        # A game with its own match target (Dominoes, DOM-11) plays to it.
        args.target = game.options.target if args.target is None else args.target
        args.deals = 0 if args.deals is None else args.deals
    args.deals = 5 if args.deals is None else args.deals
    n = game.num_players
    if args.seat not in range(n):
        raise OptionError(f"--seat must be 0 to {n - 1}, not {args.seat}")
    known = args.bots in AGENTS or args.bots in AGENTS_WITH_ARGUMENT
    if not known and not (":" in args.bots or args.bots in _entry_point_agents()):
        raise OptionError(
            f"unknown bots {args.bots!r}{did_you_mean(args.bots, [*AGENTS, *AGENTS_WITH_ARGUMENT])}"
            f"; valid bots: {', '.join(agent_names())}, an import "
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
    changed = [f"{k}={value_text(v)}" for k, v in now.items() if base.get(k) != v]
    return f"preset {game.preset!r}" + (f" with {', '.join(changed)}" if changed else "")


def _write_match_file(
    records: Path, game: str, preset: str, seed: int, names: Sequence[str]
) -> None:
    """Note the match seed and the players' names, for ``shedkit replay`` of the folder."""
    info = {"game": game, "preset": preset, "seed": seed, "names": list(names)}
    (records / MATCH_FILE).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
