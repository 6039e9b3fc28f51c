"""The lobby and the How-to-play pages in a real browser (Debian's chromium via Playwright).

The lobby in English and then in Chinese (picked with its language switcher) shows
the three games and every option of the new-table form in words; a table created
from it seats its creator with bots in the other seats, and ``?seed=N`` still makes
a fixed-seed table that the list marks, as it marks a hot-seat table. The How-to-play
page of each game renders in two languages. Screenshots go to ``build/test-artifacts/``
(or ``$SHEDKIT_TEST_ARTIFACTS``): ``lobby-en.png``, ``lobby-zh.png`` (a phone's width),
``lobby-hot-seat.png``, ``howto-<game>-<lang>.png``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import CHROMIUM
from tests.server.live import LiveServer

ARTIFACTS = Path(os.environ.get("SHEDKIT_TEST_ARTIFACTS", "build/test-artifacts"))
I18N = Path(__file__).resolve().parents[2] / "src" / "shedkit" / "server" / "static" / "i18n"
GAMES = ("doudizhu", "president", "dominoes", "tiengow")
#: Two languages per game's How-to-play page: all five languages are shown once at least.
HOWTO_LANGS = {
    "doudizhu": ("en", "zh"),
    "president": ("it", "de"),
    "dominoes": ("en", "ja"),
    "tiengow": ("zh", "de"),
}

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)


def catalogue(lang: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def word(lang: str, key: str, **data: Any) -> str:
    node: Any = catalogue(lang)
    for part in key.split("."):
        node = node[part]
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: str(data[m.group(1)]), node)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two of Playwright's bounding boxes share any area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 'shedkit.db'}") as server:
        yield server


def new_page(browser: Any, width: int = 1280, locale: str = "en-US") -> tuple[Any, list[str]]:
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def check_form_in_words(page: Any, games: list[Any], lang: str) -> None:
    """Every game's options show their catalogue labels, never their identifiers."""
    for game in games:
        page.select_option("#game", game["name"])
        page.wait_for_selector(f"#opt-{game['options'][0]['name']}")
        form = page.inner_text("#create")
        for option in game["options"]:
            name = option["name"]
            label = page.inner_text(f"label[for='opt-{name}']")
            assert label == word(lang, f"option.{game['name']}.{name}.label"), name
            help_text = page.inner_text(f"#opt-{name}-help")
            assert help_text == word(lang, f"option.{game['name']}.{name}.help"), name
            # An identifier such as kickers_may_repeat never shows ("players" is a word).
            assert "_" not in name or name not in form, f"{name} is shown as an identifier"
            assert label != name
        for preset in game["presets"]:
            assert word(lang, f"preset.{game['name']}.{preset}.label") in form
        # The levels are named and explained; bots take every seat but the creator's.
        for level in ("easy", "medium", "hard", "expert"):
            assert word(lang, f"level.{level}.label") in form
        players = game["presets"]["standard"].get("players", game["players"])
        assert page.input_value("#bots") == str(players - 1)
    page.select_option("#game", "doudizhu")


def test_lobby_in_two_languages_creates_a_table(live: LiveServer, browser: Any) -> None:
    games = live.http.get("/api/games").json()
    page, errors = new_page(browser)
    page.goto(live.url + "/")
    page.wait_for_selector("#create-btn")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    # English: the games with their one line and their How-to-play link.
    tiles = page.locator(".game-tile")
    assert tiles.count() == len(GAMES)
    for game in GAMES:
        tile = page.locator(f".game-tile[data-game={game}]")
        assert tile.locator("h3").inner_text() == word("en", f"lobby.games.{game}.name")
        assert tile.locator(".howto-link").get_attribute("href") == f"/howto/{game}"
    check_form_in_words(page, games, "en")
    page.screenshot(path=str(ARTIFACTS / "lobby-en.png"), full_page=True)

    # A name is asked for before a table is made.
    page.click("#create-btn")
    assert page.inner_text("#name-help") == word("en", "lobby.name.missing")

    # Chinese, picked in the header, on a phone's width.
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#lang", "zh")
    page.wait_for_function("() => document.documentElement.lang === 'zh'")
    assert page.locator(".game-tile[data-game=doudizhu] h3").inner_text() == "斗地主"
    check_form_in_words(page, games, "zh")
    page.fill("#name", "小明")
    # A refused table shows the server's code in the page's language, with its limit.
    page.fill("#deals", "5000")
    page.click("#create-btn")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.inner_text("#create-error") == word("zh", "error.bad_deals", max=1000)
    page.fill("#deals", "2")
    page.screenshot(path=str(ARTIFACTS / "lobby-zh.png"), full_page=True)

    # Creating the table seats the creator; bots have the other seats.
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live.table(page.url.rsplit("/", 1)[1])
    assert table.seats[0].name == "小明"
    assert [s.human for s in table.seats] == [True, False, False]
    assert not table.fixed_seed and table.deals == 2
    assert not errors, errors


def test_fixed_seed_table_is_marked(live: LiveServer, browser: Any) -> None:
    page, errors = new_page(browser)
    page.goto(live.url + "/?seed=7")
    page.fill("#name", "Ana")
    page.select_option("#game", "president")
    page.fill("#bots", "1")  # two seats stay open for friends
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    assert live.table(table_id).seed == 7 and live.table(table_id).fixed_seed

    other, more = new_page(browser)
    other.goto(live.url + "/")
    row = other.locator(f".table-row[data-table='{table_id}']")
    row.wait_for()
    assert row.locator(".fixed-seed").inner_text() == word("en", "lobby.tables.fixed_seed")
    assert row.locator(".seat").first.inner_text().find("Ana") >= 0
    who = row.locator(".seat-who").all_inner_texts()
    open_seat = word("en", "lobby.tables.seat_empty")
    medium = word("en", "lobby.tables.seat_bot", bot=word("en", "level.medium.label"))
    assert who[1:] == [open_seat, open_seat, medium]
    assert row.locator("button.join").count() == 3  # a bot's seat can be taken between deals
    assert not errors + more, errors + more


def test_table_list_names_bot_levels_in_words(live: LiveServer, browser: Any) -> None:
    """The bots' level reads as the new-table form names it, in the page's language."""
    table_id = live.create(game="president", bots=2, bot="hard")["id"]
    page, errors = new_page(browser, width=390, locale="zh-CN")
    page.goto(live.url + "/")
    row = page.locator(f".table-row[data-table='{table_id}']")
    row.wait_for()
    who = row.locator(".seat-who").all_inner_texts()
    hard = word("zh", "lobby.tables.seat_bot", bot=word("zh", "level.hard.label"))
    open_seat = word("zh", "lobby.tables.seat_empty")
    assert who == [open_seat, open_seat, hard, hard]
    assert "hard" not in row.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#tables").screenshot(path=str(ARTIFACTS / "lobby-tables-zh.png"))
    assert not errors, errors


def test_hot_seat_table_is_marked(live: LiveServer, browser: Any) -> None:
    hot = live.create(game="president", hot_seat=True)["id"]
    # Both marks on one line: they must sit side by side, each readable.
    both = live.create(game="doudizhu", hot_seat=True, seed=7)["id"]
    plain = live.create(game="dominoes")["id"]
    assert live.table(hot).hot_seat and not live.table(plain).hot_seat

    page, errors = new_page(browser)
    page.goto(live.url + "/")
    for table_id in (hot, both, plain):
        page.locator(f".table-row[data-table='{table_id}']").wait_for()
    mark = page.locator(f".table-row[data-table='{hot}'] .hot-seat")
    assert mark.inner_text() == word("en", "lobby.tables.hot_seat")
    assert mark.get_attribute("title") == word("en", "lobby.tables.hot_seat_help")
    assert page.locator(f".table-row[data-table='{hot}'] .fixed-seed").count() == 0
    row = page.locator(f".table-row[data-table='{both}']")
    assert row.locator(".hot-seat").inner_text() == word("en", "lobby.tables.hot_seat")
    assert row.locator(".fixed-seed").inner_text() == word("en", "lobby.tables.fixed_seed")
    boxes = [row.locator(m).bounding_box() for m in (".fixed-seed", ".hot-seat")]
    assert boxes[0] and boxes[1] and not overlap(boxes[0], boxes[1]), boxes
    assert page.locator(f".table-row[data-table='{plain}'] .hot-seat").count() == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby-hot-seat.png"), full_page=True)

    # The table itself says so too, to whoever comes in by an invite link.
    page.goto(live.url + f"/t/{hot}")
    sidebar = page.locator(".scoreboard .hot-seat")
    sidebar.wait_for()
    assert sidebar.inner_text() == word("en", "table.hot_seat")
    assert not errors, errors


def test_invite_box(live: LiveServer, browser: Any) -> None:
    page, errors = new_page(browser)
    page.goto(live.url + "/")
    page.wait_for_selector("#create-btn")
    # The table page mounts the component; here it is mounted alone, as it would be there.
    page.evaluate(
        """async () => {
          const { Invite } = await import('/static/components/Invite.js');
          const { html, render } = await import('/static/lib/html.js');
          const box = document.createElement('div');
          box.id = 'invite-test';
          document.body.prepend(box);
          render(html`<${Invite} url="/t/abc123" />`, box);
        }"""
    )
    page.wait_for_selector("#invite-test .invite-qr svg path")
    assert page.input_value("#invite-url") == live.url + "/t/abc123"
    page.click("#invite-copy")
    # Headless chromium may refuse the clipboard: then the page says to copy by hand.
    page.wait_for_function(
        "copy => document.getElementById('invite-copy').innerText.trim() !== copy"
        " || document.querySelector('.invite-status').innerText.trim() !== ''",
        arg=word("en", "lobby.invite.copy"),
    )
    copied = page.inner_text("#invite-copy") == word("en", "lobby.invite.copied")
    failed = page.inner_text(".invite-status") == word("en", "lobby.invite.copy_failed")
    assert copied or failed
    assert not errors, errors


@pytest.mark.parametrize("game", GAMES)
def test_howto_pages(live: LiveServer, browser: Any, game: str) -> None:
    for lang in HOWTO_LANGS[game]:
        page, errors = new_page(browser, width=1280)
        page.goto(live.url + f"/howto/{game}?lang={lang}")
        page.wait_for_selector(f".howto-body[data-lang={lang}] .rules h2", timeout=30000)
        name = word(lang, f"lobby.games.{game}.name")
        assert page.inner_text("h1") == word(lang, "lobby.howto.page_title", game=name)
        combos = live.http.get(f"/api/howto/{game}", params={"lang": lang}).json()["combos"]
        figures = page.locator(".combo")
        assert figures.count() == len(combos) > 0
        for i, combo in enumerate(combos):
            caption = figures.nth(i).locator(".combo-name").inner_text()
            assert caption == word(lang, f"combo.{game}.{combo['kind']}")
            drawn = figures.nth(i).locator(".card, .dom-tile, .tg-tile").count()
            assert drawn == len(combo["cards"])
        page.screenshot(path=str(ARTIFACTS / f"howto-{game}-{lang}.png"), full_page=False)
        assert not errors, errors
        page.context.close()
