"""The last seconds and the leaving, in a real browser (Debian's chromium via Playwright), in
English and Chinese: the clock shows the turn's own seconds; at five seconds left of your
own turn a toast, a buzz (``navigator.vibrate``) and a sound warn you, once per turn, the
sound heard by default and silenced by the setting; every way out of a deal in progress
(the Leave button, the header's home link) asks first, Stay the dialog's default.

The clock tests feed the page through its WebSocket with a paused clock that only the test
moves. Screenshots go to ``build/test-artifacts/``: ``last-seconds-<lang>.png``,
``leave-home-<lang>.png``.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_lobby import word
from tests.client.test_table_pace import seated_state
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, take_seat
from tests.server.live import LiveServer, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

LANGS = [("en", "en-GB"), ("zh", "zh-CN")]
#: The first pitch of lib/sound.js's warning of the last seconds, and of its tick.
WARN_HZ, TICK_HZ = 1175, 1320

#: A buzzer and an AudioContext that note what they are asked to do.
FAKES = """
window.__buzz = [];
window.__tones = [];
Object.defineProperty(navigator, "vibrate", { configurable: true,
  value: (pattern) => { window.__buzz.push(pattern); return true; } });
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; this.state = "running"; }
  createOscillator() {
    return { frequency: { set value(hz) { window.__tones.push(hz); } },
      connect: (node) => node, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
      connect: (node) => node };
  }
};
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("leaving") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(scope="module")
def president(live: LiveServer) -> dict[str, Any]:
    return seated_state(live, "president", bots=3)


def clocked_page(
    browser: Any, live: LiveServer, state: dict[str, Any], locale: str, sound: str | None = None
) -> Any:
    """The table page fed ``state`` with a paused clock; ``page.feed(state)`` sends another,
    ``page.now()`` is the page's time in seconds. ``sound``: the setting kept in the browser
    (None: never chosen)."""
    sockets: list[Any] = []

    def feed(ws: Any) -> None:
        ws.on_message(lambda message: None)
        sockets.append(ws)
        ws.send(json.dumps(state))

    context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.add_init_script(FAKES)
    if sound is not None:
        context.add_init_script(
            f"localStorage.setItem('shedkit.setting.sound', {json.dumps(json.dumps(sound))});"
        )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.clock.install()
    page.route_web_socket(re.compile(r"/ws/"), feed)
    page.goto(live.url + f"/t/{state['table']['id']}")
    page.wait_for_selector(".seat")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)

    def send(new: dict[str, Any]) -> None:
        sockets[-1].send(json.dumps(new))
        page.wait_for_function("id => window.shedkit.state.state_id === id", arg=new["state_id"])
        page.clock.run_for(300)  # a tick of the page's own clock: it reads the time again

    page.feed = send
    page.now = lambda: page.evaluate("Date.now()") / 1000
    return page


def my_turn(base: dict[str, Any], seconds: float, bank: float = 0.0, now: float = 0.0) -> Any:
    state = copy.deepcopy(base)
    state["state_id"] = base["state_id"] + 1
    you = state["you"]
    state["view"]["current_player"] = you
    state["table"]["turn"] = {"seat": you, "deadline": now + seconds + bank, "bank": bank}
    return state


def count(lang: str, key: str, n: int) -> str:
    form = ("one" if n == 1 else "other") if lang == "en" else "other"
    return word(lang, f"{key}_{form}", count=n)


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_thirty_second_turn_shows_thirty_seconds(
    browser: Any, live: LiveServer, president: dict[str, Any], lang: str, locale: str
) -> None:
    """The page reads its clock four times a second: the state arrives up to a quarter of a
    second after the page last read it, which a ceiling turned into 31 s."""
    page = clocked_page(browser, live, president, locale)
    try:
        mine = f'.seat[data-seat="{president["you"]}"]'
        state = my_turn(president, 30.2, bank=30, now=page.now())
        page.feed(state)
        page.clock.run_for(10)
        assert page.inner_text(f"{mine} .clock-left") == count(lang, "table.seconds_left", 30)
        assert page.inner_text(f"{mine} .clock-bank") == count(lang, "table.bank_plus", 30)
        # The same through the module: rounded to the nearest, 1 while any time is left.
        shown = page.evaluate(
            """async () => {
              const { turnClock } = await import('/static/components/Seat.js');
              return [[1060.2, 30], [1060.6, 30], [1000.3, 0], [1029.6, 30]].map(([d, b]) => {
                const c = turnClock({ deadline: d, bank: b }, 1000);
                return [c.left, c.bank, c.onBank];
              });
            }"""
        )
        assert shown == [[30, 30, False], [31, 30, False], [1, 0, False], [30, 30, True]]
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_last_seconds_warn_once_per_turn_heard_by_default(
    browser: Any, live: LiveServer, president: dict[str, Any], lang: str, locale: str
) -> None:
    page = clocked_page(browser, live, president, locale)
    try:
        # The sound setting never chosen: the last seconds are heard, the rest is not.
        assert page.input_value("#sound") == "clock"
        page.feed(my_turn(president, 8, now=page.now()))
        page.clock.run_for(2000)  # 6 s left
        assert page.locator(".toast").count() == 0
        assert page.evaluate("window.__buzz") == []
        page.clock.run_for(1500)  # 4.5 s left
        toast = page.locator(".toast span")
        toast.wait_for()
        assert toast.inner_text() == count(lang, "table.last_seconds", 5)
        assert page.evaluate("window.__buzz.length") == 1
        tones = page.evaluate("window.__tones")
        assert WARN_HZ in tones and TICK_HZ in tones
        page.clock.run_for(1000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"last-seconds-{lang}.png"))
        page.clock.run_for(2000)
        # Once per turn: the seconds that follow add no warning.
        assert page.evaluate("window.__buzz.length") == 1
        assert page.evaluate(f"window.__tones.filter((x) => x === {WARN_HZ}).length") == 1
        # The bank spent as well: only then is the turn down to its last seconds.
        page.feed(my_turn(president, 3, bank=20, now=page.now()))
        page.clock.run_for(2000)
        assert page.evaluate("window.__buzz.length") == 1
        page.feed(my_turn(president, 0, bank=4, now=page.now()))
        page.wait_for_function("() => window.__buzz.length === 2")
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_the_sound_setting_silences_the_warning(
    browser: Any, live: LiveServer, president: dict[str, Any]
) -> None:
    page = clocked_page(browser, live, president, "en-GB", sound="off")
    try:
        assert page.input_value("#sound") == "off"
        page.feed(my_turn(president, 5, now=page.now()))
        page.locator(".toast").wait_for()
        assert page.evaluate("window.__tones") == []
        assert page.evaluate("window.__buzz.length") == 1  # the toast and the buzz still warn
        # Chosen in the header, kept in the browser.
        page.select_option("#sound", "on")
        assert page.evaluate("localStorage.getItem('shedkit.setting.sound')") == '"on"'
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_every_way_out_of_a_deal_asks_first_and_stay_is_the_default(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    tid = live.create(game="president", bots=3, deals=1, seed=4)["id"]
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        take_seat(page, live.url, tid, "Ana", 0)
        page.wait_for_function("() => window.shedkit.state.view !== null")
        table_url = page.url

        for way in ("#leave", ".room-header a.home"):
            page.click(way)
            page.wait_for_selector(".leave-dialog")
            assert page.url == table_url
            # Stay: the default, focused and primary; Leave is not.
            page.wait_for_function("() => document.activeElement.id === 'leave-stay'")
            assert "primary" in (page.get_attribute("#leave-stay", "class") or "")
            assert "primary" not in (page.get_attribute("#leave-yes", "class") or "")
            assert page.inner_text("#leave-stay") == word(lang, "table.stay")
            if way != "#leave":
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"leave-home-{lang}.png"))
            page.keyboard.press("Enter")
            page.wait_for_selector(".leave-dialog", state="detached")
            assert page.url == table_url
            assert page.evaluate("() => window.shedkit.state.you") == 0

        # Leaving by the home link: the seat is given back, then the lobby opens.
        page.click(".room-header a.home")
        page.click("#leave-yes")
        page.wait_for_url(live.url + "/")
        wait(lambda: live.table(tid).seats[0].token_hash is None, timeout=20)
        assert not errors, errors
    finally:
        page.context.close()


#: Plays the seated viewer's turns through the page's own buttons (test_layout's checker).
AUTOPLAY = (Path(__file__).parent / "layout_check.js").read_text()


def dialog_log(page: Any) -> list[str]:
    """The dialogs the page opens, by type, each accepted (a beforeunload one: leave)."""
    seen: list[str] = []

    def answer(dialog: Any) -> None:
        seen.append(dialog.type)
        dialog.accept()

    page.on("dialog", answer)
    return seen


def touch(page: Any) -> None:
    """A click on the felt's edge, as a person's (over whatever dialog covers it): the
    browser asks before leaving only a page its reader has touched."""
    felt = page.locator(".felt").bounding_box()
    page.mouse.click(felt["x"] + 12, felt["y"] + 40)


def seated_mid_deal(page: Any, live: LiveServer, tid: str) -> None:
    """At the table's page in seat 0, with a deal on, touched."""
    page.goto(live.url + f"/t/{tid}")
    page.wait_for_function(
        "() => { const s = window.shedkit && window.shedkit.state; return s && s.you === 0"
        " && s.view && !s.view.is_over && s.table.status === 'playing' }"
    )
    touch(page)


def test_closing_reloading_or_going_back_mid_deal_asks_the_browser(
    browser: Any, live: LiveServer
) -> None:
    """While seated in a deal in progress, the tab's close, a reload and the browser's Back
    ask first (the browser's own dialog, from a beforeunload handler); the lobby does not."""
    tid = live.create(game="president", bots=3, deals=1, seed=4)["id"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    seen = dialog_log(page)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # The lobby, touched, then left: nothing asks.
        page.goto(live.url + "/")
        page.wait_for_selector("#create-btn")
        page.fill("#name", "Ana")
        take_seat(page, live.url, tid, "Ana", 0)
        assert seen == []
        page.wait_for_function("() => window.shedkit.state.view !== null")
        touch(page)

        page.reload()
        assert seen == ["beforeunload"]
        # The page sits back down in its seat (its token is kept): Back asks too.
        page.wait_for_function("() => window.shedkit.state && window.shedkit.state.you === 0")
        touch(page)
        page.go_back()
        page.wait_for_selector("#create-btn")
        assert seen == ["beforeunload"] * 2

        # Closing the tab.
        seated_mid_deal(page, live, tid)
        page.close(run_before_unload=True)
        page.wait_for_event("close")
        assert seen == ["beforeunload"] * 3
        assert not errors, errors
    finally:
        context.close()


def test_leaving_properly_or_after_the_match_the_page_goes_without_asking(
    browser: Any, live: LiveServer
) -> None:
    """The Leave button (confirmed in the page's dialog) takes the question away, and so does
    the end of the match: the page is then closed or left with no dialog."""
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    seen = dialog_log(page)
    try:
        tid = live.create(game="president", bots=3, deals=1, seed=4)["id"]
        take_seat(page, live.url, tid, "Ana", 0)
        page.wait_for_function("() => window.shedkit.state.view !== null")
        page.click("#leave")
        page.click("#leave-yes")
        page.wait_for_function("() => window.shedkit.state.you === null")
        touch(page)
        page.goto(live.url + "/")
        page.wait_for_selector("#create-btn")
        assert seen == []

        # A whole match of one deal, played through the page: once it is over, nothing asks.
        context.add_init_script(AUTOPLAY)
        two = live.create(
            game="dominoes", preset="two-player", options={"target": 1}, bots=1, deals=1, seed=3
        )["id"]
        play = context.new_page()
        seen_there = dialog_log(play)
        take_seat(play, live.url, two, "Ana", 0)
        play.wait_for_function(
            "() => { const s = window.shedkit.state; return s.table.status === 'finished'"
            " && s.view && s.view.is_over }",
            timeout=90000,
        )
        touch(play)
        play.goto(live.url + "/")
        play.wait_for_selector("#create-btn")
        play.close(run_before_unload=True)
        assert seen_there == []
    finally:
        context.close()
