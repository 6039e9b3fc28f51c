"""The rules in five languages: every translation shipped, with the English IDs and notation."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from shedkit import rules as rulebook
from shedkit.cli.main import main
from shedkit.cli.rules_cmd import plain
from shedkit.dominoes.combos import KINDS as DOM_KINDS
from shedkit.doudizhu.combos import KINDS as DDZ_KINDS
from shedkit.president.combos import KINDS as PRE_KINDS
from shedkit.tiengow.combos import COMBO_IDS as TG_KINDS

OTHER_LANGS = [lang for lang in rulebook.LANGS if lang != "en"]
_CODE = re.compile(r"`([^`]+)`")


def spans(markdown: str) -> set[str]:
    """The inline code of ``markdown``, a line break inside a span read as a space."""
    return {" ".join(span.split()) for span in _CODE.findall(markdown)}


KINDS = {
    "doudizhu": DDZ_KINDS,
    "president": PRE_KINDS,
    "dominoes": DOM_KINDS,
    "tiengow": (*TG_KINDS, "discard"),
}


def headings(markdown: str) -> list[str]:
    """The level of every heading, with the rule ID where there is one."""
    out = []
    for line in markdown.splitlines():
        match = re.match(r"^(#{1,6})\s+((?:DDZ|PRE|DOM|TG)-\d+[a-z]?)?", line)
        if match:
            out.append(match[1] + (match[2] or ""))
    return out


def test_languages() -> None:
    assert rulebook.LANGS == ("en", "zh", "it", "de", "ja")


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("game", rulebook.GAMES)
def test_every_translation_is_shipped(game: str, lang: str) -> None:
    path = resources.files("shedkit.rules").joinpath(lang, f"{game}.md")
    assert path.is_file()
    assert rulebook.text(game, lang) == path.read_text(encoding="utf-8")
    assert rulebook.text(game, lang) != rulebook.text(game)


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("game", rulebook.GAMES)
def test_translation_has_the_same_rules_in_the_same_order(game: str, lang: str) -> None:
    english = rulebook.rules(game)
    translated = rulebook.rules(game, lang)
    assert list(translated) == list(english)
    for rule_id, rule in translated.items():
        assert rule.anchor == english[rule_id].anchor
        assert rule.title and rule.body.strip()
    assert headings(rulebook.text(game, lang)) == headings(rulebook.text(game))


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("game", rulebook.GAMES)
def test_translation_keeps_option_names_and_notation(game: str, lang: str) -> None:
    """Option names, values and examples (`333444+59`, `5h Jk=5d`, `3-5@R`) are never translated."""
    english = rulebook.rules(game)
    for rule_id, rule in rulebook.rules(game, lang).items():
        assert spans(rule.body) == spans(english[rule_id].body), rule_id
    english_spans = spans(rulebook.text(game))
    translated_spans = spans(rulebook.text(game, lang))
    assert english_spans <= translated_spans
    # The only additions: the kind of each combination (`Move.kind`) next to its translated name.
    assert translated_spans - english_spans <= set(KINDS[game])


def test_rule_in_a_language() -> None:
    """PRE-16 in German and Japanese: the same rule, the same notation, other words."""
    german = rulebook.rule("pre-16", lang="de")
    assert german.id == "PRE-16" and "Joker" in german.body
    assert german.body != rulebook.rule("PRE-16").body
    assert "`5h Jk=5d`" in german.body
    assert "ジョーカー" in rulebook.rule("PRE-16", "president", lang="ja").body
    assert rulebook.text("dominoes", "DE") == rulebook.text("dominoes", "de")


@pytest.mark.parametrize("lang", ["fr", "", "english", "en_US"])
def test_unknown_language_is_a_value_error(lang: str) -> None:
    with pytest.raises(ValueError, match="languages are en, zh, it, de, ja"):
        rulebook.text("president", lang)
    with pytest.raises(rulebook.UnknownLanguageError):
        rulebook.rule("PRE-16", lang=lang)


@pytest.fixture
def english_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package as if no translation had been shipped."""
    source = Path(rulebook.__file__).parent
    for game in rulebook.GAMES:
        shutil.copy(source / f"{game}.md", tmp_path / f"{game}.md")
    monkeypatch.setattr(rulebook, "_files", lambda: tmp_path)
    rulebook.text.cache_clear()
    rulebook.rules.cache_clear()
    yield
    rulebook.text.cache_clear()
    rulebook.rules.cache_clear()


def test_missing_translation_falls_back_to_english(english_only: None) -> None:
    assert rulebook.text("president", "ja") == rulebook.text("president")
    assert rulebook.rule("PRE-16", lang="ja").body == rulebook.rule("PRE-16").body


def test_cli_rules_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "de", "president", "PRE-16"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PRE-16 ·")
    assert "Joker" in out and "PRE-17" not in out
    assert out == plain(rulebook.strip_anchors(rulebook.rule("PRE-16", lang="de").markdown()))


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_cli_rules_game_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", lang, "dominoes", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out == rulebook.strip_anchors(rulebook.text("dominoes", lang))
    assert main(["rules", "DDZ-16", "--lang", lang]) == 0
    assert capsys.readouterr().out.startswith("DDZ-16 ·")


def test_cli_rules_unknown_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "fr", "president"]) == 2
    assert "no rules in language 'fr'" in capsys.readouterr().err
