"""The card counter (记牌器) in a real browser, in English and Chinese: a table option that
every seat sees alike; after several plays each rank's count is what Python counts from the
same public history and the seat's own hand; off, there is no counter at all.

Screenshots go to ``build/test-artifacts/``: ``card-counter-<game>-<lang>.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.client.test_lobby import overlap, word
from tests.server.browser import CHROMIUM, DESKTOP, my_turn, shoot, state, take_seat
from tests.server.live import LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

LANGS = [("en", "en-GB"), ("zh", "zh-CN")]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("counter") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


def expected(view: dict[str, Any], jokers: int) -> dict[str, int]:
    """Cards of each rank neither played nor in the seat's hand, from the public view."""
    if view["game"] == "doudizhu":
        total = {str(k): 1 if k >= 13 else 4 for k in range(15)}
        rank = lambda card: str(card["k"])  # noqa: E731
    else:
        total = {str(f): 4 for f in range(13)} | ({"-1": jokers} if jokers else {})
        rank = lambda card: str(card["f"])  # noqa: E731
    seen = [c for e in view["history"] if e["kind"] != "give" for c in e["cards"]]
    for card in seen + view["hand"] + view.get("leftover", []):
        total[rank(card)] -= 1
    return total


def move(page: Any) -> None:
    """One move through the page's buttons: a bid, or the hinted play (else a pass)."""
    before = len(state(page)["view"]["history"])
    if page.locator(".bid-buttons button.bid").count():
        page.locator(".bid-buttons button.bid").first.click()
    elif page.locator("#give").count():
        page.click("#hint")
        page.click("#give")
    else:
        page.click("#hint")
        if page.locator(".hand [aria-pressed=true]").count():
            page.click("#play")
            if page.locator(".choices button").count():
                page.locator(".choices button").first.click()
        else:
            page.click("#pass")
    page.wait_for_function(
        "n => window.shedkit.state.view.history.length > n", arg=before, timeout=15000
    )


def play_a_while(page: Any, plays: int) -> dict[str, Any]:
    """Play through the page until ``plays`` card plays are in the history, on our turn."""
    for _ in range(200):
        page.wait_for_function(
            "() => { const s = window.shedkit.state; return s.view && (s.view.is_over ||"
            " (s.view.current_player === s.you && s.view.legal.length)) }",
            timeout=15000,
        )
        view = state(page)["view"]
        done = sum(1 for e in view["history"] if e["cards"] and e["kind"] != "give")
        if done >= plays or view["is_over"]:
            return dict(view)
        assert my_turn(page)
        move(page)
    raise AssertionError("the deal did not get that far")


@pytest.mark.parametrize(("lang", "locale"), LANGS)
@pytest.mark.parametrize(("game", "options"), [("doudizhu", {}), ("president", {"jokers": 1})])
def test_counts_what_is_still_out(
    browser: Any, live: LiveServer, lang: str, locale: str, game: str, options: dict[str, Any]
) -> None:
    players = 3 if game == "doudizhu" else 4
    body = {"game": game, "bots": players - 1, "deals": 1, "seed": 11, "card_counter": True}
    tid = live.create(**body, options=options)["id"]
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    take_seat(page, live.url, tid, "Ana", 0)
    view = play_a_while(page, 6)
    assert not view["is_over"]
    panel = page.locator(".card-counter")
    assert panel.locator("h2").inner_text() == word(lang, "table.counter")
    want = expected(view, options.get("jokers", 0))
    shown = {
        cell.get_attribute("data-rank"): int(cell.get_attribute("data-left"))
        for cell in panel.locator(".counter-rank").all()
    }
    assert shown == want
    # Highest first: the red joker (Dou Di Zhu) or the joker (President) leads the row.
    first = panel.locator(".counter-rank").first
    joker = "table.counter_joker_red" if game == "doudizhu" else "table.counter_joker_any"
    assert first.locator(".counter-mark").inner_text() == word(lang, joker)
    # Beside the felt, over no seat.
    box = panel.bounding_box()
    for seat in page.locator(".seat").all():
        assert not overlap(box, seat.bounding_box())
    shoot(page, f"card-counter-{game}-{lang}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_no_counter_when_the_table_has_it_off(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    tid = live.create(game="doudizhu", bots=2, deals=1, seed=11)["id"]
    assert live.table(tid).card_counter is False
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    take_seat(page, live.url, tid, "Ana", 0)
    play_a_while(page, 2)
    assert page.locator(".card-counter").count() == 0
    assert word(lang, "table.scores") in page.inner_text(".side")  # the side column is drawn
    page.context.close()
