"""The bot protocol: newline-delimited JSON between the engine and a bot program.

One message per line, UTF-8, each a JSON object with a ``type``. The engine
sends ``hello`` once, ``act`` for each decision, ``deal_end`` after each deal
the bot sat in and ``match_end`` before it closes the bot's stdin; the bot
answers ``hello`` with ``ready`` and each ``act`` with ``move``. The document
is ``docs/bot-protocol.md``, the JSON Schema ``docs/bot-protocol.schema.json``.

>>> import shedkit
>>> game = shedkit.make("doudizhu")
>>> hello_message(game, seat=1, seed=5, move_time=5.0)["players"]
3
>>> state = game.new_deal(seed=7)
>>> act = act_message("doudizhu", state.view(state.current_player), 1)
>>> act["moves"]
['pass', 'bid1', 'bid2', 'bid3']
>>> read_answer('{"type": "move", "move": "bid2", "id": 1}', act)
'bid2'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from shedkit.core.errors import ShedkitError
from shedkit.core.options import options_to_dict
from shedkit.protocol.views import Json, serialize_view

__all__ = [
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "act_message",
    "deal_end_message",
    "hello_message",
    "match_end_message",
    "read_answer",
    "read_ready",
]

#: The version in every ``hello``; a change that breaks a bot raises it.
PROTOCOL_VERSION: Final = 1
#: Longest line a bot may write, in bytes (an answer is a few dozen).
MAX_LINE: Final = 64 * 1024


class ProtocolError(ShedkitError):
    """A bot broke the protocol: its answer is not JSON, not the message asked for, or illegal."""


def hello_message(
    game: Any, seat: int, seed: int, move_time: float | None, table: str | None = None
) -> Json:
    """The first message to a bot: the game, its options by name, the seat and the limits.

    ``table`` is the web table's id when the bot plays at one (``shedkit bot connect``).
    """
    out: Json = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "game": game.name,
        "options": options_to_dict(game.options),
        "seat": seat,
        "players": game.num_players,
        "seed": seed,
        "move_time": move_time,
    }
    if table is not None:
        out["table"] = table
    return out


def act_message(game_name: str, view: Any, request: int) -> Json:
    """A decision: the legal moves in the game's notation and the seat's view as JSON.

    The moves come first so that a bot reading the text can find them before the view.
    """
    return {
        "type": "act",
        "id": request,
        "moves": [str(m) for m in view.legal_moves],
        "view": serialize_view(game_name, view),
    }


def deal_end_message(game_name: str, view: Any, deal: int, returns: Sequence[int]) -> Json:
    """A deal is over: its number, every seat's returns and the seat's final view."""
    return {
        "type": "deal_end",
        "deal": deal,
        "returns": list(returns),
        "view": serialize_view(game_name, view),
    }


def match_end_message(deals: int, totals: Sequence[int], reason: str = "finished") -> Json:
    """The match is over (the bot should exit): the deals played and every seat's totals."""
    return {"type": "match_end", "deals": deals, "totals": list(totals), "reason": reason}


def _object(line: str) -> Json:
    try:
        data = json.loads(line)
    except ValueError:
        raise ProtocolError(f"the bot wrote a line that is not JSON: {_clip(line)!r}") from None
    except RecursionError:
        raise ProtocolError("the bot wrote JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"the bot wrote JSON that is not an object: {_clip(line)!r}")
    return data


def read_ready(line: str) -> Json:
    """Check a bot's answer to ``hello``: ``{"type": "ready"}``, optionally with a ``name``."""
    data = _object(line)
    if data.get("type") != "ready":
        raise ProtocolError(f"the bot answered hello with {_clip(line)!r}, not a 'ready' message")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise ProtocolError("the 'name' of a ready message is a string")
    return data


def read_answer(line: str, act: Json) -> str:
    """The move a bot's answer to ``act`` names: one of the strings of ``act["moves"]``."""
    data = _object(line)
    if data.get("type") != "move":
        raise ProtocolError(f"the bot answered act with {_clip(line)!r}, not a 'move' message")
    if "id" in data and data["id"] != act["id"]:
        raise ProtocolError(f"the bot answered request {data['id']!r}, not {act['id']}")
    move = data.get("move")
    if not isinstance(move, str):
        raise ProtocolError("a move message needs 'move': one of the legal moves' strings")
    if move not in act["moves"]:
        raise ProtocolError(f"the bot answered an illegal move {_clip(move)!r}")
    return move


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
