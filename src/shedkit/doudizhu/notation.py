"""Reading moves from text (DDZ-50/51).

``str(move)`` prints the canonical form: base ranks ascending, then ``+`` and the
kickers ascending (``333444+59``), ``pass``, ``bid1`` … ``bid3``. Input is more
lenient: any order, ``10`` for ``T``, lower case, spaces. When one set of cards
has several readings (DDZ-16a), the ``+`` split chooses; a reading can also be
named with a ``kind:`` prefix (``quad_pair:3333+44``), which is how the
quad-with-pair of preset ``"de-wikipedia"`` is told from a quad with two equal
solo kickers. Without a ``+``, the reading without kickers wins if there is one,
otherwise the only reading, otherwise the only reading legal now.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shedkit.core.errors import InvalidMoveError
from shedkit.doudizhu.actions import Tables
from shedkit.doudizhu.combos import KINDS, PASS, RANK_CHARS, Move

__all__ = ["parse_move", "parse_ranks"]

_MAX_TEXT = 200
_BID = re.compile(r"bid\s*(\S*)")


def parse_ranks(text: str) -> list[int]:
    """Read rank characters (``3…9 T J Q K A 2 B R``, ``10``, any case, spaces) as ranks."""
    ranks = []
    for ch in text.replace("10", "T"):
        if ch.isspace() or ch == ",":
            continue
        idx = RANK_CHARS.find(ch.upper())
        if idx < 0:
            raise InvalidMoveError(
                f"{ch!r} in {text!r} is not a rank; ranks are 3 4 5 6 7 8 9 T(10) J Q K A 2 "
                "B (black joker) R (red joker)"
            )
        ranks.append(idx)
    return ranks


def parse_move(text: object, tables: Tables, legal: Sequence[Move] | None = None) -> Move:
    """Return the move ``text`` names; raise `InvalidMoveError` if it names none.

    ``legal``, the moves legal now, settles a reading that is ambiguous otherwise.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidMoveError(f"move text too long ({len(text)} characters)")
    s = text.strip()
    if not s:
        raise InvalidMoveError("empty move; type a combination such as 77 or 333+4, or pass")
    if s.lower() in ("pass", "p"):
        return PASS
    bid = _BID.fullmatch(s.lower())
    if bid:
        if bid.group(1) not in ("1", "2", "3"):
            raise InvalidMoveError(f"{text!r}: the bids are bid1, bid2 and bid3")
        return tables.bids[int(bid.group(1)) - 1]
    kind = None
    if ":" in s:
        kind, _, s = s.partition(":")
        kind = kind.strip().lower()
        if kind not in KINDS[2:]:
            raise InvalidMoveError(
                f"unknown combination {kind!r}; combinations are {', '.join(KINDS[2:])}"
            )
    if s.count("+") > 1:
        raise InvalidMoveError(f"{text!r}: write at most one '+', before the kickers")
    base_text, plus, kick_text = s.partition("+")
    base = sorted(parse_ranks(base_text))
    kickers = sorted(parse_ranks(kick_text))
    if not base or (plus and not kickers):
        raise InvalidMoveError(f"{text!r}: no cards on one side of the move")
    candidates = tables.by_cards.get(tuple(sorted(base + kickers)), [])
    if kind is not None:
        candidates = [m for m in candidates if m.kind == kind]
    if plus:
        candidates = [m for m in candidates if list(m.base) == base and list(m.kickers) == kickers]
    else:
        plain = [m for m in candidates if not m.kickers]
        if plain:
            candidates = plain
    if not candidates:
        raise InvalidMoveError(f"{text!r} is not a Dou Di Zhu combination")
    if len(candidates) == 1:
        return candidates[0]
    canonical = [m for m in candidates if kind is None and m.kind != "quad_pair"]
    if plus and len(canonical) == 1:
        return canonical[0]
    if legal is not None:
        allowed = [m for m in candidates if m in legal]
        if len(allowed) == 1:
            return allowed[0]
    readings = ", ".join(str(m) for m in candidates)
    raise InvalidMoveError(f"{text!r} can be read several ways; write one of: {readings}")
