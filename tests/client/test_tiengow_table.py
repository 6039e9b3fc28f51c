"""Tien Gow in the browser: a whole match (two hands, TG-41) played through the table page on
a phone in Chinese (360 x 740) and on a laptop in English (1366 x 768).

The first turns are played by hand, as a person plays them: tiles tapped and Play pressed,
tiles tapped and Discard pressed. The layout checker of ``test_layout.py`` then plays the
viewer's turns with Hint then Play (or Discard) and checks every change: nothing drawn
covers a seat or the hand, nothing is cut by the felt, no text under 11 px. Another seat's
face-down tile shows only as a back (TG-25). axe-core finds no serious violation mid-hand,
on the payments of a hand and on the replay. Screenshots:
``build/test-artifacts/tiengow-<lang>-<w>x<h>-{hand,trick,settlement,match,replay}.png`` and
``tiengow-howto-en.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_accessibility import serious
from tests.client.test_layout import new_page, report
from tests.server.browser import ARTIFACTS, CHROMIUM, check_no_notation, state, take_seat
from tests.server.live import TEST_SETTINGS, LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

SIZES = [("zh", (360, 740)), ("en", (1366, 768))]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("tiengow")) / "shedkit.db"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.01, settings=TEST_SETTINGS) as server:
        yield server


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def moves(page: Any) -> int:
    n: int = page.evaluate("() => window.shedkit.state.view.history.length")
    return n


def pause_on_my_turn(page: Any, after: int) -> bool:
    """Let the checker play until the viewer's turn after ``after`` moves; False if the hand
    ended first."""
    page.evaluate("n => window.__layout.pauseAt(n)", after)
    page.wait_for_function(
        "() => window.__layout.paused || (window.shedkit.state.view || {}).is_over",
        timeout=60000,
    )
    return not state(page)["view"]["is_over"]


def tap_tiles(page: Any, keys: list[int]) -> None:
    """Tap the hand's tiles of these kinds, as a person taps them."""
    hand = state(page)["view"]["hand"]
    taken: set[int] = set()
    for key in keys:
        tile = next(c for c in hand if c["k"] == key and c["c"] not in taken)
        taken.add(tile["c"])
        page.click(f'.hand button[data-card="{tile["c"]}"]')
    assert page.locator(".hand button[aria-pressed=true]").count() == len(keys)


def selected(page: Any, lang: str, size: tuple[int, int], done: set[str]) -> None:
    """The first selection made by hand, in a screenshot: the tiles raised, the buttons lit."""
    if "hand" not in done:
        shot(page, f"tiengow-{lang}-{size[0]}x{size[1]}-hand")
        done.add("hand")


def play_by_hand(page: Any, lang: str, size: tuple[int, int]) -> set[str]:
    """Play the viewer's turns by hand until a face-up play and a discard are both made."""
    done: set[str] = set()
    for _ in range(8):
        if done >= {"face", "discard"} or not pause_on_my_turn(page, moves(page)):
            break
        view = state(page)["view"]
        before = len(view["history"])
        face = [m for m in view["legal"] if m["kind"] != "discard"]
        down = [m for m in view["legal"] if m["kind"] == "discard"]
        if not view["trick"]:
            # A lead: the biggest combination held, its tiles tapped one by one.
            move = max(face, key=lambda m: len(m["k"]))
            tap_tiles(page, move["k"])
            assert page.is_enabled("#play") and not page.is_enabled("#discard")
            selected(page, lang, size, done)
            page.click("#play")
            done.add("face")
        elif "discard" not in done or not face:
            move = down[0]
            tap_tiles(page, move["k"])
            assert page.is_enabled("#discard")
            assert page.is_enabled("#play") == any(
                sorted(m["k"]) == sorted(move["k"]) for m in face
            )
            selected(page, lang, size, done)
            # On the laptop by its key (P), on the phone by its button.
            if size[0] > 900:
                page.keyboard.press("p")
            else:
                page.click("#discard")
            done.add("discard")
        else:
            tap_tiles(page, face[0]["k"])
            page.click("#play")
            done.add("face")
        page.wait_for_function("n => window.shedkit.state.view.history.length > n", arg=before)
    return done


def check_discards_drawn_as_backs(page: Any) -> None:
    """In front of the seats: another seat's discard is backs only; the viewer's own shows
    its faces, dimmed (TG-25)."""
    view = state(page)["view"]
    trick = view["trick"] or view["finished_trick"]
    for entry in trick:
        if entry["kind"] != "discard":
            continue
        row = page.locator(f'.seat[data-seat="{entry["seat"]}"] .seat-play .tg-row')
        if entry["seat"] == view["seat"]:
            assert row.locator(".tg-tile:not([data-tile=back])").count() == entry["size"]
        else:
            assert row.locator(".tg-tile[data-tile=back]").count() == entry["size"]
            assert row.locator(".tg-tile:not([data-tile=back])").count() == 0


@pytest.mark.parametrize(("lang", "size"), SIZES, ids=[f"{lang}-{w}x{h}" for lang, (w, h) in SIZES])
def test_a_whole_match_in_the_browser(
    live: LiveServer, browser: Any, lang: str, size: tuple[int, int]
) -> None:
    name = f"tiengow-{lang}-{size[0]}x{size[1]}"
    page = new_page(browser, size, lang)
    try:
        table_id = live.create(game="tiengow", bots=3, seed=31, options={"hands": 2})["id"]
        take_seat(page, live.url, table_id, "Ana", 0)
        page.evaluate("() => window.__layout.reset()")
        assert play_by_hand(page, lang, size) >= {"face", "discard"}

        # Mid-hand, on a trick with discards: backs for the others, the banker's badge, the
        # units won by each seat; no notation, no serious axe violation.
        for _ in range(12):
            view = state(page)["view"]
            trick = view["trick"] or view["finished_trick"]
            if any(e["kind"] == "discard" and e["seat"] != 0 for e in trick):
                break
            if not pause_on_my_turn(page, moves(page) + 1):
                break
        if not state(page)["view"]["is_over"]:
            check_discards_drawn_as_backs(page)
            assert page.locator(".role.tg-banker").count() == 1
            assert page.locator(".count.tg-won").count() == 4
            check_no_notation(page)
            shot(page, f"{name}-trick")
            assert serious(page, f"{name}-trick") == []
        page.evaluate("() => window.__layout.resume()")

        # The end of the first hand: who pays whom, as a table.
        page.wait_for_selector("#payments", timeout=120000)
        rows = page.locator("#payments tbody tr").count()
        final = state(page)["view"]
        assert rows == len(final["payments"]) >= 3
        shot(page, f"{name}-settlement")
        assert serious(page, f"{name}-settlement") == []
        page.click("#next")
        page.wait_for_function(
            "() => { const s = window.shedkit.state; return s.table.deal_number === 2 }",
            timeout=30000,
        )

        # The second and last hand, played by the checker: the match is over.
        page.wait_for_function(
            "() => { const s = window.shedkit.state; return s.table.match_over"
            " && s.view && s.view.is_over }",
            timeout=120000,
        )
        page.wait_for_selector("#payments")
        page.wait_for_timeout(300)
        shot(page, f"{name}-match")
        table = state(page)["table"]
        assert sum(table["totals"]) == 0 and table["deals_played"] == 2  # TG-30, TG-41
        result = page.evaluate("() => window.__layout.result()")
        # How many checks ran depends on how the moves' frames fell together: a few at least.
        assert result["checks"] > 5 and result["moves"] > 2
        assert not result["found"], report(result["found"])
        assert not result["small"], result["small"]
        assert not page.errors, page.errors

        # The replay of the first hand: face-down tiles as backs, every hand as anyone may
        # know it once the hand is over.
        replay = page.context.new_page()
        replay.goto(live.url + f"/replay/{table_id}/1")
        replay.wait_for_selector(".replay-hands .tg-tile")
        replay.click("#next")
        replay.click("#next")
        assert replay.locator(".replay-hands .tg-tile[data-tile=back]").count() > 0
        shot(replay, f"{name}-replay")
        assert serious(replay, f"{name}-replay") == []
        replay.close()
    finally:
        page.context.close()


def test_the_howto_gallery_draws_the_tiles(live: LiveServer, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB").new_page()
    page.goto(live.url + "/howto/tiengow")
    page.wait_for_selector(".howto-body .combo .tg-tile", timeout=30000)
    combos = live.http.get("/api/howto/tiengow").json()["combos"]
    assert page.locator(".combo").count() == len(combos)
    assert page.locator(".combo .tg-tile").count() == sum(len(c["cards"]) for c in combos)
    # The double six: a red column in each half (as the terminal draws it), no blank half.
    heaven = page.locator('.combo .tg-tile[data-tile="6-6"]').first
    assert heaven.locator("circle.tg-red").count() == 6
    assert heaven.locator("circle.tg-white").count() == 6
    page.locator(".gallery").screenshot(path=str(ARTIFACTS / "tiengow-howto-en.png"))
    page.context.close()


@pytest.mark.parametrize(("lang", "size"), SIZES, ids=lambda p: str(p))
def test_the_four_colour_deck_is_offered_at_card_tables_only(
    live: LiveServer, browser: Any, lang: str, size: tuple[int, int]
) -> None:
    """Tiles have no suits: a Tien Gow table's header (or a phone's menu) has no "Four colours"
    button, nor has Dominoes'; Dou Di Zhu's and President's have it."""
    page = new_page(browser, size, lang)
    try:
        for game, body, offered in (
            ("tiengow", {"bots": 3}, False),
            ("dominoes", {"bots": 3}, False),
            ("doudizhu", {"bots": 2}, True),
            ("president", {"bots": 3}, True),
        ):
            table_id = live.create(game=game, deals=1, seed=17, **body)["id"]
            take_seat(page, live.url, table_id, "Ana", 0)
            page.evaluate("() => window.__layout.pauseAt(0)")
            menu = page.locator("#menu")
            if menu.is_visible():
                menu.click()
            page.locator("#sound").wait_for()
            assert page.locator("#four-colour").count() == int(offered), game
            if offered:
                assert page.locator("#four-colour").is_visible(), game
            if game == "tiengow":
                shot(page, f"tiengow-{lang}-{size[0]}x{size[1]}-tools")
            if menu.is_visible():
                menu.click()
    finally:
        page.context.close()
