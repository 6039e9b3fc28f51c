"""Smaller points of the card room, in a real browser (Debian's chromium via Playwright):
every bot level named in each language's lobby; the hands revealed at the end of a deal
and in the replay in the live hand's order; a visitor's seat buttons naming each seat as
the felt shows it; Play disabled beside Pass when passing is all that is left (要不起); the
trick ended by passes kept on the felt long enough to read, even when the next lead comes
at once (DDZ-13), and the bots' pause before they lead at the normal pace.

Screenshots go to ``build/test-artifacts/``: ``lobby-other-bots-<lang>.png``,
``join-seats-<lang>.png``, ``cannot-beat-play-disabled-<lang>.png``,
``finished-trick-held-<lang>.png``.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import Any

import pytest

import shedkit
from shedkit.doudizhu.combos import card_rank
from shedkit.protocol.views import serialize_view
from tests.client.test_lobby import word
from tests.client.test_table_alerts import open_table
from tests.client.test_table_alerts import seated_state as answering_state
from tests.client.test_table_pace import fed_page, seated_state
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP
from tests.server.live import LiveServer, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

LANGS = [("en", "en-GB"), ("zh", "zh-CN")]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("details") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


def new_page(browser: Any, locale: str) -> Any:
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def shoot(page: Any, name: str, selector: str | None = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = page.locator(selector) if selector else page
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize(("lang", "locale"), [("zh", "zh-CN"), ("ja", "ja-JP"), ("en", "en-GB")])
def test_every_bot_level_is_named_in_the_lobby(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    page = new_page(browser, locale)
    try:
        page.goto(live.url + "/")
        page.wait_for_selector("#create-btn")
        page.select_option("#game", "doudizhu")
        page.click("details.other-bots summary")
        for level in ("greedy", "random"):
            label = page.locator(f'label[for="bot-{level}"]')
            assert label.locator(".choice-label").inner_text() == word(lang, f"level.{level}.label")
            assert label.locator(".choice-help").inner_text() == word(lang, f"level.{level}.help")
        shoot(page, f"lobby-other-bots-{lang}", "details.other-bots")
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_revealed_hands_are_drawn_in_the_live_hands_order(browser: Any, live: LiveServer) -> None:
    """Dou Di Zhu's hand is drawn big to small unless the reader chose otherwise: so are the
    hands shown at the end of the deal and in its replay."""
    tid = live.create(game="doudizhu", bots=3, deals=1, seed=8)["id"]
    wait(lambda: live.table(tid).status == "finished")
    page = new_page(browser, "en-GB")

    def ranks(selector: str) -> list[list[int]]:
        hands = page.locator(selector)
        out = []
        for i in range(hands.count()):
            ids = (
                hands.nth(i)
                .locator(".card[data-card]")
                .evaluate_all("els => els.map((e) => Number(e.dataset.card))")
            )
            out.append([card_rank(c) for c in ids])
        return [r for r in out if len(r) > 1]

    try:
        page.goto(live.url + f"/t/{tid}")
        page.wait_for_selector("#result .revealed-hand .card")
        shown = ranks("#result .revealed-hand")
        assert shown and all(r == sorted(r, reverse=True) for r in shown), shown
        page.goto(live.url + f"/replay/{tid}/1")
        page.wait_for_selector(".replay-hand .card")
        replayed = ranks(".replay-hand")
        assert replayed and all(r == sorted(r, reverse=True) for r in replayed), replayed
        # The reader's own choice, small to big: both follow it.
        page.evaluate("() => localStorage.setItem('shedkit.setting.handSort', '\"asc\"')")
        page.reload()
        page.wait_for_selector(".replay-hand .card")
        assert all(r == sorted(r) for r in ranks(".replay-hand"))
        page.goto(live.url + f"/t/{tid}")
        page.wait_for_selector("#result .revealed-hand .card")
        assert all(r == sorted(r) for r in ranks("#result .revealed-hand"))
        assert not page.errors, page.errors
    finally:
        page.context.close()


def place(lang: str, seat: int) -> str:
    """Where a visitor's felt draws ``seat`` of four: seat 1 at the bottom, then round."""
    return word(lang, f"table.place.{('bottom', 'right', 'top', 'left')[seat]}")


def bot(lang: str, seat: int) -> str:
    return word(lang, "table.bot_name", level=word(lang, "level.medium.label"), n=seat + 1)


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_visitor_takes_a_seat_named_as_the_felt_shows_it(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    page = new_page(browser, locale)
    try:
        # Before the first deal every seat nobody holds is an empty chair: named by its place.
        waiting = live.create(game="president", bots=3, deals=1)["id"]
        page.goto(live.url + f"/t/{waiting}")
        page.wait_for_selector("#join button.take")
        for seat in range(4):
            button = page.locator(f'#join button.take[data-seat="{seat}"]')
            assert button.inner_text() == word(lang, "table.take_place", place=place(lang, seat))
            felt = page.locator(f'.seat[data-seat="{seat}"]').get_attribute("class") or ""
            assert ("pos-" + ("bottom", "right", "top", "left")[seat]) in felt
        # Once its bot plays it, a seat is named by its bot too, as the felt names it.
        played = live.create(game="dominoes", bots=4, deals=1, seed=2)["id"]
        wait(lambda: live.table(played).status == "finished")
        page.goto(live.url + f"/t/{played}")
        page.wait_for_selector("#join button.take")
        page.locator("#see-table").click()
        for seat in range(4):
            button = page.locator(f'#join button.take[data-seat="{seat}"]')
            name = page.locator(f'.seat[data-seat="{seat}"] .seat-name').inner_text().strip()
            assert name == bot(lang, seat)
            assert button.inner_text() == word(
                lang, "table.take_place_named", place=place(lang, seat), name=name
            )
        shoot(page, f"join-seats-{lang}", "#join")
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def answering(live: LiveServer) -> dict[str, Any]:
    return answering_state(live, "president", True, bots=3)


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_play_is_disabled_when_only_a_pass_is_legal(
    browser: Any, live: LiveServer, answering: dict[str, Any], lang: str, locale: str
) -> None:
    state = copy.deepcopy(answering)
    page, send, errors = open_table(browser, live, state, locale)
    try:
        page.wait_for_selector("#play:not([disabled])")
        state["view"]["legal"] = [m for m in state["view"]["legal"] if m["kind"] == "pass"]
        send()
        page.wait_for_selector("#preview.cannot-beat")
        assert page.locator("#play").is_disabled()
        assert page.locator("#pass").is_enabled()
        assert "primary" in (page.get_attribute("#pass", "class") or "")
        shoot(page, f"cannot-beat-play-disabled-{lang}", ".controls")
        # Space plays nothing either.
        page.keyboard.press(" ")
        assert not [m for m in page.sent if m.get("type") == "move"]
        assert not errors, errors
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_finished_trick_stays_even_when_the_next_lead_is_at_once(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    """DDZ-13: the trick ended by two passes stays in front of the seats (dimmed) at least
    1.1 s, on the page's own clock: a lead made at once shows beside it, and it goes after."""
    base = seated_state(live, "doudizhu", bots=2)
    game = shedkit.make("doudizhu")
    deal = game.new_deal(seed=2, first_bidder=0)
    deal.apply(game.parse_move("bid3", deal))
    lead = deal.current_player
    deal.apply(next(m for m in deal.legal_moves() if m.kind == "solo"))
    deal.apply(next(m for m in deal.legal_moves() if m.kind == "pass"))
    state = copy.deepcopy(base)
    state["view"] = serialize_view("doudizhu", deal.view(state["you"]))
    page = fed_page(browser, live, state, locale)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    try:
        # The second pass ends the trick.
        deal.apply(next(m for m in deal.legal_moves() if m.kind == "pass"))
        state = copy.deepcopy(state)
        state["state_id"] += 1
        state["view"] = serialize_view("doudizhu", deal.view(state["you"]))
        assert state["view"]["finished_trick"] and not state["view"]["trick"]
        page.feed(state)
        others = [s for s in range(3) if s != lead]
        page.wait_for_selector(".seat-play .done-trick")
        page.clock.run_for(100)
        # The leader leads again at once.
        deal.apply(next(m for m in deal.legal_moves() if m.kind != "pass"))
        after = copy.deepcopy(state)
        after["state_id"] += 1
        after["view"] = serialize_view("doudizhu", deal.view(state["you"]))
        page.feed(after)  # 0.3 s after the trick ended
        assert page.locator(f'.seat[data-seat="{lead}"] .seat-play .done-trick').count() == 0
        assert page.locator(f'.seat[data-seat="{lead}"] .seat-play .card').count() >= 1
        for seat in others:
            assert page.locator(f'.seat[data-seat="{seat}"] .done-trick .bubble').count() == 1
        shoot(page, f"finished-trick-held-{lang}")
        page.clock.run_for(600)  # 0.9 s
        assert page.locator(".seat-play .done-trick").count() == 2
        page.clock.run_for(500)  # 1.4 s: gone
        page.wait_for_selector(".seat-play .done-trick", state="detached")
        assert page.locator(f'.seat[data-seat="{lead}"] .seat-play .card').count() >= 1
        assert not page.errors, page.errors
    finally:
        page.context.close()
