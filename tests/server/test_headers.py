"""Security headers on every answer, ``HEAD`` where ``GET`` is served, and a WebSocket
Origin check that compares scheme, host and port.

Every page (the lobby, a table, a replay, each "How to play"), a static file, API answers
and refusals (404, 413, 431, the input guard's 400, an unknown host) carry ``nosniff``,
``Referrer-Policy``, ``X-Frame-Options`` and the Content-Security-Policy. The policy
allows scripts from this site and each page's inline import map, as served, by its hash,
nothing inline besides, and no framing. ``HEAD`` answers as ``GET`` would, without the
body. An Origin is the page's own only with the same scheme (``ws`` for an ``http`` page,
``wss`` behind a TLS proxy), host and port, default ports written or not. That the client
works under the policy in a real browser is checked in ``test_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from shedkit.server.app import STATIC
from shedkit.server.headers import content_security_policy, import_map_hashes
from shedkit.server.howto import HOWTO_GAMES
from shedkit.server.ws import origin_allowed
from tests.server.live import LiveServer, wait

HEADERS = (
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
)
#: An inline import map as a browser finds it in a page.
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)


def script_sources(policy: str) -> list[str]:
    """The sources of the policy's ``script-src``."""
    directive = next(p for p in policy.split("; ") if p.startswith("script-src "))
    return directive.split()[1:]


def unlisted(policy: str, html: str) -> list[str]:
    """The inline scripts of a page that the policy does not let run."""
    allowed = script_sources(policy)
    missing = []
    for body in IMPORT_MAP.findall(html):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        if f"'sha256-{digest}'" not in allowed:
            missing.append(body)
    return missing


def check_headers(response: Any) -> None:
    for name in HEADERS:
        assert name in response.headers, (response.url, response.status_code, name)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"
    policy = response.headers["content-security-policy"]
    scripts = script_sources(policy)
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts
    assert "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy.split("; ")


def finished_table(live: LiveServer) -> tuple[str, int]:
    tid = live.create(game="doudizhu", bots=3, deals=1, seed=3)["id"]
    wait(lambda: live.table(tid).status == "finished", timeout=120)
    number = live.table(tid).summaries[-1]["number"]
    wait(lambda: live.node.storage.get_deal(tid, number) is not None, timeout=60)
    return tid, number


def test_every_page_and_answer_has_the_security_headers(live: LiveServer) -> None:
    tid, number = finished_table(live)
    pages = ["/", f"/t/{tid}", f"/replay/{tid}/{number}"]
    pages += [f"/howto/{game}" for game in HOWTO_GAMES]
    pages += ["/static/games/dominoes/demo.html"]
    for path in pages:
        response = live.http.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
        check_headers(response)
        # The page as served: its one import map is allowed by its hash, nothing else is.
        assert len(IMPORT_MAP.findall(response.text)) == 1, path
        assert unlisted(response.headers["content-security-policy"], response.text) == []
    answers = {
        "/static/vendor/preact.mjs": 200,
        "/api/games": 200,
        "/api/tables/nosuch": 404,
        "/nothing": 404,
    }
    for path, status in answers.items():
        response = live.http.get(path)
        assert response.status_code == status, path
        check_headers(response)
    refusals = [
        live.http.get("/api/games", headers={f"x-h{i}": "v" for i in range(150)}),
        live.http.get("/api/games", headers={"Host": "evil.example"}),
        live.http.post("/api/tables", content=b" " * (65 * 1024)),
        # The input guard's (a control character in the path).
        live.http.get("/api/tables/ab%00cd"),
    ]
    assert [r.status_code for r in refusals] == [431, 400, 413, 400]
    for response in refusals:
        check_headers(response)


def test_an_internal_error_s_answer_has_the_headers_too(live: LiveServer) -> None:
    """A 500 comes from Starlette's outermost middleware; the headers wrap even that."""

    async def broken() -> None:
        raise RuntimeError("a bug in a route")

    live.app.add_api_route("/api/broken", broken)
    response = live.http.get("/api/broken")
    assert response.status_code == 500
    check_headers(response)


def test_the_policy_names_each_import_map_by_its_hash(tmp_path: Path) -> None:
    policy = content_security_policy(STATIC)
    pages = sorted(STATIC.rglob("*.html"))
    assert len(pages) == 5  # the four pages and the dominoes board's demonstration
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert len(IMPORT_MAP.findall(html)) == 1, page
        assert unlisted(policy, html) == [], page
        # No other inline script: every other <script> has a src or holds data only.
        for tag in re.findall(r"<script[^>]*>", html):
            assert any(k in tag for k in ("importmap", "src=", "application/json")), (page, tag)
    # A page whose import map is edited: the policy of the old pages would not let it run;
    # the policy built from the edited pages does, with no other change.
    edited = tmp_path / "static"
    shutil.copytree(STATIC, edited, ignore=shutil.ignore_patterns("vendor", "i18n"))
    lobby = edited / "index.html"
    html = lobby.read_text(encoding="utf-8").replace('"imports": {', '"imports": {"x": "/x.js", ')
    lobby.write_text(html, encoding="utf-8")
    assert unlisted(policy, html) != []
    assert unlisted(content_security_policy(edited), html) == []
    assert len(import_map_hashes(edited)) == len(import_map_hashes(STATIC)) + 1


def test_head_is_answered_where_get_is(live: LiveServer) -> None:
    paths = ("/", "/t/x", "/api/games", "/static/vendor/preact.mjs", "/howto/dominoes")
    for path in paths:
        got, head = live.http.get(path), live.http.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"" and got.content != b""
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == got.headers["content-length"]
        assert int(head.headers["content-length"]) == len(got.content)
        check_headers(head)
    # A refusal as well: the GET's status and headers, no body.
    got, head = live.http.get("/api/tables/nosuch"), live.http.head("/api/tables/nosuch")
    assert head.status_code == got.status_code == 404 and head.content == b""
    assert head.headers["content-length"] == got.headers["content-length"]


@pytest.mark.parametrize(
    ("origin", "scheme", "ok"),
    [
        ("http://cards.example.org", "ws", True),
        ("http://cards.example.org:80", "ws", True),
        ("HTTP://Cards.Example.org", "ws", True),
        ("https://cards.example.org", "ws", False),  # another scheme is another site
        ("https://cards.example.org", "wss", True),  # behind a TLS proxy
        ("https://cards.example.org:443", "wss", True),
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


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        ("http://cards.example.org", "cards.example.org:80", True),
        ("http://cards.example.org:8080", "Cards.Example.org:8080", True),
        ("http://cards.example.org", "cards.example.org:8080", False),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://[::1]:8001", "[::1]:8000", False),
        ("http://cards.example.org", "cards.example.org:notaport", False),
        ("http://cards.example.org", None, False),
    ],
)
def test_the_host_header_is_read_the_same_way(origin: str, host: str | None, ok: bool) -> None:
    assert origin_allowed(origin, host, (), "ws") is ok


def test_allowed_origins_are_compared_the_same_way() -> None:
    allowed = ("https://play.example.org",)
    assert origin_allowed("https://play.example.org:443", "x", allowed)
    assert origin_allowed("HTTPS://Play.Example.org", "x", allowed)
    assert not origin_allowed("http://play.example.org", "x", allowed)
    assert not origin_allowed("https://play.example.org:8443", "x", allowed)
    assert not origin_allowed("https://play.example.org.evil.test", "x", allowed)
    # The page's own origin stays allowed beside the listed ones.
    assert origin_allowed("http://x", "x", allowed)
    assert origin_allowed("https://anything.test", "x", ("*",))
    assert origin_allowed("null", "x", ("*",))


def opens(client: TestClient, url: str, origin: str) -> bool:
    """Whether a WebSocket from ``origin`` is let in (it is sent the table's state)."""
    try:
        with client.websocket_connect(url, headers={"origin": origin}) as ws:
            return bool(ws.receive_json()["type"] == "state")
    except WebSocketDisconnect as closed:
        assert closed.code == 4403
        return False


def test_the_socket_s_scheme_decides_the_page_s_origin(client: TestClient) -> None:
    """``ws`` (a page over http) and ``wss`` (a page over https, behind a TLS proxy)."""
    tid = client.post("/api/tables", json={"game": "dominoes"}).json()["id"]
    plain, tls = f"ws://testserver/ws/{tid}", f"wss://testserver/ws/{tid}"
    assert opens(client, plain, "http://testserver")
    assert opens(client, plain, "http://testserver:80")
    assert not opens(client, plain, "https://testserver")
    assert not opens(client, plain, "http://testserver:8080")
    assert opens(client, tls, "https://testserver")
    assert opens(client, tls, "https://testserver:443")
    assert not opens(client, tls, "http://testserver")


def test_a_websocket_from_another_scheme_or_port_is_refused(live: LiveServer) -> None:
    tid = live.create(game="dominoes", bots=4, deals=1, seed=1)["id"]
    url = f"ws://127.0.0.1:{live.port}/ws/{tid}"
    with connect(url, additional_headers={"Origin": f"http://127.0.0.1:{live.port}"}) as ws:
        assert '"state"' in str(ws.recv(timeout=10))
    # Refused before it opens: the handshake is answered 403.
    for origin in (f"https://127.0.0.1:{live.port}", f"http://127.0.0.1:{live.port + 1}"):
        with pytest.raises(InvalidStatus, match="403"):
            connect(url, additional_headers={"Origin": origin})
    # Behind a TLS proxy trusted for its forwarded headers (a local one is): an https page.
    behind = {"Origin": f"https://127.0.0.1:{live.port}", "X-Forwarded-Proto": "https"}
    with connect(url, additional_headers=behind) as ws:
        assert '"state"' in str(ws.recv(timeout=10))
