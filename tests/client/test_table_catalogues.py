"""The table's message catalogues in every language: the same keys and facts as English.

The parts checked here are the ones a player reads at the table: ``common``, ``table``
and the games' own words (``doudizhu``, ``president``, ``dominoes``, ``tiengow``), in
``static/i18n/<lang>/<part>.json``. For each translation:

- the keys are English's, plural forms aside: Italian and German have the same
  ``_one``/``_other`` forms as English, Chinese and Japanese only ``_other``;
- every value is a non-empty string with exactly the ``{{placeholders}}`` of the English
  string it translates;
- no value is left in English, save the few that every language writes alike
  (the brand, "Domino!", loan words such as "Chat").
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "src" / "shedkit" / "server" / "static" / "i18n"
PARTS = ("common", "table", "doudizhu", "president", "dominoes", "tiengow")
LANGS = ("zh", "it", "de", "ja")
#: The plural forms each language writes for a key that English writes with _one/_other.
PLURAL_FORMS = {"zh": {"other"}, "ja": {"other"}, "it": {"one", "other"}, "de": {"one", "other"}}
PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")
PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}")
#: Values a language may write exactly as English does: key -> languages.
SAME_AS_ENGLISH = {
    "common.brand": {"zh", "it", "de", "ja"},
    "dom.domino": {"it", "de"},
    "dom.team.0": {"de"},
    "dom.team.1": {"de"},
    # A team's letter, as every language names the teams (A 队, チームA, Coppia A).
    "dom.team_short.0": {"zh", "it", "de", "ja"},
    "dom.team_short.1": {"zh", "it", "de", "ja"},
    "table.chat": {"it", "de"},
    "table.menu": {"it"},
    "card.joker.any": {"de"},
    "table.counter_joker_any": {"de"},
    # The joker's lettering as printed on German and Japanese decks (a vertical ジョーカー
    # would lay its long-vowel mark across); the keys as printed on keyboards.
    "card.joker_mark.any": {"de", "ja"},
    "card.joker_mark.black": {"de", "ja"},
    "card.joker_mark.red": {"de", "ja"},
    # A small card's joker mark: the "J" of decks' corner indices.
    "card.joker_short.any": {"it", "de", "ja"},
    "card.joker_short.black": {"it", "de", "ja"},
    "card.joker_short.red": {"it", "de", "ja"},
    "table.key_esc": {"zh", "it", "de", "ja"},
    "table.key_h": {"zh", "it", "de", "ja"},
    "table.key_p": {"zh", "it", "de", "ja"},
    "pre.revolution": {"de"},
    # Tien Gow's suit marks, 文 and 武, as the rules write them in every language (TG-01).
    "tg.mark.civil": {"zh", "it", "de", "ja"},
    "tg.mark.military": {"zh", "it", "de", "ja"},
}


@cache
def load(lang: str, part: str) -> dict[str, Any]:
    path = I18N / lang / f"{part}.json"
    assert path.exists(), f"{lang}/{part}.json is missing"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def leaves(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a.b.c": value}`` for every leaf of a nested catalogue."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(leaves(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def split_plural(key: str) -> tuple[str, str | None]:
    """``("table.points", "one")`` for ``table.points_one``; ``(key, None)`` otherwise."""
    found = PLURAL.search(key)
    return (key[: found.start()], found.group(1)) if found else (key, None)


def expected_keys(lang: str, english: dict[str, Any]) -> set[str]:
    """The keys a translation must have: English's, with the language's plural forms."""
    want: set[str] = set()
    for key in english:
        stem, form = split_plural(key)
        if form is None:
            want.add(key)
        else:
            want.update(f"{stem}_{f}" for f in PLURAL_FORMS[lang])
    return want


def english_for(key: str, english: dict[str, Any]) -> str:
    """The English string a translated key renders: the same key, or the same plural base."""
    if key in english:
        return str(english[key])
    stem, _ = split_plural(key)
    return str(english[f"{stem}_other"])


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def has_letters(text: str) -> bool:
    return any(c.isalpha() for c in PLACEHOLDER.sub("", text))


CASES = [(lang, part) for part in PARTS for lang in LANGS]


@pytest.mark.parametrize(("lang", "part"), CASES)
def test_same_keys_as_english(lang: str, part: str) -> None:
    english = leaves(load("en", part))
    have = set(leaves(load(lang, part)))
    want = expected_keys(lang, english)
    assert not want - have, f"{lang}/{part}.json lacks {sorted(want - have)}"
    assert not have - want, f"{lang}/{part}.json has keys English lacks: {sorted(have - want)}"


@pytest.mark.parametrize(("lang", "part"), CASES)
def test_values_are_text_with_the_english_placeholders(lang: str, part: str) -> None:
    english = leaves(load("en", part))
    wrong = {}
    for key, value in leaves(load(lang, part)).items():
        if not isinstance(value, str) or not value.strip():
            wrong[key] = f"empty or not text: {value!r}"
            continue
        if split_plural(key)[0] not in {split_plural(k)[0] for k in english}:
            continue  # reported by test_same_keys_as_english
        want = placeholders(english_for(key, english))
        have = placeholders(value)
        if want != have:
            wrong[key] = f"placeholders {sorted(have)}, English has {sorted(want)}"
    assert not wrong, f"{lang}/{part}.json: {wrong}"


@pytest.mark.parametrize(("lang", "part"), CASES)
def test_nothing_left_in_english(lang: str, part: str) -> None:
    english = leaves(load("en", part))
    same = sorted(
        key
        for key, value in leaves(load(lang, part)).items()
        if key in english
        and value == english[key]
        and has_letters(str(value))
        and lang not in SAME_AS_ENGLISH.get(key, set())
    )
    assert not same, f"{lang}/{part}.json leaves these as in English: {same}"


def test_allowed_english_keys_exist() -> None:
    """Every key of the allow-list still exists, so the list cannot hide a stale entry."""
    english: dict[str, Any] = {}
    for part in PARTS:
        english.update(leaves(load("en", part)))
    assert not set(SAME_AS_ENGLISH) - set(english)


def test_helpers() -> None:
    assert split_plural("table.points_other") == ("table.points", "other")
    assert split_plural("table.play") == ("table.play", None)
    assert expected_keys("ja", {"a_one": "", "a_other": "", "b": ""}) == {"a_other", "b"}
    assert placeholders("{{giver}} gave {{ count }} to {{receiver}}") == {
        "giver",
        "count",
        "receiver",
    }
    assert not has_letters("×{{n}}")
    assert has_letters("{{name}}, a")
