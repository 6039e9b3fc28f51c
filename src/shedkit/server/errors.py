"""The server's one kind of refusal, with a stable code for clients and tests."""

from __future__ import annotations

import json
import re
from typing import Any, Final

from shedkit.core.errors import ShedkitError

__all__ = [
    "ID_SHAPE",
    "ServerError",
    "create_rate_error",
    "error_message",
    "not_found",
    "quota_error",
    "try_again",
]


#: The shape of an id or token the server hands out.
ID_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


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


def try_again(why: str = "this table is moving to another server") -> ServerError:
    """``try_again`` (503): the table cannot be reached just now; the client retries."""
    return ServerError("try_again", f"{why}; try again", 503, {})


def not_found(table_id: str) -> ServerError:
    """``not_found`` (404): no open table ``table_id`` (shown only if it has an id's shape)."""
    shown = table_id if ID_SHAPE.fullmatch(str(table_id)) else "?"
    return ServerError("not_found", f"no table {shown!r}", 404, {"table": shown})


def quota_error(limit: int) -> ServerError:
    """``quota`` (429): the client already has ``limit`` open tables."""
    return ServerError(
        "quota",
        f"you already have {limit} open tables here; finish or leave one first",
        429,
        {"limit": limit},
    )


def create_rate_error(per_minute: float) -> ServerError:
    """``rate_limited`` (429): more than ``per_minute`` new tables a minute."""
    return ServerError(
        "rate_limited",
        f"at most {per_minute:g} new tables a minute; wait a little",
        429,
        {"per_minute": per_minute, "reason": "create"},
    )


def error_message(err: ServerError, ref: Any = None) -> str:
    """The WebSocket ``error`` message of ``err``, answering the message ``ref`` if given.

    Plain ``json``: ``ref`` echoes a client's id, which may be an integer past 64 bits.
    """
    out: dict[str, Any] = {"type": "error", **err.body()}
    if ref is not None:
        out["ref"] = ref
    return json.dumps(out)
