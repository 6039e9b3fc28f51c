"""Findings of a play-test of the card room, in a real browser (Debian's chromium).

Two people hold seats 0 and 1 of a Dou Di Zhu table with a bot in seat 2. Their moves are
made by WebSocket clients holding the seats' tokens (fast, and the same server checks);
the pages hold the same tokens and show what a player sees. Checked: one player's Next
leaves the other's result dialog open (with a notice that the next deal has begun); the
"Show the result" button and the countdown to the next deal cover nothing and are never
cut off (English, 中文, Deutsch, phone and desktop); the invite dialog fits the screen and
Escape closes it; leaving mid-deal asks first, and the log keeps the leaver's name on the
moves made before leaving. Screenshots go to ``build/test-artifacts/``: ``room-*.png``.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_lobby import overlap, word
from tests.server.browser import CHROMIUM, DESKTOP, PHONE, in_header, open_sheet, shoot
from tests.server.live import TEST_SETTINGS, Client, LiveServer, play_until

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)
SIZES = {"desktop": DESKTOP, "phone": PHONE}
#: Whether an element's text lies whole inside every box that would clip it (and the screen),
#: clear of a clipping box's rounded corners too (the felt's corner cut the countdown off).
SHOWN_WHOLE = """e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  const b = range.getBoundingClientRect();
  if (b.left < 0 || b.right > innerWidth || e.scrollWidth > e.clientWidth) return false;
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflow === "visible") continue;
    const c = p.getBoundingClientRect();
    if (b.left < c.left || b.right > c.right || b.top < c.top || b.bottom > c.bottom) return false;
    const corners = [["top", "left"], ["top", "right"], ["bottom", "left"], ["bottom", "right"]];
    for (const [v, h] of corners) {
      const radius = style.getPropertyValue(`border-${v}-${h}-radius`).split(" ").map(parseFloat);
      const rx = radius[0] || 0, ry = radius.length > 1 ? radius[1] : rx;
      const inX = h === "left" ? b.left < c.left + rx : b.right > c.right - rx;
      const inY = v === "top" ? b.top < c.top + ry : b.bottom > c.bottom - ry;
      if (rx && ry && inX && inY) return false;
    }
  }
  return true;
}"""


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 'shedkit.db'}", bot_delay=0.02) as server:
        yield server


@pytest.fixture
def unhurried(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server whose next deal waits ten minutes: a test reading the countdown on a
    loaded machine must not see the next deal begin under its feet."""
    settings = dataclasses.replace(TEST_SETTINGS, next_deal_after=600.0)
    db = f"sqlite:///{tmp_path / 'shedkit.db'}"
    with LiveServer(db, bot_delay=0.02, settings=settings) as server:
        yield server


def seated(live: LiveServer) -> tuple[str, list[str], list[Client]]:
    """A dealt Dou Di Zhu table: Ana (seat 0), Bo (seat 1) and a bot."""
    tid: str = live.create(game="doudizhu", bots=1, seed=3, deals=3)["id"]
    tokens = [live.join(tid, 0, "Ana"), live.join(tid, 1, "Bo")]
    return tid, tokens, [live.client(tid, token) for token in tokens]


def open_page(
    browser: Any, live: LiveServer, tid: str, seat: int, token: str, size: str, lang: str = "en"
) -> Any:
    """The table's page in a browser that holds ``seat``'s token, as if it had joined."""
    ctx = browser.new_context(viewport=SIZES[size], locale=lang, is_mobile=size == "phone")
    held = json.dumps(json.dumps({"seat": seat, "token": token}))
    ctx.add_init_script(f"localStorage.setItem('shedkit.seat.{tid}', {held})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(f"{live.url}/t/{tid}")
    page.wait_for_function(f"() => window.shedkit && window.shedkit.state?.you === {seat}")
    return page


def to_the_end(live: LiveServer, tid: str, clients: list[Client]) -> None:
    play_until(live, tid, clients, lambda t: t.status != "playing", timeout=120)


def inside(box: dict[str, float], size: dict[str, int]) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def test_one_players_next_leaves_the_others_result_open(live: LiveServer, browser: Any) -> None:
    tid, tokens, clients = seated(live)
    ana = open_page(browser, live, tid, 0, tokens[0], "desktop")
    bo = open_page(browser, live, tid, 1, tokens[1], "phone")
    to_the_end(live, tid, clients)
    for page in (ana, bo):
        page.wait_for_selector("#score-screen")
    first = live.table(tid).deal_counter
    ana.click("#next")
    for page in (ana, bo):
        page.wait_for_function(
            f"() => window.shedkit.state.table.deal_number > {first}"
            " && window.shedkit.state.table.status === 'playing'"
        )
    # Ana asked for the next deal: her dialog goes. Bo was still reading his: it stays,
    # says the next deal has begun, and offers no Next any more.
    ana.wait_for_selector("#score-screen", state="detached")
    assert bo.locator("#score-screen").is_visible()
    assert bo.locator(".next-started").inner_text() == word("en", "table.next_started")
    assert bo.locator("#next").count() == 0
    shoot(bo, "room-result-kept-en-390")
    bo.click("#see-table")
    bo.wait_for_selector("#score-screen", state="detached")
    assert bo.locator(".show-result").count() == 0
    assert not ana.errors and not bo.errors


def test_show_result_and_countdown_cover_nothing_and_fit(
    unhurried: LiveServer, browser: Any
) -> None:
    live = unhurried
    tid, tokens, clients = seated(live)
    pages = {
        "desktop": open_page(browser, live, tid, 0, tokens[0], "desktop"),
        "phone": open_page(browser, live, tid, 1, tokens[1], "phone"),
    }
    to_the_end(live, tid, clients)
    for size, page in pages.items():
        page.wait_for_selector("#score-screen")
        page.get_by_role("button", name=word("en", "table.see_table")).click()
        page.wait_for_selector(".show-result")
        for lang in ("en", "zh", "de"):
            in_header(page, "#lang", lang)
            page.wait_for_function(
                f"() => document.documentElement.lang === '{lang}'"
                " && document.querySelector('.next-deal')"
            )
            page.wait_for_timeout(200)
            # Seconds tick on: compare against the text the page shows, in its words.
            countdown = page.locator(".next-deal")
            # One reading: a second may tick between two.
            shown = countdown.inner_text().strip()
            count = int("".join(ch for ch in shown if ch.isdigit()))
            assert shown == word(lang, "table.next_deal_in_other", count=count)
            assert countdown.evaluate(SHOWN_WHOLE), countdown.inner_text()
            box = countdown.bounding_box()
            assert box is not None and box["x"] >= 0
            assert box["x"] + box["width"] <= SIZES[size]["width"]
            page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
            button = page.locator(".show-result").bounding_box()
            assert button is not None
            for other in page.locator("button:visible, input:visible, a:visible, .next-deal").all():
                if other.evaluate("e => e.classList.contains('show-result')"):
                    continue
                box = other.bounding_box()
                assert box is None or not overlap(button, box), other.evaluate("e => e.outerHTML")
            label = page.locator(".show-result")
            assert label.evaluate("e => e.scrollWidth <= e.clientWidth")
            shoot(page, f"room-deal-end-{lang}-{size}")
        in_header(page, "#lang", "en")
        page.click(".show-result")
        page.wait_for_selector("#score-screen")
        assert not page.errors


def test_invite_dialog_fits_and_escape_closes_it(live: LiveServer, browser: Any) -> None:
    tid, tokens, _ = seated(live)
    for size in ("desktop", "phone"):
        page = open_page(browser, live, tid, 0, tokens[0], size)
        in_header(page, "#invite")
        page.wait_for_selector(".invite-qr svg")
        dialog = page.locator(".invite-dialog").bounding_box()
        close = page.locator("#invite-close").bounding_box()
        assert dialog is not None and close is not None
        assert inside(dialog, SIZES[size]) and inside(close, SIZES[size])
        assert page.locator(".invite-dialog").evaluate("e => e.scrollHeight <= e.clientHeight")
        shoot(page, f"room-invite-{size}")
        page.keyboard.press("Escape")
        page.wait_for_selector(".invite-dialog", state="detached")
        # Focus goes back to what opened the dialog: on a phone, the menu it was folded in.
        back = "invite" if size == "desktop" else "menu"
        page.wait_for_function(f"() => document.activeElement.id === '{back}'", timeout=2000)
        assert not page.errors
        page.context.close()


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_leaving_mid_deal_asks_and_the_log_keeps_the_name(
    live: LiveServer, browser: Any, lang: str
) -> None:
    tid, tokens, clients = seated(live)
    ana = open_page(browser, live, tid, 0, tokens[0], "desktop")
    bo = open_page(browser, live, tid, 1, tokens[1], "phone", lang=lang)
    runtime = live.table(tid)

    def bo_moved(_: Any) -> bool:
        history = runtime.state.history
        return sum(1 for h in history if h[0] == 1) >= 2 and len(history) >= 4

    play_until(live, tid, clients, bo_moved, timeout=60)
    seen = len(runtime.state.record()["moves"])
    for page in (ana, bo):
        page.wait_for_function(f"() => window.shedkit.state.view.history.length >= {seen}")
    bos = ana.evaluate(
        "() => window.shedkit.state.view.history.flatMap((e, i) => e.seat === 1 ? [i] : [])"
    )
    assert bos
    # On Bo's phone the button is in the scores' sheet, a tap away from the felt.
    open_sheet(bo, "scores")
    bo.click("#leave")
    bo.wait_for_selector(".leave-dialog")
    assert bo.locator("#leave-title").inner_text() == word(lang, "table.leave_title")
    assert bo.locator(".leave-dialog p").inner_text() == word(lang, "table.leave_confirm")
    assert bo.locator("#leave-stay").inner_text() == word(lang, "table.stay")
    shoot(bo, f"room-leave-confirm-{lang}-390")
    bo.keyboard.press("Escape")
    bo.wait_for_selector(".leave-dialog", state="detached")
    assert bo.evaluate("() => window.shedkit.state.you") == 1
    open_sheet(bo, "scores")
    bo.click("#leave")
    bo.click("#leave-yes")
    bo.wait_for_function("() => window.shedkit.state.you === null")
    # The bot plays seat 1 now: the moves Bo made are still his in every page's log.
    play_until(live, tid, clients[:1], lambda t: len(t.state.record()["moves"]) > seen + 3)
    for page in (ana, bo):
        page.wait_for_function(f"() => window.shedkit.state.view.history.length > {seen + 3}")
        page.wait_for_timeout(200)
        names = page.locator("#log li .who").all_inner_texts()
        assert all(names[i] == "Bo" for i in bos), names
        assert "Bo" not in names[seen:]
    # The log keeps itself scrolled to its end: let it grow so that Bo's moves show too.
    # A constructed style sheet: the policy refuses an inline <style> (add_style_tag).
    ana.evaluate(
        "() => { const sheet = new CSSStyleSheet();"
        " sheet.replaceSync('#log { max-height: none; }');"
        " document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }"
    )
    shoot(ana, f"room-log-after-leave-en-1280-{lang}")
    assert not ana.errors and not bo.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_phone_header_takes_one_line_and_folds_its_tools(
    live: LiveServer, browser: Any, lang: str
) -> None:
    tid, tokens, _ = seated(live)
    page = open_page(browser, live, tid, 0, tokens[0], "phone", lang)
    page.evaluate(f"() => localStorage.setItem('shedkit.lang', '{lang}')")
    page.reload()
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    header = page.locator(".room-header").bounding_box()
    # Brand, title and the menu button on one band: the table gets the screen's height.
    assert header is not None and header["height"] <= 72, header
    assert not page.locator("#lang").is_visible()
    toggle = page.locator("#menu")
    assert toggle.inner_text().strip() == word(lang, "table.menu")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    tools = page.locator("#room-tools").bounding_box()
    assert tools is not None and inside(tools, PHONE)
    shoot(page, f"room-phone-menu-{lang}")
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator("#lang").is_visible()
    # A tool in the menu works as in the header: the language changes, the menu closes.
    other = "zh" if lang == "en" else "en"
    in_header(page, "#lang", other)
    page.wait_for_function(f"() => document.documentElement.lang === '{other}'")
    assert toggle.get_attribute("aria-expanded") == "false"
    # On a desktop the tools stand in the header and there is no menu.
    wide = open_page(browser, live, tid, 1, tokens[1], "desktop", lang)
    assert wide.locator("#lang").is_visible() and not wide.locator("#menu").is_visible()
    assert not page.errors and not wide.errors
