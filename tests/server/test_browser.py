"""End to end in a real browser: Playwright drives Debian's chromium (no browser download).

Two browser contexts are two players: one creates the table in the lobby, the
other opens the invite link and takes a seat; a bot fills the rest. They play
a whole deal by clicking cards and buttons until the score screen; one of
them reloads the page mid-deal and plays on. A screenshot of the table page
is saved in ``build/test-artifacts/`` (or ``$SHEDKIT_TEST_ARTIFACTS``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CONN = "() => document.getElementById('conn').dataset.state === '{}'"
ARTIFACTS = Path(os.environ.get("SHEDKIT_TEST_ARTIFACTS", "build/test-artifacts"))

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def view_of(page: Any) -> Any:
    return page.evaluate("() => window.shedkit.state && window.shedkit.state.view")


def moves_seen(page: Any) -> int:
    n: int = page.evaluate(
        "() => { const s = window.shedkit.state; return s && s.view ? s.view.history.length : -1 }"
    )
    return n


def my_turn(page: Any) -> bool:
    """True when the page's seat is to move and has legal moves."""
    mine: bool = page.evaluate(
        "() => { const s = window.shedkit.state; return !!(s && s.view && "
        "s.view.current_player === s.you && s.view.legal.length) }"
    )
    return mine


def take_seat(page: Any, url: str, table_id: str, name: str, seat: int) -> None:
    """Open the invite link and take the first open seat under ``name`` (it must be ``seat``)."""
    page.goto(url + f"/t/{table_id}")
    page.wait_for_selector("#join button.take")
    page.fill("#join-name", name)
    page.locator("#join button.take").first.click()
    page.wait_for_function(
        "seat => window.shedkit.state && window.shedkit.state.you === seat", arg=seat
    )


def take_turn(page: Any, checked: dict[str, bool]) -> None:
    """Make one move through the page as a person would: cards, the preview, then Send."""
    view = view_of(page)
    before = moves_seen(page)
    card_moves = [m for m in view["legal"] if m["k"]]
    if not card_moves:
        # Auction or nothing to beat with: the highest bid (a full deal), else pass.
        buttons = page.locator("#actions button.move")
        buttons.nth(buttons.count() - 1).click()
    else:
        # A one-card (one-tile) move that no other move makes of the same selection.
        single = next(
            (
                m
                for m in card_moves
                if len(m["k"]) == 1 and sum(x["k"] == m["k"] for x in card_moves) == 1
            ),
            None,
        )
        if single is not None and not checked.get("card-click"):
            # Click one card of that key and read the preview before sending.
            page.locator(f'#hand .card[data-key="{single["k"][0]}"]').first.click()
            assert page.inner_text("#preview") == f"Play: {single['m']}"
            page.locator(f'#actions button.move[data-move="{single["m"]}"]').click()
            checked["card-click"] = True
        else:
            # The cards of legal plays are outlined.
            keys = {k for m in card_moves for k in m["k"]}
            playable = sum(1 for c in view["hand"] if c["k"] in keys)
            assert page.locator("#hand .card.playable").count() == playable
            move = card_moves[-1]
            if not page.locator("#legal-box").evaluate("box => box.open"):
                page.click("#legal-box summary")  # the list of legal moves, folded at first
            page.locator(f'#legal button.chip[data-move="{move["m"]}"]').click()
            preview = page.inner_text("#preview")
            assert preview in (f"Play: {move['m']}", "This selection reads as:")
            assert page.locator("#hand .card.selected").count() == len(move["k"])
            page.locator(f'#actions button.move[data-move="{move["m"]}"]').click()
    page.wait_for_function(
        "n => window.shedkit.state.view.history.length > n", arg=before, timeout=15000
    )


def play_deal(
    live: LiveServer, game: str, players: int, bots: int, name: str, browser: Any, restart: bool
) -> LiveServer:
    """Play a deal in two browser contexts; with ``restart``, restart the server mid-deal."""
    ctx_a = browser.new_context(viewport={"width": 1100, "height": 900})
    ctx_b = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for page in (a, b):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Player A creates the table in the lobby.
    a.goto(live.url + "/?seed=7")
    a.fill("#name", "Ana")
    a.select_option("#game", game)
    a.fill("#bots", str(bots))
    a.fill("#deals", "2")
    a.click("#create-btn")
    a.wait_for_url("**/t/*")
    table_id = a.url.rsplit("/", 1)[1]
    assert live.table(table_id).seed == 7
    a.wait_for_function("() => window.shedkit.state && window.shedkit.state.you === 0")
    assert a.locator("#turn").count() == 1

    # Player B opens the invite link and takes the open seat.
    take_seat(b, live.url, table_id, "Bo", seat=1)
    for page in (a, b):
        page.wait_for_function("() => window.shedkit.state.table.status === 'playing'")
    assert live.table(table_id).game.num_players == players

    # Chat reaches the other player.
    a.fill("#chat-input", "good luck")
    a.click("#chat-form button")
    b.wait_for_function(
        "() => document.getElementById('chat').innerText.includes('Ana: good luck')"
    )

    checked: dict[str, bool] = {}
    reloaded = restarted = False
    moves = 0
    for _ in range(2000):
        table = live.table(table_id)
        if table.state.is_over:
            break
        if restart and moves >= 12 and not restarted:
            # Stop the server mid-deal and start it again on the same database and port:
            # the pages reconnect (with backoff) and resync from their seat's view.
            record = table.state.record()
            db, port = live.db, live.port
            live.stop()
            for page in (a, b):
                page.wait_for_function(CONN.format("closed"))
            live = LiveServer(db, bot_delay=0.02, port=port)
            assert live.table(table_id).state.record() == record
            for page in (a, b):
                page.wait_for_function(CONN.format("open"), timeout=20000)
            restarted = True
            continue
        if moves >= 6 and not reloaded:
            a.reload()
            a.wait_for_function("() => window.shedkit.state && window.shedkit.state.you === 0")
            reloaded = True
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            a.screenshot(path=str(ARTIFACTS / f"table-{name}-mid-deal.png"), full_page=True)
        for page in (a, b):
            if my_turn(page) and moves_seen(page) == len(table.state.record()["moves"]):
                take_turn(page, checked)
                moves += 1
        a.wait_for_timeout(20)
    assert table.state.is_over and reloaded and checked.get("card-click")
    assert restarted or not restart
    for page in (a, b):
        page.wait_for_selector("#score-screen")
        assert page.locator("#result table.scores tr").count() == players + 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    a.screenshot(path=str(ARTIFACTS / f"table-{name}.png"), full_page=True)
    b.screenshot(path=str(ARTIFACTS / f"table-{name}-phone.png"), full_page=True)

    # The stored deal replays in its page with every hand.
    r = ctx_a.new_page()
    r.goto(live.url + f"/replay/{table_id}/1")
    r.wait_for_selector(".replay-hand")
    assert r.locator(".replay-hand").count() == players
    r.click("#last")
    assert "Returns" in r.inner_text("#result")
    r.screenshot(path=str(ARTIFACTS / f"replay-{name}.png"), full_page=True)
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()
    return live


def test_doudizhu_in_the_browser(db: str, browser: Any) -> None:
    live = LiveServer(db, bot_delay=0.02)
    try:
        live = play_deal(live, "doudizhu", 3, 1, "doudizhu", browser, restart=True)
    finally:
        live.stop()


def test_president_in_the_browser(db: str, browser: Any) -> None:
    with LiveServer(db, bot_delay=0.02) as live:
        play_deal(live, "president", 4, 2, "president", browser, restart=False)


def test_dominoes_in_the_browser(db: str, browser: Any) -> None:
    with LiveServer(db, bot_delay=0.02) as live:
        play_deal(live, "dominoes", 4, 2, "dominoes", browser, restart=False)
