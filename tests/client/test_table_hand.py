"""The hand and the buttons as Dou Di Zhu and board-game-site players expect them, in a real
browser (Debian's chromium via Playwright), in English and Chinese.

Checked: the hand's order (big to small by default in Dou Di Zhu, as the QQ app deals it;
small to big; grouped by count), kept in the browser across a reload, and President's order
following the order in force (a revolution turns it over); Hint offers plain answers before
what wastes a bomb or the rocket (checked on real views of dealt games, and by pressing H on
a crafted one); the keys shown on the buttons and the shortcuts dialog (``?``, Escape); the
jokers lettered (JOKER, 大王 / 小王) in the hand and marked (J, 大 / 小) at the table's and
the log's sizes, big and small told apart by more than colour; and the auction's "No bid"
(不叫) kept apart from the "Pass" (不出) of play in the bubbles, the log, the buttons and the
spoken line.

The page is fed through its WebSocket (``route_web_socket``) with a state a live server
sent, changed where the test needs it. Screenshots go to ``build/test-artifacts/``:
``hand-sort-<mode>-<lang>.png``, ``hand-phone-<lang>.png``, ``jokers-<size>-<lang>.png``,
``shortcuts-<lang>.png``, ``no-bid-<lang>.png``, ``pass-in-play-<lang>.png``.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import shedkit
from shedkit.doudizhu.combos import RANK_CHARS
from shedkit.president.combos import FACE_CHARS
from shedkit.protocol.views import cards_json, serialize_view
from tests.client.test_lobby import word
from tests.client.test_table_alerts import open_table, seated_state
from tests.server.browser import ARTIFACTS, CHROMIUM, PHONE, in_header
from tests.server.live import LiveServer

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (make test does)"
)
LANGS = [("en", "en-GB"), ("zh", "zh-CN")]
SUITS = "shdc"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hand") / "shedkit.db"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(scope="module")
def doudizhu(live: LiveServer) -> dict[str, Any]:
    """A Dou Di Zhu state in play (the seated player bid 3), on their turn with a play to
    answer. The table's id rides along as ``table_id``."""
    return seated_state(live, "doudizhu", True, in_play=True, bots=2)


@pytest.fixture(scope="module")
def president(live: LiveServer) -> dict[str, Any]:
    return seated_state(live, "president", False, bots=3)


def ddz(*cards: str) -> list[dict[str, Any]]:
    """Dou Di Zhu cards from their text (``Ks``, ``B``, ``R``) as the server sends them."""
    ids = [
        52 if c == "B" else 53 if c == "R" else RANK_CHARS.index(c[0]) * 4 + SUITS.index(c[1])
        for c in cards
    ]
    return cards_json("doudizhu", ids)


def pre(*cards: str) -> list[dict[str, Any]]:
    ids = [52 if c == "Jk" else FACE_CHARS.index(c[0]) * 4 + SUITS.index(c[1]) for c in cards]
    return cards_json("president", ids)


def shoot(page: Any, name: str, element: str | None = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = page.locator(element).first if element else page
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def hand_texts(page: Any) -> list[str]:
    """The cards of the hand as drawn, left to right, by their server text."""
    ids: list[str] = page.eval_on_selector_all(
        ".hand-slot .card", "els => els.map(e => e.dataset.card)"
    )
    by_id = {str(c["c"]): c["t"] for c in page.evaluate("() => window.shedkit.state.view.hand")}
    return [by_id[i] for i in ids]


def with_hand(state: dict[str, Any], hand: list[dict[str, Any]]) -> dict[str, Any]:
    state = copy.deepcopy(state)
    state["view"]["hand"] = hand
    state["view"]["cards_left"][state["you"]] = len(hand)
    return state


#: A Dou Di Zhu hand dealt in no particular order: the rocket, a bomb, a triple, a pair.
SHUFFLED = ["5h", "Kd", "3c", "R", "9s", "Kh", "2h", "5s", "9d", "B", "Ks", "As", "7d", "9h", "Kc"]


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_hand_sorting_modes_and_reload(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    state = with_hand(doudizhu, ddz(*SHUFFLED))
    page, _, errors = open_table(browser, live, state, locale)
    page.wait_for_selector(".hand-slot .card")
    # QQ's order by default: 大王 小王 2 A K … 3, suits in the notation's order within a rank.
    big_to_small = [
        "R",
        "B",
        "2h",
        "As",
        "Ks",
        "Kh",
        "Kd",
        "Kc",
        "9s",
        "9h",
        "9d",
        "7d",
        "5s",
        "5h",
        "3c",
    ]
    assert hand_texts(page) == big_to_small
    assert page.input_value("#sort") == "desc"
    labels = page.eval_on_selector_all("#sort option", "els => els.map(e => e.textContent.trim())")
    assert labels == [word(lang, f"table.sort_{m}") for m in ("desc", "asc", "count")]
    page.mouse.move(0, 0)
    shoot(page, f"hand-sort-desc-{lang}")

    in_header(page, "#sort", "asc")
    small_to_big = [
        "3c",
        "5s",
        "5h",
        "7d",
        "9s",
        "9h",
        "9d",
        "Ks",
        "Kh",
        "Kd",
        "Kc",
        "As",
        "2h",
        "B",
        "R",
    ]
    assert hand_texts(page) == small_to_big
    shoot(page, f"hand-sort-asc-{lang}")

    # Grouped: the quad, the triple, the pair, then the singles, each group big to small.
    in_header(page, "#sort", "count")
    by_count = [
        "Ks",
        "Kh",
        "Kd",
        "Kc",
        "9s",
        "9h",
        "9d",
        "5s",
        "5h",
        "R",
        "B",
        "2h",
        "As",
        "7d",
        "3c",
    ]
    assert hand_texts(page) == by_count
    shoot(page, f"hand-sort-count-{lang}")

    # The choice is kept in this browser.
    page.reload()
    page.wait_for_selector(".hand-slot .card")
    assert page.input_value("#sort") == "count"
    assert hand_texts(page) == by_count
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_president_hand_follows_the_order_in_force(
    browser: Any, live: LiveServer, president: dict[str, Any], lang: str, locale: str
) -> None:
    """PRE-03 / PRE-13: small to big in the game's order; a revolution turns it over."""
    hand = pre("Ks", "As", "3h", "2c", "Jk", "3s", "Td")
    state = with_hand(president, hand)
    normal = list(state["view"]["order"])
    page, send, errors = open_table(browser, live, state, locale)
    page.wait_for_selector(".hand-slot .card")
    assert page.input_value("#sort") == "asc"  # President's own default

    def expected(order: list[str], reverse: bool) -> list[str]:
        faces = sorted(
            (c for c in hand if c["t"] != "Jk"),
            key=lambda c: (order.index(c["t"][0]), SUITS.index(c["t"][1])),
        )
        if reverse:  # suits stay in the notation's order within a rank
            faces = sorted(faces, key=lambda c: (-order.index(c["t"][0]), SUITS.index(c["t"][1])))
        return [*(c["t"] for c in faces), "Jk"] if not reverse else ["Jk", *(c["t"] for c in faces)]

    assert hand_texts(page) == expected(normal, False)
    state["view"]["order"] = normal[::-1]
    state["view"]["revolution"] = True
    send()
    assert hand_texts(page) == expected(normal[::-1], False)
    in_header(page, "#sort", "desc")
    assert hand_texts(page) == expected(normal[::-1], True)
    assert not errors, errors
    page.context.close()


def ddz_views_with_trumps(deals: int) -> list[dict[str, Any]]:
    """Views of dealt Dou Di Zhu games, on turns where a bomb or the rocket is legal beside a
    plain play (random play from fixed seeds)."""
    game = shedkit.make("doudizhu")
    found = []
    for seed in range(deals):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = serialize_view("doudizhu", state.view(state.current_player))
            kinds = {m["kind"] for m in view["legal"]}
            if kinds & {"bomb", "rocket"} and kinds - {"bomb", "rocket", "pass", "bid"}:
                found.append(view)
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return found


def president_views_with_trumps(deals: int) -> list[dict[str, Any]]:
    game = shedkit.make("president", jokers=1)
    found = []
    for seed in range(deals):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = serialize_view("president", state.view(state.current_player))
            plays = [m for m in view["legal"] if m["k"]]
            if any(52 in m["k"] or m["kind"] == "quad" for m in plays) and any(
                52 not in m["k"] and m["kind"] != "quad" for m in plays
            ):
                found.append(view)
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return found


def hint_orders(page: Any, views: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``hintMoves`` of lib/select.js on each view, run in the page."""
    orders: list[list[dict[str, Any]]] = page.evaluate(
        """async (views) => {
          const { hintMoves } = await import("/static/lib/select.js");
          return views.map((v) => hintMoves(v));
        }""",
        views,
    )
    return orders


def test_hint_order_on_dealt_views(browser: Any, live: LiveServer) -> None:
    """Plain plays before bombs, bombs before the rocket (DDZ-20..22), the lowest first;
    in President plain plays before a quad (PRE-13) and the joker (PRE-15) last."""
    page = browser.new_page()
    page.goto(live.url + "/")
    ddz_views = ddz_views_with_trumps(12)
    assert len(ddz_views) >= 5
    tier = {"rocket": 2, "bomb": 1}
    for view, order in zip(ddz_views, hint_orders(page, ddz_views), strict=True):
        plays = [m for m in view["legal"] if m["k"]]
        assert sorted(m["m"] for m in order) == sorted(m["m"] for m in plays)
        tiers = [tier.get(m["kind"], 0) for m in order]
        assert tiers == sorted(tiers), [m["m"] for m in order]
        # Answers of one kind come lowest first among the plays that break nothing up.
        held = [c["k"] for c in view["hand"]]
        rocket = 13 in held and 14 in held
        whole = [
            m
            for m in order
            if tier.get(m["kind"], 0) == 0
            and not any(held.count(k) == 4 or (rocket and k >= 13) for k in m["k"])
        ]
        for kind in {m["kind"] for m in whole}:
            tops = [
                max(m["k"], key=lambda k: (m["k"].count(k), k)) for m in whole if m["kind"] == kind
            ]
            lengths = {len(m["k"]) for m in whole if m["kind"] == kind}
            if len(lengths) == 1:
                assert tops == sorted(tops), (kind, [m["m"] for m in order])

    pre_views = president_views_with_trumps(12)
    assert len(pre_views) >= 5
    for view, order in zip(pre_views, hint_orders(page, pre_views), strict=True):
        plays = [m for m in view["legal"] if m["k"]]
        assert sorted(m["m"] for m in order) == sorted(m["m"] for m in plays)
        ranks = [2 if 52 in m["k"] else 1 if m["kind"] == "quad" else 0 for m in order]
        assert ranks == sorted(ranks), [m["m"] for m in order]
        singles = [m["k"][0] for m in order if m["kind"] == "single" and 52 not in m["k"]]
        places = [view["order"].index(FACE_CHARS[k // 4]) for k in singles]
        assert places == sorted(places), [m["m"] for m in order]
    page.close()


PRESSED = '.hand-slot .card[aria-pressed="true"]'


def solo(rank: str) -> dict[str, Any]:
    k = RANK_CHARS.index(rank)
    return {"m": rank, "k": [k], "kind": "solo"}


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_hint_offers_a_plain_answer_before_a_bomb(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    """Answering a single 4: the singles that break nothing first, the lowest first; then the
    ones that would break the bomb or the rocket; the bomb (DDZ-21); the rocket last (DDZ-22)."""
    state = with_hand(doudizhu, ddz("5s", "7h", "9c", "Ks", "Kh", "Kd", "Kc", "2s", "B", "R"))
    view, you = state["view"], state["you"]
    before = (you - 1) % 3
    play = {"seat": before, "move": "4", "kind": "solo", "cards": ddz("4d")}
    view["trick"], view["history"] = [play], [*view["history"], play]
    view["last_play"], view["last_player"] = "4", before
    # The server's order would already help; this one puts the trumps first.
    view["legal"] = [
        {"m": "BR", "k": [13, 14], "kind": "rocket"},
        {"m": "KKKK", "k": [10] * 4, "kind": "bomb"},
        *(solo(r) for r in "R2KB975"),
        {"m": "pass", "k": [], "kind": "pass"},
    ]
    page, _, errors = open_table(browser, live, state, locale)
    page.wait_for_selector("#hint:not([disabled])")
    seen: list[list[int]] = []
    for _ in range(10):
        page.keyboard.press("h")
        # Each Hint selects another play than the one before.
        page.wait_for_function(
            f"""last => JSON.stringify([...document.querySelectorAll(
            '{PRESSED}')].map(e => Number(e.dataset.key)).sort((a, b) => a - b)) !== last""",
            arg=json.dumps(seen[-1] if seen else []).replace(" ", ""),
        )
        seen.append(
            page.eval_on_selector_all(
                PRESSED, "els => els.map(e => Number(e.dataset.key)).sort((a, b) => a - b)"
            )
        )
        if len(seen) == 9:
            assert word(lang, "combo.doudizhu.rocket") in page.inner_text("#announcer")
    # Round again to the smallest plain answer.
    assert seen == [[2], [4], [6], [12], [10], [13], [14], [10] * 4, [13, 14], [2]]
    assert word(lang, "combo.doudizhu.solo") in page.inner_text("#announcer")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_keys_on_the_buttons_and_the_shortcuts_dialog(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    state = copy.deepcopy(doudizhu)
    page, _, errors = open_table(browser, live, state, locale)
    page.wait_for_selector("#pass:not([disabled])")
    for button, key in (("play", "space"), ("pass", "p"), ("hint", "h"), ("clear", "esc")):
        kbd = page.locator(f"#{button} kbd")
        assert kbd.is_visible(), button
        assert kbd.inner_text() == word(lang, f"table.key_{key}")
    # In play the pass is Dou Di Zhu's own word (不出), on the button as in the log.
    assert page.inner_text("#pass").startswith(word(lang, "combo.doudizhu.pass"))

    page.keyboard.press("?")
    dialog = page.locator(".shortcuts-dialog")
    dialog.wait_for()
    assert page.inner_text("#shortcuts-title") == word(lang, "table.shortcuts")
    rows = dialog.locator("dd").all_inner_texts()
    assert rows[:2] == [word(lang, "table.play"), word(lang, "combo.doudizhu.pass")]
    assert dialog.locator("kbd").all_inner_texts()[0] == word(lang, "table.key_space")
    page.mouse.move(0, 0)
    shoot(page, f"shortcuts-{lang}")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")

    # The header's button opens it too, and focus comes back to it on Escape.
    in_header(page, "#shortcuts")
    dialog.wait_for()
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'shortcuts'"
    )

    # An Escape pressed the moment the dialog is on the page closes it (and does not reach
    # the table instead): the dialog listens from its first frame.
    page.evaluate(KEY_AT_ONCE, ["#shortcuts", ".shortcuts-dialog", "Escape"])
    dialog.wait_for(state="detached")
    assert not errors, errors
    page.context.close()


# Clicks `click`, then presses `key` the moment `shown` matches in the page: before the
# browser has painted what the click changed.
KEY_AT_ONCE = """async ([click, shown, key]) => {
  const drawn = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (document.querySelector(shown)) { watch.disconnect(); resolve(); }
    });
    watch.observe(document.body, { childList: true, attributes: true, subtree: true });
  });
  document.querySelector(click).click();
  await drawn;
  const press = { key, bubbles: true, cancelable: true };
  (document.activeElement || document.body).dispatchEvent(new KeyboardEvent('keydown', press));
}"""


def test_space_plays_the_card_just_tapped(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any]
) -> None:
    """Space right after a tap plays what the tap selected: the keys act on the latest
    selection, not on the one drawn before it (DDZ-20: a higher single beats the 4)."""
    state = with_hand(doudizhu, ddz("5s", "9c", "Kh"))
    view, you = state["view"], state["you"]
    before = (you - 1) % 3
    four = {"seat": before, "move": "4", "kind": "solo", "cards": ddz("4d")}
    view["trick"], view["history"] = [four], [*view["history"], four]
    view["last_play"], view["last_player"] = "4", before
    view["legal"] = [*(solo(r) for r in "59K"), {"m": "pass", "k": [], "kind": "pass"}]
    page, _, errors = open_table(browser, live, state, "en-GB")
    page.wait_for_selector("#play:not([disabled])")
    nine = f'.hand button[data-card="{ddz("9c")[0]["c"]}"]'
    page.evaluate(KEY_AT_ONCE, [nine, f'{nine}[aria-pressed="true"]', " "])
    for _ in range(100):  # the socket's messages reach the test a moment later
        moves = [m["move"] for m in page.sent if m.get("type") == "move"]
        if moves:
            break
        page.wait_for_timeout(50)
    assert moves == ["9"], moves
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_keys_hidden_on_a_touch_screen(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    state = copy.deepcopy(doudizhu)
    table_id = state.pop("table_id")
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.route_web_socket(
        re.compile(r"/ws/"), lambda ws: (ws.on_message(lambda m: None), ws.send(json.dumps(state)))
    )
    page.goto(live.url + f"/t/{table_id}")
    page.wait_for_selector("#pass:not([disabled])")
    assert page.evaluate("() => matchMedia('(hover: none)').matches")
    assert page.locator("#play kbd").count() == 1
    assert not page.locator("#play kbd").is_visible()
    assert page.inner_text("#pass").strip() == word(lang, "combo.doudizhu.pass")
    shoot(page, f"hand-phone-{lang}")
    context.close()


def joker_texts(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        f"{selector} .joker-letters", "els => els.map(e => e.textContent.replace(/\\s/g, ''))"
    )
    return texts


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_jokers_are_lettered_at_every_size(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    state = with_hand(doudizhu, ddz("B", "R", "2s", "As", "Kh", "7d", "3c"))
    view, you = state["view"], state["you"]
    before = (you - 1) % 3
    rocket = {"seat": before, "move": "BR", "kind": "rocket", "cards": ddz("B", "R")}
    view["trick"], view["history"] = [rocket], [*view["history"], rocket]
    page, _, errors = open_table(browser, live, state, locale)
    page.wait_for_selector(".hand-slot .card")
    small, big = word(lang, "card.joker_mark.black"), word(lang, "card.joker_mark.red")
    assert (small, big) == (("小王", "大王") if lang == "zh" else ("JOKER", "JOKER"))
    # In the hand (big to small: 大王 then 小王), in front of the seat, and in the log.
    assert joker_texts(page, ".hand-slot") == [big, small]
    # Drawn small, one mark in the corner stands for the letters (J; 小 / 大).
    small, big = word(lang, "card.joker_short.black"), word(lang, "card.joker_short.red")
    assert joker_texts(page, f'.seat[data-seat="{before}"] .card-table') == [small, big]
    assert joker_texts(page, "#log .card-mini") == [small, big]
    # Told apart by more than colour: the big one is crowned and its star filled.
    hand = page.locator(".hand-slot .card")
    assert hand.nth(0).locator(".joker-crown").count() == 1
    assert hand.nth(1).locator(".joker-crown").count() == 0
    fills = [
        hand.nth(i).locator(".joker-star").evaluate("e => getComputedStyle(e).fill") for i in (0, 1)
    ]
    assert fills[1] == "none" and fills[0] != "none", fills
    page.mouse.move(0, 0)
    shoot(page, f"jokers-hand-{lang}", ".hand")
    shoot(page, f"jokers-table-{lang}", f'.seat[data-seat="{before}"] .cards')
    shoot(page, f"jokers-mini-{lang}", "#log li:last-child")
    assert not errors, errors
    page.context.close()


def entry(
    seat: int, move: str, kind: str, cards: list[dict[str, Any]] | None = None, **more: Any
) -> dict[str, Any]:
    return {"seat": seat, "move": move, "kind": kind, "cards": cards or [], **more}


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_no_bid_in_the_auction_and_pass_in_play(
    browser: Any, live: LiveServer, doudizhu: dict[str, Any], lang: str, locale: str
) -> None:
    """DDZ-05: a pass in the auction is "No bid" (不叫); DDZ-12: a pass in play is "Pass" (不出)."""
    state = copy.deepcopy(doudizhu)
    view, you = state["view"], state["you"]
    a, b = (you + 1) % 3, (you + 2) % 3
    no_bid, passed = word(lang, "ddz.no_bid"), word(lang, "combo.doudizhu.pass")
    assert no_bid != passed
    # The auction: seat a said no bid, it is your turn to bid.
    auction = [entry(a, "pass", "pass")]
    play_view = copy.deepcopy(view)
    view.update(
        phase="auction",
        bids=auction,
        history=list(auction),
        trick=[],
        landlord=None,
        kitty=None,
        stake=0,
        current_player=you,
        last_play=None,
    )
    view["legal"] = [
        {"m": "pass", "k": [], "kind": "pass"},
        *({"m": f"bid{n}", "k": [], "kind": "bid", "bid": n} for n in (1, 2, 3)),
    ]
    page, send, errors = open_table(browser, live, state, locale)
    page.wait_for_selector(f'.seat[data-seat="{a}"] .bubble')
    assert page.inner_text(f'.seat[data-seat="{a}"] .bubble') == no_bid
    assert page.inner_text("#log li .entry-name") == no_bid
    assert no_bid in page.locator(".auction .bid").all_inner_texts()
    page.mouse.move(0, 0)
    shoot(page, f"no-bid-{lang}")

    # Seat b bids 1 and you say no bid: the auction is over and the page's spoken line still
    # says no bid, though the view it came with is in play.
    auction = [*auction, entry(b, "bid1", "bid", bid=1), entry(you, "pass", "pass")]
    view.update(
        phase="play",
        bids=auction,
        history=list(auction),
        landlord=b,
        stake=1,
        current_player=b,
        legal=[],
    )
    view["kitty"] = play_view["kitty"] or ddz("3s", "4s", "5s")
    send()
    page.wait_for_function(
        "t => document.getElementById('announcer').textContent.includes(t)", arg=no_bid
    )
    assert passed not in page.inner_text("#announcer")

    # In play: b leads, a passes. The bubble says pass, the log keeps both words apart.
    lead = entry(b, "7", "solo", ddz("7h"))
    view.update(history=[*auction, lead, entry(a, "pass", "pass")], current_player=you)
    view["trick"] = view["history"][-2:]
    view["legal"] = [
        {"m": "pass", "k": [], "kind": "pass"},
        *(m for m in play_view["legal"] if m["k"]),
    ]
    send()
    page.wait_for_selector(f'.seat[data-seat="{a}"] .bubble')
    assert page.inner_text(f'.seat[data-seat="{a}"] .bubble') == passed
    names = page.locator("#log li .entry-name").all_inner_texts()
    assert names == [
        no_bid,
        word(lang, "ddz.bid_points_one" if lang == "en" else "ddz.bid_points_other", count=1),
        no_bid,
        word(lang, "combo.doudizhu.solo"),
        passed,
    ]
    assert page.inner_text("#pass").startswith(passed)
    page.mouse.move(0, 0)
    shoot(page, f"pass-in-play-{lang}")
    assert not errors, errors
    page.context.close()
