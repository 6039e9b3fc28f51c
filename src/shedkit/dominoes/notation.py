"""Reading Dominoes tiles and moves from text (DOM-40, DOM-41).

A tile is ``a-b`` with ``a ≤ b`` (``3-5``); input also takes ``5-3``, ``[3|5]``
and ``3|5``. A play is tile ``@`` end (``3-5@R``; ends ``L R``, and a
spinner's cross sides ``U D``); a hand's first tile is written alone
(``6-6``). The other moves are ``draw`` and ``pass``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shedkit.core.errors import InvalidMoveError
from shedkit.dominoes.actions import Tables
from shedkit.dominoes.combos import DRAW, END_NAMES, PASS, Move, tile_index

__all__ = ["parse_move", "parse_tile", "parse_tiles"]

_MAX_TEXT = 100
_TILE = re.compile(r"^(?:\[\s*(\d{1,2})\s*[-|]\s*(\d{1,2})\s*\]|(\d{1,2})\s*[-|]\s*(\d{1,2}))$")


def parse_tile(text: str, max_pips: int = 6) -> int:
    """Read one tile (``3-5``, ``5-3``, ``[3|5]``) of the double-``max_pips`` set."""
    match = _TILE.match(text.strip())
    if match is None:
        raise InvalidMoveError(f"{text!r} is not a tile; write it as a-b, like 3-5 or [3|5]")
    a, b = (int(match[1]), int(match[2])) if match[1] else (int(match[3]), int(match[4]))
    if a > max_pips or b > max_pips:
        raise InvalidMoveError(f"{text!r}: the double-{max_pips} set has halves 0 to {max_pips}")
    return tile_index(a, b, max_pips)


def parse_tiles(text: str, max_pips: int = 6) -> list[int]:
    """Read tiles separated by spaces or commas (``"6-6 3-5 [1|2]"``)."""
    spaced = re.sub(r"\]\s*\[", "] [", text.replace(",", " "))
    return [parse_tile(tok, max_pips) for tok in re.findall(r"\[[^\]]*\]|[^\s\[\]]+", spaced)]


def parse_move(text: object, tables: Tables, legal: Sequence[Move] | None = None) -> Move:
    """Return the move ``text`` names; raise `InvalidMoveError` if it names none.

    With ``legal``, the moves legal once the first tile is down, a tile written
    alone means its only legal play (``3-5`` for ``3-5@R`` when only ``R`` fits).
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidMoveError(f"move text too long ({len(text)} characters)")
    s = text.strip()
    low = s.lower()
    if low == "pass":
        return PASS
    if low == "draw":
        return DRAW
    if not s:
        raise InvalidMoveError("empty move; type a tile such as 3-5@R, or draw, or pass")
    head, at, end_text = s.partition("@")
    tile = parse_tile(head, tables.max_pips)
    if not at:
        if legal is not None:
            fits = [m for m in legal if m.tile == tile]
            if len(fits) == 1:
                return fits[0]
            ends = " or ".join(f"{tables.names[tile]}@{END_NAMES[e]}" for e in range(2))
            raise InvalidMoveError(
                f"{text!r}: say on which end to play it, e.g. {ends} (DOM-41)"
                if fits
                else f"{text!r}: {tables.names[tile]} is not a legal play now"
            )
        return tables.leads[tile]
    name = end_text.strip().upper()
    if len(name) != 1 or name not in END_NAMES:
        raise InvalidMoveError(f"{text!r}: the end after @ is one of L, R, U, D (DOM-41)")
    end = END_NAMES.index(name)
    if end >= tables.num_ends:
        raise InvalidMoveError(
            f"{text!r}: ends U and D are a spinner's cross sides, only in All Fives (DOM-22)"
        )
    return tables.play(tile, end)
