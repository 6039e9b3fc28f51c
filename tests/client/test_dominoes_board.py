"""The Dominoes board components in a real browser, on the demo page's fixture views.

The static folder is served by a small HTTP server on 127.0.0.1 and Debian's
chromium (driven by Playwright) opens ``games/dominoes/demo.html`` at a phone's
width (390 px) and a desktop's (1280 px). Tile rectangles are read from the page.
Screenshots are saved in ``build/test-artifacts/`` (or ``$SHEDKIT_TEST_ARTIFACTS``).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.server.browser import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src/shedkit/server/static"
FIXTURES = STATIC / "games/dominoes/fixtures"
ARTIFACTS = Path(os.environ.get("SHEDKIT_TEST_ARTIFACTS", "build/test-artifacts"))
WIDTHS = [390, 1280]
NAMES: list[str] = json.loads((FIXTURES / "index.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)


def fixture_view(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """The static folder under ``/static/``, as the app mounts it."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".css": "text/css",
    }

    def translate_path(self, path: str) -> str:
        inside = path.startswith("/static/")
        return super().translate_path(path[len("/static") :] if inside else "/-missing-")

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    handler = functools.partial(StaticHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def open_demo(browser: Any, base_url: str, width: int, query: str = "") -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{base_url}/static/games/dominoes/demo.html{query}")
    page.wait_for_function("() => document.getElementById('demo').dataset.ready === 'true'")
    page.wait_for_function("() => document.querySelectorAll('.dom-line .dom-placed').length")
    return page, errors


# The rectangles of a section's tiles and of its line box, as the page lays them out.
RECTS = """section => {
  const r = (el) => { const b = el.getBoundingClientRect();
    return {x: b.left, y: b.top, w: b.width, h: b.height}; };
  const line = section.querySelector('.dom-line');
  return {
    line: r(line),
    tiles: [...line.querySelectorAll('.dom-placed')].map((el) => ({
      ...r(el), tile: el.dataset.tile, pips: el.querySelectorAll('.dom-pips circle').length,
    })),
    hand: [...section.querySelectorAll('.dom-hand .dom-tile-btn')].map(r),
  };
}"""


def overlaps(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - slack
        and b["x"] < a["x"] + a["w"] - slack
        and a["y"] < b["y"] + b["h"] - slack
        and b["y"] < a["y"] + a["h"] - slack
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_fixtures_render(browser: Any, base_url: str, width: int) -> None:
    page, errors = open_demo(browser, base_url, width)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        assert page.locator("section.fixture").count() == len(NAMES)
        for name in NAMES:
            view = fixture_view(name)["view"]
            line = view["line"]
            section = page.locator(f'section[data-fixture="{name}"]')
            got = section.evaluate(RECTS)
            # One tile drawn per tile on the line, each with its own pips.
            assert len(got["tiles"]) == len(line["main"]) + len(line["up"]) + len(line["down"])
            drawn = sorted(sorted(map(int, t["tile"].split("-"))) for t in got["tiles"])
            laid = sorted(sorted(t) for t in line["main"] + line["up"] + line["down"])
            assert drawn == laid
            for t in got["tiles"]:
                assert t["pips"] == sum(map(int, t["tile"].split("-"))), t
            # No two tiles overlap, and all stay inside the line's box, itself on screen.
            tiles = got["tiles"]
            for i, a in enumerate(tiles):
                for b in tiles[i + 1 :]:
                    assert not overlaps(a, b), (name, width, a, b)
            box = got["line"]
            assert box["x"] >= 0 and box["x"] + box["w"] <= width + 0.5
            for t in tiles:
                assert t["x"] >= box["x"] - 0.5 and t["x"] + t["w"] <= box["x"] + box["w"] + 0.5
                assert t["y"] >= box["y"] - 0.5 and t["y"] + t["h"] <= box["y"] + box["h"] + 0.5
            # Hand tiles are comfortable tap targets.
            assert len(got["hand"]) == len(view["hand"])
            assert all(h["w"] >= 44 and h["h"] >= 44 for h in got["hand"])
            section.screenshot(path=str(ARTIFACTS / f"dominoes-board-{name}-{width}.png"))
        page.locator("section.gallery").screenshot(
            path=str(ARTIFACTS / f"dominoes-board-faces-{width}.png")
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(ARTIFACTS / f"dominoes-board-page-{width}.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def ends_shown(section: Any) -> list[str]:
    ends: list[str] = section.locator(".dom-end-btn").evaluate_all(
        "els => els.map((el) => el.dataset.end)"
    )
    return sorted(ends)


@pytest.mark.parametrize("width", WIDTHS)
def test_tap_an_end_of_a_tile_that_fits_both(browser: Any, base_url: str, width: int) -> None:
    name = "fits-both-ends"
    fixture = fixture_view(name)
    moves = {
        m["m"].split("@")[1]: m["m"]
        for m in fixture["view"]["legal"]
        if m["kind"] == "play" and m["k"] == [fixture["selected"]]
    }
    assert sorted(moves) == ["L", "R"]
    page, errors = open_demo(browser, base_url, width, f"?fixture={name}")
    try:
        section = page.locator(f'section[data-fixture="{name}"]')
        assert section.locator('.dom-tile-btn[aria-pressed="true"]').count() == 1
        assert ends_shown(section) == ["L", "R"]
        for end in ("R", "L"):
            button = section.locator(f'.dom-end-btn[data-end="{end}"]')
            assert button.get_attribute("aria-label")  # named by the caller's labels
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
            button.click()
            last = page.evaluate("window.demoEvents[window.demoEvents.length - 1]")
            assert last == {"fixture": name, "end": end, "move": moves[end]}
        section.screenshot(path=str(ARTIFACTS / f"dominoes-board-selected-{width}.png"))
        # Tapping the selected tile again lets it go, and the ends are no longer targets.
        section.locator('.dom-tile-btn[aria-pressed="true"]').click()
        assert ends_shown(section) == []
        assert errors == []
    finally:
        page.close()


def test_selecting_a_tile_highlights_its_ends(browser: Any, base_url: str) -> None:
    """On the spinner's four-armed line, each playable tile lights exactly its ends."""
    name = "fives-spinner"
    view = fixture_view(name)["view"]
    page, errors = open_demo(browser, base_url, 390, f"?fixture={name}")
    try:
        section = page.locator(f'section[data-fixture="{name}"]')
        assert ends_shown(section) == []
        marks = section.locator(".dom-end").evaluate_all("e => e.map(x => x.dataset.end)")
        assert sorted(marks) == ["D", "L", "R", "U"]
        for tile in view["hand"]:
            ends = sorted(
                m["m"].split("@")[1]
                for m in view["legal"]
                if m["kind"] == "play" and m["k"] == [tile["k"]]
            )
            button = section.locator(f'.dom-tile-btn[data-tile="{tile["t"]}"]')
            if not ends:
                assert button.is_disabled()
                continue
            button.click()
            assert button.get_attribute("aria-pressed") == "true"
            assert ends_shown(section) == ends
            end = ends[-1]
            section.locator(f'.dom-end-btn[data-end="{end}"]').click()
            last = page.evaluate("window.demoEvents[window.demoEvents.length - 1]")
            assert last["end"] == end and last["move"] == f"{tile['t']}@{end}"
            button.click()
        assert errors == []
    finally:
        page.close()


# Lines of every double-twelve tile in chains, laid at many widths by the pure layout.
LAYOUT_CHECK = """async ({widths, n}) => {
  const { layoutLine } = await import('/static/games/dominoes/layout.js');
  const tiles = [];
  for (let a = 0; a <= 12; a++) for (let b = a; b <= 12; b++) tiles.push([a, b]);
  const main = tiles.slice(0, n);
  const k = Math.min(5, n);
  const lines = [
    { main, spinner: null, up: [], down: [] },
    { main: [...main.slice(0, k), [6, 6], ...main.slice(k)], spinner: k,
      up: tiles.slice(60, 64), down: tiles.slice(70, 73) },
    { main: main.slice(0, 1), spinner: 0, up: [], down: [] },
  ];
  const bad = [];
  for (const line of lines) for (const w of widths) for (const centre of [0, n >> 1, n - 1]) {
    const lay = layoutLine(line, w, { centre });
    const rs = [...lay.tiles, ...Object.values(lay.ends)];
    const count = line.main.length + line.up.length + line.down.length;
    if (lay.tiles.length !== count) bad.push(['count', w, centre]);
    rs.forEach((a, i) => {
      if (a.x < -0.01 || a.x + a.w > w + 0.01 || a.y < -0.01 || a.y + a.h > lay.height + 0.01)
        bad.push(['outside', w, centre, a]);
      rs.slice(i + 1).forEach((b) => {
        if (a.x < b.x + b.w - 0.01 && b.x < a.x + a.w - 0.01 &&
            a.y < b.y + b.h - 0.01 && b.y < a.y + a.h - 0.01) bad.push(['overlap', w, a, b]);
      });
    });
    // Each tile touches the one before it on the line (a turn's corner tile included), along
    // half a short side at least: no row starts anew away from the last.
    const at = Object.fromEntries(lay.tiles.map((t) => [t.id, t]));
    const pairs = line.main.slice(1).map((_, i) => [`m${i}`, `m${i + 1}`]);
    if (line.spinner != null) {
      for (const arm of ['u', 'd']) {
        const k = (arm === 'u' ? line.up : line.down).length;
        for (let i = 0; i < k; i++) {
          pairs.push([i ? `${arm}${i - 1}` : `m${line.spinner}`, `${arm}${i}`]);
        }
      }
    }
    for (const [p, q] of pairs) {
      const a = at[p], b = at[q];
      const dx = Math.max(0, b.x - a.x - a.w, a.x - b.x - b.w);
      const dy = Math.max(0, b.y - a.y - a.h, a.y - b.y - b.h);
      const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      const along = dx > 0 ? oy : dy > 0 ? ox : Math.max(ox, oy);
      if (Math.max(dx, dy) > 0.07 * lay.unit || along < 0.5 * lay.unit - 0.01) {
        bad.push(['apart', w, centre, p, q]);
      }
    }
  }
  return bad.slice(0, 5);
}"""


def lead_index(view: dict[str, Any]) -> int:
    """Where the first tile sits in ``line.main``: one place on per later play on ``L``."""
    moves = [h["move"] for h in view["history"] if h["move"] not in ("draw", "pass")]
    return sum(m.endswith("@L") for m in moves)


def test_layout_is_pure_and_never_overlaps(browser: Any, base_url: str) -> None:
    """The line laid out by the pure function at many widths: nothing overlaps or leaves the
    box, and each tile touches the one before it (the snake turns with a corner tile)."""
    page, errors = open_demo(browser, base_url, 390, "?fixture=draw-mid-hand")
    try:
        for name in NAMES:
            view = fixture_view(name)["view"]
            got = page.evaluate(
                "async (h) => (await import('/static/games/dominoes/moves.js')).leadIndex(h)",
                view["history"],
            )
            assert got == lead_index(view)
            first = view["history"][0]["move"]
            assert sorted(view["line"]["main"][got]) == sorted(int(x) for x in first.split("-"))
        for n in (1, 2, 7, 28, 55, 91):
            bad = page.evaluate(LAYOUT_CHECK, {"widths": [240, 320, 390, 768, 1280], "n": n})
            assert bad == [], (n, bad)
        assert errors == []
    finally:
        page.close()
