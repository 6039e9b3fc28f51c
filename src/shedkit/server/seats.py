"""A table's seats: who holds each, the bot that stands in, and the names people take."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from shedkit.protocol.views import Json
from shedkit.server.errors import ServerError
from shedkit.server.inputs import check_text

__all__ = ["MAX_NAME", "SeatInfo", "clean_name", "digest"]

MAX_NAME: Final = 24


def digest(token: str) -> str:
    """What is kept of a seat token or a client id: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class SeatInfo:
    """A seat: the human holding it (name and token hash), or none; the bot that stands in."""

    bot: str
    human: bool = True
    name: str | None = None
    token_hash: str | None = None
    away: bool = False
    connections: int = 0
    # Mid-deal, a seat its player left stays theirs alone (by token) until the deal ends.
    reserved: str | None = None
    client: str | None = None
    timeouts: int = 0
    # The player holding the seat said it is a program (``"bot": true`` when joining).
    program: bool = False

    @property
    def bot_plays(self) -> bool:
        """True when the bot moves for this seat: nobody holds it, or its player is away."""
        return self.token_hash is None or self.away

    def to_data(self) -> Json:
        """The stored form (the token only as a hash)."""
        return {
            "bot": self.bot,
            "human": self.human,
            "name": self.name,
            "token_hash": self.token_hash,
            "reserved": self.reserved,
            "client": self.client,
            "program": self.program,
        }

    @classmethod
    def from_data(cls, data: Json) -> SeatInfo:
        """A seat from its stored form."""
        return cls(
            bot=data["bot"],
            human=data["human"],
            name=data["name"],
            token_hash=data["token_hash"],
            reserved=data.get("reserved"),
            client=data.get("client"),
            program=bool(data.get("program", False)),
        )

    def public(self) -> Json:
        """What every client sees of the seat."""
        return {
            "name": self.name,
            "bot": self.bot,
            "human_seat": self.human,
            "taken": self.token_hash is not None,
            "away": self.away,
            "connected": self.connections > 0,
            "bot_plays": self.bot_plays,
            "timeouts": self.timeouts,
            # A bot program holds the seat like a player (shedkit bot connect).
            "is_bot": self.token_hash is not None and self.program,
        }


def clean_name(name: Any) -> str:
    """A display name in NFKC without control or format characters, spaces collapsed."""
    if not isinstance(name, str):
        raise ServerError("bad_name", "a display name is text")
    check_text(name, "name")
    if len(name) > 4 * MAX_NAME:
        raise ServerError(
            "bad_name", f"a display name has 1…{MAX_NAME} characters", data={"max": MAX_NAME}
        )
    normal = unicodedata.normalize("NFKC", name)
    kept = "".join(ch for ch in normal if unicodedata.category(ch) not in ("Cc", "Cf", "Co"))
    clean = " ".join(kept.split())
    if not 1 <= len(clean) <= MAX_NAME:
        raise ServerError(
            "bad_name", f"a display name has 1…{MAX_NAME} characters", data={"max": MAX_NAME}
        )
    return clean
