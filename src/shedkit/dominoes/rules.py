"""Dominoes: the game, its state, drawing, blocking, the spinner and scoring (DOM-01…25).

>>> import shedkit
>>> game = shedkit.make("dominoes", players=4, variant="block")
>>> state = game.new_deal(seed=3)
>>> str(state.legal_moves()[0])  # DOM-04: the holder of 6-6 leads it
'6-6'
>>> while not state.is_over:
...     state.apply(state.legal_moves()[-1])
>>> state.end_reason in ("domino", "blocked")
True
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from shedkit.core.args import is_int, seat_arg, seed_arg, view_seat_arg
from shedkit.core.bits import claim, mask_of, members
from shedkit.core.errors import IllegalMoveError, SetupError, ShedkitError
from shedkit.core.game import GameBase
from shedkit.core.info import GameInfo
from shedkit.core.options import build_options, options_to_dict
from shedkit.core.rng import randbelow, shuffle
from shedkit.dominoes.actions import Tables, tables_for
from shedkit.dominoes.combos import DRAW, END_NAMES, PASS, Move
from shedkit.dominoes.movegen import board_count, empty_board, legal_plays, place, playable_mask
from shedkit.dominoes.notation import parse_move, parse_tiles
from shedkit.dominoes.options import PRESETS, Options
from shedkit.dominoes.view import View, determinize, layout

__all__ = ["Dominoes", "SetupError", "State", "make", "round_to_five"]

RECORD_VERSION: Final = 1


def round_to_five(points: int) -> int:
    """Round to the nearest multiple of 5: remainders 0–2 down, 3–4 up (DOM-24).

    >>> [round_to_five(x) for x in (11, 12, 13, 14, 15)]
    [10, 10, 15, 15, 15]
    """
    return 5 * ((points + 2) // 5)


@functools.cache
def _factorial(n: int) -> int:
    return math.factorial(n)


def shuffled_tiles(seed: int, count: int) -> list[int]:
    """The tiles ``0 … count-1`` in an order determined by ``seed``, each order equally likely.

    A number below ``count!`` is read from BLAKE2b digests of the seed
    (rejecting the rare digest at or above ``count!``) and decoded digit by
    digit into a Fisher–Yates shuffle. It is the same on every machine and,
    unlike seeding a Mersenne Twister per deal, costs a few microseconds.

    >>> sorted(shuffled_tiles(7, 28)) == list(range(28)), shuffled_tiles(7, 5)
    (True, [3, 2, 0, 1, 4])
    """
    total = _factorial(count)
    bits = total.bit_length()
    size = (bits + 7) // 8  # 91 tiles need 468 bits: within one 64-byte digest
    attempt = 0
    while True:
        digest = hashlib.blake2b(f"{seed}/{attempt}".encode(), digest_size=size).digest()
        r = int.from_bytes(digest, "big") >> (8 * size - bits)
        if r < total:
            break
        attempt += 1
    pile = list(range(count))
    for i in range(count - 1, 0, -1):
        r, j = divmod(r, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    return pile


class Dominoes(GameBase[Move, "State"]):
    """The game under fixed options; makes deals and reads moves."""

    name: Final = "dominoes"
    title = "Dominoes"

    def __init__(self, options: Options, preset: str = "standard") -> None:
        self.options = options
        self.preset = preset
        self.tables: Tables = tables_for(options)
        self.num_players = options.players
        self.teams = options.teams
        #: The side each seat scores for: its team (0: seats 0+2, 1: seats 1+3) or itself.
        self.side_of: tuple[int, ...] = tuple(
            s % 2 if self.teams else s for s in range(options.players)
        )
        self.num_sides = 2 if self.teams else options.players
        self.fives = options.variant == "fives"
        self.block = options.variant == "block"
        self.cross_now = options.spinner_opens == "immediately"
        #: Tiles from the strongest down, for DOM-04 (doubles first).
        self.lead_order: tuple[int, ...] = tuple(
            sorted(range(self.tables.num_tiles), key=self.tables.rank, reverse=True)
        )
        t = self.tables
        total_pips = sum(t.pips)
        boneyard = t.num_tiles - options.tiles_per_hand * options.players
        max_count = 8 * options.max_pips  # four ends, each a double at most
        fives = options.variant == "fives"
        self.info = GameInfo(
            name=self.name,
            num_players=options.players,
            chance=True,
            hidden_information=True,
            zero_sum=False,  # points to a target; the loser scores nothing (DOM-09…11)
            min_score=0,
            max_score=total_pips + (t.num_tiles * max_count if fives else 0),
            num_actions=t.num_actions,
            # every play, every draw, and at most n-1 passes before each of them
            max_game_length=options.players * (t.num_tiles + boneyard),
            match_target=options.target,
            teams=((0, 2), (1, 3)) if options.teams else None,
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by options and preset (compiled classes need it)."""
        return type(self), (self.options, self.preset)

    def __repr__(self) -> str:
        return f"<Dominoes preset={self.preset!r} {self.options}>"

    def parse_move(self, text: object, state: State | None = None) -> Move:
        """Read a move in DOM-41 notation (``3-5@R``, ``6-6``, ``draw``, ``pass``).

        Once the first tile is down, a tile written alone is its only legal play.
        """
        if state is None or state.board[0] < 0:
            return parse_move(text, self.tables)
        return parse_move(text, self.tables, state.legal_moves())

    def tile_str(self, tile: int) -> str:
        """A tile of this set as ``a-b`` (DOM-40)."""
        return self.tables.names[tile]

    def match_setup(self, deals_played: int, previous: State | None = None) -> dict[str, Any]:
        """Set-up of a match's next hand: led by the seat after the last hand's leader (DOM-05)."""
        if previous is None:
            return {}
        return {"leader": (previous.leader + 1) % self.num_players}

    def match_winners(self, totals: Sequence[int]) -> tuple[int, ...]:
        """Seats on the side(s) with the highest total at or over the target (DOM-11)."""
        target = self.options.target
        best = max(totals)
        if best < target:
            return ()
        return tuple(s for s, total in enumerate(totals) if total == best)

    def new_deal(
        self,
        seed: object = None,
        hands: Sequence[str | Sequence[int] | None] | None = None,
        *,
        boneyard: str | Sequence[int] | None = None,
        leader: object = None,
        lead_tile: object = None,
    ) -> State:
        """Deal a new hand, deterministic from ``seed`` (DOM-03, DOM-04, DOM-05).

        ``hands`` fixes some or all hands (tile ids or text such as ``"6-6 3-5"``,
        of any size); the others get the DOM-03 number of tiles. ``boneyard``
        fixes the boneyard and its order (first drawn first); tiles in no hand
        and not in it then stay out of play. ``leader`` makes a later hand of a
        match (DOM-05): that seat leads any tile. Without it, DOM-04 picks the
        first hand's leader per ``first_player``; ``lead_tile`` (with
        ``leader``) forces the first tile, as DOM-04 does.
        """
        seed = seed_arg(seed)
        opts = self.options
        n = opts.players
        size = opts.tiles_per_hand
        if hands is None and boneyard is None:  # the plain deal, kept short for random play
            pile = shuffled_tiles(seed, self.tables.num_tiles)
            dealt = [sorted(pile[i * size : i * size + size]) for i in range(n)]
            del pile[: n * size]
            return self._start(None, seed, dealt, pile, leader, lead_tile)
        rng = random.Random(seed)
        free = set(range(self.tables.num_tiles))
        given: list[list[int] | None] = [None] * n
        if hands is not None:
            if len(hands) != n:
                raise SetupError(f"hands must list {n} hands (None to deal one), not {len(hands)}")
            for seat, hand in enumerate(hands):
                if hand is not None:
                    given[seat] = self._take(hand, free, f"hand of seat {seat}")
        kept = [] if boneyard is None else self._take(boneyard, free, "boneyard")
        rest = sorted(free)
        shuffle(rng, rest)
        dealt = []
        for seat in range(n):
            hand = given[seat]
            if hand is None:
                if len(rest) < size:
                    raise SetupError("not enough tiles left to deal the hands not given")
                hand, rest = rest[:size], rest[size:]
            dealt.append(sorted(hand))
        if any(not h for h in dealt):
            raise SetupError("every hand needs at least one tile")
        # A given boneyard is the whole boneyard: tiles in no hand and not in it stay out of play.
        pile = kept if boneyard is not None else rest
        return self._start(rng, seed, dealt, pile, leader, lead_tile)

    def _start(
        self,
        rng: random.Random | None,
        seed: int,
        dealt: list[list[int]],
        pile: list[int],
        leader: object,
        lead_tile: object,
    ) -> State:
        """Pick the first player (DOM-04, DOM-05) and make the state."""
        opts = self.options
        n = opts.players
        if leader is None:
            if lead_tile is not None:
                raise SetupError("lead_tile needs a leader")
            if opts.first_player == "draw":
                rng = rng or random.Random(seed)
                leader = randbelow(rng, n)  # DOM-04: lots drawn for the first lead
            else:
                leader, lead_tile = self._highest_tile(dealt)
                if opts.variant == "fives":
                    lead_tile = None  # DOM-21: the first tile need not be a double
        else:
            leader = seat_arg(leader, n, "leader")
        if lead_tile is not None and (not is_int(lead_tile) or lead_tile not in dealt[leader]):
            raise SetupError(f"lead_tile {lead_tile!r} is not in the hand of seat {leader}")
        return State(self, seed, dealt, pile, leader, -1 if lead_tile is None else lead_tile)

    def _highest_tile(self, dealt: list[list[int]]) -> tuple[int, int]:
        """DOM-04: the holder of the highest double (else of the highest tile), and that tile."""
        bits = [mask_of(hand) for hand in dealt]
        held = 0
        for b in bits:
            held |= b
        for tile in self.lead_order:
            if held >> tile & 1:
                return next(s for s, b in enumerate(bits) if b >> tile & 1), tile
        raise SetupError("no tile in any hand")

    def _take(self, spec: str | Sequence[int], free: set[int], what: str) -> list[int]:
        if isinstance(spec, str):
            try:
                tiles = parse_tiles(spec, self.tables.max_pips)
            except ShedkitError as err:
                raise SetupError(f"{what}: {err}") from err
        else:
            tiles = list(spec)
        names = self.tables.names
        return claim(tiles, free, what, range(self.tables.num_tiles), names.__getitem__, "tile")

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: unseen tiles dealt at random (for search)."""
        return determinize(self, view, rng)

    def deal_from(
        self, view: View, hands: list[list[int]], boneyard: list[int], seed: int
    ) -> State:
        """The hand in which each seat holds ``hands`` now, at the point ``view`` shows.

        ``boneyard`` is what is left to draw, in order; the line, the turn, the
        history and the points are the view's.
        """
        state = self.new_deal(seed=seed, hands=hands, boneyard=boneyard, leader=view.leader)
        state.board = list(view.board)
        # Before the first tile another seat cannot know the leader's forced tile: any tile then.
        state.lead_tile = view.lead_tile
        state.current_player = view.current_player
        state.history = list(view.history)
        seat_of_side = {self.side_of[s]: s for s in reversed(range(view.num_players))}
        state.points = [view.scores[seat_of_side[side]] for side in range(self.num_sides)]
        state._legal = None
        return state

    def replay_hand(self, state: State, observe: Callable[[State, Move], None]) -> State | None:
        """Play ``state``'s hand again from its deal, showing ``observe`` every move first.

        ``state`` is a whole hand with every tile known: each seat was dealt the tiles
        it holds now and those it has played. That holds only while nobody has drawn,
        so a hand with draws raises ``ValueError``. The first tile is replayed as
        forced. ``observe(before, move)`` sees each move in the state it was made
        from. Returns the state replayed to the end of the history, or ``None`` if
        those hands could not have made its moves.
        """
        history = state.history
        if any(move.kind == "draw" for _, move, _, _ in history):
            raise ValueError("a hand with draws cannot be replayed from its deal")
        hands = list(state.hands)
        for seat, move, _, _ in history:
            if move.tile >= 0:
                hands[seat] |= 1 << move.tile
        first = history[0][1].tile if history else -1
        try:
            start = self.new_deal(
                seed=0,
                hands=[members(h) for h in hands],
                boneyard=list(state.remaining_boneyard()),
                leader=state.leader,
                lead_tile=first if first >= 0 else None,
            )
        except ValueError:
            return None
        for seat, move, _, _ in history:
            if start.current_player != seat:
                return None
            observe(start, move)
            try:
                start.apply(move)
            except IllegalMoveError:
                return None
        return start

    def deal_from_setup(self, seed: int, setup: Mapping[str, Any]) -> State:
        """The deal a record's ``seed`` and ``setup`` describe, before any move."""
        lead_tile = setup["lead_tile"]
        return self.new_deal(
            seed=seed,
            hands=[list(h) for h in setup["hands"]],
            boneyard=list(setup["boneyard"]),
            leader=setup["leader"],
            lead_tile=None if lead_tile < 0 else lead_tile,
        )


# The attributes of a State, which clone() copies (one list for both).
_STATE_SLOTS: Final = (
    "_legal",
    "_returns",
    "_t",
    "board",
    "boneyard",
    "current_player",
    "dealt",
    "drawn",
    "end_reason",
    "game",
    "hands",
    "history",
    "lead_tile",
    "leader",
    "phase",
    "points",
    "seed",
    "winner",
)


class State:
    """One hand in progress. ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = _STATE_SLOTS

    def __init__(
        self,
        game: Dominoes,
        seed: int,
        dealt: list[list[int]],
        boneyard: list[int],
        leader: int,
        lead_tile: int,
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
        self._t = game.tables
        self.seed = seed
        self.dealt = tuple(tuple(h) for h in dealt)
        self.boneyard = tuple(boneyard)
        self.drawn = 0
        self.hands = [mask_of(h) for h in dealt]
        self.leader = leader
        self.lead_tile = lead_tile
        self.board = empty_board()
        self.current_player: int | None = leader
        self.phase = "play"
        #: (seat, move, tile drawn or -1, points scored by the play in All Fives)
        self.history: list[tuple[int, Move, int, int]] = []
        self.points = [0] * game.num_sides
        self.end_reason: str | None = None
        self.winner: int | None = None  # the winning side, None for a void hand
        self._returns: list[int] | None = None
        self._legal: tuple[Move, ...] | None = None

    # -- queries ---------------------------------------------------------------

    def opens_trick(self) -> bool:
        """True when the next move leads a new trick; Dominoes has no tricks."""
        return False

    @property
    def thrown_in(self) -> bool:
        """True if the deal was thrown in and will be dealt again; never in this game."""
        return False

    def finishing_order(self) -> list[int]:
        """The seats in the order they went out; Dominoes ends when one does."""
        return []

    @property
    def is_over(self) -> bool:
        """True once a player is out or the game is blocked (DOM-08)."""
        return self.phase == "over"

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.game.num_players

    @property
    def boneyard_left(self) -> int:
        """Tiles still in the boneyard."""
        return len(self.boneyard) - self.drawn

    @property
    def can_draw(self) -> bool:
        """Whether a player who cannot play draws (DOM-07): a boneyard, not the block game."""
        return self.drawn < len(self.boneyard) and not self.game.block

    @property
    def count(self) -> int:
        """The sum of the open ends (DOM-23)."""
        return board_count(self.board)

    @property
    def ends(self) -> tuple[int, ...]:
        """The pip value at each end ``L R U D``, -1 where the end is not open."""
        return tuple(self.board[:4])

    def hand(self, seat: int) -> tuple[int, ...]:
        """The tiles ``seat`` holds, ascending (omniscient)."""
        return tuple(members(self.hands[seat]))

    def pips(self, seat: int) -> int:
        """Pips left in the hand of ``seat``."""
        pips = self.game.tables.pips
        return sum(pips[t] for t in members(self.hands[seat]))

    def remaining_boneyard(self) -> tuple[int, ...]:
        """The boneyard still to draw, in order (omniscient)."""
        return self.boneyard[self.drawn :]

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the current player may make; empty when the hand is over (DOM-06, DOM-07)."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.current_player
        t = self._t
        if seat is None:
            legal = ()
        elif self.board[0] < 0:
            if self.lead_tile >= 0:
                legal = (t.leads[self.lead_tile],)
            else:
                leads = t.leads
                legal = tuple(leads[x] for x in members(self.hands[seat]))
        else:
            b = self.board
            if b[2] < 0:  # two ends: the common case, inlined
                vm = t.value_mask
                ml, mr = vm[b[0]], vm[b[1]]
                cand = self.hands[seat] & (ml | mr)
                plays = []
                if cand:
                    table = t.plays
                    e = t.num_ends
                    while cand:
                        low = cand & -cand
                        cand ^= low
                        i = (low.bit_length() - 1) * e
                        if low & ml:
                            plays.append(table[i])
                        if low & mr:
                            plays.append(table[i + 1])
            else:
                plays = legal_plays(self.hands[seat], b, t)
            if plays:
                legal = tuple(plays)
            elif self.can_draw:
                legal = (DRAW,)
            else:
                legal = (PASS,)
        self._legal = legal
        return legal

    def returns(self) -> list[int]:
        """Each seat's points for the hand (its side's, with partners); zeros until it is over."""
        if self._returns is None:
            return [0] * self.num_players
        return list(self._returns)

    # -- moves -----------------------------------------------------------------

    def apply(self, move: object, seat: object = None) -> None:
        """Make ``move`` for the current player; an illegal move raises and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        if seat is not None and seat != self.current_player:
            if self.phase == "over":
                raise IllegalMoveError("the hand is over; no more moves")
            raise IllegalMoveError(f"it is seat {self.current_player}'s turn, not seat {seat}'s")
        for m in legal:
            if m is move:
                break
        else:
            if self.phase == "over":
                raise IllegalMoveError("the hand is over; no more moves")
            for m in legal:
                if m == move:
                    break
            else:
                raise IllegalMoveError(self._why_illegal(move))
        # The move is legal; what follows is the hot path of random play, kept in one function.
        seat = self.current_player
        assert seat is not None
        self._legal = None
        game = self.game
        kind = m.kind
        if kind == "draw":
            tile = self.boneyard[self.drawn]
            self.drawn += 1
            self.hands[seat] |= 1 << tile
            self.history.append((seat, m, tile, 0))
            if self.drawn == len(self.boneyard):
                self._check_blocked()
            return
        if kind == "pass":
            self.history.append((seat, m, -1, 0))
            self.current_player = (seat + 1) % game.num_players
            return
        tile = m.tile
        hand = self.hands[seat] & ~(1 << tile)
        self.hands[seat] = hand
        b = self.board
        scored = 0
        if game.fives:
            place(b, game.tables.halves[tile], m.end, True, game.cross_now)
            count = board_count(b)
            if count and count % 5 == 0:
                scored = count  # DOM-23
                self.points[game.side_of[seat]] += count
        else:
            lo, hi = self._t.halves[tile]
            end = m.end
            if end < 0:
                b[0], b[1] = lo, hi
            else:
                b[end] = hi if lo == b[end] else lo
        self.history.append((seat, m, -1, scored))
        if not hand:
            self._finish("domino", game.side_of[seat])
            return
        self.current_player = (seat + 1) % game.num_players
        if game.block or self.drawn == len(self.boneyard):
            # DOM-08 b, inlined: this runs after most plays of a hand.
            vm = self._t.value_mask
            mask = vm[b[0]] | vm[b[1]]
            if b[2] >= 0:
                mask |= vm[b[2]] | vm[b[3]]
            for h in self.hands:
                if h & mask:
                    return
            self._finish("blocked", None)

    def _why_illegal(self, move: object) -> str:
        if not isinstance(move, Move):
            return f"{move!r} is not a Dominoes move; use game.parse_move(text, state)"
        seat = self.current_player
        assert seat is not None
        names = self.game.tables.names
        legal = self.legal_moves()
        if legal == (DRAW,):
            return f"seat {seat} cannot play and must draw from the boneyard (DOM-07)"
        if legal == (PASS,):
            return f"seat {seat} cannot play and has nothing to draw: pass (DOM-07)"
        if move.kind in ("draw", "pass"):
            return f"seat {seat} can play, so may not {move.kind} (DOM-07)"
        if move.tile >= len(names) or move.end >= self.game.tables.num_ends:
            return f"{move} is not a move of this game's set"
        if not self.hands[seat] >> move.tile & 1:
            return f"seat {seat} does not hold {names[move.tile]}"
        if self.board[0] < 0:
            if move.kind == "play":
                return f"the first tile is played alone: {names[move.tile]} (DOM-41)"
            return f"the first hand is led with {names[self.lead_tile]} (DOM-04)"
        if move.kind == "lead":
            return f"the line is started; say the end: {names[move.tile]}@L or @R (DOM-41)"
        end = self.board[move.end]
        if end < 0:
            return f"end {END_NAMES[move.end]} is not open (DOM-22)"
        return f"{names[move.tile]} does not match the {end} at end {END_NAMES[move.end]} (DOM-06)"

    def _check_blocked(self) -> None:
        """End the hand if nobody can play and nobody can draw (DOM-08 b)."""
        if self.can_draw:
            return
        mask = playable_mask(self.board, self.game.tables)
        for hand in self.hands:
            if hand & mask:
                return
        self._finish("blocked", None)

    def side_pips(self) -> list[int]:
        """Pips left per side (a team sums both hands)."""
        out = [0] * self.game.num_sides
        side_of = self.game.side_of
        for seat in range(self.num_players):
            out[side_of[seat]] += self.pips(seat)
        return out

    def _finish(self, reason: str, out_side: int | None) -> None:
        """Score the hand (DOM-09, DOM-10, DOM-24) and end it."""
        game = self.game
        opts = game.options
        fives = opts.variant == "fives"
        pips = self.side_pips()
        final = list(self.points)
        if reason == "domino":
            assert out_side is not None
            won = sum(p for side, p in enumerate(pips) if side != out_side)
            if game.teams and opts.partner_pips_count:
                won += pips[out_side]  # DOM-09: the partner's pips count too
            winner: int | None = out_side
        else:
            low = min(pips)
            leaders = [side for side, p in enumerate(pips) if p == low]
            if len(leaders) > 1:
                winner, won = None, 0  # DOM-10: a tie for fewest voids the hand
                if fives and opts.void_cancels_count:
                    final = [0] * game.num_sides
            else:
                winner = leaders[0]
                won = sum(pips) - 2 * low  # the opponents' pips minus their own
        if winner is not None:
            final[winner] += round_to_five(won) if fives else won
        self.phase = "over"
        self.end_reason = reason
        self.winner = winner
        self.current_player = None
        self._returns = [final[side] for side in game.side_of]

    # -- copies, views, records ------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the game and every attribute (compiled classes need it)."""
        return _unpickle_state, (self.game, {name: getattr(self, name) for name in _STATE_SLOTS})

    def clone(self) -> State:
        """An independent copy (the game and the move objects are shared)."""
        new = State(self.game, self.seed, [], [], 0, -1, source=self)
        new.hands = self.hands.copy()
        new.board = self.board.copy()
        new.history = self.history.copy()
        new.points = self.points.copy()
        return new

    def scores(self) -> list[int]:
        """Points each seat's side has scored in this hand so far (All Fives counts, DOM-23)."""
        if self._returns is not None:
            return list(self._returns)
        return [self.points[side] for side in self.game.side_of]

    def view(self, seat: object) -> View:
        """What ``seat`` may know: its own hand and draws, tile counts, never the boneyard order."""
        n = self.num_players
        seat = view_seat_arg(seat, n)
        tables = self.game.tables
        history = tuple(
            (who, move, drawn if who == seat else -1, scored)
            for who, move, drawn, scored in self.history
        )
        return View(
            seat=seat,
            num_players=n,
            options=self.game.options,
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hand(seat) if seat is not None else (),
            tile_counts=tuple(h.bit_count() for h in self.hands),
            boneyard_size=self.boneyard_left,
            leader=self.leader,
            lead_tile=self.lead_tile if self.board[0] < 0 and seat == self.leader else -1,
            board=tuple(self.board),
            count=board_count(self.board),
            line=layout([m for _, m, _, _ in self.history], tables),
            history=history,
            scores=tuple(self.scores()),
            legal_moves=self.legal_moves() if seat == self.current_player else (),
            end_reason=self.end_reason,
            winner=self.winner,
            pips=tuple(self.pips(s) for s in range(n)) if self.is_over else (),
            returns=tuple(self.returns()),
        )

    def record(self) -> dict[str, Any]:
        """A JSON-able description of the hand so far; `shedkit.replay` rebuilds it."""
        names = self.game.tables.names
        return {
            "game": self.game.name,
            "version": RECORD_VERSION,
            "preset": self.game.preset,
            "options": options_to_dict(self.game.options),
            "seed": self.seed,
            "setup": {
                "hands": [list(h) for h in self.dealt],
                "boneyard": list(self.boneyard),
                "leader": self.leader,
                "lead_tile": self.lead_tile,
            },
            "hands_text": [" ".join(names[t] for t in h) for h in self.dealt],
            "moves": [str(m) for _, m, _, _ in self.history],
            "end_reason": self.end_reason,
            "returns": self.returns() if self.is_over else None,
        }

    def __repr__(self) -> str:
        return f"<dominoes.State phase={self.phase} turn={self.current_player} seed={self.seed}>"


def make(preset: str = "standard", **options: Any) -> Dominoes:
    """Build the game from a preset and option overrides (validated)."""
    return Dominoes(build_options(Options, PRESETS, preset, options, "dominoes"), preset)


def _unpickle_state(game: Dominoes, attrs: dict[str, Any]) -> State:
    """The state `State.__reduce__` pickled."""
    return State(game, 0, [], [], 0, -1, attrs=attrs)
