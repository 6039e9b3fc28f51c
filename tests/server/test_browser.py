"""End to end in a real browser: two people and a bot play whole deals by tapping.

Playwright drives Debian's chromium (no browser download). Player A (English, a
1280x800 screen) and player B (中文, a 390x844 phone) open the table, take their seats
in the page and play until the end of the deal: cards tapped and tapped again, the Hint
button, the auction's buttons, President's tax, a domino played by tapping an end. A
reloads mid-deal (a reconnect); in Dou Di Zhu the server restarts mid-deal. Screenshots
go to ``build/test-artifacts/`` (``$SHEDKIT_TEST_ARTIFACTS``): each game mid-deal at both
sizes in both languages, the auction, the tax and the end of the deal. No notation
(``@L``, ``[6|2]``, ``bid2``, ``Jkr``) is ever readable on the page.

Every page runs under the server's Content-Security-Policy and a violation fails the test;
the lobby (a table created from its form), a table's invitation with its QR code, a
replay and each "How to play" page are opened under it too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from shedkit.server.howto import HOWTO_GAMES
from tests.server.browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    check_no_notation,
    illegal_selection_shakes,
    in_header,
    moves_seen,
    my_turn,
    shoot,
    state,
    swipe_selects,
    take_seat,
    take_turn,
    watch_policy,
)
from tests.server.live import LiveServer, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)
CONN = "() => window.shedkit && window.shedkit.status === '{}'"
I18N = Path(__file__).resolve().parents[2] / "src" / "shedkit" / "server" / "static" / "i18n"


def tax_rule(lang: str, style: str) -> str:
    """The tax panel's sentence for the rule in force (PRE-20 drawn, PRE-21 best)."""
    words = json.loads((I18N / lang / "president.json").read_text(encoding="utf-8"))
    rule: str = words["pre"][f"tax_rule_{style}"]
    return rule


def seat_people(live: LiveServer, browser: Any, table_id: str) -> tuple[Any, Any, list[str]]:
    """A (English, desktop) and B (中文, phone) open the table and take seats 0 and 1."""
    errors: list[str] = []
    desktop = browser.new_context(viewport=DESKTOP, locale="en-GB")
    phone = browser.new_context(viewport=PHONE, locale="zh-CN", is_mobile=True, has_touch=True)
    for context in (desktop, phone):
        watch_policy(context, errors)
    a, b = desktop.new_page(), phone.new_page()
    for page, name, seat in ((a, "Ana", 0), (b, "Bo", 1)):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        take_seat(page, live.url, table_id, name, seat)
    assert b.evaluate("() => document.documentElement.lang") == "zh"
    for page in (a, b):
        page.wait_for_function(
            "() => window.shedkit && window.shedkit.state.table.status === 'playing'"
        )
    return a, b, errors


def both_ways(page: Any, name: str, lang: str, other: dict[str, int]) -> None:
    """Screenshots of the page at its own size and at the other one, in its language."""
    size = page.viewport_size
    shoot(page, f"{name}-{lang}-{size['width']}")
    page.set_viewport_size(other)
    page.wait_for_timeout(300)
    check_no_notation(page)
    shoot(page, f"{name}-{lang}-{other['width']}")
    page.set_viewport_size(size)


def in_both_languages(page: Any, name: str, english: bool) -> None:
    """Screenshots in the page's language and the other one (switched in the header)."""
    lang, other = ("en", "zh") if english else ("zh", "en")
    shoot(page, f"{name}-{lang}")
    in_header(page, "#lang", other)
    page.wait_for_timeout(300)
    check_no_notation(page)
    shoot(page, f"{name}-{other}")
    in_header(page, "#lang", lang)


def play_to_the_end(
    live: LiveServer,
    table_id: str,
    a: Any,
    b: Any,
    game: str,
    checked: dict[str, bool],
    restart: bool = False,
    passive: bool = False,
) -> LiveServer:
    """Both people play until the deal is over; A reloads once, the server may restart."""
    reloaded = restarted = shot = False
    moves = 0
    for _ in range(3000):
        table = live.table(table_id)
        if table.state is None or table.state.is_over:
            break
        if restart and moves >= 10 and not restarted:
            # Stop the server mid-deal and start it again on the same database and port:
            # the pages show "reconnecting", reconnect with backoff and resync.
            record = table.state.record()
            db, port = live.db, live.port
            live.stop()
            for page in (a, b):
                page.wait_for_selector("#reconnecting")
            live = LiveServer(db, bot_delay=0.02, port=port)
            assert live.table(table_id).state.record() == record
            for page in (a, b):
                page.wait_for_function(CONN.format("open"), timeout=20000)
            restarted = True
            continue
        if moves >= 4 and not reloaded:
            a.reload()
            a.wait_for_function(
                "() => window.shedkit && window.shedkit.state && window.shedkit.state.you === 0"
            )
            reloaded = True
        if moves >= 6 and not shot and table.state.phase == "play":
            check_no_notation(a)
            check_no_notation(b)
            both_ways(a, f"table-{game}-mid-deal", "en", PHONE)
            both_ways(b, f"table-{game}-mid-deal", "zh", DESKTOP)
            shot = True
        for page in (a, b):
            if my_turn(page) and moves_seen(page) == len(
                live.table(table_id).state.record()["moves"]
            ):
                if page.locator(".bid-buttons").count() and not checked.get("auction"):
                    in_both_languages(page, f"auction-{game}", page is a)
                    checked["auction"] = True
                if page.locator("#give").count() and not checked.get("tax"):
                    style = state(page)["view"]["tax_style"]
                    shown = page.locator(".tax-rule").inner_text().strip()
                    assert shown == tax_rule("en" if page is a else "zh", style)
                    in_both_languages(page, "tax-president", page is a)
                    checked["tax"] = True
                swipe = game == "doudizhu" and page is b and not checked.get("swipe")
                if swipe and state(page)["view"]["phase"] == "play":
                    swipe_selects(page)
                    checked["swipe"] = True
                wrong = game == "doudizhu" and page is a and not checked.get("wrong")
                if wrong and state(page)["view"]["phase"] == "play":
                    checked["wrong"] = illegal_selection_shakes(page)
                take_turn(page, checked, passive=passive)
                moves += 1
        a.wait_for_timeout(20)
    assert reloaded and (restarted or not restart)
    return live


def end_of_deal(a: Any, b: Any, game: str, players: int) -> None:
    """Both see the end of the deal: the scores, every hand, no notation; screenshots."""
    for page in (a, b):
        page.wait_for_selector("#score-screen")
        assert page.locator("#result table.scores tbody tr").count() >= 2
        page.wait_for_selector(".revealed-hand")
        assert page.locator(".revealed-hand").count() == players
        check_no_notation(page)
    shoot(a, f"end-{game}-en-1280")
    shoot(b, f"end-{game}-zh-390")


def test_doudizhu_in_the_browser(db: str, browser: Any) -> None:
    live = LiveServer(db, bot_delay=0.02)
    try:
        table_id = live.create(game="doudizhu", bots=1, deals=2, seed=7)["id"]
        a, b, errors = seat_people(live, browser, table_id)
        checked: dict[str, bool] = {}
        live = play_to_the_end(live, table_id, a, b, "doudizhu", checked, restart=True)
        assert checked.get("hint") and checked.get("tap") and checked.get("auction")
        assert checked.get("swipe") and checked.get("wrong")
        end_of_deal(a, b, "doudizhu", 3)
        assert not errors, errors
    finally:
        live.stop()


def test_president_with_the_tax_in_the_browser(db: str, browser: Any) -> None:
    """Three players with the tax, against a random bot: a person wins the first deal, and
    so gives back at the tax of the second deal through the exchange dialog (PRE-20)."""
    with LiveServer(db, bot_delay=0.02) as live:
        options = {"players": 3, "tax": True, "jokers": 1}
        table_id = live.create(
            game="president", bots=1, bot="random", deals=2, seed=3, options=options
        )["id"]
        a, b, errors = seat_people(live, browser, table_id)
        checked: dict[str, bool] = {}
        play_to_the_end(live, table_id, a, b, "president", checked)
        assert live.table(table_id).summaries[-1]["finished"][0] in (0, 1)
        end_of_deal(a, b, "president", 3)
        a.click("#next")
        a.wait_for_function("() => window.shedkit.state.view && !window.shedkit.state.view.is_over")
        # B was still reading the result: it stays, saying the next deal has begun, until closed.
        b.wait_for_selector(".next-started")
        b.click("#see-table")
        play_to_the_end(live, table_id, a, b, "president-2", checked)
        assert checked.get("tax") and checked.get("hint") and checked.get("tap")
        assert not errors, errors


def test_dominoes_in_the_browser(db: str, browser: Any) -> None:
    with LiveServer(db, bot_delay=0.02) as live:
        table_id = live.create(game="dominoes", preset="block", bots=2, deals=1, seed=5)["id"]
        a, b, errors = seat_people(live, browser, table_id)
        checked: dict[str, bool] = {}
        play_to_the_end(live, table_id, a, b, "dominoes", checked)
        assert checked.get("hint") and checked.get("tap") and checked.get("end-tap")
        end_of_deal(a, b, "dominoes", 4)
        assert not errors, errors
        assert state(a)["view"]["is_over"]


def test_the_other_pages_under_the_policy(db: str, browser: Any) -> None:
    """The lobby, a table's invitation with its QR code, a replay stepped through and each
    "How to play" page work under the server's policy, with no violation."""
    errors: list[str] = []
    with LiveServer(db, bot_delay=0.0) as live:
        done = live.create(game="doudizhu", bots=3, deals=1, seed=3)["id"]
        wait(lambda: live.table(done).status == "finished", timeout=120)
        number = live.table(done).summaries[-1]["number"]
        wait(lambda: live.node.storage.get_deal(done, number) is not None)
        context = browser.new_context(viewport=DESKTOP, locale="en-GB")
        watch_policy(context, errors)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        page.goto(live.url + "/")
        page.wait_for_selector(".game-tile")
        page.fill("#name", "Ana")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        page.wait_for_function("() => window.shedkit && window.shedkit.state")
        page.click("#invite")
        page.wait_for_selector(".invite-qr svg path")
        box = page.locator(".invite-qr svg").bounding_box()
        assert box is not None and box["width"] >= 100 and box["height"] >= 100
        shoot(page, "policy-invite-qr")
        page.click("#invite-close")

        page.goto(live.url + f"/replay/{done}/{number}")
        page.wait_for_selector("#step")
        page.click("#next")
        page.click("#last")
        page.wait_for_selector("#replay-scores")
        shoot(page, "policy-replay")

        for game in HOWTO_GAMES:
            page.goto(live.url + f"/howto/{game}")
            page.wait_for_selector(".howto-body:not(.stale) .rules h2")
        shoot(page, "policy-howto")
        context.close()
    assert not errors, errors
