"""Tien Gow: the game, its state, tricks, the banker and settlement (TG-01…TG-66).

>>> import shedkit
>>> game = shedkit.make("tiengow", first_banker=0)
>>> state = game.new_deal(seed=3)
>>> state.current_player  # TG-20: the banker leads the first trick
0
>>> while not state.is_over:
...     state.apply(state.legal_moves()[-1])
>>> sum(state.returns()), sum(state.units)
(0, 8)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from shedkit.core.args import is_int, seat_arg, seed_arg, view_seat_arg
from shedkit.core.bits import claim, mask_of, members
from shedkit.core.errors import IllegalMoveError, RecordError, SetupError, ShedkitError
from shedkit.core.game import GameBase
from shedkit.core.info import GameInfo
from shedkit.core.options import build_options, options_to_dict
from shedkit.core.rng import randbelow, shuffle
from shedkit.tiengow.actions import Tables, tables_for
from shedkit.tiengow.combos import (
    HIDDEN_DISCARDS,
    KIND_RANK,
    KIND_SUIT,
    KIND_TILES,
    NUM_KINDS,
    NUM_TILES,
    QUAD,
    SINGLE_CIVIL,
    SINGLE_MILITARY,
    SUIT_KINDS,
    SUPREME,
    SUPREME_KINDS,
    TILE_KIND,
    TILE_NAMES,
    WEN_SUPREME,
    Move,
    fits,
    kinds_text,
    pack,
)
from shedkit.tiengow.movegen import (
    CAPTURE_KIND,
    WEN_KIND,
    discard_moves,
    hand_counts,
    lead_moves,
    remove_kind,
    special_factor,
)
from shedkit.tiengow.notation import parse_kinds, parse_move
from shedkit.tiengow.options import PRESETS, Options
from shedkit.tiengow.view import View, determinize

__all__ = ["SetupError", "State", "TienGow", "banker_factor", "make", "settle"]

RECORD_VERSION: Final = 1
NUM_PLAYERS: Final = 4
#: Tiles each seat is dealt (TG-04) and trick units in a hand (TG-26).
HAND_SIZE: Final = 8
#: ``1-2`` and ``2-4`` (TG-62, TG-63).
YAO_KIND: Final = SUPREME_KINDS[1]
SIX_KIND: Final = SUPREME_KINDS[0]
#: What a special hand's losers pay before its factor (TG-64).
SPECIAL_PAYMENT: Final = 5

#: Per suit and high rank, the kinds of that suit that do not beat it (TG-53).
_NOT_ABOVE: Final = tuple(
    tuple(
        sum(1 << k for k in range(NUM_KINDS) if KIND_SUIT[k] == suit and KIND_RANK[k] <= rank)
        for rank in range(12)
    )
    for suit in range(2)
)

#: The tiles of each suit as a bitmask of tiles.
_SUIT_TILES: Final = tuple(
    sum(KIND_TILES[k] for k in range(NUM_KINDS) if SUIT_KINDS[suit] >> k & 1) for suit in range(2)
)


def banker_factor(opts: Options, streak: int) -> int:
    """The banker factor ``m`` of a banker in the ``streak``-th hand in a row (TG-32)."""
    if opts.banker_multiplier == "increasing":
        return streak + 1
    if opts.banker_multiplier == "fixed":
        return 2
    return 1


def settle(
    opts: Options,
    units: Sequence[int],
    winner: int,
    banker: int,
    streak: int,
    finish: int = 1,
    capturer: int = -1,
) -> list[int]:
    """Each seat's chips for a hand won by ``winner`` with these ``units`` (TG-30…34, TG-63).

    ``finish`` is the product of the finishing factors of TG-62; ``capturer``
    the leader of a captured last trick (TG-63), who pays what every loser
    owes, or -1. TG-61's bonuses are not included.
    """
    m = banker_factor(opts, streak)
    slam = all(units[s] == 0 for s in range(len(units)) if s != winner)
    out = [0] * len(units)
    owed_total = 0
    for loser in range(len(units)):
        if loser == winner:
            continue
        t = units[loser]
        with_banker = banker in (winner, loser)
        if t >= 5:
            if opts.over_par_refund:
                # TG-32: a refund the banker owes as winner is multiplied, one owed to a
                # losing banker is not.
                refund = (t - 4) * (m if banker == winner else 1)
                out[winner] -= refund
                out[loser] += refund
            continue
        base = opts.zero_trick_payment if t == 0 else 4 - t
        if base == 0:
            continue
        owed = base * (m if with_banker else 1) * finish
        if slam:
            owed *= opts.slam_multiplier
        if capturer >= 0:
            owed_total += owed
        else:
            out[loser] -= owed
            out[winner] += owed
    if capturer >= 0:
        # TG-63: the captured leader pays every loser's debt, its own included.
        owed_total *= opts.yao_capture_multiplier
        out[capturer] -= owed_total
        out[winner] += owed_total
    return out


class TienGow(GameBase[Move, "State"]):
    """The game under fixed options; makes deals and reads moves."""

    name: Final = "tiengow"
    title = "Tien Gow"

    def __init__(self, options: Options, preset: str = "standard") -> None:
        self.options = options
        self.preset = preset
        self.tables: Tables = tables_for(options)
        self.num_players = NUM_PLAYERS
        opts = options
        # Score bounds for a banker kept through a whole match of `hands` hands (TG-32, TG-41).
        m = {"increasing": opts.hands + 1, "fixed": 2, "none": 1}[opts.banker_multiplier]
        finish = max(
            opts.supreme_finish_multiplier, opts.quad_finish_multiplier, opts.yao_finish_multiplier
        )
        owed = max(opts.zero_trick_payment, 3) * m * opts.slam_multiplier * finish
        owed *= 3 * max(1, opts.yao_capture_multiplier)
        bonuses = (HAND_SIZE - 1) * 3 * max(opts.supreme_bonus, opts.quad_bonus) * m
        refunds = 3 * (HAND_SIZE - 4) * m
        special = 3 * SPECIAL_PAYMENT * 4 * m if opts.special_hands else 0
        bound = max(owed + bonuses + refunds, special + bonuses)
        self.info = GameInfo(
            name=self.name,
            num_players=NUM_PLAYERS,
            chance=True,
            hidden_information=True,
            zero_sum=True,  # TG-30
            min_score=-bound,
            max_score=bound,
            num_actions=self.tables.num_actions,
            # every move plays at least one tile of the 32 (TG-21)
            max_game_length=NUM_TILES,
            match_target=opts.target,
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by options and preset (compiled classes need it)."""
        return type(self), (self.options, self.preset)

    def __repr__(self) -> str:
        return f"<TienGow preset={self.preset!r} {self.options}>"

    def parse_move(self, text: object, state: State | None = None) -> Move:
        """Read a move in TG-81/82 notation (``6-6 4-5``, ``2-4 1-2``, ``discard 2-2 1-5``)."""
        return parse_move(text, self.tables)

    def tile_str(self, tile: int) -> str:
        """A tile as ``a-b`` (TG-80)."""
        return TILE_NAMES[tile]

    def match_setup(self, deals_played: int, previous: State | None = None) -> dict[str, Any]:
        """Set-up of a match's next hand: the winner banks (TG-40), the direction (TG-02)."""
        setup: dict[str, Any] = {}
        if self.options.alternate_direction and deals_played % 2 == 1:
            setup["direction"] = -1
        if previous is None or previous.winner is None:
            return setup
        winner = previous.winner
        setup["banker"] = winner
        setup["banker_streak"] = previous.banker_streak + 1 if winner == previous.banker else 1
        return setup

    def match_over(self, totals: Sequence[int], hands_played: int) -> bool:
        """True once ``hands`` hands are played or a total is ``target`` or ``-target`` (TG-41)."""
        opts = self.options
        if hands_played >= opts.hands:
            return True
        target = opts.target
        return target is not None and any(abs(t) >= target for t in totals)

    def match_winners(self, totals: Sequence[int]) -> tuple[int, ...]:
        """The seats with the highest total; equal totals share (TG-41)."""
        best = max(totals)
        return tuple(s for s, total in enumerate(totals) if total == best)

    def new_deal(
        self,
        seed: object = None,
        hands: Sequence[str | Sequence[int] | None] | None = None,
        *,
        banker: object = None,
        banker_streak: object = 1,
        leader: object = None,
        units: Sequence[int] | None = None,
        direction: object = 1,
    ) -> State:
        """Deal a new hand, deterministic from ``seed`` (TG-02…04, TG-64).

        ``hands`` fixes some or all hands (tile ids, or text such as ``"6-6 4-5"``),
        all of one size; the others are dealt as many. A scenario with fewer than 8
        tiles a hand starts later in a hand: ``units`` are the units won so far
        (TG-26), the tiles in no hand are out of play, and ``leader`` leads the
        trick (default: the banker, TG-20). ``banker`` defaults to the
        ``first_banker`` option (TG-03); ``banker_streak`` is the number of hands
        in a row this seat has banked, this one included (TG-32); ``direction``
        is 1 (counter-clockwise) or -1 (TG-02).
        """
        seed = seed_arg(seed)
        rng = random.Random(seed)
        free = set(range(NUM_TILES))
        given: list[list[int] | None] = [None] * NUM_PLAYERS
        if hands is not None:
            if len(hands) != NUM_PLAYERS:
                raise SetupError(f"hands must list 4 hands (None to deal one), not {len(hands)}")
            for seat, hand in enumerate(hands):
                if hand is not None:
                    given[seat] = self._take(hand, free, f"hand of seat {seat}")
        sizes = sorted({len(h) for h in given if h is not None})
        if len(sizes) > 1:
            raise SetupError(
                f"every hand holds as many tiles as the others (TG-21), not {sizes[0]} and "
                f"{sizes[-1]}"
            )
        size = sizes[0] if sizes else HAND_SIZE
        if not 1 <= size <= HAND_SIZE:
            raise SetupError(f"a hand holds 1 to 8 tiles (TG-04), not {size}")
        rest = sorted(free)
        shuffle(rng, rest)
        dealt: list[list[int]] = []
        for seat in range(NUM_PLAYERS):
            hand = given[seat]
            if hand is None:
                if len(rest) < size:
                    raise SetupError("not enough tiles left to deal the hands not given")
                hand, rest = rest[:size], rest[size:]
            dealt.append(sorted(hand))
        if banker is None:
            first = self.options.first_banker
            banker = randbelow(rng, NUM_PLAYERS) if first == "random" else first
        banker = seat_arg(banker, NUM_PLAYERS, "banker")
        if (
            not isinstance(banker_streak, int)
            or isinstance(banker_streak, bool)
            or banker_streak < 1
        ):
            raise SetupError(
                f"banker_streak must be an integer of at least 1 (TG-32), not {banker_streak!r}"
            )
        leader = banker if leader is None else seat_arg(leader, NUM_PLAYERS, "leader")
        won = [0] * NUM_PLAYERS if units is None else list(units)
        if (
            len(won) != NUM_PLAYERS
            or not all(is_int(u) and u >= 0 for u in won)
            or sum(won) > HAND_SIZE - size
        ):
            raise SetupError(
                f"units must be 4 counts of at least 0 adding up to at most {HAND_SIZE - size} "
                f"with {size} tiles a hand (TG-26), not {units!r}"
            )
        if (
            not isinstance(direction, int)
            or isinstance(direction, bool)
            or direction not in (1, -1)
        ):
            raise SetupError(f"direction must be 1 or -1 (TG-02), not {direction!r}")
        special = self._special(dealt, banker, direction) if size == HAND_SIZE else None
        return State(
            self, seed, dealt, sorted(rest), banker, banker_streak, leader, won, direction, special
        )

    def _special(
        self, dealt: list[list[int]], banker: int, direction: int
    ) -> tuple[int, int] | None:
        """The seat whose hand wins at once and its factor, or None (TG-64)."""
        if not self.options.special_hands:
            return None
        for step in range(NUM_PLAYERS):
            seat = (banker + step * direction) % NUM_PLAYERS
            factor = special_factor([TILE_KIND[t] for t in dealt[seat]])
            if factor:
                return seat, factor
        return None

    def _take(self, spec: str | Sequence[int], free: set[int], what: str) -> list[int]:
        if isinstance(spec, str):
            try:
                kinds = parse_kinds(spec)
            except ShedkitError as err:
                raise SetupError(f"{what}: {err}") from err
            tiles = []
            for k in kinds:
                # A civil tile named in text takes whichever copy is still free (TG-01).
                copies = [t for t in members(KIND_TILES[k]) if t in free and t not in tiles]
                tiles.append(copies[0] if copies else members(KIND_TILES[k])[0])
        else:
            tiles = list(spec)
        return claim(tiles, free, what, range(NUM_TILES), TILE_NAMES.__getitem__, "tile")

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: unseen tiles dealt at random (for search)."""
        return determinize(self, view, rng)

    def deal_as_started(self, view: View, hands: list[list[int]], seed: int) -> State:
        """A new hand dealt as ``hands`` under the start ``view``'s hand had: its banker
        and streak, leader, units and direction (TG-03, TG-41); nothing played yet."""
        return self.new_deal(
            seed=seed,
            hands=hands,
            banker=view.banker,
            banker_streak=view.banker_streak,
            leader=view.start_leader,
            units=list(view.start_units),
            direction=view.direction,
        )

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        discards: list[tuple[int, ...]],
        seed: int,
    ) -> State:
        """The hand dealt as ``hands`` and played as ``view``'s history.

        ``discards`` holds, by history index, the kinds of each discard ``view``
        shows only as a count. Whether a special hand ended the hand is the
        view's (TG-64).
        """
        state = self.deal_as_started(view, hands, seed)
        if state.special != view.special:
            state = State(
                self,
                seed,
                [list(h) for h in state.dealt],
                list(state.out_of_play),
                view.banker,
                view.banker_streak,
                view.start_leader,
                list(view.start_units),
                view.direction,
                view.special,
            )
        by_need = self.tables.discard_by_need
        for i, (_, move, _) in enumerate(view.history):
            state.apply(by_need[pack(discards[i])] if move.hidden else move)
        return state

    def replay(self, record: Mapping[str, Any], steps: int | None = None) -> State:
        """Rebuild the state ``record`` describes (see `GameBase.replay`).

        A seat's record (``state.record(seat)``) hides tiles and cannot be replayed.
        """
        if isinstance(record, Mapping) and record.get("seat") is not None:
            raise RecordError(
                f"this is seat {record['seat']}'s record: it hides the other hands and their "
                "face-down discards (TG-25), so it cannot be replayed; replay the full record"
            )
        return super().replay(record, steps)

    def deal_from_setup(self, seed: int, setup: Mapping[str, Any]) -> State:
        """The deal a record's ``seed`` and ``setup`` describe, before any move."""
        return self.new_deal(
            seed=seed,
            hands=[list(h) for h in setup["hands"]],
            banker=setup["banker"],
            banker_streak=setup.get("banker_streak", 1),
            leader=setup.get("leader"),
            units=setup.get("units"),
            direction=setup.get("direction", 1),
        )


# The attributes of a State, which clone() copies (one list for both).
_STATE_SLOTS: Final = (
    "_legal",
    "_returns",
    "banker",
    "banker_streak",
    "bonus",
    "captured",
    "counts",
    "current_player",
    "dealt",
    "direction",
    "discarded",
    "game",
    "hands",
    "high",
    "high_player",
    "history",
    "leader",
    "out_of_play",
    "phase",
    "seed",
    "special",
    "start_leader",
    "start_units",
    "trick",
    "tricks",
    "units",
    "winner",
)


class State:
    """One hand in progress. ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = _STATE_SLOTS

    def __init__(
        self,
        game: TienGow,
        seed: int,
        dealt: list[list[int]],
        out_of_play: list[int],
        banker: int,
        banker_streak: int,
        leader: int,
        units: list[int],
        direction: int,
        special: tuple[int, int] | None,
        *,
        source: State | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> None:
        # clone() and unpickling: compiled classes have no __new__ that skips __init__.
        if source is not None:
            for name in _STATE_SLOTS:
                setattr(self, name, getattr(source, name))
            return
        if attrs is not None:
            for name in _STATE_SLOTS:
                setattr(self, name, attrs[name])
            return
        self.game = game
        self.seed = seed
        self.dealt = tuple(tuple(h) for h in dealt)
        self.out_of_play = tuple(out_of_play)
        self.banker = banker
        self.banker_streak = banker_streak
        self.direction = direction
        self.start_leader = leader
        self.start_units = tuple(units)
        self.hands = [mask_of(h) for h in dealt]
        self.counts = [hand_counts(h) for h in self.hands]
        self.units = list(units)
        self.discarded = [0] * NUM_PLAYERS
        self.bonus = [0] * NUM_PLAYERS
        self.leader = leader
        self.current_player: int | None = leader
        self.phase = "play"
        #: The trick in play as (seat, move); the hand's last trick stays once it is over.
        self.trick: list[tuple[int, Move]] = []
        self.high: Move | None = None
        self.high_player = -1
        self.captured = False
        #: (seat, move, tiles): every move with the tiles it took from the hand.
        self.history: list[tuple[int, Move, tuple[int, ...]]] = []
        #: (leader, winner, tiles each) of every finished trick.
        self.tricks: list[tuple[int, int, int]] = []
        self.special = special
        self.winner: int | None = None
        self._returns: list[int] | None = None
        self._legal: tuple[Move, ...] | None = None
        if special is not None:
            self._special_win(*special)

    # -- queries ---------------------------------------------------------------

    def opens_trick(self) -> bool:
        """True when the next move leads a new trick, the last one having just ended."""
        return self.phase == "play" and not self.trick and bool(self.history)

    @property
    def thrown_in(self) -> bool:
        """True if the hand was thrown in and will be dealt again; never in this game."""
        return False

    def finishing_order(self) -> list[int]:
        """The seats in the order they went out; in Tien Gow all go out in the last trick."""
        return []

    @property
    def is_over(self) -> bool:
        """True once the last trick is won, or a special hand has won (TG-27, TG-64)."""
        return self.phase == "over"

    @property
    def num_players(self) -> int:
        """Seats at the table: 4 (TG-02)."""
        return NUM_PLAYERS

    @property
    def multiplier(self) -> int:
        """The banker factor of this hand (TG-32)."""
        return banker_factor(self.game.options, self.banker_streak)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The tiles ``seat`` holds, in TG-81 order (omniscient)."""
        return tuple(members(self.hands[seat]))

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the current player may make; empty when the hand is over (TG-20…28, TG-53)."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.current_player
        t = self.game.tables
        if seat is None:
            legal = ()
        elif not self.trick:
            legal = tuple(lead_moves(self.counts[seat], t.plays))
        else:
            legal = tuple(self._follows(seat))
        self._legal = legal
        return legal

    def _follows(self, seat: int) -> list[Move]:
        """Beats of the current high, then discards (TG-21…24, TG-28, TG-53, TG-60)."""
        opts = self.game.options
        t = self.game.tables
        counts = self.counts[seat]
        lead = self.trick[0][1]
        size = lead.size
        high = self.high
        assert high is not None
        # TG-28: on a single-tile last trick a player with no unit yet may only discard.
        forbidden = (
            opts.early_death
            and size == 1
            and self.hands[seat].bit_count() == 1
            and self.units[seat] == 0
        )
        out: list[Move] = []
        if not forbidden and not self.captured:
            out = [m for m in t.beaters[high.action_id] if fits(counts, m.need)]
        kinds = -1
        if opts.must_follow_suit and size == 1 and not forbidden:
            suit = lead.suit
            if self._holds_suit(seat, suit):
                # TG-53: a tile of the led suit, face up if it beats, face down if not.
                kinds = _NOT_ABOVE[suit][high.rank]
        out += discard_moves(counts, size, t.discard_by_need, kinds)
        return out

    def _holds_suit(self, seat: int, suit: int) -> bool:
        return bool(self.hands[seat] & _SUIT_TILES[suit])

    def returns(self) -> list[int]:
        """Each seat's chips for the hand (TG-30…34, TG-61…64); zeros until it is over."""
        if self._returns is None:
            return [0] * NUM_PLAYERS
        return list(self._returns)

    def scores(self) -> list[int]:
        """Chips so far: TG-61's bonuses during the hand, then the returns."""
        if self._returns is not None:
            return list(self._returns)
        return list(self.bonus)

    # -- moves -----------------------------------------------------------------

    def apply(self, move: object, seat: object = None) -> None:
        """Play ``move`` for the current player; an illegal move raises and changes nothing."""
        if self.phase == "over":
            raise IllegalMoveError("the hand is over; no more moves")
        if seat is not None and (not is_int(seat) or seat != self.current_player):
            raise IllegalMoveError(f"it is seat {self.current_player}'s turn, not seat {seat}'s")
        legal = self.legal_moves()
        for m in legal:
            if m is move:
                break
        else:
            for m in legal:
                if m == move:
                    break
            else:
                raise IllegalMoveError(self._why_illegal(move))
        self._apply(m)

    def _why_illegal(self, move: object) -> str:
        if not isinstance(move, Move):
            return f"{move!r} is not a Tien Gow move; use game.parse_move(text, state)"
        if move.hidden:
            return "a discard names its tiles; 'discard ??' is how other seats see it (TG-82)"
        moves = self.game.tables.moves
        if not 0 <= move.action_id < len(moves) or moves[move.action_id] != move:
            return f"{move} is not a move under these options (TG-11, TG-50, TG-52, TG-60)"
        seat = self.current_player
        assert seat is not None
        if not self.trick:
            return (
                f"the leader plays one combination face up, not {move} (TG-20); "
                "discarding is for the players who follow (TG-21)"
            )
        lead = self.trick[0][1]
        high = self.high
        assert high is not None
        if move.size != lead.size:
            return f"each player plays as many tiles as were led: {lead.size} (TG-21)"
        if not fits(self.counts[seat], move.need):
            return f"seat {seat} does not hold {kinds_text(move.kinds)}"
        if move.is_discard:
            return (
                f"seat {seat} holds a tile of the led suit: it must play one, face up if it "
                "beats, and a beating tile may not be discarded (TG-53)"
            )
        opts = self.game.options
        if (
            opts.early_death
            and lead.size == 1
            and self.hands[seat].bit_count() == 1
            and self.units[seat] == 0
        ):
            return f"seat {seat} has won no trick: it must discard on this last trick (TG-28)"
        if high.cls == SUPREME:
            return "nothing beats a led Supreme: discard (TG-24)"
        if self.captured:
            return "the captured Civil Supreme stands: nothing beats the capture (TG-60)"
        return f"{move} does not beat the current high {high} (TG-22, TG-23)"

    def _apply(self, move: Move) -> None:
        seat = self.current_player
        assert seat is not None
        self._legal = None
        mask = self.hands[seat]
        tiles: list[int] = []
        for k in move.kinds:
            mask, tile = remove_kind(mask, k)
            tiles.append(tile)
        self.hands[seat] = mask
        self.counts[seat] -= move.need
        self.history.append((seat, move, tuple(sorted(tiles))))
        if not self.trick:
            self.high, self.high_player, self.captured = move, seat, False
        elif move.is_discard:
            self.discarded[seat] += move.size
        else:
            high = self.high
            if high is not None and high.cls == WEN_SUPREME:
                self.captured = True  # TG-60: nothing beats the capture
            self.high, self.high_player = move, seat
        self.trick.append((seat, move))
        following = (seat + self.direction) % NUM_PLAYERS
        if following != self.leader:
            self.current_player = following
            return
        self._end_trick()

    def _end_trick(self) -> None:
        """The last beat (or the lead) wins the trick's units and leads next (TG-25, TG-26)."""
        lead = self.trick[0][1]
        winner = self.high_player
        self.units[winner] += lead.size
        self.tricks.append((self.leader, winner, lead.size))
        if self.hands[winner] == 0:
            self._finish(lead)  # TG-27: everyone played their last tiles
            return
        opts = self.game.options
        if lead.cls == SUPREME or lead.cls == WEN_SUPREME:
            self._pay_bonus(winner, opts.supreme_bonus)  # TG-61
        elif lead.cls == QUAD:
            self._pay_bonus(winner, opts.quad_bonus)
        self.leader = winner
        self.current_player = winner
        self.trick = []
        self.high = None
        self.high_player = -1
        self.captured = False

    def _pay_bonus(self, winner: int, amount: int) -> None:
        """TG-61: ``amount`` from each other seat to ``winner``, the banker's at its factor."""
        if amount <= 0:
            return
        m = self.multiplier
        for payer in range(NUM_PLAYERS):
            if payer != winner:
                paid = amount * (m if self.banker in (payer, winner) else 1)
                self.bonus[payer] -= paid
                self.bonus[winner] += paid

    def _finish(self, lead: Move) -> None:
        """Settle the hand won by the last trick's winner (TG-27, TG-30…34, TG-62, TG-63)."""
        opts = self.game.options
        winner = self.high_player
        final = self.high
        assert final is not None
        finish = 1
        if final.cls == SUPREME or final.cls == WEN_SUPREME:
            finish *= opts.supreme_finish_multiplier
        if final.cls == QUAD:
            finish *= opts.quad_finish_multiplier
        single = lead.cls == SINGLE_CIVIL or lead.cls == SINGLE_MILITARY
        led = lead.kinds[0] if single else -1
        yao = led == YAO_KIND or (opts.wen_supreme and led == WEN_KIND)
        if yao and winner == self.leader:
            finish *= opts.yao_finish_multiplier
        capturer = -1
        if opts.yao_capture_multiplier > 0 and yao and winner != self.leader:
            caught = final.kinds[0]
            if (led == YAO_KIND and caught == SIX_KIND) or (
                led == WEN_KIND and caught == CAPTURE_KIND
            ):
                capturer = self.leader
        chips = settle(opts, self.units, winner, self.banker, self.banker_streak, finish, capturer)
        self._end(winner, [c + b for c, b in zip(chips, self.bonus, strict=True)])

    def _special_win(self, seat: int, factor: int) -> None:
        """TG-64: each other seat pays 5 times the factor, the banker's at its factor too."""
        m = self.multiplier
        chips = [0] * NUM_PLAYERS
        for payer in range(NUM_PLAYERS):
            if payer != seat:
                paid = SPECIAL_PAYMENT * factor * (m if self.banker in (payer, seat) else 1)
                chips[payer] -= paid
                chips[seat] += paid
        self._end(seat, chips)

    def _end(self, winner: int, chips: list[int]) -> None:
        self.phase = "over"
        self.winner = winner
        self.current_player = None
        self._returns = chips
        self._legal = None

    # -- copies, views, records ------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the game and every attribute (compiled classes need it)."""
        return _unpickle_state, (self.game, {name: getattr(self, name) for name in _STATE_SLOTS})

    def clone(self) -> State:
        """An independent copy (the game and the move objects are shared)."""
        new = State(self.game, self.seed, [], [], 0, 1, 0, [], 1, None, source=self)
        new.hands = self.hands.copy()
        new.counts = self.counts.copy()
        new.units = self.units.copy()
        new.discarded = self.discarded.copy()
        new.bonus = self.bonus.copy()
        new.trick = self.trick.copy()
        new.history = self.history.copy()
        new.tricks = self.tricks.copy()
        if self._returns is not None:
            new._returns = self._returns.copy()
        return new

    def _shown(self, seat: int | None, who: int, move: Move) -> Move:
        """``move`` by ``who`` as ``seat`` sees it: another's discard is a count (TG-25, TG-54)."""
        if who == seat or not move.is_discard or self.game.options.discards_exposed:
            return move
        return HIDDEN_DISCARDS[move.size]

    def view(self, seat: object) -> View:
        """What ``seat`` may know: its tiles, the face-up plays, discards as counts (TG-25)."""
        seat = view_seat_arg(seat, NUM_PLAYERS)
        history = tuple(
            (who, self._shown(seat, who, move), tiles if who == seat else ())
            for who, move, tiles in self.history
        )
        special = self.special
        return View(
            seat=seat,
            num_players=NUM_PLAYERS,
            options=self.game.options,
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hand(seat) if seat is not None else (),
            tiles_left=tuple(h.bit_count() for h in self.hands),
            banker=self.banker,
            banker_streak=self.banker_streak,
            multiplier=self.multiplier,
            direction=self.direction,
            leader=self.leader,
            trick=tuple((who, self._shown(seat, who, move)) for who, move in self.trick),
            high=self.high,
            high_player=self.high_player,
            captured=self.captured,
            units=tuple(self.units),
            discarded=tuple(self.discarded),
            history=history,
            tricks=tuple(self.tricks),
            start_leader=self.start_leader,
            start_units=self.start_units,
            out_of_play=self.out_of_play,
            bonus=tuple(self.bonus),
            special=special,
            special_hand=self.dealt[special[0]] if special is not None else (),
            winner=self.winner,
            legal_moves=self.legal_moves() if seat == self.current_player else (),
            returns=tuple(self.returns()),
        )

    def record(self, seat: object = None) -> dict[str, Any]:
        """A JSON-able description of the hand so far; `shedkit.replay` rebuilds it.

        With a ``seat``, that seat's own record instead: the other hands and their
        face-down discards left out (TG-25, TG-82), which cannot be replayed.
        """
        seat = view_seat_arg(seat, NUM_PLAYERS)
        mine = seat is not None
        record: dict[str, Any] = {
            "game": self.game.name,
            "version": RECORD_VERSION,
            "preset": self.game.preset,
            "options": options_to_dict(self.game.options),
        }
        if mine:
            record["seat"] = seat
        else:
            record["seed"] = self.seed
        record["setup"] = {
            "hands": [list(h) if not mine or s == seat else None for s, h in enumerate(self.dealt)],
            "banker": self.banker,
            "banker_streak": self.banker_streak,
            "leader": self.start_leader,
            "units": list(self.start_units),
            "direction": self.direction,
        }
        if mine:
            record["setup"]["out_of_play"] = list(self.out_of_play)
        record["hands_text"] = [
            " ".join(TILE_NAMES[t] for t in h) if not mine or s == seat else None
            for s, h in enumerate(self.dealt)
        ]
        record["moves"] = [
            str(self._shown(seat, who, m) if mine else m) for who, m, _ in self.history
        ]
        record["units"] = list(self.units)
        record["winner"] = self.winner
        record["special"] = list(self.special) if self.special is not None else None
        record["returns"] = self.returns() if self.is_over else None
        return record

    def __repr__(self) -> str:
        return f"<tiengow.State phase={self.phase} turn={self.current_player} seed={self.seed}>"


def make(preset: str = "standard", **options: Any) -> TienGow:
    """Build the game from a preset and option overrides (validated)."""
    return TienGow(build_options(Options, PRESETS, preset, options, "tiengow"), preset)


def _unpickle_state(game: TienGow, attrs: dict[str, Any]) -> State:
    """The state `State.__reduce__` pickled."""
    return State(game, 0, [], [], 0, 1, 0, [], 1, None, attrs=attrs)
