"""The Dominoes line at the table, in a real browser (Debian's chromium via Playwright): a long
line snakes across the felt as real lines are laid, turning at each edge with a corner tile
stood across the turn, on a phone upright (360 x 740, 390 x 844) and on a laptop; All Fives'
spinner keeps its four arms.

The page is fed through its WebSocket (Playwright's ``route_web_socket``) with a state a live
server sent, its view replaced by the engine's view of a seeded deal at its longest line.
Read back from the page (and watched by test_layout.py's checker as well): no two tiles
overlap, every tile stays inside the felt and clear of the seats and the hand, and each tile
touches the one before it on the line (the spinner, for the first tile of an arm) with the
matching halves side by side. Screenshots go to
``build/test-artifacts/``: ``dominoes-snake-<w>x<h>.png``, ``dominoes-spinner-<w>x<h>.png``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

import shedkit
from shedkit.protocol.views import serialize_view
from tests.client.test_layout import feed, new_page, report
from tests.client.test_table_pace import seated_state
from tests.server.browser import ARTIFACTS, CHROMIUM
from tests.server.live import LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

Json = dict[str, Any]

SIZES = [(360, 740), (390, 844), (1366, 768)]

#: The long line: double-nine, two players with 20 tiles each (up to 40 and more on the line).
LONG = {"preset": "double-nine", "options": {"players": 2, "hand_size": 20}, "bots": 1}
#: All Fives for four, partners: the spinner's four arms.
FIVES = {"preset": "all-fives", "bots": 3}

#: The gap layout.js leaves between touching tiles, in tiles' short sides.
GAP = 0.06


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("dominoes-line") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


def views(preset: str, seed: int, **options: Any) -> Iterator[Json]:
    """Seat 0's view after every move of a deal played with a seeded random choice."""
    state = shedkit.make("dominoes", preset=preset, **options).new_deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        yield serialize_view("dominoes", state.view(0))
        state.apply(rng.choice(state.legal_moves()))


def arms(view: Json) -> tuple[int, int, int, int]:
    """Tiles on the spinner's left, right, up and down (-1s without a spinner)."""
    line = view["line"]
    spin = line["spinner"]
    if spin is None or spin < 0:
        return (-1, -1, -1, -1)
    return (spin, len(line["main"]) - spin - 1, len(line["up"]), len(line["down"]))


def long_view() -> Json:
    """The longest line of a seeded double-nine deal for two with 20 tiles each."""
    return max(
        views("double-nine", 1, players=2, hand_size=20), key=lambda v: len(v["line"]["main"])
    )


def spinner_view() -> Json:
    """An All Fives line whose spinner has two tiles or more on each of its four arms."""
    found = [v for v in views("all-fives", 0, players=4) if min(arms(v)) >= 2]
    return max(found, key=lambda v: sum(arms(v)))


def fed_page(browser: Any, live: LiveServer, state: Json, size: tuple[int, int]) -> Any:
    """The table page at ``size`` in English, fed ``state`` through its socket, with the
    layout checker of test_layout.py watching it (and playing no turn)."""
    page = new_page(browser, size, "en")
    feed(page, live, state)
    page.wait_for_selector(".dom-line .dom-placed")
    return page


#: What the page drew: the felt's inside (within its border), the line's tile size, each
#: tile's box with its place on the line and its halves as drawn (left or top first), and
#: the boxes nothing on the felt may cover.
READ = """() => {
  const box = (el) => { const b = el.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height }; };
  const felt = document.querySelector('.felt');
  const f = felt.getBoundingClientRect();
  return {
    felt: { x: f.left + felt.clientLeft, y: f.top + felt.clientTop,
      w: felt.clientWidth, h: felt.clientHeight },
    unit: Number(document.querySelector('.dom-line').dataset.unit),
    tiles: [...document.querySelectorAll('.dom-line .dom-placed')].map((el) => ({ ...box(el),
      place: el.dataset.place, halves: el.dataset.tile.split('-').map(Number),
      spinner: el.classList.contains('dom-spinner') })),
    reserved: [...document.querySelectorAll(
      '.felt .seat .avatar-box, .felt .seat .seat-name, .felt .seat .count, .me-area')]
      .map((el) => ({ ...box(el), what: el.className })),
  };
}"""


def overlap(a: Json, b: Json, slack: float = 0.5) -> float:
    """The length two boxes share along the axis where they overlap most, or 0."""
    ox = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    oy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return 0.0 if ox <= slack or oy <= slack else min(ox, oy)


def contact(a: Json, b: Json) -> tuple[float, float]:
    """How far apart two boxes are, and the length of the edges they face each other along
    (negative when they are apart on both axes: only corners face each other)."""
    dx = max(0.0, b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]))
    dy = max(0.0, b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]))
    ox = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    oy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(dx, dy), (oy if dx > 0 else ox if dy > 0 else max(ox, oy))


def halves(t: Json) -> list[Json]:
    """A tile's two halves as boxes, with their pips: left then right, or top then bottom."""
    if t["h"] > t["w"]:
        h = t["h"] / 2
        return [
            {"x": t["x"], "y": t["y"], "w": t["w"], "h": h, "pips": t["halves"][0]},
            {"x": t["x"], "y": t["y"] + h, "w": t["w"], "h": h, "pips": t["halves"][1]},
        ]
    w = t["w"] / 2
    return [
        {"x": t["x"], "y": t["y"], "w": w, "h": t["h"], "pips": t["halves"][0]},
        {"x": t["x"] + w, "y": t["y"], "w": w, "h": t["h"], "pips": t["halves"][1]},
    ]


def links(line: Json) -> list[tuple[str, str, int]]:
    """Each pair of tiles that touch on the line, in its order, with the pips they join on:
    along the main line, and out from the spinner along its up and down arms."""
    main = line["main"]
    out = [(f"m{i}", f"m{i + 1}", main[i][1]) for i in range(len(main) - 1)]
    spin = line["spinner"]
    if spin is not None and spin >= 0:
        for arm in ("up", "down"):
            for i, tile in enumerate(line[arm]):
                out.append((f"{arm[0]}{i - 1}" if i else f"m{spin}", f"{arm[0]}{i}", tile[0]))
    return out


def check_line(drawn: Json, line: Json, where: str) -> None:
    tiles = drawn["tiles"]
    unit = drawn["unit"]
    assert unit > 0, where
    assert len(tiles) == len(line["main"]) + len(line["up"]) + len(line["down"]), where
    # No two tiles overlap; every tile is inside the felt, clear of the seats and the hand.
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            assert not overlap(a, b), f"{where}: {a['place']} overlaps {b['place']}"
        felt = drawn["felt"]
        assert a["x"] >= felt["x"] - 0.5 and a["x"] + a["w"] <= felt["x"] + felt["w"] + 0.5, (
            f"{where}: {a['place']} is cut by the felt"
        )
        assert a["y"] >= felt["y"] - 0.5 and a["y"] + a["h"] <= felt["y"] + felt["h"] + 0.5, (
            f"{where}: {a['place']} is cut by the felt"
        )
        for part in drawn["reserved"]:
            assert not overlap(a, part), f"{where}: {a['place']} covers {part['what']}"
    # Each tile touches the one before it (the gap between touching tiles, and a pixel of
    # rounding), along at least half a tile's short side, its matching half against the
    # other's: where more than one pair of halves touch as much, one of them matches.
    at = {t["place"]: t for t in tiles}
    near = GAP * unit + 1
    for before, after, pips in links(line):
        a, b = at[before], at[after]
        apart, along = contact(a, b)
        assert apart <= near and along >= unit / 2 - 0.5, (
            f"{where}: {before} and {after} do not touch ({apart:.1f} px apart, {along:.1f} px)"
        )
        touching = [
            (contact(x, y)[1], x["pips"], y["pips"])
            for x in halves(a)
            for y in halves(b)
            if contact(x, y)[0] <= near and contact(x, y)[1] >= unit / 2 - 0.5
        ]
        most = max(length for length, _, _ in touching)
        assert any(length >= most - 0.5 and x == pips and y == pips for length, x, y in touching), (
            f"{where}: {before} and {after} touch by halves {touching}, not by their {pips}s"
        )


def checked(page: Any, where: str) -> None:
    """The layout checker saw the line drawn and found nothing covering a seat or the hand,
    nothing cut by the felt; the page raised no error."""
    page.wait_for_function("() => window.__layout.result().checks > 0")
    result = page.evaluate("() => window.__layout.result()")
    assert not result["found"], f"{where}: " + report(result["found"])
    assert not page.errors, page.errors


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_line_snakes_with_corner_tiles(
    browser: Any, live: LiveServer, size: tuple[int, int]
) -> None:
    """DOM-06: a line of 40 tiles and more, laid out on the felt: it turns at the felt's edges
    (each turn one corner tile stood across it) rather than starting rows anew, and every
    tile touches the one it was played against."""
    view = long_view()
    line = view["line"]
    assert len(line["main"]) >= 40
    state = seated_state(live, "dominoes", **LONG)
    state["view"] = view
    page = fed_page(browser, live, state, size)
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('.dom-line .dom-placed').length === n",
            arg=len(line["main"]),
        )
        page.wait_for_timeout(150)
        where = f"{size[0]}x{size[1]}"
        drawn = page.evaluate(READ)
        check_line(drawn, line, where)
        # It turns: corner tiles stand upright, as no other tile of a line without a spinner
        # does but a double (laid crosswise).
        corners = [t for t in drawn["tiles"] if t["h"] > t["w"] and len(set(t["halves"])) == 2]
        assert len(corners) >= 2, f"{where}: the line never turns"
        shoot(page, f"dominoes-snake-{where}")
        checked(page, where)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_spinner_keeps_its_four_arms(
    browser: Any, live: LiveServer, size: tuple[int, int]
) -> None:
    """DOM-22: All Fives' spinner lies crosswise with its arms left, right, up and down, each
    arm touching it and snaking or running on from there, on a phone."""
    view = spinner_view()
    line = view["line"]
    state = seated_state(live, "dominoes", **FIVES)
    state["view"] = view
    page = fed_page(browser, live, state, size)
    try:
        count = len(line["main"]) + len(line["up"]) + len(line["down"])
        page.wait_for_function(
            "n => document.querySelectorAll('.dom-line .dom-placed').length === n", arg=count
        )
        page.wait_for_timeout(150)
        where = f"spinner {size[0]}x{size[1]}"
        drawn = page.evaluate(READ)
        check_line(drawn, line, where)
        at = {t["place"]: t for t in drawn["tiles"]}
        spin = line["spinner"]
        spinner = at[f"m{spin}"]
        assert spinner["spinner"] and spinner["h"] > spinner["w"], "the spinner lies crosswise"
        assert [t["place"] for t in drawn["tiles"] if t["spinner"]] == [f"m{spin}"]
        centre = spinner["x"] + spinner["w"] / 2
        # The up arm above it and the down arm below, in its column; the main line's tiles
        # beside it on its left and right.
        for arm, above in (("u", True), ("d", False)):
            for i in range(len(line["up" if arm == "u" else "down"])):
                t = at[f"{arm}{i}"]
                assert abs(t["x"] + t["w"] / 2 - centre) < 1, f"{where}: {arm}{i} leaves the column"
                assert (t["y"] + t["h"] <= spinner["y"] + 0.5) == above, f"{where}: {arm}{i}"
        left, right = at[f"m{spin - 1}"], at[f"m{spin + 1}"]
        assert left["x"] + left["w"] <= spinner["x"] + 0.5 <= right["x"] + 0.5
        shoot(page, f"dominoes-spinner-{size[0]}x{size[1]}")
        checked(page, where)
    finally:
        page.context.close()
