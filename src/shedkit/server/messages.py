"""A client's message, from text to a checked JSON object, and the errors it may earn.

Every socket's text goes through `parse` before its room acts on it: the connection's
rate, the size, JSON itself and every string and number in it (`check_json`). A problem
is answered on the connection and counted; the room never sees that message.
"""

from __future__ import annotations

import json

from shedkit.protocol.views import Json
from shedkit.server.connection import MAX_MESSAGE, Connection
from shedkit.server.errors import ServerError, error_message
from shedkit.server.inputs import check_json
from shedkit.server.ports import Counters

__all__ = ["parse"]


def parse(conn: Connection, raw: str, counters: Counters) -> Json | None:
    """The message ``raw`` as a checked JSON object, or None once refused on ``conn``."""
    if not conn.allow():
        counters.errors += 1
        if not conn.flood_warned:
            conn.flood_warned = True
            slow = ServerError(
                "rate_limited", "too many messages; slow down", data={"reason": "messages"}
            )
            conn.post(error_message(slow))
        return None
    problem: ServerError | None = None
    message: object = None
    if len(raw) > MAX_MESSAGE:
        text = f"messages are at most {MAX_MESSAGE} characters"
        problem = ServerError("too_large", text, data={"limit": MAX_MESSAGE})
    else:
        try:
            message = json.loads(raw)
        except ValueError:
            problem = ServerError("bad_json", "the message is not JSON")
        except RecursionError:
            problem = ServerError("bad_json", "the message is nested too deeply")
    if problem is None and not isinstance(message, dict):
        problem = ServerError("bad_message", "a message is a JSON object with a 'type'")
    if problem is None:
        try:
            # The one door for WebSocket input: every string and number of the message.
            check_json(message, "message")
        except ServerError as err:
            problem = err
    if problem is not None or not isinstance(message, dict):
        counters.errors += 1
        conn.post(error_message(problem or ServerError("bad_message", "not an object")))
        return None
    return message
