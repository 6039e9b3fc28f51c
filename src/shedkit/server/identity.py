"""Who a request or a socket comes from: its browser (the ``sk_client`` cookie) and its address.

The quotas and caps count both: a cookie can be forged or dropped, an address is shared
by the people behind one router. Behind a reverse proxy the address is what uvicorn's
``--forwarded-allow-ips`` lets the proxy say.
"""

from __future__ import annotations

from typing import Final

from starlette.requests import HTTPConnection

__all__ = ["CLIENT_COOKIE", "address_of", "client_of"]

#: The cookie that names a browser (set by the pages, read by the routes and sockets).
CLIENT_COOKIE: Final = "sk_client"


def address_of(request: HTTPConnection) -> str:
    """The address a request or socket comes from, as ``a:<host>``."""
    return "a:" + (request.client.host if request.client else "")


def client_of(request: HTTPConnection) -> str:
    """The browser a request or socket comes from: its cookie, else its address."""
    cookie = request.cookies.get(CLIENT_COOKIE)
    if cookie and len(cookie) <= 64:
        return "c:" + cookie
    return address_of(request)
