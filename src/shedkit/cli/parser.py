"""The argument parser every ``shedkit`` command is built with: help that shows each flag's
default, and one-line errors that name the nearest flag of a mistyped one."""

from __future__ import annotations

import argparse
import difflib
from typing import Any, ClassVar, NoReturn

__all__ = ["HelpFormatter", "ShedkitParser", "unknown_flag_message"]


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
        # By identity: a default of 0 is worth showing, False (a switch) and None are not.
        hidden = default is None or default is False or default in ([], (), "", argparse.SUPPRESS)
        if action.option_strings and not hidden and "default" not in text:
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
