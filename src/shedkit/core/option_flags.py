"""Rules options on a command line: ``--option NAME=VALUE`` pairs and one flag per option.

Every field of a game's ``Options`` is a flag (``--players 4``, ``--tax``,
``--no-pass-is-final``) of the commands that make games (``shedkit play``,
``shedkit arena``); ``--option`` takes the same options as ``name=value``
text. This module only turns text into Python values: the game checks names
and values.

It lives outside ``shedkit.cli`` because ``shedkit.arena.cli`` reads the same
options, and the ``shedkit.cli`` package loads every command, the arena's among
them, when it is imported.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import typing
from collections.abc import Sequence
from typing import Any

import shedkit
from shedkit.core.errors import OptionError

__all__ = [
    "MATCH_FLAGS",
    "add_option_flags",
    "flag_options",
    "option_fields",
    "parse_option_values",
    "typed_value",
    "value_text",
]

#: Options that ``shedkit play`` sets with a match flag of the same name (Dominoes'
#: ``target``, DOM-11), so that they get no flag of their own.
MATCH_FLAGS = frozenset({"target"})


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


def value_text(value: Any) -> str:
    """A value as typed on the command line (``yes``/``no`` for booleans)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def typed_value(name: str, text: str) -> Any:
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
        out[name] = typed_value(name, text)
    return out


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


def add_option_flags(parser: argparse.ArgumentParser, games: Sequence[str] | None = None) -> None:
    """One flag per rules option of ``games`` (default: all), named after the option.

    Each flag stores into ``opt_<name>`` (``None`` when not given); `flag_options`
    reads them back.
    """
    one = games is not None and len(games) == 1
    group = parser.add_argument_group(
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
        if name in MATCH_FLAGS:
            continue
        parts = []
        for game, hint in by_game.items():
            text, default = docs[game][name]
            values = _describe(hint)
            tail = f"; {values}" if hint is not bool else ""
            if default is not None:
                tail += f"; default {value_text(default)}"
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


def flag_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rules options given as flags (``--tax``, ``--players 4``), typed."""
    out: dict[str, Any] = {}
    for key, value in vars(args).items():
        if key.startswith("opt_") and value is not None:
            name = key[4:]
            out[name] = value if isinstance(value, bool) else typed_value(name, value)
    return out
