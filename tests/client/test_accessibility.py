"""axe-core on the lobby, a table page of each game, the replay and the "How to play" pages:
no serious or critical violation.

Debian's chromium, driven by Playwright, loads each page on a live server on loopback;
the table pages are seen by a seated player in the middle of the auction or the play, and
in both English and Chinese. The full axe results go to ``build/test-artifacts/``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, PHONE
from tests.server.live import LiveServer, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)
SERIOUS = {"serious", "critical"}
PLAYERS = {"doudizhu": 3, "president": 4, "dominoes": 4, "tiengow": 4}
GAMES = list(PLAYERS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = f"sqlite:///{Path(tmp_path_factory.mktemp('axe')) / 'shedkit.db'}"
    with LiveServer(db, bot_delay=0.5) as live:
        yield live


def serious(page: Any, name: str) -> list[str]:
    """The serious and critical violations axe finds on the page (results saved)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(
        json.dumps(results.response["violations"], indent=1)
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN"])
def test_the_lobby_has_no_serious_violation(server: LiveServer, browser: Any, locale: str) -> None:
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    assert serious(page, f"lobby-{locale}") == []
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("locale", "size"), [("en-GB", DESKTOP), ("zh-CN", PHONE)])
def test_a_table_page_has_no_serious_violation(
    server: LiveServer, browser: Any, game: str, locale: str, size: dict[str, int]
) -> None:
    table = server.create(game=game, bots=PLAYERS[game] - 1, deals=1)
    page = browser.new_context(viewport=size, locale=locale).new_page()
    page.goto(server.url + f"/t/{table['id']}")
    page.wait_for_selector("#join button.take")
    page.fill("#join-name", "Ana")
    page.locator("#join button.take").first.click()
    page.wait_for_function("() => window.shedkit.state && window.shedkit.state.view")
    page.wait_for_selector(".hand button")
    assert serious(page, f"table-{game}-{locale}") == []
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_late_in_a_deal_has_no_serious_violation(
    server: LiveServer, browser: Any, game: str
) -> None:
    """Late in a deal, on a phone: the log long enough to scroll (a keyboard must reach it),
    a seat down to its last card or two (the alert badges' contrast), the phone's sheets."""
    from tests.client.test_layout import CHECKER

    table = server.create(game=game, bots=PLAYERS[game] - 1, deals=1, seed=21)
    context = browser.new_context(viewport=PHONE, locale="zh-CN", reduced_motion="reduce")
    context.add_init_script(CHECKER)
    page = context.new_page()
    page.goto(server.url + f"/t/{table['id']}")
    page.wait_for_selector("#join button.take")
    page.fill("#join-name", "Ana")
    page.locator("#join button.take").first.click()
    page.wait_for_function(
        "() => { const v = window.shedkit.state && window.shedkit.state.view;"
        " return v && (v.is_over || Math.min(...v.cards_left) <= 2) }",
        timeout=120000,
    )
    page.evaluate("() => window.__layout.pauseAt(0)")
    assert serious(page, f"table-late-{game}") == []
    page.click("#aid-log")
    page.wait_for_selector('#side[data-sheet="log"]')
    assert serious(page, f"table-late-log-{game}") == []
    context.close()


def test_the_replay_and_howto_pages_have_no_serious_violation(
    server: LiveServer, browser: Any
) -> None:
    table = server.create(game="doudizhu", bots=3, deals=1, seed=5)
    wait(lambda: server.table(table["id"]).status == "finished", timeout=120)
    for locale, size in (("en-GB", DESKTOP), ("zh-CN", PHONE)):
        page = browser.new_context(viewport=size, locale=locale).new_page()
        page.goto(server.url + f"/replay/{table['id']}/1")
        page.wait_for_selector(".replay-hands .card")
        assert serious(page, f"replay-{locale}") == []
        for game in GAMES:
            page.goto(server.url + f"/howto/{game}")
            page.wait_for_selector(".howto-body .rules h2", timeout=30000)
            assert serious(page, f"howto-{game}-{locale}") == []
        page.context.close()
