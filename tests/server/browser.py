"""A person at the web table, for the browser tests: Playwright driving Debian's chromium.

Every move is made as a player makes it: tapping cards or tiles (a second tap plays),
the Hint button, the auction's buttons, the tax's Give button, or a tap on an end of the
line of dominoes. The helpers read the page's state from ``window.shedkit`` only to
choose what to tap; the server judges every move.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

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
ARTIFACTS = Path(os.environ.get("SHEDKIT_TEST_ARTIFACTS", "build/test-artifacts"))
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: Notation that must never show on a table page: ends, bracketed tiles, bids, jokers, "T".
NOTATION = re.compile(
    r"@[LRUD]\b|\[\d+\|\d+\]|\bbid\d|\bJkr\b|\b(?:Jk|T)[shdc]?=|\bT[shdc]\b|\bgive \d"
)

#: Run in each page before its own scripts: every Content-Security-Policy violation is
#: written to the console with what it blocked, where `watch_policy` collects it.
REPORT_VIOLATIONS = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    "`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI}"
    " at ${e.sourceFile}:${e.lineNumber}`));"
)


def violation(text: str) -> bool:
    """Whether a console message tells of a Content-Security-Policy violation (reported by
    the page, or by chromium itself)."""
    return "CSP violation" in text or "Content Security Policy" in text or "Refused to" in text


def watch_policy(context: Any, found: list[str]) -> None:
    """Collect in ``found`` every Content-Security-Policy violation of the context's pages,
    those opened later included: the client must work under the server's policy."""
    context.add_init_script(REPORT_VIOLATIONS)
    context.on("console", lambda m: found.append(m.text) if violation(m.text) else None)


def take_seat(page: Any, url: str, table_id: str, name: str, seat: int) -> None:
    """Open the table's page, type a name and take ``seat`` in the page."""
    page.goto(url + f"/t/{table_id}")
    page.wait_for_selector(f'#join button.take[data-seat="{seat}"]')
    page.fill("#join-name", name)
    page.click(f'#join button.take[data-seat="{seat}"]')
    page.wait_for_function(
        f"() => window.shedkit && window.shedkit.state && window.shedkit.state.you === {seat}"
    )


def state(page: Any) -> Any:
    """The last state message the page received (``window.shedkit.state``)."""
    return page.evaluate("() => window.shedkit && window.shedkit.state")


def moves_seen(page: Any) -> int:
    """Moves in the page's view of the deal (-1 before a deal)."""
    n: int = page.evaluate(
        "() => { const s = window.shedkit && window.shedkit.state;"
        " return s && s.view ? s.view.history.length : -1 }"
    )
    return n


def my_turn(page: Any) -> bool:
    """Whether the page's seat is to move and has a legal move."""
    return bool(
        page.evaluate(
            "() => { const s = window.shedkit && window.shedkit.state; return !!(s && s.view &&"
            " !s.view.is_over && s.view.current_player === s.you && s.view.legal.length) }"
        )
    )


def shoot(page: Any, name: str) -> None:
    """Save a screenshot of what the page shows now."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def check_no_notation(page: Any) -> None:
    """The text a person can read holds no move notation."""
    text: str = page.evaluate("() => document.body.innerText")
    found = NOTATION.findall(text)
    assert not found, f"notation on the page: {found}"


def in_header(page: Any, selector: str, value: str | None = None) -> None:
    """Click a tool of the table's header, or pick ``value`` in its select: on a phone the
    tools fold into the menu, which is opened first and closed after (a tool that opens a
    dialog closes it itself)."""
    toggle = page.locator("#menu")
    folded = toggle.count() > 0 and toggle.is_visible()
    if folded and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    if value is None:
        page.click(selector)
    else:
        page.select_option(selector, value)
    if folded and toggle.get_attribute("aria-expanded") == "true":
        toggle.click()


def item(page: Any, card_id: int) -> Any:
    """The hand's button for the card or tile with this id (the hand may be drawn in
    another order than the view lists it: the player's sorting)."""
    card = page.locator(f'.hand button[data-card="{card_id}"]')
    if card.count():
        return card
    view = state(page)["view"]
    index = next(i for i, c in enumerate(view["hand"]) if c["c"] == card_id)
    return page.locator(".hand .hand-slot").nth(index).locator("button")


def tap(page: Any, card_id: int) -> None:
    """Tap a hand item where a person would: its visible left edge (the hand overlaps)."""
    item(page, card_id).click(position={"x": 6, "y": 24})


def swipe_selects(page: Any) -> None:
    """Swipe sideways across the first cards of the fan: each card passed over is selected."""
    slots = page.locator(".hand .hand-slot")
    first, third = slots.nth(0).bounding_box(), slots.nth(2).bounding_box()
    y = first["y"] + first["height"] * 0.6
    page.mouse.move(first["x"] + 4, y)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(first["x"] + 4 + (third["x"] + 6 - first["x"] - 4) * step / 8, y)
    page.mouse.up()
    assert page.locator(".hand button[aria-pressed=true]").count() == 3
    page.click("#clear")
    assert page.locator(".hand button[aria-pressed=true]").count() == 0


def illegal_selection_shakes(page: Any) -> bool:
    """Select two cards that make no legal play and press Play: the cards are marked, nothing
    is sent. False when the hand has no such pair (then nothing was tried)."""
    view = state(page)["view"]
    hand = view["hand"]

    def together(x: Any, y: Any) -> bool:
        # Some legal play holds both cards' keys (as many times as the two need).
        need = 2 if x["k"] == y["k"] else 1
        return any(
            m["k"].count(x["k"]) >= need and m["k"].count(y["k"]) >= need for m in view["legal"]
        )

    pair = next(
        ((x, y) for x in hand for y in hand if x["c"] < y["c"] and not together(x, y)), None
    )
    if pair is None:
        return False
    before = moves_seen(page)
    for card in pair:
        tap(page, card["c"])
    page.click("#play")
    page.wait_for_selector(".hand button.card.wrong")
    assert page.inner_text("#preview") != ""
    page.click("#clear")
    assert moves_seen(page) == before
    return True


def tap_move(page: Any, move: Any) -> None:
    """Play ``move`` by tapping its cards, then tapping one of them again."""
    view = state(page)["view"]
    taken: set[int] = set()
    ids = []
    for key in move["k"]:
        card = next(c for c in view["hand"] if c["k"] == key and c["c"] not in taken)
        taken.add(card["c"])
        ids.append(card["c"])
    for card_id in ids:
        tap(page, card_id)
    tap(page, ids[-1])
    choices = page.locator(f'.choices button[data-move="{move["m"]}"]')
    if choices.count():
        choices.click()


def wait_moved(page: Any, before: int) -> None:
    page.wait_for_function(
        "n => window.shedkit.state.view.history.length > n || window.shedkit.state.view.is_over",
        arg=before,
        timeout=15000,
    )


def take_turn(page: Any, checked: dict[str, bool], passive: bool = False) -> None:
    """Make one move through the page as a person would.

    ``checked`` records what has been shown once: a hint, a tile played on an end, a
    second tap. ``passive`` passes whenever passing is legal (to finish last on purpose).
    """
    view = state(page)["view"]
    before = moves_seen(page)
    legal = view["legal"]
    card_moves = [m for m in legal if m["k"]]
    if page.locator(".bid-buttons button").count():
        page.locator(".bid-buttons button.bid").first.click()
    elif page.locator("#give").count():
        page.click("#hint")
        page.click("#give")
    elif passive and page.locator("#pass").count():
        page.click("#pass")
    elif not card_moves:
        plain = [m for m in legal if not m["k"]]
        page.locator(f'.controls button[data-move="{plain[0]["m"]}"], #pass').first.click()
    else:
        two_ends = [m for m in card_moves if sum(x["k"] == m["k"] for x in card_moves) == 2]
        if two_ends and not checked.get("end-tap"):
            # A tile that fits two ends: select it, then tap the end on the line.
            move = two_ends[0]
            tap(page, move["k"][0])
            page.locator(f'.dom-end-btn[data-end="{move["end"]}"]').click()
            checked["end-tap"] = True
        elif not checked.get("hint"):
            page.click("#hint")
            assert page.locator(".hand button[aria-pressed=true]").count() >= 1
            page.click("#play")
            choice = page.locator(".choices button")
            if choice.count():
                choice.first.click()
            checked["hint"] = True
        else:
            unique = [m for m in card_moves if sum(x["k"] == m["k"] for x in card_moves) == 1]
            tap_move(page, (unique or card_moves)[0])
            checked["tap"] = True
    wait_moved(page, before)


def open_sheet(page: Any, name: str) -> None:
    """On a phone, open the panel ``name`` ("log", "chat", "scores") from the felt's aids, as
    a person taps it; on a wide screen the panels stand beside the table already."""
    aid = page.locator(f"#aid-{name}")
    if aid.is_visible() and aid.get_attribute("aria-expanded") != "true":
        aid.click()
        page.wait_for_selector(f'#side[data-sheet="{name}"]')
