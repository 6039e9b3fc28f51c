"""Every card drawn anywhere shows its rank and suit whole: in the hand, in front of the
seats, in the kitty, in the log, among President's unused cards, in the hands shown at the
end of a deal and in the replay, on a phone (360 px) and a laptop (1366 px).

A script measures each card the page draws face up: the boxes of its rank and suit glyphs
(or a joker's mark) lie inside the card's own box, and left of the next card that overlaps
it in a row; in the hand, above the next row too. A card whose corner is hidden under a
dialog or scrolled out of its panel is not seen, so not measured; the test asserts that
each place was measured. Whole deals are played through the page as a person plays them
(tests/client/layout_check.js). Screenshots: ``build/test-artifacts/faces-*.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, CHROMIUM, open_sheet, take_seat
from tests.server.live import TEST_SETTINGS, LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

CHECKER = (Path(__file__).parent / "layout_check.js").read_text()
SIZES = [(360, 740), (1366, 768)]

#: Measures the cards on the page: {checked: {place: n}, cut: [what]}.
MEASURE = (Path(__file__).parent / "card_faces.js").read_text()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("faces") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.01, settings=TEST_SETTINGS) as server:
        yield server


def measure(page: Any, shot: str, where: set[str]) -> None:
    page.wait_for_timeout(150)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"faces-{shot}.png"))
    found = page.evaluate(MEASURE)
    assert not found["cut"], f"{shot}: cards drawn cut\n" + "\n".join(found["cut"][:20])
    missing = where - set(found["checked"])
    assert not missing, f"{shot}: no card measured in {missing} ({found['checked']})"


def play_to(page: Any, moves: int) -> None:
    page.evaluate("n => window.__layout.pauseAt(n)", moves)
    page.wait_for_function(
        "() => window.__layout.paused || (window.shedkit.state.view || {}).is_over", timeout=60000
    )


def finish(page: Any) -> None:
    page.evaluate("() => window.__layout.resume()")
    page.wait_for_function(
        "() => { const v = window.shedkit.state.view; return v && v.is_over }", timeout=90000
    )
    page.wait_for_selector(".revealed .card")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}")
def test_every_card_shows_its_rank_and_suit(
    live: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    w, h = size
    context = browser.new_context(
        viewport={"width": w, "height": h}, locale="zh-CN", reduced_motion="reduce"
    )
    context.add_init_script(CHECKER)
    page = context.new_page()
    try:
        # Dou Di Zhu: the hand, the plays in front of the seats, the kitty, the log.
        tid = live.create(game="doudizhu", bots=2, seed=11, deals=1, card_counter=True)["id"]
        take_seat(page, live.url, tid, "Ana", 0)
        play_to(page, 9)
        measure(page, f"ddz-{w}", {"hand", "seat", "centre"})
        open_sheet(page, "log")
        measure(page, f"ddz-log-{w}", {"log"})
        page.keyboard.press("Escape")
        finish(page)
        measure(page, f"ddz-end-{w}", {"revealed"})
        # The replay of that deal: the hands and the plays.
        page.goto(f"{live.url}/replay/{tid}/1")
        page.wait_for_selector(".replay-hands .card")
        page.locator(".replay-hands").scroll_into_view_if_needed()
        measure(page, f"replay-{w}", {"revealed"})
        # President for five: the unused cards in the centre.
        body = {"game": "president", "options": {"players": 5}, "bots": 4, "seed": 15}
        tid = live.create(deals=1, **body)["id"]
        take_seat(page, live.url, tid, "Ana", 0)
        play_to(page, 8)
        measure(page, f"president-5-{w}", {"hand", "seat", "centre"})
    finally:
        context.close()
