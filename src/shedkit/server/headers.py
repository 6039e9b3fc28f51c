"""Security headers on every answer, and ``HEAD`` wherever ``GET`` is served.

The Content-Security-Policy fits the web client: scripts only from this site (the
vendored modules and the pages' own), plus each page's inline import map by its
SHA-256, computed from the pages when the app is built, so an edited import map
needs no other change. No page may be framed (``frame-ancestors 'none'``: no other
site can put a table under a decoy and have it clicked), types are not sniffed, and
a table's address (an invitation) is not sent to other sites as a referrer.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["IMPORT_MAP", "SecurityHeaders", "content_security_policy", "import_map_hashes"]

#: A page's inline import map, the one inline script the client has. The browser hashes
#: the text between the tags as parsed, line ends made ``\n``, as ``read_text`` reads it.
IMPORT_MAP: Final = re.compile(
    r"<script\b[^>]*\btype=[\"']?importmap\b[^>]*>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE
)


def import_map_hashes(pages: Path) -> list[str]:
    """The CSP sources (``'sha256-…'``) of the inline import maps of the pages under ``pages``
    (a game's demonstration page in its folder too: the app serves every file there)."""
    found: set[str] = set()
    for page in sorted(pages.rglob("*.html")):
        for body in IMPORT_MAP.findall(page.read_text(encoding="utf-8")):
            digest = hashlib.sha256(body.encode("utf-8")).digest()
            found.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return sorted(found)


def content_security_policy(pages: Path) -> str:
    """The Content-Security-Policy of the client whose pages are in ``pages``."""
    scripts = " ".join(["'self'", *import_map_hashes(pages)])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            # No 'unsafe-inline': the client styles elements through the CSSOM only (the
            # view library's ``style`` property), which the policy does not govern.
            "style-src 'self'",
            # data: for the pages' empty icon (``href="data:,"``), which spares a request.
            "img-src 'self' data:",
            # 'self' covers the page's WebSocket (ws: or wss: to the same host) too.
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer, and ``HEAD`` as ``GET``
    without the body (status, headers and Content-Length as the ``GET`` would send)."""

    def __init__(self, app: ASGIApp, pages: Path) -> None:
        self.app = app
        policy = content_security_policy(pages)
        self.headers: list[tuple[bytes, bytes]] = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            # Without the extension that would have the server send a file's body itself.
            extensions = dict(scope.get("extensions") or {})
            extensions.pop("http.response.pathsend", None)
            scope = dict(scope, method="GET", extensions=extensions)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in names]
                message = dict(message, headers=[*message.get("headers", []), *extra])
            elif message["type"] == "http.response.body" and head:
                message = dict(message, body=b"")
            await send(message)

        await self.app(scope, receive, with_headers)
