"""``GET /api/howto/{game}``: the rules in every language and a move gallery found by the engine."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import shedkit
from shedkit import rules as rulebook
from shedkit.doudizhu.combos import KINDS as DDZ_KINDS
from shedkit.doudizhu.combos import RANK_CHARS
from shedkit.president.combos import KINDS as PRE_KINDS
from shedkit.server.howto import gallery
from tests.server.test_api import error_of


def get(client: TestClient, game: str, lang: str | None = None) -> dict[str, Any]:
    params = {} if lang is None else {"lang": lang}
    response = client.get(f"/api/howto/{game}", params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@pytest.mark.parametrize("lang", rulebook.LANGS)
@pytest.mark.parametrize("game", rulebook.GAMES)
def test_every_game_in_every_language(client: TestClient, game: str, lang: str) -> None:
    data = get(client, game, lang)
    assert set(data) == {"game", "lang", "markdown", "rules", "combos"}
    assert (data["game"], data["lang"]) == (game, lang)
    assert data["markdown"] == rulebook.strip_anchors(rulebook.text(game, lang))
    assert "{#" not in data["markdown"]
    assert [r["id"] for r in data["rules"]] == list(rulebook.rules(game))
    assert all(r["anchor"] == r["id"].lower() and r["title"] for r in data["rules"])
    assert data["combos"]
    for combo in data["combos"]:
        assert combo["cards"] and all(set(card) >= {"c", "t", "k"} for card in combo["cards"])


def test_lang_defaults_to_english(client: TestClient) -> None:
    data = get(client, "president")
    assert data["lang"] == "en"
    assert data["markdown"].startswith("# President")


def test_the_gallery_is_the_same_in_every_language(client: TestClient) -> None:
    for game in rulebook.GAMES:
        combos = {lang: get(client, game, lang)["combos"] for lang in rulebook.LANGS}
        assert all(c == combos["en"] for c in combos.values())


def test_doudizhu_gallery_has_every_combination_as_a_legal_lead(client: TestClient) -> None:
    """DDZ-11, DDZ-14…19: one example of each kind; its cards are the ranks of the move."""
    combos = get(client, "doudizhu")["combos"]
    assert [c["kind"] for c in combos] == [k for k in DDZ_KINDS if k not in ("pass", "bid")]
    for combo in combos:
        game = shedkit.make("doudizhu", preset=combo["preset"])
        move = game.parse_move(combo["move"])
        assert move.kind == combo["kind"]
        assert sorted(card["k"] for card in combo["cards"]) == sorted(move.ranks)
        assert "".join(card["t"][0] for card in combo["cards"]) == "".join(
            RANK_CHARS[r] for r in move.ranks
        )
    by_kind = {c["kind"]: c for c in combos}
    assert by_kind["rocket"]["move"] == "BR"  # DDZ-22
    assert by_kind["quad_solo"]["preset"] == "de-wikipedia"  # only that preset has it
    assert by_kind["bomb"]["preset"] == "standard"


def test_president_gallery_has_every_combination_with_and_without_joker(
    client: TestClient,
) -> None:
    """PRE-07, PRE-15, PRE-16: each kind, then the same kinds with the joker as a wild card."""
    combos = get(client, "president")["combos"]
    plays = [k for k in PRE_KINDS if k not in ("pass", "give")]
    plain = [c for c in combos if c["preset"] == "standard"]
    joker = [c for c in combos if c["preset"] != "standard"]
    assert [c["kind"] for c in plain] == plays
    assert [c["kind"] for c in joker] == plays
    assert all("Jk" not in c["move"] for c in plain)
    assert all(any(card["t"] == "Jk" for card in c["cards"]) for c in joker)
    assert next(c for c in joker if c["kind"] == "single")["move"] == "Jk"  # PRE-15
    for combo in combos:
        # A President card's key is the card itself: the client matches cards to moves.
        assert all(card["k"] == card["c"] for card in combo["cards"])
        assert len(combo["cards"]) == len(combo["move"].split())


def test_dominoes_gallery_shows_a_double_and_a_spinner_opening(client: TestClient) -> None:
    """DOM-04, DOM-22, DOM-23: 6-6 leads the classic game; All Fives opens a spinner sideways."""
    combos = get(client, "dominoes")["combos"]
    first = combos[0]
    assert (first["kind"], first["move"], first["preset"]) == ("lead", "6-6", "standard")
    fives = combos[1:]
    assert all(c["preset"] == "all-fives" for c in fives)
    spinner = fives[0]
    assert spinner["kind"] == "lead"
    low, high = spinner["move"].split("-")
    assert low == high  # the first double is the spinner (DOM-22)
    assert fives[-1]["move"][-1] in "UD"  # a play on a cross side ends the gallery
    assert all(c["move"][-1] in "LR" for c in fives[1:-1])
    for combo in fives:
        count = combo["count"]
        assert combo["points"] == (count if count % 5 == 0 else 0)  # DOM-23
        assert [card["t"] for card in combo["cards"]] == [combo["move"].split("@")[0]]


def test_galleries_are_built_once() -> None:
    for game in rulebook.GAMES:
        assert gallery(game) is gallery(game)


@pytest.mark.parametrize("game", ["chess", "DOUDIZHU", "president.md", "%20"])
def test_unknown_game_is_an_error(client: TestClient, game: str) -> None:
    response = client.get(f"/api/howto/{game}")
    message = error_of(response, 404, "bad_game")
    assert "doudizhu" in message
    assert response.json()["error"]["data"]["games"] == list(rulebook.GAMES)


@pytest.mark.parametrize("lang", ["fr", "", "EN", "en-GB", "../en"])
def test_unknown_language_is_an_error(client: TestClient, lang: str) -> None:
    response = client.get("/api/howto/president", params={"lang": lang})
    message = error_of(response, 400, "bad_lang")
    assert "en, zh, it, de, ja" in message
    assert response.json()["error"]["data"] == {"lang": lang, "langs": list(rulebook.LANGS)}


def test_tiengow_gallery_has_every_combination_with_its_tiles(client: TestClient) -> None:
    """TG-10…12, TG-52, TG-60: each combination a leader may play, a civil and a military
    single first, then the Civil Supreme and the two pairs of the presets that have them."""
    combos = get(client, "tiengow", "zh")["combos"]
    assert [c["kind"] for c in combos] == [
        "single",
        "single",
        "civil_pair",
        "military_pair",
        "supreme",
        "mixed_pair",
        "civil_triple",
        "military_triple",
        "quad",
        "wen_supreme",
        "two_pairs",
    ]
    assert [card["s"] for c in combos[:2] for card in c["cards"]] == ["civil", "military"]
    by_kind = {c["kind"]: c for c in combos}
    assert by_kind["supreme"]["move"] == "2-4 1-2"  # TG-10
    assert by_kind["wen_supreme"]["preset"] == "hong-kong"
    assert by_kind["two_pairs"]["preset"] == "dominorules"
    for combo in combos:
        game = shedkit.make("tiengow", preset=combo["preset"])
        move = game.parse_move(combo["move"])
        assert move.kind == combo["kind"]
        assert sorted(card["k"] for card in combo["cards"]) == sorted(move.kinds)
        assert [card["t"] for card in combo["cards"]] == combo["move"].split()
