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
from shedkit.protocol.payments import tiengow_payments
from shedkit.tiengow.combos import KIND_NAMES as TG_NAMES
from shedkit.tiengow.combos import KIND_RANK as TG_RANK
from shedkit.tiengow.combos import KIND_SUIT as TG_SUIT
from shedkit.tiengow.combos import KIND_TILES as TG_KIND_TILES
from shedkit.tiengow.combos import TILE_KIND as TG_TILE_KIND
from shedkit.tiengow.view import View as TienGowView

__all__ = [
    "HIDDEN_FOR_GOOD",
    "SERIALIZERS",
    "Json",
    "cards_json",
    "public_hands",
    "public_record",
    "serialize_view",
]

Json = dict[str, Any]
Serializer = Callable[[Any], Json]


def _tail(history: list[Json], n: int) -> list[Json]:
    """The last ``n`` moves of ``history`` (none for 0)."""
    return history[len(history) - n :] if n else []


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
    # The trick in progress is the tail of the history (passes included), and so is the
    # trick just ended until the next move.
    trick = history[len(history) - len(view.trick) :] if view.trick else []
    finished = _tail(history, len(view.finished_trick))
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
        "finished_trick": finished,
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


def _pre_exchanges(view: PresidentView) -> list[Json]:
    """The tax's exchanges, both ways: who gives whom how many cards, and for the two seats
    of an exchange (PRE-20, PRE-21) the cards that passed between them.

    ``taken``: the cards the giver took from the receiver at the deal (drawn at random, or
    with ``tax_style = "best"`` the receiver's best, handed over by themselves); ``given``:
    the cards the giver chose and gave back, once given. Both are ``None`` for every other
    seat, which sees the counts only.
    """
    drawn, lost = list(view.tax_drawn), list(view.tax_lost)
    out: list[Json] = []
    for i, (giver, receiver, count) in enumerate(view.exchanges):
        x: Json = {"giver": giver, "receiver": receiver, "count": count}
        if view.seat in (giver, receiver):
            # A seat's draws (or losses) are listed exchange by exchange, `count` each.
            pool = drawn if view.seat == giver else lost
            x["taken"] = _pre_cards(pool[:count])
            del pool[:count]
            gave = view.history[i] if i < min(view.tax_step, len(view.history)) else None
            given = gave is not None and gave[1].kind == "give"
            x["given"] = _pre_cards(gave[2]) if gave is not None and given else None
        else:
            x["taken"] = x["given"] = None
        out.append(x)
    return out


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
        "exchanges": _pre_exchanges(view),
        "tax_step": view.tax_step,
        # PRE-20 "drawn" (cards drawn at random) or PRE-21 "best" (the loser's best cards):
        # tax_drawn/tax_lost are the cards this seat took or lost either way.
        "tax_style": view.options.tax_style,
        "tax_drawn": _pre_cards(view.tax_drawn),
        "tax_lost": _pre_cards(view.tax_lost),
        "trick": trick,
        # The trick just ended (PRE-09), kept until the next move: the history's tail.
        "finished_trick": _tail(history, len(view.finished_trick)),
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


_TG_SUITS: Final = ("civil", "military")
#: The tiles of each kind, lowest id first: a play's j-th tile of a kind is drawn as its j-th.
_TG_COPIES: Final = tuple(
    tuple(t for t in range(32) if TG_KIND_TILES[k] >> t & 1) for k in range(len(TG_NAMES))
)


def _tg_tile(tile: int) -> Json:
    """A Tien Gow tile: its key is its kind (the two copies of a civil tile play alike, TG-01),
    ``s`` its suit, ``r`` its rank in the suit (higher is stronger, TG-05, TG-06)."""
    kind = TG_TILE_KIND[tile]
    return {
        "c": tile,
        "t": TG_NAMES[kind],
        "k": kind,
        "s": _TG_SUITS[TG_SUIT[kind]],
        "r": TG_RANK[kind],
    }


def _tg_kinds(kinds: Sequence[int]) -> list[Json]:
    """A play's tiles by kind: which copy of a civil tile a seat played is never told."""
    seen: dict[int, int] = {}
    out = []
    for k in kinds:
        j = seen.get(k, 0)
        seen[k] = j + 1
        out.append(_tg_tile(_TG_COPIES[k][min(j, len(_TG_COPIES[k]) - 1)]))
    return out


def _tg_play(seat: int, move: Any, lead: bool) -> Json:
    """One move: another seat's face-down discard has no tiles, only ``size`` (TG-25, TG-82)."""
    return {
        "seat": seat,
        "move": str(move),
        "kind": move.kind,
        "size": move.size,
        "cards": _tg_kinds(move.kinds),
        "hidden": move.hidden,
        "lead": lead,
    }


def _tiengow(view: TienGowView) -> Json:
    """Tien Gow: hand, the trick, units won, face-down discards as counts, banker and payments.

    A seat's own discards show their tiles to that seat; every other seat's discards are
    counts (``hidden``), never tiles (TG-25), unless ``discards_exposed`` (TG-54). The
    entry that ends a trick names its ``winner``; ``finished_trick`` is the trick just
    won until the next lead.
    """
    n = view.num_players
    history = [_tg_play(s, m, i % n == 0) for i, (s, m, _) in enumerate(view.history)]
    for i, (_, winner, _) in enumerate(view.tricks):
        if (i + 1) * n <= len(history):
            history[(i + 1) * n - 1]["winner"] = winner
    trick = history[len(history) - len(view.trick) :] if view.trick else []
    seat = view.seat
    lead = view.trick[0][1] if view.trick else None
    # TG-28: the seat to move may not beat this last single tile.
    early_death = (
        seat is not None
        and seat == view.current_player
        and lead is not None
        and view.options.early_death
        and lead.size == 1
        and view.tiles_left[seat] == 1
        and view.units[seat] == 0
    )
    return {
        "game": "tiengow",
        "seat": seat,
        "num_players": n,
        "phase": view.phase,
        "current_player": view.current_player,
        "is_over": view.is_over,
        "hand": [_tg_tile(t) for t in view.hand],
        "cards_left": list(view.tiles_left),
        "banker": view.banker,
        "banker_streak": view.banker_streak,
        "multiplier": view.multiplier,
        "direction": view.direction,
        "leader": view.leader,
        "trick": trick,
        "finished_trick": _tail(history, n) if not view.trick else [],
        "high_player": view.high_player if view.trick else None,
        "captured": view.captured,
        "units": list(view.units),
        "discarded": list(view.discarded),
        "tricks": [{"leader": ld, "winner": w, "size": size} for ld, w, size in view.tricks],
        "history": history,
        "legal": [{"m": str(m), "k": list(m.kinds), "kind": m.kind} for m in view.legal_moves],
        "early_death": early_death,
        "discards_exposed": view.options.discards_exposed,
        "bonus": list(view.bonus),
        "special": None
        if view.special is None
        else {"seat": view.special[0], "factor": view.special[1]},
        "special_hand": [_tg_tile(t) for t in view.special_hand],
        "winner": view.winner,
        "returns": list(view.returns),
        "payments": tiengow_payments(view),
    }


#: Games whose face-down moves stay hidden for good, the deal over too (TG-25): a finished
#: deal of theirs is shown as anyone at the table may know it (`public_record`,
#: `public_hands`), and its seed is never published (it would deal the hands again).
HIDDEN_FOR_GOOD: Final = frozenset({"tiengow"})


def public_record(final: Any) -> Json:
    """The record of the finished deal ``final`` as anyone may know it (a game of
    `HIDDEN_FOR_GOOD`): no seed, no hands, the moves as a spectator saw them (another
    seat's discard as ``discard ?? ??``, TG-82). It cannot be replayed."""
    full = final.record()
    public = final.view(None)
    setup = {k: v for k, v in full["setup"].items() if k != "hands"}
    return {
        "game": full["game"],
        "version": full["version"],
        "preset": full["preset"],
        "options": full["options"],
        "public": True,
        "setup": setup,
        "moves": [str(move) for _, move, _ in public.history],
        **{k: full[k] for k in ("units", "winner", "special", "returns") if k in full},
    }


def public_hands(final: Any, step: int) -> list[list[Json]]:
    """Each seat's hand after ``step`` moves of the finished deal ``final``, as anyone may know
    it once the deal is over: the tiles the seat plays face up later (a tile stays in its
    owner's hand until played), and a back (``{"c", "back": true}``) for each tile it lays
    face down later, whose identity is never told (TG-25)."""
    public = final.view(None)
    hands: list[list[Json]] = []
    for seat in range(final.num_players):
        if public.special is not None and public.special[0] == seat:
            hands.append([_tg_tile(t) for t in public.special_hand])  # shown to all (TG-64)
            continue
        kinds: list[int] = []
        held = public.tiles_left[seat]
        for who, move, _ in public.history[step:]:
            if who == seat:
                held += move.size
                if not move.hidden:
                    kinds += move.kinds
        tiles = _tg_kinds(sorted(kinds))
        hands.append(tiles + [{"c": 32 + j, "back": True} for j in range(held - len(kinds))])
    return hands


#: Serialisers by game name; a new game adds one entry (and a renderer in the client).
SERIALIZERS: Final[dict[str, Serializer]] = {
    "doudizhu": _doudizhu,
    "president": _president,
    "dominoes": _dominoes,
    "tiengow": _tiengow,
}


def cards_json(game_name: str, cards: Sequence[int], max_pips: int = 6) -> list[Json]:
    """Cards (tiles in Dominoes, of the double-``max_pips`` set) as the web client gets them."""
    if game_name == "doudizhu":
        return _ddz_cards(cards)
    if game_name == "president":
        return _pre_cards(cards)
    if game_name == "dominoes":
        return _dom_tiles(cards, max_pips)
    if game_name == "tiengow":
        return [_tg_tile(t) for t in cards]
    raise ValueError(f"the server has no serialiser for game {game_name!r}")


def serialize_view(game_name: str, view: Any) -> Json:
    """The JSON of ``view`` (a seat's or a spectator's) of a game named ``game_name``."""
    try:
        serializer = SERIALIZERS[game_name]
    except KeyError:
        raise ValueError(f"the server has no serialiser for game {game_name!r}") from None
    return serializer(view)
