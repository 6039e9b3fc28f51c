"""What a seat may say at a table: free text, a quick phrase or an emote, by its code.

A quick phrase or an emote travels as a code (one of `QUICK_PHRASES`, `EMOTES`): each
client words a phrase in its own language (``table.quick.phrase.<code>`` in the
catalogues) and draws an emote.
"""

from __future__ import annotations

from typing import Any, Final

from shedkit.server.errors import ServerError

__all__ = ["CHAT_KEPT", "EMOTES", "MAX_CHAT", "QUICK_PHRASES", "said"]

#: Characters in a chat line.
MAX_CHAT: Final = 300
#: Chat lines a table keeps (and sends to a new connection).
CHAT_KEPT: Final = 50
QUICK_PHRASES: Final = (
    "well_played",
    "good_luck",
    "hurry_up",
    "thanks",
    "oops",
    "nice_bomb",
    "good_game",
    "one_more",
)
EMOTES: Final = ("thumbs_up", "laugh", "wow", "sad", "fire", "clap")


def said(text: Any, phrase: Any = None, emote: Any = None) -> dict[str, str]:
    """The one thing a chat message says (``{"text"|"phrase"|"emote": …}``), or an error."""
    if sum(v is not None for v in (text, phrase, emote)) > 1:
        raise ServerError("bad_message", "a chat message has one of 'text', 'phrase' or 'emote'")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in QUICK_PHRASES:
            raise ServerError(
                "bad_phrase",
                f"unknown quick phrase; valid: {', '.join(QUICK_PHRASES)}",
                data={"valid": list(QUICK_PHRASES)},
            )
        return {"phrase": phrase}
    if emote is not None:
        if not isinstance(emote, str) or emote not in EMOTES:
            raise ServerError(
                "bad_emote",
                f"unknown emote; valid: {', '.join(EMOTES)}",
                data={"valid": list(EMOTES)},
            )
        return {"emote": emote}
    if not isinstance(text, str) or not text.strip():
        raise ServerError("bad_message", "a chat message needs 'text'")
    if len(text) > MAX_CHAT:
        raise ServerError(
            "too_long", f"chat lines are at most {MAX_CHAT} characters", data={"limit": MAX_CHAT}
        )
    return {"text": text.strip()}
