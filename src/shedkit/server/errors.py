"""The server's one kind of refusal, with a stable code for clients and tests."""

from __future__ import annotations

import json
from typing import Any

from shedkit.core.errors import ShedkitError

__all__ = ["ServerError", "error_message"]


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

    def body(self) -> dict[str, Any]:
        """``{"code", "message", "data"?}``: the error as HTTP answers and sockets send it."""
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.data is not None:
            out["data"] = self.data
        return out


def error_message(err: ServerError, ref: Any = None) -> str:
    """The WebSocket ``error`` message of ``err``, answering the message ``ref`` if given.

    Plain ``json``: ``ref`` echoes a client's id, which may be an integer past 64 bits.
    """
    out: dict[str, Any] = {"type": "error", **err.body()}
    if ref is not None:
        out["ref"] = ref
    return json.dumps(out)
