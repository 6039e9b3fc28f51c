"""The players' rules shipped in the package: every rule ID present and findable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shedkit import rules as rulebook
from shedkit.cli.main import main

SRC = Path(rulebook.__file__).resolve().parent.parent
SPEC_IDS = {
    "doudizhu": [f"DDZ-{n:02d}" for n in [*range(1, 24), 30, 31, 32, 33, 34, 40, 41, 42, 43]]
    + ["DDZ-16a", "DDZ-50", "DDZ-51"],
    "president": [f"PRE-{n:02d}" for n in [*range(1, 22), 30, 31]],
    "dominoes": [f"DOM-{n:02d}" for n in [*range(1, 12), *range(20, 26), 30, 31, 32, 40, 41]],
    "tiengow": [
        f"TG-{n:02d}"
        for n in [
            *range(1, 8),
            *range(10, 13),
            *range(20, 29),
            *range(30, 35),
            40,
            41,
            *range(50, 55),
            *range(60, 67),
            80,
            81,
            82,
        ]
    ],
}


def test_every_rule_id_quoted_in_src_is_in_the_shipped_rules() -> None:
    quoted: set[str] = set()
    for path in SRC.rglob("*.py"):
        quoted |= set(re.findall(r"\b(?:DDZ|PRE|DOM|TG)-\d+[a-z]?\b", path.read_text("utf-8")))
    assert len(quoted) > 50
    missing = sorted(q for q in quoted if q not in rulebook.rules(rulebook.game_of(q)))
    assert missing == []


@pytest.mark.parametrize("game", rulebook.GAMES)
def test_every_rule_of_the_spec_has_a_section(game: str) -> None:
    assert set(rulebook.rules(game)) == set(SPEC_IDS[game])
    for rule in rulebook.rules(game).values():
        assert rule.anchor == rule.id.lower()
        assert rule.body.strip()


def test_rule_lookup_is_case_insensitive_and_knows_the_game() -> None:
    assert rulebook.rule("pre-16").id == "PRE-16"
    assert rulebook.rule("DDZ-16A").id == "DDZ-16a"
    assert rulebook.game_of("dom-22") == "dominoes"
    assert rulebook.game_of("tg-28") == "tiengow"
    assert "discard" in rulebook.rule("TG-28").body
    assert "joker" in rulebook.rule("PRE-16", "president").body


def test_unknown_rule_lists_nearby_ids() -> None:
    with pytest.raises(rulebook.UnknownRuleError, match=r"nearby: .*PRE-1"):
        rulebook.rule("PRE-22")
    with pytest.raises(rulebook.UnknownRuleError, match="prefixes are DDZ"):
        rulebook.rule("XYZ-3")
    with pytest.raises(rulebook.UnknownRuleError, match="not a rule ID"):
        rulebook.rule("sixteen")
    with pytest.raises(rulebook.UnknownRuleError, match="games are doudizhu"):
        rulebook.rule("PRE-16", "chess")


def test_cli_rules_lists_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert all(game in out for game in rulebook.GAMES)


def test_cli_rules_game_prints_plain_text_when_piped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "dominoes"]) == 0
    out = capsys.readouterr().out
    assert "\nDOM-22 · The spinner\n" in out
    # No Markdown signs, no anchors, no colour codes, no trailing blanks.
    assert not re.search(r"^#+ |\*\*|`|\{#dom-22\}|\x1b", out, re.M)
    assert not re.search(r" $", out, re.M)


@pytest.mark.parametrize("argv", [["president", "pre-16"], ["PRE-16"], ["pre-16"]])
def test_cli_rules_one_rule(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", *argv]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PRE-16 ·")
    assert "PRE-17" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dominoes", "DOM-99"], "no DOM-99; nearby"),
        (["chess"], "no rules for game 'chess'"),
        (["president", "DDZ-16"], "president rules have no DDZ-16"),
    ],
)
def test_cli_rules_bad_input_is_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_rules_on_a_terminal_renders_markdown() -> None:
    import argparse
    import io

    from rich.console import Console

    from shedkit.cli.rules_cmd import run_rules

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100)
    assert run_rules(argparse.Namespace(topic="DOM-22", rule_id=None), console) == 0
    out = buffer.getvalue()
    assert "\x1b[" in out
    assert "###" not in out
    assert "DOM-22" in out
