"""Reading President moves from text (PRE-30/31).

Cards are rank + suit (``Ts``, ``10h``, ``Q♥``), the joker ``Jk``; a joker
standing in for a card says which (``Jk=5h``). A play lists its cards in any
order; ``str(move)`` lists them low to high in the game's normal order.
Other moves: ``pass`` and, during the tax, ``give 3c 4d``.
"""

from __future__ import annotations

from shedkit.core.errors import InvalidMoveError
from shedkit.president.actions import Tables
from shedkit.president.combos import FACE_CHARS, JOKER, PASS, SUIT_CHARS, Move

__all__ = ["parse_card", "parse_cards", "parse_move"]

_SUITS = {"s": 0, "h": 1, "d": 2, "c": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_MAX_TEXT = 300


def parse_card(token: str) -> int:
    """Read one card (``Ts``, ``10h``, ``Q♥``, ``Jk``)."""
    t = token.strip()
    if t.lower() == "jk":
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise InvalidMoveError(
            f"{token!r} is not a card; write rank + suit like 7c, Th, 10h, Q♥, or Jk"
        )
    face = FACE_CHARS.find(t[0].upper())
    suit = _SUITS.get(t[1].lower(), -1)
    if face < 0:
        raise InvalidMoveError(f"{t[0]!r} in {token!r} is not a rank (A 2 … 9 T J Q K)")
    if suit < 0:
        raise InvalidMoveError(f"{t[1]!r} in {token!r} is not a suit (s h d c or ♠ ♥ ♦ ♣)")
    return 4 * face + suit


def parse_cards(text: str) -> list[int]:
    """Read cards separated by spaces or commas."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def parse_move(text: object, tables: Tables) -> Move:
    """Return the move ``text`` names; raise `InvalidMoveError` if it names none."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidMoveError(f"move text too long ({len(text)} characters)")
    s = text.strip()
    low = s.lower()
    if low in ("pass", "p"):
        return PASS
    if low.startswith("give"):
        cards = tuple(sorted(parse_cards(s[4:])))
        move = tables.by_key.get(("give", cards, -1))
        if move is None:
            raise InvalidMoveError(f"{text!r}: give one or two different cards, e.g. give 3c 4d")
        return move
    real: list[int] = []
    joker = False
    declared = -1
    for token in s.replace(",", " ").split():
        head, eq, tail = token.partition("=")
        card = parse_card(head)
        if card == JOKER:
            if joker:
                raise InvalidMoveError(f"{text!r}: there is only one joker")
            joker = True
            if eq:
                declared = parse_card(tail)
                if declared == JOKER:
                    raise InvalidMoveError(f"{text!r}: the joker cannot stand for itself")
        elif eq:
            raise InvalidMoveError(f"{token!r}: only the joker says which card it stands for")
        else:
            real.append(card)
    if not real and not joker:
        raise InvalidMoveError("empty move; type cards such as 7c 7h, or pass")
    cards = (*sorted(real), JOKER) if joker else tuple(sorted(real))
    if len(set(cards)) != len(cards):
        raise InvalidMoveError(f"{text!r} names a card twice")
    if declared >= 0 and declared in real:
        raise InvalidMoveError(
            f"{text!r}: the joker cannot stand for {_card_text(declared)}, "
            "which is already in this play (PRE-16)"
        )
    if cards == (JOKER,):
        return (
            tables.by_key[("single", cards, -1)]
            if ("single", cards, -1) in tables.by_key
            else _unknown(text)
        )
    faces = {c // 4 for c in real}
    kind_by_size = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
    if len(faces) == 1 and (declared < 0 or declared // 4 in faces) and len(cards) in kind_by_size:
        joker_as = -1
        if joker and declared >= 0:
            joker_as = declared  # PRE-16: the card its player names is kept
        elif joker:
            # Unnamed in a set: the suit changes nothing in play, so the lowest free one.
            face = next(iter(faces))
            used = {c % 4 for c in real}
            joker_as = 4 * face + min(x for x in range(4) if x not in used)
        move = tables.by_key.get((kind_by_size[len(cards)], cards, joker_as))
        return move if move is not None else _unknown(text)
    if joker and declared < 0:
        declared = _only_gap(real, tables)
    move = tables.by_key.get(("run", cards, declared if joker else -1))
    return move if move is not None else _unknown(text)


def _only_gap(real: list[int], tables: Tables) -> int:
    """The card a joker must stand for in a run with one gap inside; else ask."""
    suits = {c % 4 for c in real}
    if len(suits) == 1:
        suit = suits.pop()
        positions = sorted(tables.position[c // 4] for c in real)
        gaps = [p for p in range(positions[0], positions[-1] + 1) if p not in positions]
        if len(gaps) == 1 and len(positions) >= 2:
            return 4 * tables.sequence[gaps[0]] + suit
    raise InvalidMoveError("say which card the joker stands for in a run, e.g. 4h Jk=5h 6h")


def _card_text(card: int) -> str:
    return FACE_CHARS[card // 4] + SUIT_CHARS[card % 4]


def _unknown(text: str) -> Move:
    raise InvalidMoveError(
        f"{text!r} is not a President combination (one card, two to four of a rank, "
        "or a run of three or more of one suit)"
    )


__all__ += ["FACE_CHARS", "SUIT_CHARS"]
