"""Reading Tien Gow tiles and moves from text (TG-80, TG-81, TG-82).

A tile is ``a-b`` (``1-3``); input also takes ``b-a``, ``[a|b]`` and ``a|b``.
A face-up play lists its tiles in any order (``4-5 6-6``); ``str(move)`` writes
them in TG-81 order (``6-6 4-5``). A discard is ``discard`` and its tiles;
``discard ?? ??``, another seat's discard as a view shows it, is no move one
can make.
"""

from __future__ import annotations

import re

from shedkit.core.errors import InvalidMoveError
from shedkit.tiengow.actions import Tables
from shedkit.tiengow.combos import CIVIL_KINDS, KIND_NAMES, Move, kinds_text, pack

__all__ = ["parse_kind", "parse_kinds", "parse_move"]

_MAX_TEXT = 200
_TILE = re.compile(r"^(?:\[\s*(\d)\s*[-|]\s*(\d)\s*\]|(\d)\s*[-|]\s*(\d))$")
_KIND_OF = {name: k for k, name in enumerate(KIND_NAMES)}


def parse_kind(text: str) -> int:
    """Read one tile (``1-3``, ``3-1``, ``[1|3]``) as its kind."""
    match = _TILE.match(text.strip())
    if match is None:
        raise InvalidMoveError(f"{text!r} is not a tile; write it as a-b, like 1-3 or [1|3]")
    a, b = (int(match[1]), int(match[2])) if match[1] else (int(match[3]), int(match[4]))
    kind = _KIND_OF.get(f"{min(a, b)}-{max(a, b)}")
    if kind is None:
        raise InvalidMoveError(
            f"{text!r} is not a tile of the Chinese set (DOM-30): it has no blank and "
            "only 1-1 … 6-6 with 1-2 … 5-6 as listed there"
        )
    return kind


def parse_kinds(text: str) -> list[int]:
    """Read tiles separated by spaces or commas (``"6-6 4-5 [1|2]"``) as kinds."""
    spaced = re.sub(r"\]\s*\[", "] [", text.replace(",", " "))
    # A stray bracket is a token of its own, so it is refused rather than dropped.
    tokens = re.findall(r"\[[^\]]*\]|[^\s\[\]]+|[\[\]]", spaced)
    return [parse_kind(tok) for tok in tokens]


def parse_move(text: object, tables: Tables) -> Move:
    """Return the move ``text`` names; raise `InvalidMoveError` if it names none."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidMoveError(f"move text too long ({len(text)} characters)")
    s = text.strip()
    low = s.lower()
    discard = low.startswith("discard")
    body = s[len("discard") :] if discard else s
    if discard and "?" in body:
        raise InvalidMoveError(
            f"{text!r}: a discard names its tiles, e.g. discard 2-2 1-5; "
            "'??' is how other seats see it (TG-82)"
        )
    kinds = sorted(parse_kinds(body))
    if not kinds:
        raise InvalidMoveError(
            "empty move; type tiles such as 6-6 4-5, or discard and the tiles to lay face down"
        )
    if any(kinds.count(k) > (2 if k < CIVIL_KINDS else 1) for k in set(kinds)):
        raise InvalidMoveError(
            f"{text!r}: the set has two of each civil tile and one of each military tile (TG-01)"
        )
    need = pack(kinds)
    if discard:
        move = tables.discard_by_need.get(need)
        if move is None:
            raise InvalidMoveError(
                f"{text!r}: a discard has as many tiles as a trick can have, 1 to "
                f"{tables.max_size} under these options (TG-21)"
            )
        return move
    move = tables.play_by_need.get(need)
    if move is None:
        raise InvalidMoveError(
            f"{kinds_text(kinds)!r} is not a combination under these options (TG-11, TG-50); "
            "to lay tiles face down write discard and the tiles"
        )
    return move
