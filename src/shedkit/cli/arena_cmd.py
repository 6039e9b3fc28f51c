"""``shedkit arena GAME``: the arena's command (`shedkit.arena.cli`) with the rules option
flags of ``shedkit play`` (``--players 5`` as ``--option players=5``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from shedkit.arena.cli import add_arena_parser, run_arena
from shedkit.core.option_flags import add_option_flags, flag_options, value_text

__all__ = ["add_arena_command", "run_arena_command"]


def add_arena_command(sub: Any, games: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Add the ``arena`` command to ``sub``, with the rules option flags of ``games``
    (default: every game's)."""
    arena = add_arena_parser(sub)
    add_option_flags(arena, games)
    return arena


def run_arena_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run ``shedkit arena``: the option flags join ``--option`` before the arena reads it."""
    args.option = [*args.option, *(f"{k}={value_text(v)}" for k, v in flag_options(args).items())]
    return run_arena(args, out, err)
