"""The table's layout cannot collide, checked in a real browser (Debian's chromium via
Playwright) while whole deals of each game are played at phone, tablet and desktop sizes,
in English and Chinese.

A script injected into the page checks the geometry after every change it sees (a
MutationObserver, then two frames for the layout to settle): no tile, card, banner or label
drawn in the centre, in front of a seat or as a banner may cover a seat's avatar, name,
count, role, clock or status, nor the hand; all of it stays inside the felt (nothing cut),
and a seat's role, title or team badge inside the felt's rounded edge and over no other
part of a seat; the hand and its items stay on the screen without scrolling;
the page never scrolls sideways. The same script plays the seated viewer's turns as a
person would, with Hint and Play (or Pass, a bid, Give), so a deal runs at the bots' pace.
Screenshots of every game at every size, mid-deal:
``build/test-artifacts/layout-<game>-<lang>-<w>x<h>.png``.

The phone hand: at 360 px a 20-card Dou Di Zhu landlord hand shows every card's corner
whole, and a tap on it selects that card.

Positions fed to the page (its socket answered by the test with a state the server sent, the
view the engine's): a phone's notices show over the middle of the felt, clear of the seats
along its top (``layout-toasts-<n>p-<w>x<h>.png``); at 1920 x 1080 the avatars, names, cards
and tiles are larger than at 1366 x 768 and nothing collides (``layout-grows-<game>-*.png``);
President's tax for four and five, every seat under its title, at every size (phones upright
and on their side, 1280 x 800, 1366 x 768, 1920 x 1080) in English and Chinese, and on a
phone on its side in Italian, German and Japanese, for the giver, the one waiting, the last
finisher and after the gives, both tax styles: no collision, no text under 11 px, no title
over another part of a seat, Give on the first screen
(``layout-tax-{give,wait,slave,done}-<style>-<n>p-<lang>-<w>x<h>.png``). A five-seat match
with the tax is also played through the page into the second deal's exchanges, checked as
the deals are (``layout-tax-<style>-<lang>-390x844.png``).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import shedkit
from shedkit.protocol.views import serialize_view
from tests.client.test_table_pace import seated_state
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
    # Each seat's role, title or team badge over no other part of a seat, too.
    page.evaluate("() => window.__layout.badges()")
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


def seat_paused(page: Any, live: LiveServer, name: str) -> None:
    """Seat the page at a new table of game ``name``, its autoplayer held before the
    viewer's first move."""
    table_id = live.create(deals=1, **GAMES[name])["id"]
    take_seat(page, live.url, table_id, "Ana", 0)
    page.evaluate("() => window.__layout.pauseAt(0)")
    page.wait_for_function("() => window.__layout.paused")


def test_the_check_finds_a_collision(live: LiveServer, browser: Any) -> None:
    """A label laid over a seat's avatar is reported, with both elements named."""
    page = new_page(browser, (390, 844), "en")
    try:
        seat_paused(page, live, "doudizhu")
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


def test_the_check_finds_a_badge_cut_by_the_felt(live: LiveServer, browser: Any) -> None:
    """A seat's role badge moved into the felt's rounded top left corner is reported cut by
    the felt's edge, though it lies inside the felt's box."""
    page = new_page(browser, (1366, 768), "en")
    try:
        # President: the dealer's badge.
        seat_paused(page, live, "president")
        page.locator(".seat .role").wait_for()
        assert not page.evaluate("() => window.__layout.result().found")
        page.evaluate(
            """() => {
              const felt = document.querySelector('.felt').getBoundingClientRect();
              const role = document.querySelector('.seat .role');
              role.style = `position:fixed;left:${felt.left + 12}px;top:${felt.top + 12}px`;
            }"""
        )
        page.wait_for_function("() => window.__layout.result().found.length > 0")
        found = page.evaluate("() => window.__layout.result().found")
        assert any(
            f["problem"] == "cut by the felt" and "role" in f["what"] and "top left" in f["against"]
            for f in found
        ), found
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


def feed(page: Any, live: LiveServer, state: dict[str, Any]) -> None:
    """Open the table page of ``state`` with its socket fed that state (Playwright's
    ``route_web_socket``): a position drawn as the server sends it, that no bot moves on.
    ``page.feed(new)`` sends it another."""
    sockets: list[Any] = []

    def answer(ws: Any) -> None:
        ws.on_message(lambda message: None)
        sockets.append(ws)
        ws.send(json.dumps(state))

    def send(new: dict[str, Any]) -> None:
        sockets[-1].send(json.dumps(new))
        page.wait_for_function("id => window.shedkit.state.state_id === id", arg=new["state_id"])

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.feed = send
    # The checker plays no turn: the position stays as fed.
    page.add_init_script("window.__layoutHold = true;")
    page.goto(live.url + f"/t/{state['table']['id']}")
    page.wait_for_selector(".seat")


def mid_trick(live: LiveServer, game: str, moves: int, **body: Any) -> dict[str, Any]:
    """A state the server sent seat 0 at a new table, its view replaced by the engine's view
    for seat 0 of a seeded deal ``moves`` moves in (a random legal move each)."""
    state = seated_state(live, game, **body)
    options = body.get("options", {})
    deal = shedkit.make(game, preset=body.get("preset", "standard"), **options).new_deal(seed=21)
    rng = random.Random(21)
    for _ in range(moves):
        deal.apply(rng.choice(deal.legal_moves()))
    state["view"] = serialize_view(game, deal.view(0))
    return state


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """The shown elements matching ``selector``, as boxes named by their class."""
    found: list[dict[str, Any]] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].map((el) => {
          const r = el.getBoundingClientRect();
          const seat = el.closest('.seat');
          return { x: r.left, y: r.top, w: r.width, h: r.height,
            what: `${seat ? `seat ${seat.dataset.seat} ` : ''}${el.className}` };
        }).filter((b) => b.w > 0 && b.h > 0)""",
        selector,
    )
    return found


def covers(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 1
        and b["x"] < a["x"] + a["w"] - 1
        and a["y"] < b["y"] + b["h"] - 1
        and b["y"] < a["y"] + a["h"] - 1
    )


#: What a seat shows of itself: nothing laid over the felt may cover these.
SEAT_PARTS = (
    ".felt .seat .avatar-box, .felt .seat .seat-name, .felt .seat .count, .felt .seat .role,"
    " .felt .seat .seat-clock, .felt .seat .seat-status, .felt .seat .seat-score"
)


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [4, 5])
def test_a_phone_shows_notices_over_the_middle_of_the_felt(
    live: LiveServer, browser: Any, size: tuple[int, int], players: int
) -> None:
    """On a phone upright the seats sit in a row along the felt's top: a notice (a toast)
    shows over the middle of the felt, clear of every seat, two at once as well."""
    page = new_page(browser, size, "en")
    try:
        body = {"options": {"players": players}} if players != 4 else {}
        state = mid_trick(live, "president", 6, bots=players - 1, **body)
        feed(page, live, state)
        # The seat's bot played for it when its clock ran out: the page says so, twice.
        for n in (1, 2):
            later = copy.deepcopy(state)
            later["state_id"] = state["state_id"] + n
            later["table"]["seats"][0]["timeouts"] = n
            page.feed(later)
            page.locator(".toast").nth(n - 1).wait_for()
            felt = boxes(page, ".room .felt")[0]
            toasts = boxes(page, ".toast")
            assert len(toasts) == n
            top = [b for b in boxes(page, ".felt .seat:not(.pos-bottom)")]
            assert len(top) == players - 1
            for toast in toasts:
                for part in boxes(page, SEAT_PARTS):
                    assert not covers(toast, part), f"a notice covers {part['what']}"
                for seat in top:
                    assert not covers(toast, seat), f"a notice covers {seat['what']}"
                # Inside the felt, below the seats along its top, over its middle.
                assert felt["x"] <= toast["x"] and toast["x"] + toast["w"] <= felt["x"] + felt["w"]
                assert toast["y"] >= max(s["y"] + s["h"] for s in top)
            middle = (toasts[0]["y"] + toasts[-1]["y"] + toasts[-1]["h"]) / 2
            assert felt["y"] + felt["h"] * 0.3 <= middle <= felt["y"] + felt["h"] * 0.7
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"layout-toasts-{players}p-{size[0]}x{size[1]}.png"))
        assert not page.errors, page.errors
    finally:
        page.context.close()


#: A laptop and a big screen: the felt's contents grow with the felt on the big one.
LAPTOP, BIG = (1366, 768), (1920, 1080)


@pytest.mark.parametrize("game", ["president", "doudizhu", "dominoes"])
def test_a_big_screen_grows_what_the_felt_holds(live: LiveServer, browser: Any, game: str) -> None:
    """At 1920 x 1080 (from 1600 x 900 up) the seats' avatars and names, the cards or tiles in
    the centre and those in front of the seats are drawn larger than on a laptop (1366 x 768),
    the same position on both, and nothing drawn on the felt covers a seat or is cut by it."""
    body: dict[str, Any] = {"bots": 2 if game == "doudizhu" else 3}
    state = mid_trick(live, game, 9 if game == "doudizhu" else 6, **body)
    measured: dict[tuple[int, int], dict[str, float]] = {}
    for size in (LAPTOP, BIG):
        page = new_page(browser, size, "en")
        try:
            feed(page, live, state)
            page.wait_for_timeout(200)
            avatars = boxes(page, ".felt .seat .avatar-box")
            names = page.evaluate(
                "() => parseFloat(getComputedStyle(document.querySelector"
                "('.felt .seat .seat-name')).fontSize)"
            )
            measured[size] = {"avatar": min(b["w"] for b in avatars), "name": names}
            for where, selector in (
                ("in the centre", ".felt .centre .card, .dom-line .dom-placed"),
                ("before a seat", ".felt .seat-play .card, .felt .seat-play .dom-face"),
            ):
                drawn = boxes(page, selector)
                if drawn:
                    measured[size][where] = max(b["h"] for b in drawn)
            assert len(measured[size]) > 2, f"{game} {size}: no card or tile drawn"
            page.evaluate("() => window.__layout.reset()")
            page.evaluate("() => window.__layout.pauseAt(0)")
            page.wait_for_function("() => window.__layout.result().checks > 0")
            result = page.evaluate("() => window.__layout.result()")
            assert not result["found"], f"{game} {size}: " + report(result["found"])
            parts = boxes(page, SEAT_PARTS)
            for i, a in enumerate(parts):
                for b in parts[i + 1 :]:
                    if a["what"].split(" ")[:2] != b["what"].split(" ")[:2]:
                        assert not covers(a, b), f"{a['what']} covers {b['what']}"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"layout-grows-{game}-{size[0]}x{size[1]}.png"))
            assert not page.errors, page.errors
        finally:
            page.context.close()
    small, big = measured[LAPTOP], measured[BIG]
    assert small.keys() == big.keys(), measured
    for what, grows in (
        ("name", 1.15),
        ("avatar", 1.2),
        ("in the centre", 1.2),
        ("before a seat", 1.2),
    ):
        if what in small:
            assert big[what] >= small[what] * grows, f"{game}: {what} {measured}"


#: President's tax for five (two exchanges, PRE-20 drawn or PRE-21 best) on a phone upright.
TAX_SIZE = (390, 844)
TAX_STYLES = ["drawn", "best"]


def tax_table(style: str) -> dict[str, Any]:
    return {
        "game": "president",
        "options": {"players": 5, "tax": True, "tax_style": style},
        "bots": 4,
    }


def check_result(page: Any, shot: str) -> None:
    """No collision, nothing off the first screen, no text under 11 px: what the checker saw."""
    result = page.evaluate("() => window.__layout.result()")
    assert result["checks"] > 0, f"{shot}: never checked"
    assert not result["found"], f"{shot}: {len(result['found'])} collisions\n" + report(
        result["found"]
    )
    small = [f"{s['what']}: {s['px']:.1f} px (move {s['move']})" for s in result["small"]]
    assert not small, f"{shot}: text under 11 px\n" + "\n".join(small[:30])
    assert not page.errors, page.errors


@pytest.mark.parametrize("style", TAX_STYLES)
@pytest.mark.parametrize("lang", LANGS)
def test_five_player_president_reaches_the_tax_of_deal_two(
    live: LiveServer, browser: Any, lang: str, style: str
) -> None:
    """A five-seat match with the tax, played through the page at 390 x 844: the first deal,
    then Next, then the second deal's exchanges (PRE-20, PRE-21) with the tax panel on the
    felt, checked at every change as the deals are, until the first play after them."""
    page = new_page(browser, TAX_SIZE, lang)
    shot = f"layout-tax-{style}-{lang}-{TAX_SIZE[0]}x{TAX_SIZE[1]}"
    try:
        # Seed 10: seat 3 deals the first deal, seat 4 the second, and seat 0, the viewer's,
        # leads its first trick (PRE-04, PRE-06): the page stops there at the latest, the
        # exchanges still told on the felt.
        table_id = live.create(deals=2, seed=10, **tax_table(style))["id"]
        take_seat(page, live.url, table_id, "Ana", 0)
        # Each seat's title (the second deal's) over no other part of a seat, too.
        page.evaluate("() => { window.__layout.reset(); window.__layout.badges(); }")
        page.wait_for_function(
            "() => { const s = window.shedkit.state; return s.view && s.view.is_over }",
            timeout=90000,
        )
        check_result(page, f"{shot} (deal 1)")
        finished = page.evaluate("() => window.shedkit.state.view.finished")
        # Next, then the second deal stops on the viewer's first turn: its give, where it is
        # one of the two givers (it finished first or second), else its first play.
        page.evaluate(
            "() => { window.__layout.reset(); window.__layout.watch('.felt .tax .exchange');"
            " window.__layout.pauseAt(0); }"
        )
        page.click("#next")
        page.wait_for_function(
            "() => { const s = window.shedkit.state; return s.table.deal_number === 2"
            " && s.view && !s.view.is_over }",
            timeout=30000,
        )
        view = page.evaluate("() => window.shedkit.state.view")
        assert view["dealer"] == 4 and len(view["exchanges"]) == 2
        page.wait_for_function("() => window.__layout.paused", timeout=30000)
        if 0 in finished[:2]:
            # The viewer gives first: its panel under the felt, its exchange marked on it.
            page.locator(".me-area .tax-dialog #give").wait_for()
            page.locator(".felt .tax .exchange.current").wait_for()
            page.wait_for_timeout(150)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{shot}-give.png"))
            page.evaluate("() => window.__layout.pauseAt(0, true)")
            page.wait_for_function("() => window.__layout.paused", timeout=30000)
        # The viewer's lead: every give made, the exchanges still told on the felt.
        view = page.evaluate("() => window.shedkit.state.view")
        assert view["phase"] == "play" and all(e["kind"] == "give" for e in view["history"])
        page.locator(".felt .tax .exchange.given.done").first.wait_for()
        page.wait_for_timeout(150)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
        page.evaluate("() => window.__layout.resume()")
        page.wait_for_function(
            "() => window.shedkit.state.view.history.some((e) => e.kind !== 'give')",
            timeout=30000,
        )
        page.wait_for_timeout(100)
        # The exchanges were on the felt, and checked, until the first play.
        seen = page.evaluate("() => window.__layout.result().watched")
        assert seen[".felt .tax .exchange"] > 0, f"{shot}: the tax panel was never checked"
        check_result(page, f"{shot} (deal 2)")
    finally:
        page.context.close()


#: The tax panel's sizes: phones upright and on their side, the desktop of the other browser
#: tests (1280 x 800), a laptop and a big screen.
TAX_SIZES = [(360, 740), (390, 844), (740, 360), (844, 390), (1280, 800), (1366, 768), (1920, 1080)]
#: The other three languages, on a phone on its side (the felt is shortest there).
TAX_MORE_LANGS = ["it", "de", "ja"]

#: The states the server sent seat 0 at a table with the tax, by (players, style).
_tax_states: dict[tuple[int, str], dict[str, Any]] = {}


def tax_views(players: int, style: str) -> list[tuple[str, list[int], Any]]:
    """Seat 0's views of a deal's tax (``deal.view(0)``), each with the finishing order of
    the deal before (the titles held) and what it is: the President choosing the cards to
    give back (``give``), the Vice-President waiting (``wait``), the last finisher waiting,
    its best cards or the drawn ones gone (``slave``), and the first play of the deal, every
    give made, the exchanges still told (``done``)."""
    game = shedkit.make("president", players=players, tax=True, tax_style=style)
    seats = list(range(players))
    views = []
    for step, order in (("give", seats), ("wait", [1, 0, *seats[2:]]), ("slave", [*seats[1:], 0])):
        deal = game.new_deal(seed=5, previous_order=order)
        assert deal.phase == "tax"
        views.append((step, order, deal.view(0)))
    deal = game.new_deal(seed=5, previous_order=seats)
    while deal.phase == "tax":
        deal.apply(deal.legal_moves()[0])
    views.append(("done", seats, deal.view(0)))
    return views


def second_deal(
    state: dict[str, Any], order: list[int], view: Any, state_id: int
) -> dict[str, Any]:
    """``state`` as the server sends it in a match's second deal: the first deal's finishing
    order in the table's history (the titles each seat holds, PRE-11), ``view`` the seat's,
    the clock running for the seat to move (the giver) with 25 s left and its bank."""
    fed = copy.deepcopy(state)
    fed["state_id"] = state_id
    table = fed["table"]
    table["deal_number"] = 2
    table["deals_played"] = 1
    table["history"] = [
        {
            "number": 1,
            "match": table["match_no"],
            "returns": [0] * len(order),
            "thrown_in": False,
            "finished": order,
        }
    ]
    fed["view"] = serialize_view("president", view)
    table["turn"] = {
        "seat": fed["view"]["current_player"],
        "deadline": time.time() + 55,
        "bank": 30,
    }
    return fed


def check_tax_panel(
    live: LiveServer, browser: Any, size: tuple[int, int], lang: str, players: int
) -> None:
    """Seat 0's views of the tax (``tax_views``) fed to one page, in both tax styles (PRE-20
    drawn, PRE-21 best), every seat under its title: the panel on the felt with no collision
    and no text under 11 px, the seats' badges whole, the giver's buttons on the first
    screen."""
    page = new_page(browser, size, lang)
    try:
        n = 0
        for style in TAX_STYLES:
            key = (players, style)
            if key not in _tax_states:
                _tax_states[key] = seated_state(
                    live,
                    "president",
                    options={"players": players, "tax": True, "tax_style": style},
                    bots=players - 1,
                )
            state = _tax_states[key]
            if n == 0:
                # The first deal's position, checked once before the tax's are fed; from
                # then on, each seat's title over no other part of a seat too.
                feed(page, live, state)
                page.wait_for_function("() => window.__layout.result().checks > 0")
                page.evaluate("() => window.__layout.badges()")
                first = state["state_id"]
            for step, order, view in tax_views(players, style):
                n += 1
                page.evaluate("() => window.__layout.reset()")
                page.feed(second_deal(state, order, view, first + n))
                page.locator(".felt .tax").wait_for()
                page.locator(".felt .seat .role.title-president").wait_for()
                if step == "give":
                    give = page.locator(".me-area .tax-dialog #give")
                    give.wait_for()
                    box = give.bounding_box()
                    assert box["y"] + box["height"] <= size[1]
                    assert box["x"] + box["width"] <= size[0]
                elif step == "done":
                    page.locator(".felt .tax .exchange.given.done").first.wait_for()
                else:
                    page.locator(".me-area .tax-wait").wait_for()
                page.wait_for_function("() => window.__layout.result().checks > 0")
                page.wait_for_timeout(150)
                shot = f"layout-tax-{step}-{style}-{players}p-{lang}-{size[0]}x{size[1]}"
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
                check_result(page, shot)
    finally:
        page.context.close()


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", TAX_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tax_panel_fits_every_screen_for_the_giver_and_the_rest(
    live: LiveServer, browser: Any, size: tuple[int, int], lang: str, players: int
) -> None:
    """The exchanges of a four- or five-seat deal fed to the page (the viewer the President,
    choosing the cards to give back; the Vice-President, waiting; the last finisher, its
    best cards or the drawn ones gone; the first play, the exchanges still told), in both
    tax styles: no collision, no text under 11 px, the buttons on the first screen."""
    check_tax_panel(live, browser, size, lang, players)


@pytest.mark.parametrize("lang", TAX_MORE_LANGS)
def test_the_tax_panel_fits_a_phone_on_its_side_in_every_language(
    live: LiveServer, browser: Any, lang: str
) -> None:
    check_tax_panel(live, browser, (740, 360), lang, 5)
