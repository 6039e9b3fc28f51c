"""What one seat may know of a Tien Gow hand, and hands consistent with it (TG-04, TG-25, TG-54).

A seat sees its own tiles, every face-up play, the units won, and how many
tiles each other seat has laid face down, never which (unless
``discards_exposed``, TG-54). Another seat's discard shows as ``discard ??``
with one ``??`` per tile (TG-82). Which copy of a civil tile another seat
played is not shown either: the copies are one tile to play (TG-01), and the
copy would tell what that seat still holds.

With ``must_follow_suit`` (TG-53) a discard on a single-tile trick says a little:
the tile is of the led suit and does not beat, or its owner holds none of the
led suit. `determinize` keeps to that.

``rules`` makes the views and so sits above this module: where a function here
needs a whole deal, it asks the game it is given (a [`Dealer`][shedkit.tiengow.view.Dealer]).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from shedkit.core.pickling import reduce_dataclass
from shedkit.tiengow.actions import Tables
from shedkit.tiengow.combos import (
    CIVIL_KINDS,
    KIND_RANK,
    KIND_SUIT,
    KIND_TILES,
    NUM_KINDS,
    SUIT_KINDS,
    TILE_KIND,
    Move,
)
from shedkit.tiengow.movegen import special_factor
from shedkit.tiengow.options import Options

__all__ = ["Dealer", "View", "determinize"]

StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)

#: Tries at a sample no other hand of which would have won at once (TG-64) before one is kept.
_SPECIAL_TRIES = 200


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a hand (``seat=None``: a spectator's).

    ``history`` holds ``(seat, move, tiles)``: the tiles only for this seat's own
    moves (another seat's face-up play is its move's kinds; its discard a count).
    ``trick`` is the trick in play as ``(seat, move)``, ``high`` its current high
    and ``high_player`` who played it; ``captured`` says a Civil Supreme was
    captured in it (TG-60). ``tricks`` lists each finished trick as ``(leader,
    winner, tiles each)``. ``units`` are the trick units won so far (TG-26),
    ``discarded`` the tiles each seat has laid face down. ``multiplier`` is the
    banker factor of this hand (TG-32). ``bonus`` holds the chips of TG-61 paid so
    far. ``special`` is ``(seat, factor)`` when a special hand ended the hand at
    once (TG-64), ``special_hand`` that hand, shown to all. ``start_leader``,
    ``start_units`` and ``out_of_play`` describe where the hand started (a
    scenario may start with tricks already won; their tiles are ``out_of_play``).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    seat: int | None
    num_players: int
    options: Options
    phase: str
    current_player: int | None
    hand: tuple[int, ...]
    tiles_left: tuple[int, ...]
    banker: int
    banker_streak: int
    multiplier: int
    direction: int
    leader: int
    trick: tuple[tuple[int, Move], ...]
    high: Move | None
    high_player: int
    captured: bool
    units: tuple[int, ...]
    discarded: tuple[int, ...]
    history: tuple[tuple[int, Move, tuple[int, ...]], ...]
    tricks: tuple[tuple[int, int, int], ...]
    start_leader: int
    start_units: tuple[int, ...]
    out_of_play: tuple[int, ...]
    bonus: tuple[int, ...]
    special: tuple[int, int] | None
    special_hand: tuple[int, ...]
    winner: int | None
    legal_moves: tuple[Move, ...]
    returns: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase == "over"

    @property
    def thrown_in(self) -> bool:
        """True if the hand was thrown in; never in this game."""
        return False


class Dealer(Protocol[StateT_co]):
    """What this module asks of the game (`TienGow`): its moves, and deals built from hands."""

    @property
    def tables(self) -> Tables:
        """The game's moves."""
        ...

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        discards: list[tuple[int, ...]],
        seed: int,
    ) -> StateT_co:
        """The hand dealt as ``hands`` and played as ``view``'s history, hidden discards
        being ``discards`` (kinds, by history index)."""
        ...


def determinize(game: Dealer[StateT], view: View, rng: random.Random) -> StateT:
    """Deal the tiles ``view`` cannot see at random; keep everything public as it is.

    The other seats' tiles in hand and their face-down discards are drawn from
    the tiles this seat has not seen; under ``must_follow_suit`` only draws in
    which every discard was allowed (TG-53) are made, and under
    ``special_hands`` draws in which another hand would have won at once
    (TG-64) are avoided.
    """
    if view.seat is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    me = view.seat
    n = view.num_players
    mine = list(view.hand)
    for who, _, tiles in view.history:
        if who == me:
            mine += tiles
    pool = [2 if k < CIVIL_KINDS else 1 for k in range(NUM_KINDS)]
    taken_ids = 0
    for t in (*mine, *view.out_of_play):
        pool[TILE_KIND[t]] -= 1
        taken_ids |= 1 << t
    # Tiles other seats are known to have held: their face-up plays and open discards,
    # and a special hand shown to all.
    known: list[list[int]] = [[] for _ in range(n)]
    for who, move, _ in view.history:
        if who != me and not move.hidden:
            known[who] += move.kinds
    shown = -1
    if view.special is not None and view.special[0] != me:
        shown = view.special[0]
        for t in view.special_hand:
            taken_ids |= 1 << t
    for s in range(n):
        for k in known[s]:
            pool[k] -= 1
    if shown >= 0:
        for t in view.special_hand:
            pool[TILE_KIND[t]] -= 1
    # The slots to fill: each other seat's tiles in hand, then each hidden discard's tiles.
    owner: list[int] = []
    entry: list[int] = []  # history index of a discard slot, -1 for a tile in hand
    for s in range(n):
        if s != me and s != shown:
            for _ in range(view.tiles_left[s]):
                owner.append(s)
                entry.append(-1)
    for i, (who, move, _) in enumerate(view.history):
        if who != me and move.hidden:
            for _ in range(move.size):
                owner.append(who)
                entry.append(i)
    items, voids = _follow_suit_constraints(view)
    kinds_pool = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    start_size = len(mine)
    check_special = view.options.special_hands and start_size == 8 and view.special is None
    picked: list[int] = []
    for _ in range(_SPECIAL_TRIES):
        if items or voids:
            picked = _constrained(owner, entry, pool, items, voids, known, view, rng)
        else:
            rng.shuffle(kinds_pool)
            picked = list(kinds_pool)
        if not check_special or not _any_special(me, owner, picked, known, n):
            break
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[me] = sorted(mine)
    if shown >= 0:
        hands[shown] = sorted(view.special_hand)
    start_kinds: list[list[int]] = [list(known[s]) for s in range(n)]
    discards: list[tuple[int, ...]] = [() for _ in view.history]
    by_entry: dict[int, list[int]] = {}
    for slot, kind in enumerate(picked):
        start_kinds[owner[slot]].append(kind)
        if entry[slot] >= 0:
            by_entry.setdefault(entry[slot], []).append(kind)
    for i, kinds in by_entry.items():
        discards[i] = tuple(sorted(kinds))
    # Tiles by kind: the copies of a civil tile not seen are handed out in any order.
    free = [KIND_TILES[k] & ~taken_ids for k in range(NUM_KINDS)]
    for s in range(n):
        if s in (me, shown):
            continue
        ids: list[int] = []
        for k in start_kinds[s]:
            low = free[k] & -free[k]
            free[k] ^= low
            ids.append(low.bit_length() - 1)
        hands[s] = sorted(ids)
    return game.deal_from(view, hands, discards, rng.randrange(2**63))


def _any_special(
    me: int, owner: list[int], picked: list[int], known: list[list[int]], n: int
) -> bool:
    """True if a sampled starting hand of another seat would have won at once (TG-64)."""
    start: list[list[int]] = [list(known[s]) for s in range(n)]
    for slot, kind in enumerate(picked):
        start[owner[slot]].append(kind)
    return any(special_factor(start[s]) for s in range(n) if s != me)


# -- must_follow_suit (TG-53) ----------------------------------------------------------


def _follow_suit_constraints(
    view: View,
) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int]]]:
    """What other seats' discards on single-tile tricks say under ``must_follow_suit``.

    Returns the hidden discards as ``(seat, history index, led suit, high rank)``:
    each was a tile of the led suit no higher than the high, or its owner held
    none of that suit; and the open discards of the other suit as ``(seat,
    history index, led suit)``: their owner held none of that suit. A player whom
    early death forbids to beat (TG-28) may discard anything.
    """
    opts = view.options
    items: list[tuple[int, int, int, int]] = []
    voids: list[tuple[int, int, int]] = []
    if not opts.must_follow_suit or view.seat is None:
        return items, voids
    me = view.seat
    units = list(view.start_units)
    size_left = len(view.hand) + sum(len(tiles) for who, _, tiles in view.history if who == me)
    lead: Move | None = None
    high: Move | None = None
    high_seat = -1
    plays = 0
    for i, (who, move, _) in enumerate(view.history):
        if plays == 0:
            lead, high, high_seat = move, move, who
            plays = 1
            continue
        assert lead is not None and high is not None
        if move.is_discard and who != me and lead.size == 1:
            forbidden = opts.early_death and size_left == 1 and units[who] == 0
            if not forbidden:
                if move.hidden:
                    items.append((who, i, lead.suit, high.rank))
                elif KIND_SUIT[move.kinds[0]] != lead.suit:
                    voids.append((who, i, lead.suit))
        if not move.is_discard:
            high, high_seat = move, who
        plays += 1
        if plays == view.num_players:
            units[high_seat] += lead.size
            size_left -= lead.size
            plays = 0
    return items, voids


def _constrained(
    owner: list[int],
    entry: list[int],
    pool: list[int],
    items: list[tuple[int, int, int, int]],
    voids: list[tuple[int, int, int]],
    known: list[list[int]],
    view: View,
    rng: random.Random,
) -> list[int]:
    """Kinds for the slots such that every discard was allowed by TG-53.

    Each hidden discard is either a low tile of the led suit (a choice on its
    own slot) or a sign its owner was void in that suit from then on (a choice
    on all that seat's later slots): both are sets of kinds a slot may take, so
    a choice is kept only while the slots can still all be filled (a matching
    of slots to the tiles left), and the slots are then filled at random among
    the fillings that remain possible.
    """
    everything = (1 << NUM_KINDS) - 1
    domains = [everything] * len(owner)
    later_known = _later_known(view)

    def void_after(domains: list[int], seat: int, index: int, suit: int) -> list[int] | None:
        """``domains`` with ``seat``'s slots after history ``index`` kept out of ``suit``."""
        for i, k in later_known[seat]:
            if i > index and KIND_SUIT[k] == suit:
                return None
        out = list(domains)
        keep = everything & ~SUIT_KINDS[suit]
        for slot in range(len(owner)):
            if owner[slot] == seat and (entry[slot] < 0 or entry[slot] > index):
                out[slot] &= keep
        return out

    for seat, index, suit in voids:
        narrowed = void_after(domains, seat, index, suit)
        if narrowed is not None:
            domains = narrowed

    def choose(i: int, domains: list[int]) -> list[int] | None:
        if not _fillable(domains, pool):
            return None
        if i == len(items):
            return domains
        seat, index, suit, high = items[i]
        low = 0
        for k in range(NUM_KINDS):
            if KIND_SUIT[k] == suit and KIND_RANK[k] <= high:
                low |= 1 << k
        same = list(domains)
        for slot in range(len(owner)):
            if entry[slot] == index:
                same[slot] &= low
        other = void_after(domains, seat, index, suit)
        if other is not None:
            for slot in range(len(owner)):
                if entry[slot] == index:
                    other[slot] &= everything & ~SUIT_KINDS[suit]
        options: list[list[int] | None] = [same, other]
        if rng.random() < 0.5:
            options.reverse()
        for option in options:
            if option is not None:
                found = choose(i + 1, option)
                if found is not None:
                    return found
        return None

    final = choose(0, domains)
    if final is None:  # no reading of the discards fits: none is kept
        final = [everything] * len(owner)
    return _fill(final, pool, rng)


def _later_known(view: View) -> list[list[tuple[int, int]]]:
    """Per seat, the kinds it played for all to see, with their history indexes."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(view.num_players)]
    for i, (who, move, _) in enumerate(view.history):
        if not move.hidden:
            for k in move.kinds:
                out[who].append((i, k))
    return out


def _fillable(domains: list[int], pool: list[int]) -> bool:
    """True if each slot can get a kind of its domain, no kind more often than ``pool`` has."""
    cap = list(pool)
    holder: list[list[int]] = [[] for _ in range(NUM_KINDS)]
    for slot in sorted(range(len(domains)), key=lambda s: domains[s].bit_count()):
        if not _augment(slot, domains, cap, holder, set()):
            return False
    return True


def _augment(
    slot: int, domains: list[int], cap: list[int], holder: list[list[int]], seen: set[int]
) -> bool:
    """Find ``slot`` a kind, moving earlier slots to other kinds if need be."""
    dom = domains[slot]
    k = 0
    while dom >> k:
        if dom >> k & 1 and k not in seen and cap[k] > len(holder[k]):
            holder[k].append(slot)
            return True
        k += 1
    k = 0
    while dom >> k:
        if dom >> k & 1 and k not in seen and cap[k] > 0:
            seen.add(k)
            for other in list(holder[k]):
                holder[k].remove(other)
                if _augment(other, domains, cap, holder, seen):
                    holder[k].append(slot)
                    return True
                holder[k].append(other)
        k += 1
    return False


def _fill(domains: list[int], pool: list[int], rng: random.Random) -> list[int]:
    """A kind for each slot within its domain, at random among the fillings left possible."""
    left = list(pool)
    out = [-1] * len(domains)
    order = list(range(len(domains)))
    rng.shuffle(order)
    open_domains = list(domains)
    for slot in order:
        tiles = [k for k in range(NUM_KINDS) if domains[slot] >> k & 1 for _ in range(left[k])]
        rng.shuffle(tiles)
        tried = 0
        for k in tiles:
            if tried >> k & 1:
                continue
            tried |= 1 << k
            left[k] -= 1
            rest = [open_domains[s] for s in range(len(domains)) if out[s] < 0 and s != slot]
            if _fillable(rest, left):
                out[slot] = k
                break
            left[k] += 1
        else:  # unreachable for domains that were fillable
            k = next(k for k in range(NUM_KINDS) if left[k] > 0)
            left[k] -= 1
            out[slot] = k
    return out
