"""The server's one kind of refusal, with a stable code for clients and tests."""

from __future__ import annotations

from typing import Any

from shedkit.core.errors import ShedkitError

__all__ = ["ServerError"]


class ServerError(ShedkitError):
    """A request the server refuses; ``code`` is a stable word for clients and tests.

    ``data`` holds the facts a person needs to read the error in their language (a
    limit, a seat, a name); clients put them into their own message for ``code``. A
    ``reason`` in it tells apart the cases one code covers.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, data: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.data = data
