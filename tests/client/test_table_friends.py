"""Playing with friends, in a real browser (Debian's chromium via Playwright): an open seat is
drawn as an empty chair with its own "Sit here"; everybody is told when someone sits down,
leaves or is back; quick phrases travel as codes and each page words them in its own
language; an emote pops up by its sender's seat, inside the seat's box.

Two browsers at one Dou Di Zhu table created through the API: Ana reads English on a desktop,
小明 reads Chinese on a phone. Screenshots go to ``build/test-artifacts/``: ``friends-*.png``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from shedkit.server.app import STATIC
from tests.client.test_accessibility import serious
from tests.client.test_lobby import overlap, word
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, PHONE, open_sheet, shoot
from tests.server.live import LiveServer

#: lib/notices.js: a player offline for less than this is not told to be back.
BACK_AFTER_MS = 5000

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("friends") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05) as server:
        yield server


def page_for(browser: Any, live: LiveServer, tid: str, lang: str, size: dict[str, int]) -> Any:
    """A fresh browser (its own cookie and storage) on the table's page, in ``lang``."""
    ctx = browser.new_context(viewport=size, locale=lang, is_mobile=size == PHONE)
    ctx.add_init_script(HEARD)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(f"{live.url}/t/{tid}")
    page.wait_for_function("() => window.shedkit && window.shedkit.state")
    return page


def seated_page(browser: Any, live: LiveServer, tid: str, seat: int, token: str) -> Any:
    """Ana's page: English, desktop, holding ``seat``'s token as if she had joined here."""
    held = json.dumps(json.dumps({"seat": seat, "token": token}))
    ctx = browser.new_context(viewport=DESKTOP, locale="en")
    # (about:blank, between visits, has no storage.)
    ctx.add_init_script(f"try {{ localStorage.setItem('shedkit.seat.{tid}', {held}) }} catch {{}}")
    ctx.add_init_script(HEARD)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(f"{live.url}/t/{tid}")
    page.wait_for_function(f"() => window.shedkit && window.shedkit.state?.you === {seat}")
    return page


#: Notes every text the screen reader's line takes: the next play may replace a notice at
#: once (a bot moving for the seat just left), after the line has spoken it.
HEARD = """
window.__heard = [];
new MutationObserver(() => {
  const line = document.getElementById("announcer");
  const text = line ? line.textContent : "";
  if (text && window.__heard[window.__heard.length - 1] !== text) window.__heard.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def told(page: Any, text: str) -> None:
    """``text`` shows in a toast and is said by the screen reader's line."""
    page.locator(".toast", has_text=text).wait_for()
    page.wait_for_function("t => window.__heard.some((h) => h.includes(t))", arg=text)


def in_chat(page: Any, text: str) -> None:
    """``text`` shows among the chat's lines."""
    page.wait_for_function("t => document.getElementById('chat').innerText.includes(t)", arg=text)


def toasts(page: Any) -> list[str]:
    texts: list[str] = page.locator(".toast").all_inner_texts()
    return texts


def chat_lines(page: Any) -> list[str]:
    lines: list[str] = page.locator("#chat .chat-line").all_inner_texts()
    return [" ".join(line.split()) for line in lines]


def box_of(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] | None = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def contains(outer: dict[str, float], inner: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def emote_shows_by_seat(page: Any, seat: int, glyph: str, shot: str) -> None:
    """The emote pops up by ``seat``'s avatar, inside its box, clear of every card."""
    bubble = f'.seat[data-seat="{seat}"] .emote-bubble'
    page.wait_for_selector(bubble)
    # Once it has grown to its full size (the pop-in animation's first tenth).
    page.wait_for_timeout(600)
    shoot(page, shot)
    assert page.locator(bubble).inner_text() == glyph
    box = box_of(page, bubble)
    assert contains(box_of(page, f'.seat[data-seat="{seat}"]'), box)
    for card in page.locator(".felt .card, .hand .card").all():
        other = card.bounding_box()
        assert other is None or not overlap(box, other)


def test_friends_sit_talk_and_leave(live: LiveServer, browser: Any) -> None:
    tid: str = live.create(game="doudizhu", bots=1, seed=11, deals=2, turn_clock=0)["id"]
    ana = seated_page(browser, live, tid, 0, live.join(tid, 0, "Ana"))

    # Seat 2 (index 1) waits for a friend: an empty chair, not a bot; seat 3's bot joins at
    # the start. Ana holds a seat, so no "Sit here" for her.
    open_seat = ana.locator('.seat.open[data-seat="1"]')
    assert open_seat.locator(".seat-name").inner_text() == word("en", "table.open_seat.name")
    assert open_seat.locator(".seat-status").inner_text() == word("en", "table.open_seat.waiting")
    assert open_seat.locator(".avatar.open-chair svg.chair").count() == 1
    assert open_seat.get_attribute("aria-label") == ", ".join(
        [word("en", "table.open_seat.name"), word("en", "table.open_seat.waiting")]
    )
    bot_seat = ana.locator('.seat.open[data-seat="2"] .seat-status')
    assert bot_seat.inner_text() == word("en", "table.open_seat.bot_at_start")
    assert ana.locator(".sit-here").count() == 0
    shoot(ana, "friends-open-seat-en-1280")

    # 小明 visits: each open seat has its own "Sit here", in Chinese; nothing is told to a
    # page that has just loaded.
    ming = page_for(browser, live, tid, "zh", PHONE)
    sit = ming.locator('.seat[data-seat="1"] .sit-here')
    assert sit.inner_text() == word("zh", "table.open_seat.sit")
    assert sit.get_attribute("aria-label") == word("zh", "table.open_seat.sit_label", n=2)
    assert ming.locator('.seat[data-seat="1"] .seat-status').inner_text() == word(
        "zh", "table.open_seat.waiting"
    )
    assert ming.locator('.seat[data-seat="0"] .sit-here').count() == 0
    assert toasts(ming) == []
    shoot(ming, "friends-open-seat-zh-390")
    assert serious(ming, "friends-open-seat-zh") == []
    ming.fill("#join-name", "小明")
    sit.click()
    ming.wait_for_function("() => window.shedkit.state.you === 1")

    # Ana is told in English; 小明 is not told of his own sitting down. The table was full,
    # so the deal began.
    told(ana, word("en", "table.notice.sat", name="小明", n=2))
    ana.wait_for_function("() => window.shedkit.state.view !== null")
    assert ana.locator(".seat.open").count() == 0
    ming.wait_for_timeout(300)
    assert not any("小明" in text for text in toasts(ming)), toasts(ming)

    # A quick phrase travels as its code: Chinese for the sender, English for Ana. On 小明's
    # phone the chat is a sheet over the felt, one tap from it.
    open_sheet(ming, "chat")
    ming.click("#quick-toggle")
    ming.wait_for_selector("#quick-menu")
    assert ming.locator("#quick-toggle").get_attribute("aria-expanded") == "true"
    assert ming.locator(".quick-phrase").count() >= 6
    assert ming.locator(".quick-emote").count() >= 6
    # The menu opens over the page's foot, beside the chat: the whole page is pictured.
    menu = box_of(ming, "#quick-menu")
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= PHONE["width"]
    ming.screenshot(path=str(ARTIFACTS / "friends-quick-menu-zh-390.png"), full_page=True)
    assert serious(ming, "friends-quick-menu-zh") == []
    ming.click('.quick-phrase[data-phrase="well_played"]')
    ming.wait_for_selector("#quick-menu", state="detached")
    zh_line = f"小明: {word('zh', 'table.quick.phrase.well_played')}"
    en_line = f"小明: {word('en', 'table.quick.phrase.well_played')}"
    in_chat(ming, zh_line)
    in_chat(ana, en_line)
    # And by his seat, as a bubble, in each reader's words.
    bubble = ana.locator('.seat[data-seat="1"] .phrase-bubble')
    bubble.wait_for()
    assert bubble.inner_text() == word("en", "table.quick.phrase.well_played")
    ana.wait_for_timeout(600)
    shoot(ana, "friends-phrase-en-1280")
    # Escape closes the menu (and nothing else) and gives focus back to its button.
    ana.click("#quick-toggle")
    ana.wait_for_selector("#quick-menu .quick-phrase:focus")
    ana.keyboard.press("Escape")
    ana.wait_for_selector("#quick-menu", state="detached")
    assert ana.evaluate("() => document.activeElement.id") == "quick-toggle"
    # And the other way: Ana's "Hurry up" reads as QQ's line for 小明.
    ana.click("#quick-toggle")
    ana.click('.quick-phrase[data-phrase="hurry_up"]')
    hurry = f"Ana: {word('zh', 'table.quick.phrase.hurry_up')}"
    in_chat(ming, hurry)
    assert chat_lines(ming) == [zh_line, hurry]
    assert chat_lines(ana) == [en_line, f"Ana: {word('en', 'table.quick.phrase.hurry_up')}"]

    # An emote pops up by the sender's seat on every table, and reads as its name.
    open_sheet(ming, "chat")
    ming.click("#quick-toggle")
    ming.click('.quick-emote[data-emote="fire"]')
    emote_shows_by_seat(ana, 1, "🔥", "friends-emote-en-1280")
    open_sheet(ming, "chat")
    ming.click("#quick-toggle")
    ming.click('.quick-emote[data-emote="clap"]')
    emote_shows_by_seat(ming, 1, "👏", "friends-emote-zh-390")
    assert ming.locator("#chat .emote-said").last.get_attribute("aria-label") == word(
        "zh", "table.quick.emote.clap"
    )
    said = ana.locator("#chat .emote-said").first
    assert said.get_attribute("aria-label") == word("en", "table.quick.emote.fire")
    # It goes after a few seconds.
    ana.wait_for_selector('.seat[data-seat="1"] .emote-bubble', state="detached", timeout=10000)

    # Ana's browser reloads: a short drop, nobody is told.
    ana.reload()
    ana.wait_for_function("() => window.shedkit && window.shedkit.state?.you === 0")
    ming.wait_for_function("() => window.shedkit.state.table.seats[0].connected")
    ming.wait_for_timeout(300)
    assert toasts(ming) == []
    # Then she is gone a while (小明 sees her offline): on her return she is back, in his words.
    ana.goto("about:blank")
    ming.wait_for_function("() => !window.shedkit.state.table.seats[0].connected")
    assert f"BACK_AFTER_MS = {BACK_AFTER_MS};" in (STATIC / "lib" / "notices.js").read_text()
    ming.wait_for_timeout(BACK_AFTER_MS + 500)
    ana.goto(f"{live.url}/t/{tid}")
    ana.wait_for_function("() => window.shedkit && window.shedkit.state?.you === 0")
    told(ming, word("zh", "table.notice.back", name="Ana", n=1))
    # Past chat lines come again on loading, each once, and pop up no emote.
    ana.wait_for_function("n => document.querySelectorAll('#chat .chat-line').length === n", arg=4)
    assert ana.locator(".emote-bubble").count() == 0
    assert toasts(ana) == []

    # 小明 leaves mid-deal: Ana is told that a bot plays his seat.
    open_sheet(ming, "scores")
    ming.click("#leave")
    ming.click("#leave-yes")
    ming.wait_for_function("() => window.shedkit.state.you === null")
    told(ana, word("en", "table.notice.left_bot", name="小明", n=2))
    shoot(ana, "friends-left-en-1280")
    # Then Ana leaves: 小明, watching now, is told in Chinese.
    ana.click("#leave")
    ana.click("#leave-yes")
    told(ming, word("zh", "table.notice.left_bot", name="Ana", n=1))
    shoot(ming, "friends-left-zh-390")
    assert not ana.errors and not ming.errors
    ana.context.close()
    ming.context.close()


def test_a_friend_leaving_before_the_deal_opens_the_seat(live: LiveServer, browser: Any) -> None:
    # Four seats, one for a bot: with Ana and 小明 seated the table still waits for a third.
    tid: str = live.create(game="president", bots=1, seed=5, deals=1, turn_clock=0)["id"]
    ming_token = live.join(tid, 1, "小明")
    ana = seated_page(browser, live, tid, 0, live.join(tid, 0, "Ana"))
    ming = live.client(tid, ming_token)
    ming.send({"type": "leave"})
    told(ana, word("en", "table.notice.left_open", name="小明", n=2))
    ana.locator('.seat.open[data-seat="1"]').wait_for()
    # The same in Chinese, for a visitor watching the table.
    watcher = page_for(browser, live, tid, "zh", DESKTOP)
    live.join(tid, 1, "Bo")
    told(watcher, word("zh", "table.notice.sat", name="Bo", n=2))
    ming.close()
    assert not ana.errors and not watcher.errors
    ana.context.close()
    watcher.context.close()
