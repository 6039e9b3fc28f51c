"""The rules of the games for players, shipped with the package in five languages.

Each game's rules are one markdown file in this package: ``<game>.md`` in
English, ``<lang>/<game>.md`` in the other languages of `LANGS`. A rule
is a level-3 heading that starts with its ID and ends with a stable anchor::

    ### PRE-16 · The joker as a wild card {#pre-16}

The text runs to the next heading. Every language has the same rules, with
the same IDs and anchors in the same order; only titles and text differ.
`rule` finds one rule by its ID, `game_of` tells which game an ID
belongs to.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from shedkit.core.errors import ShedkitError, did_you_mean

__all__ = [
    "GAMES",
    "LANGS",
    "PREFIXES",
    "Rule",
    "UnknownLanguageError",
    "UnknownRuleError",
    "check_lang",
    "game_of",
    "normalize_id",
    "rule",
    "rules",
    "strip_anchors",
    "text",
]

#: Games whose rules ship with the package, in the order they are listed.
GAMES = ("doudizhu", "president", "dominoes", "tiengow")

#: Languages the rules are written in; English is the original, the others translate it.
LANGS = ("en", "zh", "it", "de", "ja")

#: The prefix of each game's rule IDs.
PREFIXES = {"DDZ": "doudizhu", "PRE": "president", "DOM": "dominoes", "TG": "tiengow"}

_HEADING = re.compile(r"^#{1,6}\s")
_RULE = re.compile(
    r"^###\s+(?P<id>(?:DDZ|PRE|DOM|TG)-\d+[a-z]?)\s+·\s+(?P<title>.*?)\s*\{#(?P<anchor>[a-z0-9-]+)\}\s*$"
)
_ID = re.compile(r"^(?P<prefix>[A-Za-z]+)-(?P<num>\d+[A-Za-z]?)$")
_ANCHOR = re.compile(r"\s*\{#[a-z0-9-]+\}\s*$")


class UnknownRuleError(ShedkitError, LookupError):
    """A game or rule ID that the shipped rules do not have."""


class UnknownLanguageError(ShedkitError):
    """A language the rules are not written in (a ``ValueError``)."""


@dataclasses.dataclass(frozen=True)
class Rule:
    """One rule: its ID (``PRE-16``), title, anchor (``pre-16``) and markdown body."""

    id: str
    title: str
    anchor: str
    body: str

    def markdown(self) -> str:
        """The rule as a markdown section: its heading (without the anchor) and body."""
        return f"### {self.id} · {self.title}\n\n{self.body}\n"


def _check_game(game: str) -> str:
    name = game.strip().lower()
    if name not in GAMES:
        raise UnknownRuleError(
            f"no rules for game {game!r}{did_you_mean(game, GAMES)}; "
            f"the games are {', '.join(GAMES)}"
        )
    return name


def _files() -> Traversable:
    # One place that finds the package's files, so a test can stand in a folder.
    return resources.files(__package__)


def check_lang(lang: str) -> str:
    """``lang`` spelt canonically (``DE`` is ``de``); one not in `LANGS` raises."""
    code = lang.strip().lower()
    if code not in LANGS:
        raise UnknownLanguageError(
            f"no rules in language {lang!r}; the languages are {', '.join(LANGS)}"
        )
    return code


@cache
def text(game: str, lang: str = "en") -> str:
    """The full markdown rules of ``game`` (one of `GAMES`).

    ``lang`` is one of `LANGS`; a translation missing from the package
    falls back to the English text rather than failing.
    """
    name = _check_game(game)
    code = check_lang(lang)
    root = _files()
    if code != "en":
        translated = root.joinpath(code, f"{name}.md")
        if translated.is_file():
            return translated.read_text(encoding="utf-8")
    return root.joinpath(f"{name}.md").read_text(encoding="utf-8")


@cache
def rules(game: str, lang: str = "en") -> dict[str, Rule]:
    """Every rule of ``game`` by ID, in the order of the text in ``lang``."""
    out: dict[str, Rule] = {}
    current: tuple[str, str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            out[current[0]] = Rule(*current, "\n".join(body).strip())

    for line in text(game, lang).splitlines():
        match = _RULE.match(line)
        if match:
            close()
            current = (match["id"], match["title"], match["anchor"])
            body = []
        elif _HEADING.match(line):
            close()
            current = None
        elif current is not None:
            body.append(line)
    close()
    return out


def strip_anchors(markdown: str) -> str:
    """``markdown`` without the ``{#anchor}`` marks that end rule headings (for terminals)."""
    return "\n".join(_ANCHOR.sub("", line) for line in markdown.splitlines()) + "\n"


def normalize_id(rule_id: str) -> str:
    """A rule ID spelt canonically: ``pre-16`` is ``PRE-16``, ``ddz-16A`` is ``DDZ-16a``."""
    match = _ID.match(rule_id.strip())
    if not match:
        raise UnknownRuleError(
            f"{rule_id!r} is not a rule ID; IDs look like DDZ-16, PRE-07, DOM-22 or TG-28"
        )
    return f"{match['prefix'].upper()}-{match['num'].lower()}"


def game_of(rule_id: str) -> str:
    """The game a rule ID belongs to, from its prefix (``PRE-16`` is ``president``)."""
    prefix = normalize_id(rule_id).split("-")[0]
    if prefix not in PREFIXES:
        raise UnknownRuleError(
            f"unknown rule prefix {prefix!r} in {rule_id!r}; "
            f"the prefixes are {', '.join(f'{p} ({g})' for p, g in PREFIXES.items())}"
        )
    return PREFIXES[prefix]


def rule(rule_id: str, game: str | None = None, lang: str = "en") -> Rule:
    """The rule ``rule_id`` (any case) in ``lang``; ``game`` defaults to the one its prefix names.

    An unknown ID raises `UnknownRuleError` naming the closest IDs.
    """
    key = normalize_id(rule_id)
    name = _check_game(game) if game is not None else game_of(key)
    table = rules(name, check_lang(lang))
    if key in table:
        return table[key]
    near = difflib.get_close_matches(key, list(table), n=5, cutoff=0.6)
    hint = f"; nearby: {', '.join(near)}" if near else ""
    raise UnknownRuleError(
        f"the {name} rules have no {key}{hint} (`shedkit rules {name}` lists them all)"
    )
