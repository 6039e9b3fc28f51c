"""Security headers on every page, ``HEAD`` where ``GET`` is served, and an Origin check
that compares scheme, host and port.

The Content-Security-Policy allows scripts from this site and the pages' inline import
maps by their hashes only; the client works under it in a real browser with no
violation (lobby, a table with its invitation QR code, a replay, "How to play").
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from shedkit.server.app import STATIC
from shedkit.server.headers import content_security_policy, import_map_hashes
from shedkit.server.howto import HOWTO_GAMES
from shedkit.server.ws import origin_allowed
from tests.server.browser import ARTIFACTS, CHROMIUM, DESKTOP, FLAGS
from tests.server.live import LiveServer, wait

HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")


def check_headers(response: Any) -> None:
    for name in HEADERS:
        assert name in response.headers, (response.url, name)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"
    policy = response.headers["content-security-policy"]
    script = next(p for p in policy.split("; ") if p.startswith("script-src"))
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert "frame-ancestors 'none'" in policy


def finished_table(live: LiveServer) -> tuple[str, int]:
    tid = live.create(game="doudizhu", bots=3, deals=1, seed=3)["id"]
    wait(lambda: live.table(tid).status == "finished", timeout=120)
    number = live.table(tid).summaries[-1]["number"]
    wait(lambda: live.manager.storage.get_deal(tid, number) is not None, timeout=60)
    return tid, number


def test_every_page_and_answer_has_the_security_headers(live: LiveServer) -> None:
    tid, number = finished_table(live)
    pages = ["/", f"/t/{tid}", f"/replay/{tid}/{number}"]
    pages += [f"/howto/{game}" for game in HOWTO_GAMES]
    for path in pages:
        response = live.http.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
        check_headers(response)
    for path in ("/static/vendor/preact.mjs", "/api/games", "/api/tables/nosuch", "/nothing"):
        check_headers(live.http.get(path))
    check_headers(live.http.get("/api/games", headers={f"x-h{i}": "v" for i in range(150)}))
    # Refusals by the input guard too (a control character in the path).
    refused = live.http.get("/api/tables/ab%00cd")
    assert refused.status_code == 400
    check_headers(refused)


def test_the_policy_names_each_import_map_by_its_hash(tmp_path: Path) -> None:
    policy = content_security_policy(STATIC)
    for page in STATIC.glob("*.html"):
        body = re.search(r'<script type="importmap">(.*?)</script>', page.read_text(), re.DOTALL)
        assert body is not None, page
        digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy, page
        # No other inline script: every other <script> has a src.
        for tag in re.findall(r"<script[^>]*>", page.read_text()):
            assert "importmap" in tag or "src=" in tag, (page, tag)
    # An edited import map gets its own hash.
    (tmp_path / "a.html").write_text('<script type="importmap">{"imports": {}}</script>')
    assert import_map_hashes(tmp_path) != import_map_hashes(STATIC)


def test_head_is_answered_where_get_is(live: LiveServer) -> None:
    for path in ("/", "/t/abc", "/api/games", "/static/vendor/preact.mjs", "/howto/dominoes"):
        got, head = live.http.get(path), live.http.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == got.headers["content-length"]
        check_headers(head)


@pytest.mark.parametrize(
    ("origin", "scheme", "ok"),
    [
        ("http://cards.example.org", "ws", True),
        ("http://cards.example.org:80", "ws", True),
        ("HTTP://Cards.Example.org", "ws", True),
        ("https://cards.example.org", "ws", False),  # another scheme is another site
        ("https://cards.example.org", "wss", True),  # behind a TLS proxy
        ("http://cards.example.org", "wss", False),
        ("http://cards.example.org:8080", "ws", False),
        ("http://cards.example.org.evil.test", "ws", False),
        ("null", "ws", False),
        (None, "ws", True),  # not a browser
    ],
)
def test_the_origin_check_compares_scheme_host_and_port(
    origin: str | None, scheme: str, ok: bool
) -> None:
    assert origin_allowed(origin, "cards.example.org", (), scheme) is ok


def test_allowed_origins_are_compared_the_same_way() -> None:
    allowed = ("https://play.example.org",)
    assert origin_allowed("https://play.example.org:443", "x", allowed)
    assert not origin_allowed("http://play.example.org", "x", allowed)
    assert origin_allowed("https://anything.test", "x", ("*",))


def test_a_websocket_from_the_https_origin_of_an_http_page_is_refused(live: LiveServer) -> None:
    tid = live.create(game="dominoes", bots=4, deals=1)["id"]
    url = f"ws://127.0.0.1:{live.port}/ws/{tid}"
    with connect(url, origin=f"http://127.0.0.1:{live.port}") as ws:  # type: ignore[arg-type]
        assert '"state"' in str(ws.recv(timeout=10))
    # Refused before it opens: the handshake is answered 403.
    with pytest.raises(InvalidStatus, match="403"):
        connect(url, origin=f"https://127.0.0.1:{live.port}")  # type: ignore[arg-type]


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_the_client_works_under_the_policy_with_no_violation(live: LiveServer) -> None:
    from playwright.sync_api import sync_playwright

    tid, number = finished_table(live)
    play = live.create(game="president", bots=3)["id"]
    violations: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport=DESKTOP, locale="en-GB")
        # Every violation, reported by the page itself (the console may drop some).
        context.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => "
            "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )
        page = context.new_page()
        page.on(
            "console",
            lambda m: (
                violations.append(m.text)
                if "violation" in m.text or "Content Security Policy" in m.text
                else None
            ),
        )
        page.goto(live.url + "/")
        page.wait_for_function("() => document.querySelector('main, #app, body > *')")
        page.wait_for_timeout(500)
        page.goto(live.url + f"/t/{play}")
        page.wait_for_selector("#join button.take")
        page.fill("#join-name", "Ana")
        page.click('#join button.take[data-seat="0"]')
        page.wait_for_function("() => window.shedkit && window.shedkit.state")
        page.click("#invite") if page.locator("#invite").count() else None
        page.wait_for_timeout(500)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "csp-table-invite.png"))
        page.goto(live.url + f"/replay/{tid}/{number}")
        page.wait_for_timeout(1000)
        page.goto(live.url + "/howto/doudizhu")
        page.wait_for_timeout(1500)
        page.screenshot(path=str(ARTIFACTS / "csp-howto.png"))
        browser.close()
    assert violations == []
