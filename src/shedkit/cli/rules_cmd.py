"""``shedkit rules``: the games' rules for players, from the text shipped in the package.

``shedkit rules`` lists the games, ``shedkit rules GAME`` prints a game's
rules, ``shedkit rules GAME RULE-ID`` or ``shedkit rules RULE-ID`` one rule
(``pre-16`` works as well as ``PRE-16``). On a terminal the markdown is
rendered; piped, it is printed as it is.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markdown import Markdown

from shedkit import rules as rulebook

__all__ = ["add_rules_parser", "run_rules"]


def add_rules_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``rules`` command to ``sub`` (the result of ``add_subparsers``)."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "rules",
        help="show the rules of a game, or one rule by its ID",
        description=(
            "Show the rules of a game, or one rule by its ID (PRE-16, ddz-16). "
            "Error messages quote these IDs."
        ),
    )
    parser.add_argument(
        "topic", nargs="?", metavar="GAME|RULE-ID", help=f"one of {', '.join(rulebook.GAMES)}"
    )
    parser.add_argument("rule_id", nargs="?", metavar="RULE-ID", help="a rule of that game")
    return parser


def _show(markdown: str, out: Console) -> None:
    text = rulebook.strip_anchors(markdown)
    if out.is_terminal:
        out.print(Markdown(text))
    else:
        out.print(text, markup=False, highlight=False, end="", soft_wrap=True)


def run_rules(args: argparse.Namespace, out: Console) -> int:
    """Run ``shedkit rules`` with parsed ``args``; unknown games or IDs raise ``ShedkitError``."""
    topic: str | None = args.topic
    if topic is None:
        for game in rulebook.GAMES:
            first = next(iter(rulebook.rules(game).values()))
            last = list(rulebook.rules(game))[-1]
            out.print(f"{game}  ({first.id} … {last})", markup=False, highlight=False)
        out.print("`shedkit rules GAME` shows a game's rules, `shedkit rules RULE-ID` one rule.")
        return 0
    if args.rule_id is not None:
        _show(rulebook.rule(args.rule_id, topic).markdown(), out)
    elif topic.strip().lower() in rulebook.GAMES:
        _show(rulebook.text(topic), out)
    elif "-" in topic:
        _show(rulebook.rule(topic).markdown(), out)
    else:
        raise rulebook.UnknownRuleError(
            f"no rules for game {topic!r}; the games are {', '.join(rulebook.GAMES)}"
        )
    return 0
