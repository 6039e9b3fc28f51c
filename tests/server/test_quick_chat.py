"""Quick phrases and emotes over the WebSocket: they travel as codes from the server's fixed
lists (each client words a phrase in its own language), unknown codes and spectators are
refused with their error codes, and they count against the same flood limit as any message.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shedkit.server.chat import EMOTES, QUICK_PHRASES
from shedkit.server.connection import BURST
from tests.server.live import Client, LiveServer

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "shedkit" / "server" / "static"
LANGS = ("en", "zh", "it", "de", "ja")


def seated(live: LiveServer) -> tuple[str, Client, Client]:
    """A Dou Di Zhu table with Ana (seat 0), Bo (seat 1) and a bot, dealt."""
    tid: str = live.create(game="doudizhu", bots=1, seed=3)["id"]
    ana = live.client(tid, live.join(tid, 0, "Ana"))
    bo = live.client(tid, live.join(tid, 1, "Bo"))
    return tid, ana, bo


def test_a_phrase_and_an_emote_reach_everybody_as_codes(live: LiveServer) -> None:
    tid, ana, bo = seated(live)
    watcher = live.client(tid)
    bo.send({"type": "chat", "phrase": "well_played"})
    for client in (ana, bo, watcher):
        line = client.wait_for(lambda m: m["type"] == "chat")
        assert {k: line[k] for k in ("seat", "name", "phrase")} == {
            "seat": 1,
            "name": "Bo",
            "phrase": "well_played",
        }
        assert "text" not in line and "emote" not in line and isinstance(line["at"], float)
    ana.send({"type": "chat", "emote": "fire"})
    line = bo.wait_for(lambda m: m["type"] == "chat")
    assert (line["seat"], line["name"], line["emote"]) == (0, "Ana", "fire")
    # Kept with the table: a later visitor gets both, marked as past (no emote pops up).
    late = live.client(tid)
    late.drain(0.2)
    kept = [m for m in late.messages if m["type"] == "chat"]
    assert [(m.get("phrase"), m.get("emote"), m["past"]) for m in kept] == [
        ("well_played", None, True),
        (None, "fire", True),
    ]
    assert all(c["phrase"] in QUICK_PHRASES for c in live.table(tid).chat if "phrase" in c)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "chat", "phrase": "you_are_bad"}, "bad_phrase"),
        ({"type": "chat", "phrase": 3}, "bad_phrase"),
        ({"type": "chat", "phrase": "Well played!"}, "bad_phrase"),
        ({"type": "chat", "emote": "middle_finger"}, "bad_emote"),
        ({"type": "chat", "emote": "👍"}, "bad_emote"),
        ({"type": "chat", "phrase": "thanks", "text": "thanks"}, "bad_message"),
        ({"type": "chat", "phrase": "thanks", "emote": "clap"}, "bad_message"),
    ],
)
def test_unknown_codes_are_refused_and_nothing_is_said(
    live: LiveServer, message: dict[str, Any], code: str
) -> None:
    tid, ana, bo = seated(live)
    error = ana.error(message)
    assert error["code"] == code
    if code == "bad_phrase":
        assert error["data"] == {"valid": list(QUICK_PHRASES)}
    bo.drain(0.1)
    assert not [m for m in bo.messages if m["type"] == "chat"]
    assert not live.table(tid).chat


def test_spectators_may_not_send_phrases_or_emotes(live: LiveServer) -> None:
    tid, ana, _ = seated(live)
    watcher = live.client(tid)
    for said in ({"phrase": "good_luck"}, {"emote": "clap"}):
        error = watcher.error({"type": "chat", **said})
        assert (error["code"], error["data"]) == ("not_seated", {"reason": "chat"})
    ana.drain(0.1)
    assert not [m for m in ana.messages if m["type"] == "chat"]


def test_phrases_count_against_the_flood_limit(live: LiveServer) -> None:
    _, ana, bo = seated(live)
    for _ in range(BURST + 10):
        ana.send({"type": "chat", "phrase": "hurry_up"})
    error = ana.wait_for(lambda m: m["type"] == "error")
    assert (error["code"], error["data"]) == ("rate_limited", {"reason": "messages"})
    bo.drain(0.3)
    said = [m for m in bo.messages if m["type"] == "chat"]
    assert 0 < len(said) < BURST + 10


def test_the_lists_are_not_empty_and_the_client_knows_every_code() -> None:
    assert len(QUICK_PHRASES) >= 6 and len(EMOTES) >= 6
    assert len(set(QUICK_PHRASES)) == len(QUICK_PHRASES) and len(set(EMOTES)) == len(EMOTES)
    source = (STATIC / "components" / "QuickChat.js").read_text(encoding="utf-8")
    phrases = re.search(r"export const QUICK_PHRASES = \[([^\]]*)\]", source)
    emotes = re.search(r"export const EMOTES = \{([^}]*)\}", source)
    assert phrases and emotes
    assert tuple(re.findall(r'"(\w+)"', phrases.group(1))) == QUICK_PHRASES
    assert tuple(re.findall(r"(\w+):", emotes.group(1))) == EMOTES
    # And the API's page lists the same codes.
    api = (ROOT / "docs" / "server" / "api.md").read_text(encoding="utf-8")
    for name, codes in (("phrases", QUICK_PHRASES), ("emotes", EMOTES)):
        row = re.search(rf"^\| {name} \| (.*) \|$", api, re.M)
        assert row and tuple(re.findall(r"`(\w+)`", row.group(1))) == codes, name


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_its_words_in_every_language(lang: str) -> None:
    table = json.loads((STATIC / "i18n" / lang / "table.json").read_text(encoding="utf-8"))
    quick = table["table"]["quick"]
    errors = json.loads((STATIC / "i18n" / lang / "errors.json").read_text(encoding="utf-8"))
    for code in QUICK_PHRASES:
        assert quick["phrase"][code].strip(), (lang, code)
    for code in EMOTES:
        assert quick["emote"][code].strip(), (lang, code)
    assert set(quick["phrase"]) == set(QUICK_PHRASES) and set(quick["emote"]) == set(EMOTES)
    assert {"bad_phrase", "bad_emote"} <= set(errors["error"])
