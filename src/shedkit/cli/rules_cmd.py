"""``shedkit rules``: the games' rules for players, from the text shipped in the package.

``shedkit rules`` lists the games, ``shedkit rules GAME`` prints a game's
rules, ``shedkit rules GAME RULE-ID`` or ``shedkit rules RULE-ID`` one rule
(``pre-16`` works as well as ``PRE-16``); ``--lang de`` (or ``zh``, ``it``,
``ja``) shows them in another language. On a terminal the markdown is
rendered, through the pager when it is longer than the screen; piped, it is laid out
as plain text.
"""

from __future__ import annotations

import argparse
import io
from typing import Any

from rich.console import Console
from rich.markdown import Markdown

from shedkit import rules as rulebook
from shedkit.core.errors import did_you_mean

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
    parser.add_argument(
        "--lang",
        default="en",
        metavar="LANG",
        help=f"language of the rules, one of {', '.join(rulebook.LANGS)} (default en)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the Markdown source instead of laying it out"
    )
    return parser


def plain(markdown: str, width: int = 88) -> str:
    """Markdown laid out as plain text: no markup signs, no colour, tables drawn."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, force_terminal=False).print(
        Markdown(markdown)
    )
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"


def _show(markdown: str, out: Console, source: bool = False) -> None:
    text = rulebook.strip_anchors(markdown)
    if source:
        out.print(text, markup=False, highlight=False, end="", soft_wrap=True)
        return
    if not out.is_terminal:
        out.print(plain(text), markup=False, highlight=False, end="", soft_wrap=True)
        return
    rendered = Markdown(text)
    lines = out.render_lines(rendered, pad=False)
    if len(lines) <= out.size.height - 2:
        out.print(rendered)
        return
    # Longer than the screen: through the pager ($PAGER, else less), colours kept.
    with out.pager(styles=True):
        out.print(rendered)


def run_rules(args: argparse.Namespace, out: Console) -> int:
    """Run ``shedkit rules`` with parsed ``args``; unknown games or IDs raise ``ShedkitError``."""
    topic: str | None = args.topic
    # Namespaces built by hand (tests, callers of run_rules) may predate --lang.
    lang = rulebook.check_lang(getattr(args, "lang", "en"))
    source = bool(getattr(args, "markdown", False))
    if topic is None:
        for game in rulebook.GAMES:
            first = next(iter(rulebook.rules(game).values()))
            last = list(rulebook.rules(game))[-1]
            out.print(f"{game}  ({first.id} … {last})", markup=False, highlight=False)
        out.print(
            "`shedkit rules GAME` shows a game's rules, `shedkit rules RULE-ID` one rule; "
            f"--lang picks the language ({', '.join(rulebook.LANGS)})."
        )
        return 0
    if args.rule_id is not None:
        _show(rulebook.rule(args.rule_id, topic, lang).markdown(), out, source)
    elif topic.strip().lower() in rulebook.GAMES:
        _show(rulebook.text(topic, lang), out, source)
    elif "-" in topic:
        _show(rulebook.rule(topic, lang=lang).markdown(), out, source)
    else:
        raise rulebook.UnknownRuleError(
            f"no rules for game {topic!r}{did_you_mean(topic, rulebook.GAMES)}; "
            f"the games are {', '.join(rulebook.GAMES)}"
        )
    return 0
