"""Finished deals in a real browser (Debian's chromium via Playwright): the replay page and
what a table shows of a deal that is over.

Bot-only tables play their deals on a live server; the pages are then read as a spectator
reads them. President's tax is counted as it was given, though the gives' cards are hidden
from everyone outside each exchange; a replay shows its own deal's titles, landlord and
match totals, not today's; its step buttons are drawn, not font glyphs; a Dominoes team is
named by its players. Screenshots go to ``build/test-artifacts/``: ``replay-*.png``,
``table-president-tax-log.png``, ``end-dominoes-teams.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_lobby import word
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, PHONE
from tests.server.live import LiveServer, play_until, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)
TITLES = ("president", "vice_president", "citizen", "vice_slave", "slave")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 'shedkit.db'}") as server:
        yield server


def new_page(
    browser: Any, size: dict[str, int] = DESKTOP, locale: str = "en-GB"
) -> tuple[Any, list[str]]:
    page = browser.new_context(viewport=size, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def plural(lang: str, key: str, count: int) -> str:
    return word(lang, f"{key}_{'one' if count == 1 else 'other'}", count=count)


def bot_name(seat: int, lang: str = "en") -> str:
    return word(lang, "table.bot_name", level=word(lang, "level.medium.label"), n=seat + 1)


def title(place: int, n: int) -> str:
    """The English title of finishing place ``place`` among ``n`` players (PRE-11)."""
    if place in (0, n - 1):
        code = TITLES[0] if place == 0 else TITLES[4]
    else:
        code = TITLES[1] if place == 1 else TITLES[3] if place == n - 2 else TITLES[2]
    return word("en", f"pre.title.{code}")


def bot_table(live: LiveServer, deals: int, **body: Any) -> tuple[str, list[dict[str, Any]]]:
    """A table of bots alone that has played ``deals`` deals, and its deals' summaries."""
    players = {"doudizhu": 3}.get(body["game"], 4)
    table_id = live.create(bots=players, deals=deals, seed=11, **body)["id"]
    wait(lambda: len(live.table(table_id).summaries) >= deals)
    wait(lambda: live.table(table_id).status == "finished")
    return table_id, live.http.get(f"/api/tables/{table_id}/deals").json()


def open_replay(page: Any, live: LiveServer, table_id: str, number: int) -> None:
    page.goto(live.url + f"/replay/{table_id}/{number}")
    page.wait_for_selector("#step")


def at_step(page: Any, n: int, total: int) -> None:
    page.wait_for_function(
        "text => document.getElementById('step').innerText === text",
        arg=word("en", "replay.step", n=n, total=total),
    )


def test_president_tax_gives_are_counted(live: LiveServer, browser: Any) -> None:
    """The second deal's tax: a spectator, and the replay, see each give without its cards
    and still read how many cards changed hands."""
    table_id, _ = bot_table(live, 2, game="president", options={"tax": True})
    steps = live.http.get(f"/api/tables/{table_id}/deals/2").json()["steps"]
    exchanges = steps[-1]["public"]["exchanges"]
    assert [x["count"] for x in exchanges] == [2, 1]
    assert all(not e["cards"] for e in steps[2]["public"]["history"])  # hidden from all

    page, errors = new_page(browser)
    open_replay(page, live, table_id, 2)
    for i, x in enumerate(exchanges):
        page.click("#next")
        at_step(page, i + 1, len(steps) - 1)
        assert page.inner_text("#move b") == bot_name(x["giver"])
        assert page.inner_text("#move .entry-name") == word(
            "en",
            f"pre.log_give_{'one' if x['count'] == 1 else 'other'}",
            count=x["count"],
            to=bot_name(x["receiver"]),
        )
    shoot(page, "replay-president-tax")

    # The table's log of the same deal, as a spectator reads it: first what the tax took by
    # itself (PRE-20: drawn at random), then the gives, each to its receiver, counted.
    page.goto(live.url + f"/t/{table_id}")
    page.wait_for_selector("#log li")
    lead = page.locator("#log li.log-lead .entry-name").all_inner_texts()
    assert lead == [
        word(
            "en",
            f"pre.log_drawn_{'one' if x['count'] == 1 else 'other'}",
            count=x["count"],
            **{"from": bot_name(x["receiver"])},
        )
        for x in exchanges
    ]
    gives = page.locator("#log li:not(.log-lead)").all_inner_texts()[: len(exchanges)]
    assert [g.split("\n") for g in gives] == [
        [
            bot_name(x["giver"]),
            word(
                "en",
                f"pre.log_give_{'one' if x['count'] == 1 else 'other'}",
                count=x["count"],
                to=bot_name(x["receiver"]),
            ),
        ]
        for x in exchanges
    ]
    page.get_by_role("button", name=word("en", "table.see_table")).click()
    page.evaluate("() => { document.getElementById('log').scrollTop = 0; }")
    shoot(page, "table-president-tax-log")

    # The count follows the exchanges the view carries, whoever gives first: here the last
    # finisher hands over first and the first finisher gives back.
    counts = page.evaluate(
        """async () => {
          const { giveCount } = await import('/static/games/president/index.js');
          const hidden = (seat) => ({ seat, kind: 'give', move: 'give (hidden)', cards: [] });
          const history = [hidden(3), hidden(2), hidden(0), hidden(1)];
          const x = (giver, receiver, count) => ({ giver, receiver, count });
          const exchanges = [x(3, 0, 2), x(2, 1, 1), x(0, 3, 2), x(1, 2, 1)];
          return history.map((e) => giveCount(e, { history, exchanges }));
        }"""
    )
    assert counts == [2, 1, 2, 1]
    assert not errors, errors


def test_president_replay_shows_its_own_deal(live: LiveServer, browser: Any) -> None:
    """Deal 2 of 3: the titles the first deal gave, the totals before and after deal 2."""
    table_id, deals = bot_table(live, 3, game="president", options={"tax": True})
    first, second, last = deals
    # The titles of deal 2 are not those the table shows now (after deal 3).
    assert first["finished"] != last["finished"]
    steps = live.http.get(f"/api/tables/{table_id}/deals/2").json()["steps"]
    total = len(steps) - 1
    before = first["returns"]
    after = [a + b for a, b in zip(first["returns"], second["returns"], strict=True)]
    assert live.table(table_id).match.totals != after  # the table's totals are later ones

    page, errors = new_page(browser)
    open_replay(page, live, table_id, 2)
    for place, seat in enumerate(first["finished"]):
        felt_seat = page.locator(f".felt .seat[data-seat='{seat}']")
        assert felt_seat.locator(".role").inner_text() == title(place, 4)
        assert felt_seat.locator(".seat-score").inner_text() == plural(
            "en", "table.points", before[seat]
        )
        assert word("en", "table.you") not in felt_seat.inner_text()
    page.click("#next")
    shoot(page, "replay-president-deal-2-start")

    # The last-step button goes to the end: the seats hold the titles just earned and the
    # totals after the deal; the result lists before, this deal and after.
    page.click("#last")
    at_step(page, total, total)
    for place, seat in enumerate(second["finished"]):
        felt_seat = page.locator(f".felt .seat[data-seat='{seat}']")
        assert felt_seat.locator(".role").inner_text() == title(place, 4)
        assert felt_seat.locator(".seat-score").inner_text() == plural(
            "en", "table.points", after[seat]
        )
        row = page.locator(f"#replay-scores tr[data-seat='{seat}']")
        cells = [row.locator(c).inner_text() for c in (".before", ".deal", ".after")]
        assert cells == [str(before[seat]), str(second["returns"][seat]), str(after[seat])]
    shoot(page, "replay-president-deal-2-end")

    # Home and End on the keyboard go to either end as well; an arrow on the slider moves
    # one step, not one for the slider and one for the page.
    page.keyboard.press("Home")
    at_step(page, 0, total)
    page.keyboard.press("End")
    at_step(page, total, total)
    page.focus("#slider")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    at_step(page, 1, total)
    # Two arrows pressed on the page before the first step is drawn are two steps.
    page.evaluate(TWO_ARROWS)
    at_step(page, 3, total)
    assert not errors, errors


TWO_ARROWS = """() => {
  for (let i = 0; i < 2; i++) {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  }
}"""


def test_doudizhu_replay_shows_its_landlord_and_totals(live: LiveServer, browser: Any) -> None:
    table_id, deals = bot_table(live, 2, game="doudizhu")
    first, second = deals[0], deals[1]
    steps = live.http.get(f"/api/tables/{table_id}/deals/2").json()["steps"]
    landlord = steps[-1]["public"]["landlord"]
    page, errors = new_page(browser)
    open_replay(page, live, table_id, 2)
    for seat in range(3):
        score = page.locator(f".felt .seat[data-seat='{seat}'] .seat-score").inner_text()
        assert score == plural("en", "table.points", first["returns"][seat])
    page.click("#last")
    at_step(page, len(steps) - 1, len(steps) - 1)
    if landlord is not None:
        hat = page.locator(".felt .seat .role.landlord")
        assert hat.count() == 1
        assert hat.locator("xpath=ancestor::section[1]").get_attribute("data-seat") == str(landlord)
    for seat in range(3):
        after = first["returns"][seat] + second["returns"][seat]
        score = page.locator(f".felt .seat[data-seat='{seat}'] .seat-score").inner_text()
        assert score == plural("en", "table.points", after)
    shoot(page, "replay-doudizhu-deal-2-end")
    assert not errors, errors


def test_replay_step_buttons_are_drawn(live: LiveServer, browser: Any) -> None:
    """No font glyph to go missing: each button holds a drawing and is named in words."""
    table_id, _ = bot_table(live, 1, game="president")
    page, errors = new_page(browser, PHONE, "zh-CN")
    open_replay(page, live, table_id, 1)
    names = {"first": "first", "prev": "back", "next": "next", "last": "last"}
    for button, key in names.items():
        locator = page.locator(f"#{button}")
        assert locator.inner_text().strip() == ""
        assert locator.locator("svg path").count() == 1
        assert locator.get_attribute("aria-label") == word("zh", f"replay.{key}")
        box = locator.locator("svg").bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10
    page.click("#last")
    page.wait_for_selector("#result")
    shoot(page, "replay-buttons-zh-390")
    assert not errors, errors


def test_dominoes_teams_are_named_by_their_players(live: LiveServer, browser: Any) -> None:
    table_id = live.create(game="dominoes", bots=3, deals=1, seed=5)["id"]
    token = live.join(table_id, 0, "Alice")
    alice = live.client(table_id, token)
    try:
        play_until(live, table_id, [alice], lambda t: t.state is not None and t.state.is_over)
    finally:
        alice.close()
    team_a = f"{word('en', 'dom.team.0')}: Alice and {bot_name(2)}"
    team_b = f"{word('en', 'dom.team.1')}: {bot_name(1)} and {bot_name(3)}"
    seat_3 = word("en", "table.seat_n", n=3)

    page, errors = new_page(browser)
    page.goto(live.url + f"/t/{table_id}")
    page.wait_for_selector("#result table.scores tbody th")
    rows = page.locator("#result table.scores tbody th").all_inner_texts()
    assert [r.strip() for r in rows] == [team_a, team_b]
    assert seat_3 not in page.inner_text("#result")
    shoot(page, "end-dominoes-teams")

    open_replay(page, live, table_id, 1)
    page.click("#last")
    rows = page.locator("#replay-scores tbody th").all_inner_texts()
    assert [r.strip() for r in rows] == [team_a, team_b]
    assert seat_3 not in page.inner_text("#result")
    shoot(page, "replay-dominoes-teams")
    assert not errors, errors
