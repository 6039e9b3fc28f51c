"""The table's layout cannot collide, checked in a real browser (Debian's chromium via
Playwright) while whole deals of each game are played at phone, tablet and desktop sizes,
in English and Chinese.

A script injected into the page checks the geometry after every change it sees (a
MutationObserver, then two frames for the layout to settle): no tile, card, banner or label
drawn in the centre, in front of a seat or as a banner may cover a seat's avatar, name,
count, role, clock or status, nor the hand; all of it stays inside the felt (nothing cut);
the hand and its items stay on the screen without scrolling; the page never scrolls
sideways. The same script plays the seated viewer's turns as a person would, with Hint and
Play (or Pass, a bid, Give), so a deal runs at the bots' pace. Screenshots of every game at
every size, mid-deal: ``build/test-artifacts/layout-<game>-<lang>-<w>x<h>.png``.

The phone hand: at 360 px a 20-card Dou Di Zhu landlord hand shows every card's corner
whole, and a tap on it selects that card.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, CHROMIUM, take_seat
from tests.server.live import TEST_SETTINGS, LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

#: Phones upright and on their side (740 x 360, 844 x 390), a tablet, laptops, a big screen.
VIEWPORTS = [(360, 740), (390, 844), (740, 360), (844, 390), (768, 1024), (1366, 768), (1920, 1080)]
LANGS = ["en", "zh"]
#: The other three languages, at the phone's sizes upright and on its side, where long words
#: and names have the least room.
MORE_LANGS = [(lang, size) for lang in ("it", "de", "ja") for size in ((360, 740), (740, 360))]

#: Each game as a table is created: a whole deal, the viewer in seat 0, bots in the rest.
#: Dominoes twice: All Fives with four players (partners, the spinner's four arms) and a
#: double-nine draw game for two, where the line and the hands grow long. Tien Gow's turns
#: are played with Hint then Play, or Discard where nothing can be played face up.
#: The card games with the card counter on: its strip lies on a phone's felt.
GAMES: dict[str, dict[str, Any]] = {
    "doudizhu": {"game": "doudizhu", "bots": 2, "seed": 11, "card_counter": True},
    "president": {"game": "president", "bots": 3, "seed": 12, "card_counter": True},
    "president-5": {"game": "president", "options": {"players": 5}, "bots": 4, "seed": 15},
    "dominoes-fives": {"game": "dominoes", "preset": "all-fives", "bots": 3, "seed": 13},
    "dominoes-long": {
        "game": "dominoes",
        "preset": "double-nine",
        "options": {"players": 2},
        "bots": 1,
        "seed": 14,
    },
    # Tien Gow: four seats, plays of up to four tiles each, discards as backs.
    "tiengow": {"game": "tiengow", "bots": 3, "seed": 17},
}

CHECKER = (Path(__file__).parent / "layout_check.js").read_text()

#: Where text is still drawn under 11 px (game, viewport): what the centre or a seat's play
#: draws, scaled down to fit a small felt. Each is a known gap; any other place fails.
SMALL_TEXT_LEFT: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("layout") / "shedkit.db"
    # A small pause between the bots' moves: each state gets a frame or two to be drawn and
    # checked before the next arrives.
    with LiveServer(f"sqlite:///{db}", bot_delay=0.01, settings=TEST_SETTINGS) as server:
        yield server


def new_page(browser: Any, size: tuple[int, int], lang: str) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        locale={"zh": "zh-CN", "ja": "ja-JP", "de": "de-DE", "it": "it-IT"}.get(lang, "en-US"),
        reduced_motion="reduce",
        has_touch=size[0] < 900,
    )
    context.add_init_script(CHECKER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def report(found: list[dict[str, Any]]) -> str:
    lines = [f"{f['problem']}: {f['what']} / {f['against']} (move {f['move']})" for f in found]
    return "\n".join(lines[:30])


def play_deal(page: Any, live: LiveServer, name: str, body: dict[str, Any], shot: str) -> None:
    """Seat the page at a new table, play its first deal to the end through the page, take
    a screenshot mid-deal, and fail on any collision the page saw."""
    table_id = live.create(deals=1, **body)["id"]
    take_seat(page, live.url, table_id, "Ana", 0)
    page.evaluate("() => window.__layout.reset()")
    # Mid-deal: the autoplayer stops on the viewer's turn after this many moves.
    page.evaluate("n => window.__layout.pauseAt(n)", 12 if name.startswith("dominoes") else 14)
    page.wait_for_function(
        "() => window.__layout.paused || (window.shedkit.state.view || {}).is_over", timeout=60000
    )
    page.wait_for_timeout(150)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
    page.evaluate("() => window.__layout.resume()")
    page.wait_for_function(
        "() => { const v = window.shedkit.state.view; return v && v.is_over }", timeout=90000
    )
    page.wait_for_timeout(100)
    result = page.evaluate("() => window.__layout.result()")
    assert result["checks"] > 5, f"{shot}: the layout was hardly checked ({result['checks']})"
    assert result["moves"] > 0, f"{shot}: the viewer never moved"
    assert not result["found"], f"{shot}: {len(result['found'])} collisions\n" + report(
        result["found"]
    )
    assert not page.errors, page.errors
    small = [f"{s['what']}: {s['px']:.1f} px (move {s['move']})" for s in result["small"]]
    if os.environ.get("SHEDKIT_LAYOUT_SMALL"):
        with open(os.environ["SHEDKIT_LAYOUT_SMALL"], "a") as out:
            out.write("".join(f"{shot}\t{line}\n" for line in small))
    if (name, shot.rsplit("-", 1)[1]) in SMALL_TEXT_LEFT:
        return
    assert not small, f"{shot}: text under 11 px\n" + "\n".join(small[:30])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_whole_deals_never_collide(
    live: LiveServer, browser: Any, size: tuple[int, int], lang: str
) -> None:
    page = new_page(browser, size, lang)
    try:
        for name, body in GAMES.items():
            play_deal(page, live, name, body, f"layout-{name}-{lang}-{size[0]}x{size[1]}")
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "size"), MORE_LANGS, ids=lambda p: str(p))
def test_whole_deals_in_every_language(
    live: LiveServer, browser: Any, lang: str, size: tuple[int, int]
) -> None:
    test_whole_deals_never_collide(live, browser, size, lang)


def test_the_check_finds_a_collision(live: LiveServer, browser: Any) -> None:
    """A label laid over a seat's avatar is reported, with both elements named."""
    page = new_page(browser, (390, 844), "en")
    try:
        table_id = live.create(deals=1, **GAMES["doudizhu"])["id"]
        take_seat(page, live.url, table_id, "Ana", 0)
        page.evaluate("() => window.__layout.pauseAt(0)")
        page.wait_for_function("() => window.__layout.paused")
        page.evaluate(
            """() => {
              const r = document.querySelector('.seat:not(.mine) .avatar').getBoundingClientRect();
              const chip = document.createElement('span');
              chip.className = 'chip stray';
              chip.textContent = 'x';
              chip.style = `position:fixed;left:${r.left}px;top:${r.top}px`;
              document.querySelector('.centre').appendChild(chip);
            }"""
        )
        page.wait_for_function("() => window.__layout.result().found.length > 0")
        found = page.evaluate("() => window.__layout.result().found")
        assert any("stray" in f["what"] and "avatar" in f["against"] for f in found), found
    finally:
        page.context.close()


def landlord_page(browser: Any, live: LiveServer, lang: str) -> Any:
    """A 360 px page seated as Dou Di Zhu's landlord with the 20 cards, before the first play."""
    page = new_page(browser, (360, 740), lang)
    for seed in range(40, 60):
        table_id = live.create(game="doudizhu", bots=2, seed=seed, deals=1)["id"]
        take_seat(page, live.url, table_id, "Ana", 0)
        page.evaluate("() => window.__layout.pauseAt(0, true)")
        page.wait_for_function(
            "() => { const v = window.shedkit.state.view;"
            " return v && (v.phase === 'play' || v.is_over) }",
            timeout=30000,
        )
        view = page.evaluate("() => window.shedkit.state.view")
        if view["landlord"] == 0 and len(view["hand"]) == 20:
            page.wait_for_function("() => window.__layout.paused")
            return page
    raise AssertionError("no seed made the viewer the landlord")


@pytest.mark.parametrize("lang", LANGS)
def test_phone_hand_shows_every_corner_and_taps_land(
    live: LiveServer, browser: Any, lang: str
) -> None:
    """The landlord's 20 cards (DDZ-04, DDZ-10) at 360 px: each card's visible strip holds its whole
    corner (at least 26 px), and a tap on that corner selects that very card."""
    page = landlord_page(browser, live, lang)
    try:
        page.wait_for_timeout(100)
        strips = page.evaluate(
            """() => [...document.querySelectorAll('.hand .hand-slot')].map((slot, i, all) => {
              const r = slot.getBoundingClientRect();
              const next = all[i + 1];
              const n = next && next.parentElement === slot.parentElement
                ? next.getBoundingClientRect().left : r.right;
              return { i, left: r.left, top: r.top, width: r.width, height: r.height,
                strip: n - r.left };
            })"""
        )
        assert len(strips) == 20
        narrow = [s for s in strips if s["strip"] < 26]
        assert not narrow, f"cards whose corner is hidden: {narrow}"
        page.screenshot(path=str(ARTIFACTS / f"layout-phone-hand-{lang}-360.png"))
        for s in strips:
            # The corner: the rank and the small suit under it, at the card's top left.
            x = s["left"] + min(s["strip"], s["width"] * 0.42) / 2
            y = s["top"] + s["height"] * 0.2
            hit = page.evaluate(
                "([x, y]) => { const el = document.elementFromPoint(x, y);"
                " const slot = el && el.closest('.hand-slot');"
                " return slot ? Number(slot.dataset.index) : -1 }",
                [x, y],
            )
            assert hit == s["i"], f"a tap on card {s['i']}'s corner lands on {hit}"
            page.mouse.click(x, y)
            pressed = page.locator(".hand .hand-slot").nth(s["i"]).locator("button")
            assert pressed.get_attribute("aria-pressed") == "true", f"card {s['i']}"
        page.screenshot(path=str(ARTIFACTS / f"layout-phone-hand-selected-{lang}-360.png"))
        hand_box = page.locator(".me-area .hand").bounding_box()
        assert hand_box["y"] + hand_box["height"] <= 740
    finally:
        page.context.close()
