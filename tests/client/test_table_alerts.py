"""What the table tells a player at a glance, in a real browser (Debian's chromium via
Playwright): 报双 / 报单 on a seat's count, 要不起 when passing is all that is left, the
move clock and the time bank apart with the last seconds' warning, and the toast when the
clock ran out and the bot moved for you.

The page is fed through its WebSocket (Playwright's ``route_web_socket``) with a state a
live server sent, changed where the test needs it: counts, clocks and timeouts that a dealt
game reaches only by chance are set outright. Sounds are heard through a stand-in for the
Web Audio API that notes each tone's pitch. Screenshots go to ``build/test-artifacts/``:
``table-alerts-<lang>.png``, ``table-cannot-beat-<lang>.png``, ``table-clock-<lang>.png``,
``table-timed-out-<lang>.png``.
"""

from __future__ import annotations

import copy
import json
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.client.test_lobby import word
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP
from tests.server.live import LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

#: The pitches lib/sound.js plays first for an alert and for a tick of the clock.
ALERT_HZ, TICK_HZ = 988, 1320

#: Sound on, and an AudioContext that notes what it would play.
FAKE_AUDIO = """
localStorage.setItem("shedkit.setting.sound", "true");
window.__tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
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
    db = tmp_path_factory.mktemp("alerts") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


def seated_state(
    live: LiveServer, game: str, answering: bool, in_play: bool = False, **body: Any
) -> dict[str, Any]:
    """A state the server sent a seated player on their turn; ``answering``: with a play to
    answer, so that passing is legal; ``in_play``: past the auction, in which the seated
    player bids the most. The table's id rides along as ``table_id``."""
    table_id = live.create(game=game, deals=1, seed=5, **body)["id"]
    seat = next(i for i, s in enumerate(live.table(table_id).seats) if s.human)
    client = live.client(table_id, live.join(table_id, seat, "Ana"))
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            client.drain(0.05)
            state = client.state
            view = state["view"] if state else None
            if not view or view["is_over"] or view["current_player"] != seat:
                continue
            if in_play and view["phase"] == "auction":
                client.move(view["legal"][-1]["m"])
            elif not answering or any(m["kind"] == "pass" for m in view["legal"]):
                found = copy.deepcopy(state)
                found["table_id"] = table_id
                return found
            else:
                client.move(view["legal"][0]["m"])
    finally:
        client.close()
    raise AssertionError("the human seat never had a play to answer")


@pytest.fixture(scope="module")
def president(live: LiveServer) -> dict[str, Any]:
    return seated_state(live, "president", True, bots=3)


def open_table(
    browser: Any, live: LiveServer, state: dict[str, Any], locale: str
) -> tuple[Any, Any, list[str]]:
    """The table page fed ``state`` through its socket; ``send()`` feeds it again."""
    table_id = state.pop("table_id")
    sockets: list[Any] = []

    sent: list[Any] = []

    def feed(ws: Any) -> None:
        # What the page sends is noted (page.sent), never answered.
        ws.on_message(lambda message: sent.append(json.loads(message)))
        sockets.append(ws)
        ws.send(json.dumps(state))

    def send() -> None:
        state["state_id"] += 1
        sockets[-1].send(json.dumps(state))
        page.wait_for_function("id => window.shedkit.state.state_id === id", arg=state["state_id"])

    context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.add_init_script(FAKE_AUDIO)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.sent = sent
    page.route_web_socket(re.compile(r"/ws/"), feed)
    page.goto(live.url + f"/t/{table_id}")
    page.wait_for_selector(".seat .count")
    return page, send, errors


def text(lang: str, key: str, count: int | None = None) -> str:
    if count is None:
        return word(lang, key)
    forms = ("one", "other") if lang in ("en", "it", "de") else ("other", "other")
    return word(lang, f"{key}_{forms[0] if count == 1 else forms[1]}", count=count)


def about(lang: str, seconds: int) -> list[str]:
    """The clock's text near ``seconds``: the page reads its own clock four times a second."""
    return [text(lang, "table.seconds_left", n) for n in (seconds - 1, seconds, seconds + 1)]


def tones(page: Any, hz: int) -> int:
    n: int = page.evaluate("hz => window.__tones.filter((x) => x === hz).length", hz)
    return n


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("zh", "zh-CN")])
def test_alerts_cannot_beat_clock_and_timeout(
    browser: Any, live: LiveServer, president: dict[str, Any], lang: str, locale: str
) -> None:
    state = copy.deepcopy(president)
    you = state["you"]
    others = [i for i in range(len(state["table"]["seats"])) if i != you]
    state["table"]["turn"] = {"seat": you, "deadline": time.time() + 42, "bank": 30}
    page, send, errors = open_table(browser, live, state, locale)
    # The clock counts from when this state arrives, not from when the page began to load.
    state["table"]["turn"] = {"seat": you, "deadline": time.time() + 42, "bank": 30}
    send()
    mine = f'.seat[data-seat="{you}"]'

    # The move clock first, the bank beside it in smaller type.
    page.wait_for_selector(f"{mine} .seat-clock .clock-bank")
    assert page.inner_text(f"{mine} .clock-bank") == text(lang, "table.bank_plus", 30)
    assert page.inner_text(f"{mine} .clock-left") in about(lang, 12)
    assert not page.locator(f"{mine} .seat-clock.urgent").count()
    assert tones(page, TICK_HZ) == 0

    # Its last five seconds warn, and tick.
    state["table"]["turn"] = {"seat": you, "deadline": time.time() + 33.5, "bank": 30}
    send()
    page.wait_for_selector(f"{mine} .seat-clock.urgent")
    page.wait_for_selector(f"{mine} .turn-ring.urgent")
    page.wait_for_function("hz => window.__tones.includes(hz)", arg=TICK_HZ)
    assert page.inner_text(f"{mine} .clock-bank") == text(lang, "table.bank_plus", 30)
    shoot(page, f"table-clock-{lang}")

    # The move clock spent, the bank runs.
    state["table"]["turn"] = {"seat": you, "deadline": time.time() + 20.5, "bank": 30}
    send()
    page.wait_for_selector(f"{mine} .seat-clock.on-bank:not(.urgent)")
    assert page.inner_text(f"{mine} .clock-bank") == text(lang, "table.bank_running")
    assert page.inner_text(f"{mine} .clock-left") in about(lang, 21)

    # 要不起: passing is all that is left, so Pass is the button to press.
    view = state["view"]
    assert page.get_attribute("#play", "class") == "primary"
    view["legal"] = [m for m in view["legal"] if m["kind"] == "pass"]
    send()
    page.wait_for_selector("#preview.cannot-beat")
    assert page.inner_text("#preview") == text(lang, "table.cannot_beat")
    assert "primary" not in (page.get_attribute("#play", "class") or "")
    assert "primary" in (page.get_attribute("#pass", "class") or "")
    assert page.locator("#pass").is_enabled()
    shoot(page, f"table-cannot-beat-{lang}")

    # 报双 and 报单 on the others' counts, said once, with one sound.
    two, one = others[0], others[1]
    view["cards_left"][two], view["cards_left"][one] = 2, 1
    send()
    page.wait_for_selector(f'.seat[data-seat="{two}"] .count.alert-two')
    page.wait_for_selector(f'.seat[data-seat="{one}"] .count.alert-one')
    said_two, said_one = text(lang, "table.alert_two_cards"), text(lang, "table.alert_one_cards")
    assert page.inner_text(f'.seat[data-seat="{two}"] .seat-alert') == said_two
    assert page.inner_text(f'.seat[data-seat="{one}"] .seat-alert') == said_one
    spoken = page.inner_text("#announcer")
    assert said_two in spoken and said_one in spoken, spoken
    assert tones(page, ALERT_HZ) == 1
    assert not page.locator(f'.seat[data-seat="{others[2]}"] .count.alert').count()
    page.mouse.move(0, 0)
    shoot(page, f"table-alerts-{lang}")
    state["table"]["turn"] = {"seat": you, "deadline": time.time() + 40, "bank": 30}
    send()
    page.wait_for_selector(f"{mine} .seat-clock:not(.on-bank)")
    assert tones(page, ALERT_HZ) == 1

    # The clock ran out and the bot played for you: the toast says so.
    assert not page.locator(".toast").count()
    state["table"]["seats"][you]["timeouts"] += 1
    send()
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast span") == text(lang, "table.timed_out")
    shoot(page, f"table-timed-out-{lang}")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("zh", "zh-CN")])
def test_cannot_beat_passes_for_you_only_when_asked(
    browser: Any, live: LiveServer, president: dict[str, Any], lang: str, locale: str
) -> None:
    state = copy.deepcopy(president)
    page, send, errors = open_table(browser, live, state, locale)
    passes = [m for m in state["view"]["legal"] if m["kind"] == "pass"]
    state["view"]["legal"] = passes

    def moves() -> list[Any]:
        return [m for m in page.sent if m.get("type") == "move"]

    # Off, as it starts: 要不起 is shown and the turn waits for the player.
    send()
    page.wait_for_selector("#preview.cannot-beat")
    page.wait_for_timeout(1500)
    assert moves() == []
    # Asked for in the header, the pass is sent for the player a moment later, once.
    toggle = page.locator("#auto-pass")
    assert toggle.inner_text() == text(lang, "table.auto_pass")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast span") == text(lang, "table.auto_passed")
    sent = moves()
    assert [m["move"] for m in sent] == [passes[0]["m"]]
    assert sent[0]["state_id"] == state["state_id"]
    shoot(page, f"table-auto-pass-{lang}")
    page.wait_for_timeout(1500)
    assert len(moves()) == 1
    # The choice is kept in the browser; a play to make is never passed.
    assert page.evaluate("() => localStorage.getItem('shedkit.setting.autoPass')") == "true"
    state["view"]["legal"] = copy.deepcopy(president["view"]["legal"])
    send()
    page.wait_for_timeout(1500)
    assert len(moves()) == 1
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(
    ("game", "lang", "locale", "body"),
    [
        ("doudizhu", "zh", "zh-CN", {"bots": 2}),
        ("doudizhu", "en", "en-GB", {"bots": 2}),
        ("dominoes", "zh", "zh-CN", {"bots": 3, "preset": "block"}),
        ("dominoes", "en", "en-GB", {"bots": 3, "preset": "block"}),
    ],
)
def test_last_cards_and_tiles(
    browser: Any, live: LiveServer, game: str, lang: str, locale: str, body: dict[str, Any]
) -> None:
    """Dou Di Zhu calls out two cards and the last one; Dominoes only the last tile."""
    state = seated_state(live, game, False, **body)
    you = state["you"]
    two, one = [i for i in range(len(state["table"]["seats"])) if i != you][:2]
    page, send, errors = open_table(browser, live, state, locale)
    state["view"]["cards_left"][two], state["view"]["cards_left"][one] = 2, 1
    send()
    page.wait_for_selector(f'.seat[data-seat="{one}"] .count.alert-one')
    last = text(lang, f"table.alert_one_{'tiles' if game == 'dominoes' else 'cards'}")
    assert page.inner_text(f'.seat[data-seat="{one}"] .seat-alert') == last
    assert last in page.inner_text("#announcer")
    if game == "dominoes":
        assert not page.locator(f'.seat[data-seat="{two}"] .count.alert').count()
    else:
        two_left = text(lang, "table.alert_two_cards")
        assert page.inner_text(f'.seat[data-seat="{two}"] .seat-alert') == two_left
    assert tones(page, ALERT_HZ) == 1
    page.mouse.move(0, 0)
    shoot(page, f"table-alerts-{game}-{lang}")
    assert not errors, errors
    page.context.close()
