"""JSON of views, one serialiser per game: the only game data the web client and bots receive.

Every card is sent as ``{"c": id, "t": text, "k": key}``: ``k`` is what a move
is made of in that game (the rank in Dou Di Zhu, where moves name ranks; the
card itself in President), so the client can match a selection of cards to a
legal move without knowing any rule. Every legal move is ``{"m": notation,
"k": [keys]}``; a move with no keys (pass, a bid) is a button.

A serialiser reads only the seat's `view`, so a message built from it
can hold no card that seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from shedkit.dominoes.combos import END_NAMES
from shedkit.dominoes.combos import tile_str as dom_tile_str
from shedkit.dominoes.view import View as DominoesView
from shedkit.doudizhu.combos import RANK_CHARS as DDZ_RANKS
from shedkit.doudizhu.combos import card_rank as ddz_rank
from shedkit.doudizhu.combos import card_str as ddz_card_str
from shedkit.doudizhu.view import View as DouDizhuView
from shedkit.president.combos import FACE_CHARS, JOKER
from shedkit.president.combos import card_str as pre_card_str
from shedkit.president.rules import TITLES as PRE_TITLES
from shedkit.president.rules import title as pre_title
from shedkit.president.view import View as PresidentView

__all__ = ["SERIALIZERS", "Json", "cards_json", "serialize_view"]

Json = dict[str, Any]
Serializer = Callable[[Any], Json]


def _ddz_card(card: int) -> Json:
    return {"c": card, "t": ddz_card_str(card), "k": ddz_rank(card)}


def _ddz_cards(cards: Sequence[int]) -> list[Json]:
    return [_ddz_card(c) for c in cards]


def _ddz_bid(move: Any) -> Json:
    # The points of a bid, so the client names it in words ("3 points") and never as "bid3".
    return {"bid": int(str(move)[3:])} if move.kind == "bid" else {}


def _ddz_play(seat: int, move: Any, cards: Sequence[int]) -> Json:
    """One move as the client draws it: the seat, the notation, its kind and its cards."""
    return {
        "seat": seat,
        "move": str(move),
        "kind": move.kind,
        "cards": _ddz_cards(cards),
        **_ddz_bid(move),
    }


def _doudizhu(view: DouDizhuView) -> Json:
    """Dou Di Zhu: hand, counts, auction (bids, stake), multiplier, trick and history."""
    # A seat's last play: its bid during the auction, its move in the trick after (never a
    # bid left over once play has begun, nor at the end of the deal).
    last_by_seat: dict[int, str] = {}
    for seat, move in view.bids if view.phase == "auction" else view.trick:
        last_by_seat[seat] = str(move)
    history = [_ddz_play(s, m, cards) for s, m, cards in view.history]
    # The trick in progress is the tail of the history (passes included).
    trick = history[len(history) - len(view.trick) :] if view.trick else []
    return {
        "game": "doudizhu",
        "seat": view.seat,
        "num_players": view.num_players,
        "phase": view.phase,
        "current_player": view.current_player,
        "is_over": view.is_over,
        "hand": _ddz_cards(view.hand),
        "cards_left": list(view.cards_left),
        "first_bidder": view.first_bidder,
        "landlord": view.landlord,
        "kitty": None if view.kitty is None else _ddz_cards(view.kitty),
        "stake": view.stake,
        "bombs": view.bombs,
        "multiplier": view.multiplier,
        "bids": [_ddz_play(s, m, ()) for s, m in view.bids],
        "trick": trick,
        "last_play": None if view.last_play is None else str(view.last_play),
        "last_player": view.last_player,
        "last_by_seat": {str(s): m for s, m in last_by_seat.items()},
        "history": history,
        "legal": [
            {"m": str(m), "k": list(m.ranks), "kind": m.kind, **_ddz_bid(m)}
            for m in view.legal_moves
        ],
        "thrown_in": view.thrown_in,
        "winner": view.winner,
        "spring": view.spring,
        "returns": list(view.returns),
        "key_names": list(DDZ_RANKS),
    }


def _pre_card(card: int) -> Json:
    face = -1 if card == JOKER else card // 4
    return {"c": card, "t": pre_card_str(card), "k": card, "f": face}


def _pre_cards(cards: Sequence[int]) -> list[Json]:
    return [_pre_card(c) for c in cards]


_TITLE_CODES: Final = ("president", "vice_president", "citizen", "vice_slave", "slave")


def _title_code(place: int, n: int) -> str:
    return _TITLE_CODES[PRE_TITLES.index(pre_title(place, n))]


def _president(view: PresidentView) -> Json:
    """President: hand, counts, the order in force, revolution, tax, titles and the trick."""
    n = view.num_players
    last_by_seat: dict[int, str] = {}
    for seat, move in view.trick:
        last_by_seat[seat] = str(move)
    history = [
        {"seat": s, "move": str(m), "kind": m.kind, "cards": _pre_cards(cards)}
        for s, m, cards in view.history
    ]
    trick = history[len(history) - len(view.trick) :] if view.trick else []
    return {
        "game": "president",
        "seat": view.seat,
        "num_players": n,
        "phase": view.phase,
        "current_player": view.current_player,
        "is_over": view.is_over,
        "hand": _pre_cards(view.hand),
        "cards_left": list(view.cards_left),
        "leftover": _pre_cards(view.leftover),
        "dealer": view.dealer,
        "revolution": view.revolution,
        "order": [FACE_CHARS[f] for f in view.order],
        "exchanges": [{"giver": g, "receiver": r, "count": c} for g, r, c in view.exchanges],
        "tax_step": view.tax_step,
        # PRE-20 "drawn" (cards drawn at random) or PRE-21 "best" (the loser's best cards):
        # tax_drawn/tax_lost are the cards this seat took or lost either way.
        "tax_style": view.options.tax_style,
        "tax_drawn": _pre_cards(view.tax_drawn),
        "tax_lost": _pre_cards(view.tax_lost),
        "trick": trick,
        "last_play": None if view.last_play is None else str(view.last_play),
        "last_player": view.last_player,
        "last_by_seat": {str(s): m for s, m in last_by_seat.items()},
        "passed": list(view.passed),
        "finished": list(view.finished),
        "titles": {str(s): pre_title(place, n) for place, s in enumerate(view.finished)},
        # The same titles as codes for the client's catalogues (the names above are Italian).
        "title_codes": {str(s): _title_code(place, n) for place, s in enumerate(view.finished)},
        "history": history,
        "legal": [{"m": str(m), "k": list(m.cards), "kind": m.kind} for m in view.legal_moves],
        "returns": list(view.returns),
    }


def _dom_tiles(tiles: Sequence[int], max_pips: int) -> list[Json]:
    return [{"c": t, "t": dom_tile_str(t, max_pips), "k": t} for t in tiles]


def _dominoes(view: DominoesView) -> Json:
    """Dominoes: hand, tile counts, boneyard size, the line, open ends and the count."""
    opts = view.options
    pips = opts.max_pips
    last_by_seat: dict[int, str] = {}
    for seat, move, _, _ in view.history:
        last_by_seat[seat] = str(move)
    history = []
    for seat, move, drawn, points in view.history:
        # A seat's own draws show the tile drawn; other seats' draws never do.
        tile = move.tile if move.tile >= 0 else drawn
        cards = _dom_tiles([tile], pips) if tile >= 0 else []
        history.append(
            {"seat": seat, "move": str(move), "kind": move.kind, "cards": cards, "points": points}
        )
    line = view.line
    return {
        "game": "dominoes",
        "seat": view.seat,
        "num_players": view.num_players,
        "phase": view.phase,
        "current_player": view.current_player,
        "is_over": view.is_over,
        "hand": _dom_tiles(view.hand, pips),
        "cards_left": list(view.tile_counts),
        "boneyard": view.boneyard_size,
        "leader": view.leader,
        "lead_tile": None if view.lead_tile < 0 else _dom_tiles([view.lead_tile], pips)[0],
        "ends": {END_NAMES[i]: v for i, v in enumerate(view.board[:4]) if v >= 0},
        "count": view.count,
        "variant": opts.variant,
        "teams": opts.teams,
        "target": opts.target,
        "line": {
            "main": [list(t) for t in line.main],
            "spinner": line.spinner,
            "up": [list(t) for t in line.up],
            "down": [list(t) for t in line.down],
        },
        "trick": history[-view.num_players :],
        "max_pips": pips,
        "last_by_seat": {str(s): m for s, m in last_by_seat.items()},
        "history": history,
        "legal": [
            {
                "m": str(m),
                "k": [m.tile] if m.tile >= 0 else [],
                "kind": m.kind,
                # The end a play goes on, so a tile that fits two ends is played by tapping one.
                "end": END_NAMES[m.end] if m.end >= 0 else None,
            }
            for m in view.legal_moves
        ],
        "scores": list(view.scores),
        "end_reason": view.end_reason,
        "winner": view.winner,
        "pips": list(view.pips),
        "returns": list(view.returns),
    }


#: Serialisers by game name; a new game adds one entry (and a renderer in the client).
SERIALIZERS: Final[dict[str, Serializer]] = {
    "doudizhu": _doudizhu,
    "president": _president,
    "dominoes": _dominoes,
}


def cards_json(game_name: str, cards: Sequence[int], max_pips: int = 6) -> list[Json]:
    """Cards (tiles in Dominoes, of the double-``max_pips`` set) as the web client gets them."""
    if game_name == "doudizhu":
        return _ddz_cards(cards)
    if game_name == "president":
        return _pre_cards(cards)
    if game_name == "dominoes":
        return _dom_tiles(cards, max_pips)
    raise ValueError(f"the server has no serialiser for game {game_name!r}")


def serialize_view(game_name: str, view: Any) -> Json:
    """The JSON of ``view`` (a seat's or a spectator's) of a game named ``game_name``."""
    try:
        serializer = SERIALIZERS[game_name]
    except KeyError:
        raise ValueError(f"the server has no serialiser for game {game_name!r}") from None
    return serializer(view)
