"""Dou Di Zhu: the game, its state, the auction, play and scoring (DDZ-01…43).

>>> import shedkit
>>> game = shedkit.make("doudizhu")
>>> state = game.new_deal(seed=7)
>>> state.phase, state.current_player in (0, 1, 2)
('auction', True)
>>> while not state.is_over:
...     state.apply(state.legal_moves()[0])
>>> sum(state.returns())
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from shedkit.core.args import seat_arg, seed_arg, view_seat_arg
from shedkit.core.bits import claim, mask_of, members
from shedkit.core.errors import IllegalMoveError, SetupError, ShedkitError
from shedkit.core.game import GameBase
from shedkit.core.info import GameInfo
from shedkit.core.options import build_options, options_to_dict
from shedkit.core.rng import randbelow, shuffle
from shedkit.doudizhu.actions import Tables, tables_for
from shedkit.doudizhu.combos import (
    CARDS_PER_PACK,
    NRANKS,
    RANK_CHARS,
    SUIT_CHARS,
    Move,
    card_rank,
    card_str,
)
from shedkit.doudizhu.movegen import bomb_ranks, lead_moves, response_moves
from shedkit.doudizhu.notation import parse_move, parse_ranks
from shedkit.doudizhu.options import PRESETS, Options
from shedkit.doudizhu.view import View, determinize

__all__ = ["DouDizhu", "SetupError", "State", "make"]

RECORD_VERSION: Final = 1

_RANK_BITS: Final = tuple(
    sum(1 << c for c in range(2 * CARDS_PER_PACK) if card_rank(c) == r) for r in range(NRANKS)
)


_ORDER: Final = tuple((card_rank(c), c % CARDS_PER_PACK, c) for c in range(2 * CARDS_PER_PACK))


def sort_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards in playing order (by rank, then suit, then pack)."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


class DouDizhu(GameBase[Move, "State"]):
    """The game under fixed options; makes deals and reads moves."""

    name: Final = "doudizhu"
    title = "Dou Di Zhu"

    def __init__(self, options: Options, preset: str = "standard") -> None:
        self.options = options
        self.preset = preset
        self.tables: Tables = tables_for(options)
        self.num_players = options.players
        self.deck: tuple[int, ...] = tuple(range(CARDS_PER_PACK * options.decks))
        n = options.players
        bombs_max = 13 * options.decks + 1  # every rank as bombs, plus the rocket
        top = 3 * 2 ** (bombs_max + 1) * (n - 1)
        self.info = GameInfo(
            name=self.name,
            num_players=n,
            chance=True,
            hidden_information=True,
            zero_sum=True,
            min_score=-top,
            max_score=top,
            num_actions=self.tables.num_actions,
            max_game_length=3 + 2 * (n - 1) + 2 * (n - 2) + n * len(self.deck),
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by options and preset (compiled classes need it)."""
        return type(self), (self.options, self.preset)

    def __repr__(self) -> str:
        return f"<DouDizhu preset={self.preset!r} {self.options}>"

    def parse_move(self, text: object, state: State | None = None) -> Move:
        """Read a move in DDZ-51 notation; the state settles ambiguous readings."""
        return parse_move(text, self.tables, None if state is None else state.legal_moves())

    def parse_cards(self, text: str) -> list[int]:
        """Read cards with suits (``Ts 3h B``) or bare ranks; bare ranks get no identity yet."""
        return parse_ranks(text)

    def new_deal(
        self,
        seed: object = None,
        hands: Sequence[str | Sequence[int] | None] | None = None,
        *,
        kitty: str | Sequence[int] | None = None,
        first_bidder: object = None,
        landlord: object = None,
        bid: object = 1,
    ) -> State:
        """Deal a new hand, deterministic from ``seed``.

        Scenario set-up: ``hands`` gives some or all hands (card ids, or text:
        ``"3s 3h 4d"`` with suits or ``"33445"`` bare ranks, which take the
        lowest free suits); ``None`` entries are dealt from the rest. ``kitty``
        fixes the face-down cards. ``first_bidder`` fixes who bids first.
        ``landlord`` skips the auction: that seat is landlord for a stake of
        ``bid`` and takes the kitty into its hand. When every hand is given and
        no kitty, the kitty is the rest of the pack if the hands are full-sized
        and there is an auction, else empty.
        """
        seed = seed_arg(seed)
        opts = self.options
        n = opts.players
        rng = random.Random(seed)
        free = set(self.deck)
        given: list[list[int] | None] = [None] * n
        if hands is not None:
            if len(hands) != n:
                raise SetupError(f"hands must list {n} hands (None to deal one), not {len(hands)}")
            for seat, hand in enumerate(hands):
                if hand is not None:
                    given[seat] = self._take_cards(hand, free, f"hand of seat {seat}")
        kitty_cards = None if kitty is None else self._take_cards(kitty, free, "kitty")
        rest = sorted(free)
        shuffle(rng, rest)
        if all(h is not None for h in given) and kitty_cards is None:
            # Every hand given: the kitty is the rest when the hands are full-sized,
            # else the deal has no kitty beyond what the landlord already holds.
            full = landlord is None and all(len(h or ()) == opts.hand_size for h in given)
            kitty_cards = rest[: opts.kitty_size] if full else []
        dealt = []
        for seat in range(n):
            hand = given[seat]
            if hand is None:
                size = opts.hand_size
                hand, rest = rest[:size], rest[size:]
                if len(hand) < size:
                    raise SetupError("not enough cards left to deal the hands not given")
            dealt.append(hand)
        if kitty_cards is None:
            kitty_cards, rest = rest[: opts.kitty_size], rest[opts.kitty_size :]
        if first_bidder is None:
            bidder = randbelow(rng, n)
        else:
            bidder = seat_arg(first_bidder, n, "first_bidder")
        lord = None if landlord is None else seat_arg(landlord, n, "landlord")
        if lord is not None and (not isinstance(bid, int) or bid not in (1, 2, 3)):
            raise SetupError(f"bid must be 1, 2 or 3, not {bid!r}")
        stake = bid if isinstance(bid, int) else 1
        return State(self, seed, dealt, kitty_cards, bidder, lord, stake)

    def _take_cards(self, spec: str | Sequence[int], free: set[int], what: str) -> list[int]:
        """Take the cards ``spec`` names out of ``free``; bare ranks take the lowest suit free."""
        if isinstance(spec, str):
            cards: list[int] = []
            for token in spec.replace(",", " ").split():
                cards += self._token_cards(token, free - set(cards), what)
        else:
            cards = list(spec)
        return claim(cards, free, what, self.deck, card_str)

    def _token_cards(self, token: str, free: set[int], what: str) -> list[int]:
        t = token.upper().replace("10", "T")
        if len(t) == 2 and t[1] in SUIT_CHARS.upper() and t[0] in RANK_CHARS[:13]:
            rank, suit = RANK_CHARS.index(t[0]), SUIT_CHARS.upper().index(t[1])
            for pack in range(self.options.decks):
                card = pack * CARDS_PER_PACK + rank * 4 + suit
                if card in free:
                    return [card]
            raise SetupError(f"{what}: no {token} left in the deck")
        try:
            ranks = parse_ranks(t)
        except ShedkitError as err:
            raise SetupError(f"{what}: {err}") from err
        out: list[int] = []
        for r in ranks:
            pool = sorted(c for c in free if card_rank(c) == r and c not in out)
            if not pool:
                raise SetupError(f"{what}: no {RANK_CHARS[r]} left in the deck")
            out.append(pool[0])
        return out

    def match_setup(self, deals_played: int, previous: State | None = None) -> dict[str, Any]:
        """Set-up keys for the next deal of a match: the first bidder rotates if asked (DDZ-04)."""
        if self.options.first_bidder == "rotate":
            return {"first_bidder": deals_played % self.num_players}
        return {}

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: unseen cards dealt at random (for search)."""
        return determinize(self, view, rng)

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        kitty: list[int],
        seed: int,
        observe: Callable[[State, Move], None] | None = None,
    ) -> State:
        """The deal in which each seat holds ``hands`` now, replayed through ``view``'s history.

        Each seat was dealt its hand now and the cards it played (the landlord less the
        ``kitty``); ``observe(state, move)``, if given, sees each move before it is replayed.
        """
        played = [set(p) for p in view.played]
        dealt: list[list[int]] = []
        for seat, hand in enumerate(hands):
            original = set(hand) | played[seat]
            if seat == view.landlord and view.kitty is not None:
                original -= set(view.kitty)
            dealt.append(sorted(original))
        # A deal that skipped the auction (new_deal(landlord=..., bid=...)) has a
        # landlord and no bids: it starts in play, else its plays would replay as bids.
        skipped = view.landlord is not None and not view.bids
        landlord = view.landlord if skipped else None
        state = State(self, seed, dealt, kitty, view.first_bidder, landlord, view.stake)
        for _, move, cards in view.history:
            if observe is not None:
                observe(state, move)
            state._apply(move, cards if move.size else None)
        return state

    def deal_from_setup(self, seed: int, setup: Mapping[str, Any]) -> State:
        """The deal a record's ``seed`` and ``setup`` describe, before any move."""
        return self.new_deal(
            seed=seed,
            hands=[list(h) for h in setup["hands"]],
            kitty=list(setup["kitty"]),
            first_bidder=setup["first_bidder"],
            landlord=setup.get("landlord"),
            bid=setup.get("bid", 1),
        )


# The attributes of a State, which clone() copies (one list for both).
_STATE_SLOTS: Final = (
    "_legal",
    "bids",
    "bomb_masks",
    "bombs",
    "current_player",
    "dealt",
    "finished_start",
    "first_bidder",
    "game",
    "hands",
    "high_bid",
    "high_bidder",
    "history",
    "kitty",
    "landlord",
    "last_play",
    "last_player",
    "out_of_auction",
    "passes",
    "phase",
    "played",
    "played_counts",
    "plays",
    "rank_counts",
    "seed",
    "thrown_in",
    "trick_start",
    "winner",
)


class State:
    """One deal in progress. ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = _STATE_SLOTS

    def __init__(
        self,
        game: DouDizhu,
        seed: int,
        dealt: list[list[int]],
        kitty: list[int],
        first_bidder: int,
        landlord: int | None,
        bid: int,
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
        n = game.num_players
        self.game = game
        self.seed = seed
        self.dealt = tuple(sort_cards(h) for h in dealt)
        self.kitty = sort_cards(kitty)
        self.first_bidder = first_bidder
        self.hands = [mask_of(h) for h in dealt]
        self.rank_counts = [[0] * NRANKS for _ in range(n)]
        for seat, hand in enumerate(dealt):
            counts = self.rank_counts[seat]
            for c in hand:
                counts[card_rank(c)] += 1
        # Ranks each seat holds four of, kept up to date instead of searched for every move.
        self.bomb_masks = [bomb_ranks(c) for c in self.rank_counts]
        self.bids: list[tuple[int, Move]] = []
        self.high_bid = 0
        self.high_bidder = -1
        self.out_of_auction = [False] * n
        self.passes = 0
        self.landlord: int | None = None
        self.last_play: Move | None = None
        self.last_player = -1
        self.bombs = 0
        self.plays = [0] * n
        self.played: list[list[int]] = [[] for _ in range(n)]
        # Rank counts of what each seat has played, kept for encoders (the envs).
        self.played_counts = [[0] * NRANKS for _ in range(n)]
        self.history: list[tuple[int, Move, tuple[int, ...]]] = []
        self.thrown_in = False
        self.trick_start = 0
        # Where the trick just ended began: the view shows it until the next move. Equal
        # to trick_start while no trick has ended since play began.
        self.finished_start = 0
        self.winner: int | None = None
        self._legal: tuple[Move, ...] | None = None
        self.phase = "auction"
        self.current_player: int | None = first_bidder
        if landlord is not None:
            self.high_bid, self.high_bidder = bid, landlord
            self._start_play(landlord)

    # -- queries ---------------------------------------------------------------

    def opens_trick(self) -> bool:
        """True when the next move leads a new trick, the last one having just ended."""
        return self.phase == "play" and self.last_play is None and bool(self.history)

    def finishing_order(self) -> list[int]:
        """The seats in the order they went out (titles for the next deal), if it matters."""
        return []

    @property
    def is_over(self) -> bool:
        """True once a player has gone out or the deal was thrown in."""
        return self.phase == "over"

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.game.num_players

    @property
    def multiplier(self) -> int:
        """2 to the number of bombs and rockets so far (DDZ-31), spring not included."""
        return 1 << self.bombs

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, in playing order (omniscient: not for agents)."""
        return sort_cards(members(self.hands[seat]))

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the current player may make; empty when the deal is over."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.current_player
        t = self.game.tables
        if seat is None:
            legal = ()
        elif self.phase == "auction":
            legal = (t.moves[0], *t.bids[self.high_bid :])
        elif self.last_play is None:
            legal = tuple(lead_moves(self.rank_counts[seat], t, self.bomb_masks[seat]))
        else:
            last = self.last_play
            legal = tuple(response_moves(self.rank_counts[seat], t, last, self.bomb_masks[seat]))
        self._legal = legal
        return legal

    @property
    def spring(self) -> bool:
        """True if the deal ended in a spring under the ``spring`` option (DDZ-32)."""
        landlord = self.landlord
        if self.winner is None or landlord is None:
            return False
        mode = self.game.options.spring
        landlord_won = self.winner == landlord
        peasants = [s for s in range(self.num_players) if s != landlord]
        if mode == "standard":
            if landlord_won:
                return all(self.plays[s] == 0 for s in peasants)
            return self.plays[landlord] == 1
        if mode == "any_player":
            # Anyone but the player who went out who still holds every card they were dealt
            # (the kitty included for the landlord), the winner's partner too.
            return any(self.plays[s] == 0 for s in range(self.num_players) if s != self.winner)
        return False

    def returns(self) -> list[int]:
        """Each seat's score for the deal (DDZ-30…33, DDZ-43); zeros until it is over."""
        n = self.num_players
        landlord = self.landlord
        if self.winner is None or landlord is None:
            return [0] * n
        value = self.high_bid << (self.bombs + self.spring)
        sign = 1 if self.winner == landlord else -1
        out = [-sign * value] * n
        out[landlord] = sign * value * (n - 1)
        return out

    # -- moves -----------------------------------------------------------------

    def apply(self, move: object, seat: object = None) -> None:
        """Play ``move`` for the current player (or check it is ``seat``'s turn first).

        Raises `IllegalMoveError`, leaving the state unchanged, if the move
        is not legal now.
        """
        if self.phase == "over":
            raise IllegalMoveError("the deal is over; no more moves")
        if seat is not None and seat != self.current_player:
            raise IllegalMoveError(f"it is seat {self.current_player}'s turn, not seat {seat}'s")
        legal = self.legal_moves()
        for m in legal:
            if m is move:
                break
        else:
            # Not an interned move of this game: compare by value.
            for m in legal:
                if m == move:
                    break
            else:
                raise IllegalMoveError(self._why_illegal(move))
        self._apply(m, None)

    def _why_illegal(self, move: object) -> str:
        if not isinstance(move, Move):
            return f"{move!r} is not a Dou Di Zhu move; use game.parse_move(text, state)"
        seat = self.current_player
        if self.phase == "auction":
            if move.kind == "bid":
                return f"bid{move.rank} does not raise the highest bid, {self.high_bid}"
            bids = ", ".join(str(m) for m in self.legal_moves()[1:])
            return f"{move} is a play; the auction is on (pass or {bids})"
        if move.kind == "bid":
            return "the auction is over; bids are no longer possible"
        if move.kind == "pass":
            return "the leader of a trick may not pass (DDZ-12)"
        counts = self.rank_counts[seat] if seat is not None else [0] * NRANKS
        missing = [r for r in set(move.ranks) if move.ranks.count(r) > counts[r]]
        if missing:
            return f"seat {seat} does not hold the cards for {move}"
        return f"{move} does not beat {self.last_play} (DDZ-20…23)"

    def _apply(self, move: Move, cards: tuple[int, ...] | None) -> None:
        """Apply a legal move; ``cards`` names the physical cards (else the lowest of each rank)."""
        seat = self.current_player
        assert seat is not None
        self._legal = None
        n = self.num_players
        kind = move.kind
        if self.phase == "auction":
            self.bids.append((seat, move))
            self.history.append((seat, move, ()))
            if kind == "bid":
                self.high_bid, self.high_bidder, self.passes = move.rank, seat, 0
                if move.rank == 3:  # DDZ-06
                    self._start_play(seat)
                    return
            else:
                self.passes += 1
                if self.game.options.pass_is_final:  # DDZ-09
                    self.out_of_auction[seat] = True
            self._next_bidder()
            return
        if kind == "pass":
            self.history.append((seat, move, ()))
            self.passes += 1
            if self.passes == n - 1:  # DDZ-13
                self.last_play = None
                self.passes = 0
                self.finished_start = self.trick_start
                self.trick_start = len(self.history)
                self.current_player = self.last_player
            else:
                self.current_player = (seat + 1) % n
            return
        hand = self.hands[seat]
        counts = self.rank_counts[seat]
        ranks = move.ranks
        if cards is None:
            taken = []
            for r in ranks:
                low = hand & _RANK_BITS[r]
                low &= -low
                hand ^= low
                taken.append(low.bit_length() - 1)
                counts[r] -= 1
            cards = tuple(taken)
        else:
            for c in cards:
                hand ^= 1 << c
            for r in ranks:
                counts[r] -= 1
        played = self.played_counts[seat]
        for r in ranks:
            played[r] += 1
        held = self.bomb_masks[seat]
        if held:
            for r in ranks:
                if counts[r] < 4:
                    held &= ~(1 << r)
            self.bomb_masks[seat] = held
        self.hands[seat] = hand
        self.played[seat] += cards
        self.history.append((seat, move, cards))
        self.plays[seat] += 1
        if kind == "bomb" or kind == "rocket":
            self.bombs += 1  # DDZ-31
        self.last_play, self.last_player, self.passes = move, seat, 0
        if not hand:  # DDZ-14
            self.winner = seat
            self.phase = "over"
            self.current_player = None
        else:
            self.current_player = (seat + 1) % n

    def _next_bidder(self) -> None:
        n = self.num_players
        out = self.out_of_auction
        if self.game.options.pass_is_final:
            active = [s for s in range(n) if not out[s]]
            if not active or (active == [self.high_bidder]):
                return self._end_auction()
        elif self.passes >= (n - 1 if self.high_bid else n):  # DDZ-07, DDZ-08
            return self._end_auction()
        seat = self.current_player
        assert seat is not None
        seat = (seat + 1) % n
        while out[seat]:
            seat = (seat + 1) % n
        self.current_player = seat

    def _end_auction(self) -> None:
        if self.high_bid == 0:  # DDZ-08: thrown in
            self.thrown_in = True
            self.phase = "over"
            self.current_player = None
            return
        self._start_play(self.high_bidder)

    def _start_play(self, landlord: int) -> None:
        """DDZ-10: the landlord shows and takes the kitty and leads."""
        self.landlord = landlord
        counts = self.rank_counts[landlord]
        for c in self.kitty:
            self.hands[landlord] |= 1 << c
            counts[card_rank(c)] += 1
        self.bomb_masks[landlord] = bomb_ranks(counts)
        self.phase = "play"
        self.passes = 0
        self.trick_start = self.finished_start = len(self.history)
        self.current_player = landlord
        self._legal = None

    # -- copies, views, records ------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the game and every attribute (compiled classes need it)."""
        return _unpickle_state, (self.game, {name: getattr(self, name) for name in _STATE_SLOTS})

    def clone(self) -> State:
        """An independent copy (the game and the move objects are shared)."""
        new = State(self.game, self.seed, [], [], 0, None, 1, source=self)
        new.hands = self.hands.copy()
        new.rank_counts = [c.copy() for c in self.rank_counts]
        new.bomb_masks = self.bomb_masks.copy()
        new.played_counts = [c.copy() for c in self.played_counts]
        new.bids = self.bids.copy()
        new.out_of_auction = self.out_of_auction.copy()
        new.plays = self.plays.copy()
        new.played = [p.copy() for p in self.played]
        new.history = self.history.copy()
        return new

    def view(self, seat: object) -> View:
        """What ``seat`` may know (DDZ-10: the kitty once shown); ``None`` for a spectator."""
        n = self.num_players
        seat = view_seat_arg(seat, n)
        revealed = self.landlord is not None
        return View(
            seat=seat,
            num_players=n,
            options=self.game.options,
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hand(seat) if seat is not None else (),
            cards_left=tuple(h.bit_count() for h in self.hands),
            first_bidder=self.first_bidder,
            landlord=self.landlord,
            kitty=self.kitty if revealed else None,
            stake=self.high_bid,
            high_bidder=self.high_bidder,
            bombs=self.bombs,
            history=tuple(self.history),
            bids=tuple(self.bids),
            trick=tuple((s, m) for s, m, _ in self.history[self.trick_start :])
            if self.phase != "auction"
            else (),
            finished_trick=self._finished_trick(),
            played=tuple(tuple(p) for p in self.played),
            last_play=self.last_play,
            last_player=self.last_player,
            passes=self.passes,
            legal_moves=self.legal_moves() if seat == self.current_player else (),
            thrown_in=self.thrown_in,
            winner=self.winner,
            spring=self.spring,
            returns=tuple(self.returns()),
        )

    def _finished_trick(self) -> tuple[tuple[int, Move], ...]:
        """The trick that just ended (DDZ-13), while no move has followed it."""
        if self.phase != "play" or self.trick_start != len(self.history):
            return ()
        return tuple((s, m) for s, m, _ in self.history[self.finished_start : self.trick_start])

    def record(self) -> dict[str, Any]:
        """A JSON-able description of the deal so far; `shedkit.replay` rebuilds it."""
        landlord = None
        setup: dict[str, Any] = {
            "hands": [list(h) for h in self.dealt],
            "kitty": list(self.kitty),
            "first_bidder": self.first_bidder,
        }
        if self.landlord is not None and not self.bids:
            landlord = self.landlord
            setup["landlord"] = landlord
            setup["bid"] = self.high_bid
        return {
            "game": self.game.name,
            "version": RECORD_VERSION,
            "preset": self.game.preset,
            "options": options_to_dict(self.game.options),
            "seed": self.seed,
            "setup": setup,
            "hands_text": [" ".join(card_str(c) for c in h) for h in self.dealt],
            "moves": [str(m) for _, m, _ in self.history],
            "thrown_in": self.thrown_in,
            "returns": self.returns() if self.is_over else None,
        }

    def __repr__(self) -> str:
        return f"<doudizhu.State phase={self.phase} turn={self.current_player} seed={self.seed}>"

    def __str__(self) -> str:
        lines = []
        for seat in range(self.num_players):
            role = "L" if seat == self.landlord else " "
            cards = " ".join(card_str(c) for c in self.hand(seat))
            lines.append(f"{seat}{role} {cards}")
        if self.last_play is not None:
            lines.append(f"last: seat {self.last_player} {self.last_play}")
        return "\n".join(lines)


def make(preset: str = "standard", **options: Any) -> DouDizhu:
    """Build the game from a preset and option overrides (validated)."""
    return DouDizhu(build_options(Options, PRESETS, preset, options, "doudizhu"), preset)


def _unpickle_state(game: DouDizhu, attrs: dict[str, Any]) -> State:
    """The state `State.__reduce__` pickled."""
    return State(game, 0, [], [], 0, None, 1, attrs=attrs)
