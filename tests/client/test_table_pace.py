"""The pace of the table in a real browser (Debian's chromium via Playwright), in English and
Chinese: the speed chosen in the lobby's form, shown on the table and in the lobby's line,
and followed by the bots' pause; the finished trick kept in front of the seats, its passes
included, until the next lead (DDZ-13); banners that stay long enough to read; and Dominoes'
"no tile fits" prompt with Draw or Pass the button to press.

Screenshots go to ``build/test-artifacts/``: ``pace-lobby-<lang>.png``,
``pace-table-<lang>.png``, ``pace-finished-trick-<lang>.png``, ``pace-banner-<lang>.png``,
``pace-dominoes-draw-<lang>.png``.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.client.test_lobby import catalogue, word
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, shoot
from tests.server.live import Client, LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

LANGS = [("en", "en-GB"), ("zh", "zh-CN")]
#: A small bot delay: the bots still answer at once, and the pause's factors show.
DELAY = 0.01


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("pace") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=DELAY) as server:
        yield server


def new_page(browser: Any, locale: str) -> tuple[Any, list[str]]:
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_speed_chosen_in_the_lobby_is_shown_and_paces_the_bots(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    page, errors = new_page(browser, locale)
    page.goto(live.url + "/")
    page.wait_for_selector("#create-btn")
    page.fill("#name", "Ana")
    page.select_option("#game", "doudizhu")
    label = page.locator('label[for="speed-relaxed"] .choice-label')
    assert label.inner_text() == word(lang, "lobby.form.speed_relaxed")
    assert page.is_checked("#speed-normal")  # the default pace
    page.click('label[for="speed-relaxed"]')
    page.check("#card-counter")
    assert word(lang, "lobby.form.card_counter_help") in page.inner_text("#card-counter-help")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    table = live.table(tid)
    assert (table.speed, table.card_counter) == ("relaxed", True)
    page.wait_for_selector(".room-header .sub")
    assert word(lang, "table.speed_relaxed") in page.inner_text(".room-header .sub")
    page.wait_for_selector(".card-counter")
    shoot(page, f"pace-table-{lang}")

    # The bots wait three times the server's delay at this pace (six before they lead).
    assert table.bot_pause(live.node.settings.bot_delay) / DELAY in (
        pytest.approx(3),
        pytest.approx(6),
    )
    fast = live.table(live.create(game="doudizhu", bots=3, deals=1, speed="fast")["id"])
    assert fast.bot_pause(live.node.settings.bot_delay) / DELAY in (
        pytest.approx(1),
        pytest.approx(2),
    )

    lobby, more_errors = new_page(browser, locale)
    lobby.goto(live.url + "/")
    row = f'.table-row[data-table="{tid}"]'
    lobby.wait_for_selector(f"{row} .table-speed")
    assert lobby.inner_text(f"{row} .table-speed") == word(lang, "lobby.tables.speed_relaxed")
    assert lobby.inner_text(f"{row} .table-counter") == word(lang, "lobby.tables.card_counter")
    lobby.locator(row).scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lobby.locator(row).screenshot(path=str(ARTIFACTS / f"pace-lobby-{lang}.png"))
    assert errors == [] and more_errors == []
    page.context.close()
    lobby.context.close()


def _move(clients: list[Client], seat: int, pick: Any) -> dict[str, Any]:
    """Seat ``seat`` plays ``pick(view)``; every client then sees the move."""
    client = clients[seat]
    client.drain(0.05)
    view = client.state["view"] if client.state else None
    assert view is not None and view["current_player"] == seat
    move = pick(view)
    n = len(view["history"])
    client.move(move["m"])
    for c in clients:
        c.wait_for(lambda m: m["type"] == "state" and len(m["view"]["history"]) > n)
    return dict(move)


def _pass_words(lang: str) -> set[str]:
    """A pass in play as the catalogues word it (Dou Di Zhu has its own word, 不出)."""
    ddz = catalogue(lang).get("combo", {}).get("doudizhu", {})
    return {word(lang, "table.pass")} | ({ddz["pass"]} if "pass" in ddz else set())


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_finished_trick_stays_dimmed_until_the_next_lead(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    """DDZ-13: a play followed by two passes ends the trick; it stays until the next lead."""
    tid = live.create(game="doudizhu", bots=0, deals=1, seed=3)["id"]
    tokens = [live.join(tid, i, name) for i, name in enumerate(("Ana", "Bo", "Cy"))]
    clients = [live.client(tid, t) for t in tokens]
    page, errors = new_page(browser, locale)
    page.goto(live.url + f"/t/{tid}")
    page.wait_for_selector(".seat")
    try:
        first = clients[0].state["view"]["current_player"]
        _move(clients, first, lambda v: next(m for m in v["legal"] if m.get("bid") == 3))
        lead = clients[0].state["view"]["landlord"]
        others = [(lead + 1) % 3, (lead + 2) % 3]
        _move(clients, lead, lambda v: next(m for m in v["legal"] if m["kind"] == "solo"))
        for seat in others:
            _move(clients, seat, lambda v: next(m for m in v["legal"] if m["kind"] == "pass"))
        n = len(clients[0].state["view"]["history"])
        assert clients[0].state["view"]["trick"] == []  # the server has cleared it
        page.wait_for_function("n => window.shedkit.state.view.history.length === n", arg=n)
        done = page.locator(".seat-play .done-trick")
        done.first.wait_for()
        # The lead's card and both passes, each in front of its seat.
        assert page.locator(f'.seat[data-seat="{lead}"] .done-trick .card').count() == 1
        for seat in others:
            bubble = page.locator(f'.seat[data-seat="{seat}"] .done-trick .bubble')
            assert bubble.inner_text().strip() in _pass_words(lang)
        opacity = float(done.first.evaluate("e => getComputedStyle(e).opacity"))
        assert opacity < 1
        shoot(page, f"pace-finished-trick-{lang}")

        # The next lead clears it: only the new play is on the table, not dimmed.
        _move(clients, lead, lambda v: next(m for m in v["legal"] if m["k"]))
        page.wait_for_function("n => window.shedkit.state.view.history.length === n + 1", arg=n)
        page.wait_for_selector(".seat-play .done-trick", state="detached")
        assert page.locator(f'.seat[data-seat="{lead}"] .seat-play .card').count() >= 1
        for seat in others:
            assert page.locator(f'.seat[data-seat="{seat}"] .seat-play .bubble').count() == 0
        assert errors == []
    finally:
        for c in clients:
            c.close()
        page.context.close()


def fed_page(browser: Any, live: LiveServer, state: dict[str, Any], locale: str) -> Any:
    """The table page fed ``state`` through its socket (Playwright's ``route_web_socket``)
    with a paused clock; ``page.feed(state)`` sends it another."""
    sockets: list[Any] = []

    def feed(ws: Any) -> None:
        ws.on_message(lambda message: None)
        sockets.append(ws)
        ws.send(json.dumps(state))

    context = browser.new_context(viewport=DESKTOP, locale=locale)
    page = context.new_page()
    page.clock.install()
    page.route_web_socket(re.compile(r"/ws/"), feed)
    page.goto(live.url + f"/t/{state['table']['id']}")
    page.wait_for_selector(".seat")
    # From here the page's time moves only when the test moves it.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)

    def send(new: dict[str, Any]) -> None:
        sockets[-1].send(json.dumps(new))
        page.wait_for_function("id => window.shedkit.state.state_id === id", arg=new["state_id"])
        # The page's effects run after a frame: let one pass.
        page.clock.run_for(100)

    page.feed = send
    return page


def seated_state(live: LiveServer, game: str, **body: Any) -> dict[str, Any]:
    """The state the server sends the player of seat 0 when the deal begins."""
    tid = live.create(game=game, deals=1, seed=5, **body)["id"]
    client = live.client(tid, live.join(tid, 0, "Ana"))
    try:
        client.drain(0.2)
        assert client.state is not None and client.state["view"] is not None
        return copy.deepcopy(client.state)
    finally:
        client.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_bomb_banner_stays_long_enough_to_read(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    state = seated_state(live, "doudizhu", bots=2)
    page = fed_page(browser, live, state, locale)
    bomb = copy.deepcopy(state)
    bomb["state_id"] += 1
    cards = [{"c": 4 * 5 + i, "t": f"8{'shdc'[i]}", "k": 5} for i in range(4)]
    bomb["view"]["history"].append({"seat": 1, "move": "8888", "kind": "bomb", "cards": cards})
    page.feed(bomb)
    banner = page.locator(".banner")
    banner.wait_for()
    assert banner.inner_text().strip() == word(lang, "combo.doudizhu.bomb")
    # The CSS animation lasts as long as the page keeps the banner.
    assert banner.evaluate("e => getComputedStyle(e).animationDuration") == "3.2s"
    page.clock.run_for(900)
    # The next move does not cut it short (1.1 s in, after the two frames fed).
    after = copy.deepcopy(bomb)
    after["state_id"] += 1
    after["view"]["history"].append({"seat": 2, "move": "pass", "kind": "pass", "cards": []})
    page.feed(after)
    page.clock.run_for(1800)
    assert banner.count() == 1  # 2.9 s in
    shoot(page, f"pace-banner-{lang}")
    page.clock.run_for(500)
    page.wait_for_selector(".banner", state="detached")  # 3.4 s in

    # With reduced motion the banner is shown still, for as long.
    page.emulate_media(reduced_motion="reduce")
    again = copy.deepcopy(after)
    again["state_id"] += 1
    again["view"]["history"].append({"seat": 0, "move": "R B", "kind": "rocket", "cards": []})
    page.feed(again)
    banner.wait_for()
    assert banner.evaluate("e => getComputedStyle(e).animationName") == "none"
    assert float(banner.evaluate("e => getComputedStyle(e).opacity")) == 1
    page.clock.run_for(2900)
    assert banner.count() == 1
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_dominoes_says_when_no_tile_fits(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    state = seated_state(live, "dominoes", bots=3)
    view = state["view"]
    view["current_player"] = state["you"]
    view["legal"] = [{"m": "draw", "k": [], "kind": "draw", "end": None}]
    page = fed_page(browser, live, state, locale)
    page.wait_for_selector("#preview.cannot-beat")
    assert page.inner_text("#preview") == word(lang, "table.cannot_play_draw")
    draw = page.locator('.controls button.move[data-move="draw"]')
    assert "primary" in (draw.get_attribute("class") or "")
    assert "primary" not in (page.get_attribute("#play", "class") or "")
    shoot(page, f"pace-dominoes-draw-{lang}")

    # The boneyard empty: passing is the move.
    empty = copy.deepcopy(state)
    empty["state_id"] += 1
    empty["view"]["legal"] = [{"m": "pass", "k": [], "kind": "pass", "end": None}]
    page.feed(empty)
    page.wait_for_function(
        "t => document.querySelector('#preview').textContent === t",
        arg=word(lang, "table.cannot_play_pass"),
    )
    assert "primary" in (page.get_attribute("#pass", "class") or "")

    # A tile that fits: the usual prompt, Play the button to press.
    playable = copy.deepcopy(empty)
    playable["state_id"] += 1
    tile = playable["view"]["hand"][0]
    playable["view"]["legal"] = [
        {"m": f"{tile['t']}@L", "k": [tile["c"]], "kind": "play", "end": "L"}
    ]
    page.feed(playable)
    page.wait_for_selector("#preview:not(.cannot-beat)")
    assert "primary" in (page.get_attribute("#play", "class") or "")
    page.context.close()
