"""The exchanges and the end of a deal told in full, in a real browser (Debian's chromium via
Playwright), in English and Chinese: President's tax both ways in the tax panel and in the
log, in both tax styles (PRE-20 drawn, PRE-21 best), the cards face up for the two seats of
an exchange only; the finished trick drawn by a page loaded after the trick ended (DDZ-13,
PRE-09); a Dominoes partnership's totals by team in the scoreboard and the result (DOM-02,
DOM-09).

President's pages are fed through their WebSocket (Playwright's ``route_web_socket``) with
a state a live server sent, its view replaced by the engine's view of a deal with the tax.
Screenshots go to ``build/test-artifacts/``: ``tax-<style>-<lang>.png``,
``finished-trick-reloaded-<lang>.png``, ``dominoes-teams-<lang>.png``,
``dominoes-teams-result-<lang>.png``.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import Any

import pytest

import shedkit
from shedkit.protocol.views import serialize_view
from tests.client.test_lobby import word
from tests.client.test_table_pace import fed_page, seated_state
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP
from tests.server.live import LiveServer, wait

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)

LANGS = [("en", "en-GB"), ("zh", "zh-CN")]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("exchanges") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(scope="module")
def president(live: LiveServer) -> dict[str, Any]:
    """A state the server sent seat 0 of a four-seat President table (three bots)."""
    return seated_state(live, "president", bots=3)


def plural(lang: str, key: str, count: int, **data: Any) -> str:
    form = ("one" if count == 1 else "other") if lang in ("en", "it", "de") else "other"
    return word(lang, f"{key}_{form}", count=count, **data)


def bot(lang: str, seat: int) -> str:
    return word(lang, "table.bot_name", level=word(lang, "level.medium.label"), n=seat + 1)


def ids(locator: Any) -> list[int]:
    """The card ids drawn face up under ``locator``."""
    return sorted(
        int(x)
        for x in locator.locator(".card[data-card]").evaluate_all(
            "els => els.map((e) => e.dataset.card)"
        )
    )


def shoot(page: Any, name: str, selector: str | None = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = page.locator(selector) if selector else page
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("style", ["best", "drawn"])
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_tax_is_told_both_ways_in_the_panel_and_the_log(
    browser: Any, live: LiveServer, president: dict[str, Any], style: str, lang: str, locale: str
) -> None:
    """PRE-20, PRE-21: the last finisher (seat 3) reads what it handed over (its best cards,
    or the cards drawn from it) and, once given, what it received; the log tells both; a seat
    outside the exchange sees as many card backs."""
    game = shedkit.make(
        "president", preset="international" if style == "best" else "standard", tax=True
    )
    deal = game.new_deal(seed=3, previous_order=[0, 1, 2, 3])
    assert deal.phase == "tax" and game.options.tax_style == style
    taken, other = sorted(deal.tax_draws[0]), sorted(deal.tax_draws[1])
    state = copy.deepcopy(president)
    state["you"] = 3
    state["table"]["seats"][3] = {**state["table"]["seats"][0], "name": "Dee"}
    state["table"]["seats"][0] = copy.deepcopy(president["table"]["seats"][1])
    state["view"] = serialize_view("president", deal.view(3))
    page = fed_page(browser, live, state, locale)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        panel = page.locator(".tax")
        panel.wait_for()
        lines = panel.locator(".exchange.taken")
        assert lines.count() == 2
        # Our exchange: the cards that went from seat 3 to seat 0 by themselves, face up.
        took = f"pre.took_{style}"
        assert lines.nth(0).locator("span").first.inner_text().strip() == plural(
            lang, took, 2, **{"from": "Dee", "to": bot(lang, 0)}
        )
        assert ids(lines.nth(0)) == taken
        # The other exchange: as many backs, no face.
        assert ids(lines.nth(1)) == [] and lines.nth(1).locator(".card.back").count() == 1
        assert ids(panel.locator(".you-gave")) == taken
        assert panel.locator(".you-received").count() == 0
        log = page.locator("#log li.log-lead")
        assert log.count() == 2
        key = "pre.log_best" if style == "best" else "pre.log_drawn"
        name = {"to": bot(lang, 0)} if style == "best" else {"from": "Dee"}
        assert plural(lang, key, 2, **name) in log.nth(0).inner_text()
        assert ids(log.nth(0)) == taken and ids(log.nth(1)) == []
        who = log.nth(0).locator(".who").inner_text()
        assert who == ("Dee" if style == "best" else bot(lang, 0))

        # Seat 0 gives back, then seat 1: the tax is over.
        gave = deal.legal_moves()[0]
        deal.apply(gave)
        deal.apply(deal.legal_moves()[0])
        assert deal.phase == "play"
        after = copy.deepcopy(state)
        after["state_id"] += 1
        after["view"] = serialize_view("president", deal.view(3))
        page.feed(after)
        page.wait_for_selector(".tax .you-received")
        assert ids(panel.locator(".you-received")) == sorted(gave.cards)
        assert ids(panel.locator(".you-gave")) == taken
        given = panel.locator(".exchange.given.done")
        assert given.count() == 2
        assert ids(given.nth(0)) == sorted(gave.cards)
        assert ids(given.nth(1)) == [] and given.nth(1).locator(".card.back").count() == 1
        entries = page.locator("#log li:not(.log-lead)")
        assert entries.count() == 2
        assert plural(lang, "pre.log_give", 2, to="Dee") in entries.nth(0).inner_text()
        assert ids(entries.nth(0)) == sorted(gave.cards)
        assert ids(entries.nth(1)) == []
        page.mouse.move(0, 0)
        page.clock.run_for(1000)  # the given cards' fly-in, over
        shoot(page, f"tax-{style}-{lang}")
        shoot(page, f"tax-panel-{style}-{lang}", ".tax")

        # A seat outside both exchanges of its own reads the counts only: seat 0's exchange
        # seen from seat 1 shows no face of it.
        seen = copy.deepcopy(after)
        seen["state_id"] += 1
        seen["you"] = 1
        seen["view"] = serialize_view("president", deal.view(1))
        page.feed(seen)
        page.wait_for_function("() => window.shedkit.state.you === 1")
        assert ids(panel.locator(".exchange.taken").nth(0)) == []
        assert ids(panel.locator(".exchange.given").nth(0)) == []
        assert ids(panel.locator(".exchange.taken").nth(1)) == other
        assert ids(page.locator("#log li.log-lead").nth(0)) == []
        assert not errors, errors
    finally:
        page.context.close()


@pytest.mark.parametrize(("game", "players"), [("doudizhu", 3), ("president", 4)])
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_page_loaded_after_a_trick_ended_draws_the_finished_trick(
    browser: Any, live: LiveServer, game: str, players: int, lang: str, locale: str
) -> None:
    """DDZ-13, PRE-09: the passes end the trick; a page (re)loaded then still draws it, dimmed,
    from the state alone, until the next lead."""
    tid = live.create(game=game, bots=0, deals=1, seed=3)["id"]
    names = ("Ana", "Bo", "Cy", "Di")[:players]
    tokens = [live.join(tid, i, name) for i, name in enumerate(names)]
    clients = [live.client(tid, token) for token in tokens]
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:

        def view() -> Any:
            clients[0].drain(0.05)
            assert clients[0].state is not None
            return clients[0].state["view"]

        def move(pick: Any) -> None:
            v = view()
            seat = v["current_player"]
            mover = clients[seat]
            mover.drain(0.05)
            n = len(v["history"])
            mover.move(pick(mover.state["view"])["m"])
            for c in clients:
                c.wait_for(lambda m: m["type"] == "state" and len(m["view"]["history"]) > n)

        while view()["phase"] != "play":
            move(lambda v: v["legal"][-1])
        lead = view()["current_player"]
        move(lambda v: next(m for m in v["legal"] if m["k"]))
        while view()["trick"]:
            move(lambda v: next(m for m in v["legal"] if m["kind"] == "pass"))
        done = view()["finished_trick"]
        assert done[0]["seat"] == lead and len(done) == players

        # Seated as the first player: the page was reloaded just now.
        page.goto(live.url + f"/t/{tid}")
        page.evaluate(
            "([id, seat, token]) => localStorage.setItem(`shedkit.seat.${id}`,"
            " JSON.stringify({ seat, token }))",
            [tid, 0, tokens[0]],
        )
        page.reload()
        page.wait_for_function(
            "() => window.shedkit && window.shedkit.state && window.shedkit.state.you === 0"
        )
        page.wait_for_selector(".seat-play .done-trick")
        assert page.locator(f'.seat[data-seat="{lead}"] .done-trick .card').count() >= 1
        for seat in range(players):
            if seat != lead:
                assert page.locator(f'.seat[data-seat="{seat}"] .done-trick .bubble').count() == 1
        page.mouse.move(0, 0)
        shoot(page, f"finished-trick-reloaded-{game}-{lang}")

        # The next lead clears it.
        move(lambda v: next(m for m in v["legal"] if m["k"]))
        page.wait_for_selector(".seat-play .done-trick", state="detached")
        assert not errors, errors
    finally:
        for c in clients:
            c.close()
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_dominoes_partners_are_scored_by_team(
    browser: Any, live: LiveServer, lang: str, locale: str
) -> None:
    """DOM-02, DOM-09: partners share their points, so the scoreboard, its past deals and the
    end of the deal count two teams, each named by its players, not four players."""
    tid = live.create(game="dominoes", bots=4, deals=1, seed=5)["id"]
    wait(lambda: live.table(tid).status == "finished")
    table = live.table(tid)
    totals = list(table.match.totals)
    assert totals[0] == totals[2] and totals[1] == totals[3]
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(live.url + f"/t/{tid}")
        page.wait_for_selector("#result table.scores tbody th")
        team = word(lang, "table.team")
        names = [[bot(lang, i) for i in (0, 2)], [bot(lang, i) for i in (1, 3)]]
        result = page.locator("#result table.scores")
        assert result.locator("thead th").first.inner_text().strip() == team
        heads = [r.strip() for r in result.locator("tbody th").all_inner_texts()]
        assert len(heads) == 2
        for side, (head, pair) in enumerate(zip(heads, names, strict=True)):
            assert head.startswith(word(lang, f"dom.team.{side}"))
            assert all(name in head for name in pair)
        pips = page.inner_text("#result .breakdown")
        assert word(lang, "dom.team.0") in pips and word(lang, "dom.team.1") in pips
        shoot(page, f"dominoes-teams-result-{lang}")
        page.click("#see-table")

        board = page.locator("#scores")
        assert board.locator("thead th").first.inner_text().strip() == team
        rows = board.locator("tbody tr")
        assert rows.count() == 2
        for side in range(2):
            head = rows.nth(side).locator("th").inner_text()
            assert head.startswith(word(lang, f"dom.team.{side}"))
            assert rows.nth(side).locator("td").inner_text().strip() == str(totals[side])
        returns = table.summaries[-1]["returns"]
        past = page.locator("#deals li").first.inner_text()
        assert past.endswith(f"{returns[0]} / {returns[1]}")
        page.mouse.move(0, 0)
        shoot(page, f"dominoes-teams-{lang}")
        assert not errors, errors
    finally:
        page.context.close()
