"""President: the game, its state, the tax, play, revolution and finishing order (PRE-01…31).

The tax (PRE-20, PRE-21) happens at the deal's start: ``new_deal`` fixes what
leaves each loser by itself (cards drawn at random, or under ``tax_style =
"best"`` the loser's highest cards), ``State`` moves them to the giver before
any move, and the ``"tax"`` phase's only moves are the givers' ``give`` choices.

>>> import shedkit
>>> game = shedkit.make("president", players=4)
>>> state = game.new_deal(seed=3)
>>> while not state.is_over:
...     state.apply(state.legal_moves()[-1])
>>> sorted(state.returns())
[0, 1, 2, 3]
"""

from __future__ import annotations

import dataclasses
import itertools
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
from shedkit.president.actions import Tables, tables_for
from shedkit.president.combos import EIGHT, JOKER, PASS, Move, best_cards, card_str
from shedkit.president.movegen import play_keys
from shedkit.president.notation import parse_cards, parse_move
from shedkit.president.options import PRESETS, Options
from shedkit.president.view import HIDDEN_GIVE, View, determinize

__all__ = ["TITLES", "President", "SetupError", "State", "make"]

RECORD_VERSION: Final = 1
#: PRE-11 titles by place; the middle places are all ``Cittadino``.
TITLES: Final = ("Presidente", "Vicepresidente", "Cittadino", "Vice-schiavo", "Schiavo")


def title(place: int, n: int) -> str:
    """The PRE-11 title of finishing place ``place`` (0 = first) among ``n`` players."""
    if place == 0:
        return TITLES[0]
    if place == n - 1:
        return TITLES[4]
    if place == 1:
        return TITLES[1]
    if place == n - 2:
        return TITLES[3]
    return TITLES[2]


class President(GameBase[Move, "State"]):
    """The game under fixed options; makes deals and reads moves."""

    name: Final = "president"
    title = "President"

    def __init__(self, options: Options, preset: str = "standard") -> None:
        self.options = options
        self.preset = preset
        self.tables: Tables = tables_for(options)
        self.num_players = options.players
        self.deck: tuple[int, ...] = tuple(range(52 + options.jokers))
        n = options.players
        self.info = GameInfo(
            name=self.name,
            num_players=n,
            chance=True,
            hidden_information=True,
            zero_sum=False,  # constant-sum: places score n-1 … 0 (PRE-12)
            min_score=0,
            max_score=n - 1,
            num_actions=self.tables.num_actions,
            max_game_length=2 + n * len(self.deck) * 2,
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by options and preset (compiled classes need it)."""
        return type(self), (self.options, self.preset)

    def __repr__(self) -> str:
        return f"<President preset={self.preset!r} {self.options}>"

    def parse_move(self, text: object, state: State | None = None) -> Move:
        """Read a move in PRE-30/31 notation (``7c 7h``, ``4h Jk=5h 6h``, ``pass``, ``give 3c``)."""
        return parse_move(text, self.tables)

    def match_setup(self, deals_played: int, previous: State | None = None) -> dict[str, Any]:
        """Set-up of a match's next deal: dealer rotation (PRE-04), tax (PRE-20/21), the order."""
        if previous is None:
            return {}
        setup: dict[str, Any] = {"dealer": (previous.dealer + 1) % self.num_players}
        if self.options.tax:
            setup["previous_order"] = list(previous.finished)
        if self.options.revolution_persists:
            setup["revolution"] = previous.revolution
        return setup

    def new_deal(
        self,
        seed: object = None,
        hands: Sequence[str | Sequence[int] | None] | None = None,
        *,
        dealer: object = None,
        leftover: str | Sequence[int] | None = None,
        previous_order: Sequence[int] | None = None,
        tax_draws: Sequence[Sequence[int]] | None = None,
        revolution: object = False,
    ) -> State:
        """Deal a new hand, deterministic from ``seed`` (PRE-04…06, PRE-20, PRE-21).

        ``hands`` fixes some or all hands (card ids or text such as ``"7c 7h Jk"``);
        the rest are dealt. Cards in no hand are the public leftover (PRE-05).
        ``previous_order`` (the last deal's finishing order) starts the tax when
        the ``tax`` option is on; ``tax_draws`` fixes the cards taken at random.
        With ``tax_style = "best"`` the loser's highest cards in the order in force
        (``revolution`` at the deal's start) are taken instead and nothing is drawn;
        ``tax_draws``, if given, must name those very cards.
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
                    given[seat] = self._take(hand, free, f"hand of seat {seat}")
        kept = None if leftover is None else self._take(leftover, free, "leftover")
        rest = sorted(free)
        shuffle(rng, rest)
        dealt = []
        for seat in range(n):
            hand = given[seat]
            if hand is None:
                hand, rest = rest[: opts.hand_size], rest[opts.hand_size :]
                if len(hand) < opts.hand_size:
                    raise SetupError("not enough cards left to deal the hands not given")
            dealt.append(sorted(hand))
        out_of_play = sorted((kept or []) + rest)
        dealer = randbelow(rng, n) if dealer is None else seat_arg(dealer, n, "dealer")
        exchanges: list[tuple[int, int, int]] = []
        if opts.tax and previous_order is not None:
            order = list(previous_order)
            if sorted(order) != list(range(n)):
                raise SetupError(f"previous_order must list every seat once, not {order}")
            exchanges.append((order[0], order[-1], 2))
            if n >= 4:
                exchanges.append((order[1], order[-2], 1))
        draws: list[tuple[int, ...]] = []
        best = opts.tax_style == "best"
        for i, (_, loser, count) in enumerate(exchanges):
            if best:
                # PRE-21: the loser's highest cards move by themselves; no random draw.
                drawn = best_cards(dealt[loser], count, self.tables.position, revolution is True)
                if tax_draws is not None and (
                    len(tax_draws) != len(exchanges) or tuple(sorted(tax_draws[i])) != drawn
                ):
                    raise SetupError(
                        f"tax_style 'best': tax draw {i + 1} must be the {count} highest "
                        f"card(s) of seat {loser} (PRE-21), or leave tax_draws out"
                    )
            elif tax_draws is not None:
                if len(tax_draws) != len(exchanges):
                    raise SetupError(f"tax_draws must list {len(exchanges)} draws")
                drawn = tuple(sorted(tax_draws[i]))
                if len(drawn) != min(count, len(dealt[loser])) or not set(drawn) <= set(
                    dealt[loser]
                ):
                    raise SetupError(f"tax draw {i + 1} must be {count} cards of seat {loser}")
            else:
                drawn = tuple(sorted(rng.sample(dealt[loser], min(count, len(dealt[loser])))))
            draws.append(drawn)
        if not isinstance(revolution, bool):
            raise SetupError(f"revolution must be true or false, not {revolution!r}")
        return State(self, seed, dealt, out_of_play, dealer, exchanges, draws, revolution)

    def _take(self, spec: str | Sequence[int], free: set[int], what: str) -> list[int]:
        if isinstance(spec, str):
            try:
                cards = parse_cards(spec)
            except ShedkitError as err:
                raise SetupError(f"{what}: {err}") from err
        else:
            cards = list(spec)
        return claim(cards, free, what, self.deck, card_str)

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: unseen cards dealt at random (for search)."""
        return determinize(self, view, rng)

    def deal_from(
        self,
        view: View,
        hands: list[list[int]],
        tax_draws: list[tuple[int, ...]],
        seed: int,
    ) -> State:
        """The deal in which each seat holds ``hands`` now, at the point ``view`` shows.

        ``tax_draws`` are the cards each exchange of the tax drew (PRE-20); the
        phase, the turn, the trick and the history are the view's.
        """
        state = self.new_deal(seed=seed, hands=hands, dealer=view.dealer)
        state.leftover = view.leftover
        state.phase = view.phase
        state.current_player = view.current_player
        state.revolution = view.revolution
        state.exchanges = list(view.exchanges)
        state.tax_draws = tax_draws
        state.tax_step = view.tax_step
        state.last_play = view.last_play
        state.last_player = view.last_player
        state.passes = view.passes
        state.passed = list(view.passed)
        state.finished = list(view.finished)
        state.history = list(view.history)
        state.trick_start = len(view.history) - len(view.trick)
        state.finished_start = state.trick_start - len(view.finished_trick)
        state._legal = None
        return state

    def replay_play(self, state: State, observe: Callable[[State, Move], None]) -> State | None:
        """Play ``state``'s deal again from the tax's end, showing ``observe`` every play first.

        ``state`` is a whole deal with every hand known: each seat held its hand now
        and the cards it has played since the tax, and the order in force was flipped
        by each quad played since (PRE-13). ``observe(before, move)`` sees each move
        of the play in the state it was made from. Returns the state replayed to the
        end of the history, or ``None`` if those hands could not have made its moves.
        """
        history = state.history
        gives = 0
        while gives < len(history) and history[gives][1].kind == "give":
            gives += 1
        hands = list(state.hands)
        flips = 0
        for seat, move, cards in history[gives:]:
            hands[seat] |= mask_of(cards)
            flips += move.kind == "quad"
        revolution = state.revolution != (self.options.revolution and flips % 2 == 1)
        try:
            start = self.new_deal(
                seed=0,
                hands=[members(h) for h in hands],
                dealer=state.dealer,
                leftover=state.leftover,
                revolution=revolution,
            )
        except ValueError:
            return None
        # The tax as it was: the gives stay in the history, the exchanges are done.
        start.history = list(history[:gives])
        start.trick_start = start.finished_start = gives
        start.exchanges = list(state.exchanges)
        start.tax_draws = list(state.tax_draws)
        start.tax_step = len(state.exchanges)
        for _, move, _ in history[gives:]:
            observe(start, move)
            try:
                start.apply(move)
            except IllegalMoveError:
                return None
        return start

    def replay(self, record: Mapping[str, Any], steps: int | None = None) -> State:
        """Rebuild the state ``record`` describes (see `GameBase.replay`).

        A record names ``tax_style`` only when it is not ``"drawn"`` (PRE-21), so a
        record without it replays under ``"drawn"`` even where this game's preset
        (``"international"``) says ``"best"``: records written before the option
        existed keep replaying as they were played.
        """
        options = record.get("options") if isinstance(record, Mapping) else None
        if (
            isinstance(options, Mapping)
            and "tax_style" not in options
            and self.options.tax_style != "drawn"
        ):
            drawn = dataclasses.replace(self.options, tax_style="drawn")
            return President(drawn, self.preset).replay(record, steps)
        return super().replay(record, steps)

    def deal_from_setup(self, seed: int, setup: Mapping[str, Any]) -> State:
        """The deal a record's ``seed`` and ``setup`` describe, before any move."""
        return self.new_deal(
            seed=seed,
            hands=[list(h) for h in setup["hands"]],
            leftover=list(setup["leftover"]),
            dealer=setup["dealer"],
            previous_order=setup.get("previous_order"),
            tax_draws=setup.get("tax_draws"),
            revolution=bool(setup.get("revolution", False)),
        )


# The attributes of a State, which clone() copies (one list for both).
_STATE_SLOTS: Final = (
    "_legal",
    "current_player",
    "dealer",
    "dealt",
    "exchanges",
    "finished",
    "finished_start",
    "game",
    "hands",
    "history",
    "last_play",
    "last_player",
    "leftover",
    "passed",
    "passes",
    "phase",
    "revolution",
    "seed",
    "start_revolution",
    "tax_draws",
    "tax_step",
    "trick_start",
)


class State:
    """One deal in progress. ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = _STATE_SLOTS

    def __init__(
        self,
        game: President,
        seed: int,
        dealt: list[list[int]],
        leftover: list[int],
        dealer: int,
        exchanges: list[tuple[int, int, int]],
        draws: list[tuple[int, ...]],
        revolution: bool,
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
        self.dealt = tuple(tuple(h) for h in dealt)
        self.leftover = tuple(leftover)
        self.dealer = dealer
        self.hands = [mask_of(h) for h in dealt]
        self.exchanges = exchanges
        self.tax_draws = draws
        self.tax_step = 0
        self.revolution = revolution
        self.start_revolution = revolution
        self.last_play: Move | None = None
        self.last_player = -1
        self.passes = 0
        self.passed = [False] * n
        self.finished: list[int] = []
        self.history: list[tuple[int, Move, tuple[int, ...]]] = []
        self.trick_start = 0
        # Where the trick just ended began: the view shows it until the next move. Equal
        # to trick_start while no trick has ended since play began.
        self.finished_start = 0
        self._legal: tuple[Move, ...] | None = None
        # PRE-20: the random cards (PRE-21: the best cards) go to the giver before any
        # chosen card moves.
        for (giver, loser, _), drawn in zip(exchanges, draws, strict=True):
            bits = mask_of(drawn)
            self.hands[loser] &= ~bits
            self.hands[giver] |= bits
        if exchanges:
            self.phase = "tax"
            self.current_player: int | None = exchanges[0][0]
        else:
            self.phase = "play"
            self.current_player = (dealer + 1) % n  # PRE-06

    # -- queries ---------------------------------------------------------------

    def opens_trick(self) -> bool:
        """True when the next move leads a new trick, the last one having just ended."""
        return self.phase == "play" and self.last_play is None and bool(self.history)

    @property
    def thrown_in(self) -> bool:
        """True if the deal was thrown in and will be dealt again; never in this game."""
        return False

    def finishing_order(self) -> list[int]:
        """The seats in the order they went out (titles for the next deal), if it matters."""
        return list(self.finished)

    @property
    def is_over(self) -> bool:
        """True once the finishing order is complete."""
        return self.phase == "over"

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.game.num_players

    @property
    def order(self) -> tuple[int, ...]:
        """Faces from low to high in the order in force (PRE-03, PRE-13)."""
        seq = self.game.tables.sequence
        return tuple(reversed(seq)) if self.revolution else seq

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, low to high in the order in force (omniscient)."""
        return self.sort(members(self.hands[seat]))

    def sort(self, cards: Sequence[int]) -> tuple[int, ...]:
        """Cards low to high in the order in force, the joker last."""
        rank = self.game.tables.sort_rank[1 if self.revolution else 0]
        return tuple(sorted(cards, key=rank.__getitem__))

    def notation(self, move: Move) -> str:
        """``move`` written low to high in the order in force now (PRE-31)."""
        if self.revolution:
            return self.game.tables.text_reversed[move.action_id]
        return str(move)

    def in_deal(self) -> list[int]:
        """Seats that still hold cards, in seat order."""
        done = set(self.finished)
        return [s for s in range(self.num_players) if s not in done]

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the current player may make; empty when the deal is over."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.current_player
        t = self.game.tables
        if seat is None:
            legal = ()
        elif self.phase == "tax":
            _, _, count = self.exchanges[self.tax_step]
            if self.game.options.tax_style == "best":
                # PRE-21: any cards of the giver's hand, the ones just received included.
                hand = members(self.hands[seat])
            else:
                # PRE-20: the giver chooses among their own dealt cards, never the ones just
                # drawn, so the exchange is a swap and never hands a card straight back.
                hand = members(self.hands[seat] & ~mask_of(self.tax_draws[self.tax_step]))
            legal = tuple(
                t.by_key[("give", combo, -1)] for combo in itertools.combinations(hand, count)
            )
        else:
            legal = tuple(self._plays(self.hands[seat]))
        self._legal = legal
        return legal

    def _plays(self, hand: int) -> list[Move]:
        """Leads, or ``pass`` and the plays beating the last play (PRE-07, PRE-13, PRE-15)."""
        t = self.game.tables
        by_key = t.by_key
        joker = hand >> JOKER & 1
        last = self.last_play
        out: list[Move] = []
        if last is None:
            for face in range(13):
                pattern = (hand >> (4 * face) & 15) | joker << 4
                if pattern & 15:
                    out += t.same_face[face][pattern][0]
            if joker:
                out.append(by_key[("single", (JOKER,), -1)])
            out += [by_key[k] for k in play_keys(hand, t.sequence, "run")]
            return out
        out.append(PASS)
        rev = self.revolution
        strength = t.strength
        bar = strength[last.action_id][rev]
        if last.kind == "run":
            out += [
                m
                for m in (by_key[k] for k in play_keys(hand, t.sequence, "run", last.size))
                if strength[m.action_id][rev] > bar
            ]
            return out
        size = last.size
        position = t.position
        for face in range(13):
            pattern = (hand >> (4 * face) & 15) | joker << 4
            if pattern & 15 and (12 - position[face] if rev else position[face]) > bar:
                out += t.same_face[face][pattern][size]
        if joker and size == 1 and bar < 13:
            out.append(by_key[("single", (JOKER,), -1)])  # nothing beats it (PRE-15)
        return out

    def returns(self) -> list[int]:
        """Each seat's points for the deal: ``n - place`` (PRE-12); zeros until it is over."""
        n = self.num_players
        out = [0] * n
        if self.phase == "over":
            for place, seat in enumerate(self.finished):
                out[seat] = n - 1 - place
        return out

    def titles(self) -> dict[int, str]:
        """PRE-11 titles of the seats that have finished so far (all, once over)."""
        n = self.num_players
        return {seat: title(place, n) for place, seat in enumerate(self.finished)}

    # -- moves -----------------------------------------------------------------

    def apply(self, move: object, seat: object = None) -> None:
        """Play ``move`` for the current player; an illegal move raises and changes nothing."""
        if self.phase == "over":
            raise IllegalMoveError("the deal is over; no more moves")
        if seat is not None and seat != self.current_player:
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
            return f"{move!r} is not a President move; use game.parse_move(text, state)"
        seat = self.current_player
        if self.phase == "tax":
            _, receiver, count = self.exchanges[self.tax_step]
            if self.game.options.tax_style == "best":
                return (
                    f"the tax is on: seat {seat} gives seat {receiver} back {count} card(s) "
                    f"of its choice from its hand (give …) (PRE-21)"
                )
            return (
                f"the tax is on: seat {seat} gives seat {receiver} {count} card(s) of its own "
                f"dealt hand, not the cards just drawn (give …) (PRE-20)"
            )
        if move.kind == "give":
            return "the tax is over; give is not a move now"
        if move.kind == "pass":
            return "the leader of a trick may not pass"
        assert seat is not None
        if any(not self.hands[seat] >> c & 1 for c in move.cards):
            return f"seat {seat} does not hold {move}"
        last = self.last_play
        assert last is not None
        if move.kind != last.kind or move.size != last.size:
            what = "one card" if last.size == 1 else f"{last.size} cards of one rank"
            return f"{move} cannot follow {last}: the answer must be {what}, as led (PRE-07)"
        return f"{move} is not higher than {last} in the order in force (PRE-07, PRE-13)"

    def _next_in(self, seat: int, skip_passed: bool = False) -> int | None:
        """The next seat after ``seat`` still in the deal (and in the trick, if asked)."""
        n = self.num_players
        done = set(self.finished)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s not in done and not (skip_passed and self.passed[s]) and s != seat:
                return s
        return None

    def _apply(self, move: Move) -> None:
        seat = self.current_player
        assert seat is not None
        self._legal = None
        if self.phase == "tax":
            giver, receiver, _ = self.exchanges[self.tax_step]
            bits = mask_of(move.cards)
            self.hands[giver] &= ~bits
            self.hands[receiver] |= bits
            self.history.append((seat, move, move.cards))
            self.tax_step += 1
            if self.tax_step < len(self.exchanges):
                self.current_player = self.exchanges[self.tax_step][0]
            else:
                self.phase = "play"
                self.current_player = (self.dealer + 1) % self.num_players
                self.trick_start = self.finished_start = len(self.history)
            return
        final = self.game.options.pass_is_final
        if move.kind == "pass":
            self.history.append((seat, move, ()))
            self.passes += 1
            self.passed[seat] = True
            others = [s for s in self.in_deal() if s != self.last_player]
            if (final and all(self.passed[s] for s in others)) or (
                not final and self.passes >= len(others)
            ):
                self._end_trick()  # PRE-09
            else:
                self.current_player = self._next_in(seat, skip_passed=final)
            return
        self.hands[seat] &= ~mask_of(move.cards)
        self.history.append((seat, move, move.cards))
        if move.kind == "quad" and self.game.options.revolution:
            self.revolution = not self.revolution  # PRE-13
        self.last_play, self.last_player, self.passes = move, seat, 0
        if not self.hands[seat]:
            self.finished.append(seat)  # PRE-10
            left = self.in_deal()
            if len(left) == 1:
                self.finished.append(left[0])
                self.phase = "over"
                self.current_player = None
                return
        if self.game.options.eight_stops and EIGHT in move.faces:
            self._end_trick()  # PRE-18
            return
        following = self._next_in(seat, skip_passed=final)
        if following is None:
            self._end_trick()
        else:
            self.current_player = following

    def _end_trick(self) -> None:
        """Clear the trick; its last player leads, unless out or it ended on a joker (PRE-17)."""
        last, play = self.last_player, self.last_play
        assert play is not None
        leader = self._next_in(last) if play.has_joker or last in self.finished else last
        self.current_player = leader
        self.last_play = None
        self.passes = 0
        self.passed = [False] * self.num_players
        self.finished_start = self.trick_start
        self.trick_start = len(self.history)

    # -- copies, views, records ------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the game and every attribute (compiled classes need it)."""
        return _unpickle_state, (self.game, {name: getattr(self, name) for name in _STATE_SLOTS})

    def clone(self) -> State:
        """An independent copy (the game and the move objects are shared)."""
        new = State(self.game, self.seed, [], [], 0, [], [], False, source=self)
        new.hands = self.hands.copy()
        new.passed = self.passed.copy()
        new.finished = self.finished.copy()
        new.history = self.history.copy()
        return new

    def view(self, seat: object) -> View:
        """What ``seat`` may know (PRE-05 leftover is public, the tax's cards are not)."""
        n = self.num_players
        seat = view_seat_arg(seat, n)
        # The tax's gives all come before the first play (PRE-20): only that prefix
        # is looked at, the plays are copied as they are.
        full = self.history
        gives = 0
        while gives < len(full) and full[gives][1].kind == "give":
            gives += 1
        history: list[tuple[int, Move, tuple[int, ...]]] = []
        for who, move, cards in full[:gives]:
            giver, receiver = who, self._receiver_of(who)
            if seat not in (giver, receiver):
                history.append((who, HIDDEN_GIVE, ()))
                continue
            history.append((who, move, cards))
        history += full[gives:]
        received: list[int] = []
        lost: list[int] = []
        for (giver, loser, _), drawn in zip(self.exchanges, self.tax_draws, strict=True):
            if seat == giver:
                received += drawn
            if seat == loser:
                lost += drawn
        return View(
            seat=seat,
            num_players=n,
            options=self.game.options,
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hand(seat) if seat is not None else (),
            cards_left=tuple(h.bit_count() for h in self.hands),
            leftover=self.leftover,
            dealer=self.dealer,
            revolution=self.revolution,
            order=self.order,
            exchanges=tuple(self.exchanges),
            tax_step=self.tax_step,
            tax_drawn=tuple(received),
            tax_lost=tuple(lost),
            history=tuple(history),
            trick=tuple((s, m) for s, m, _ in self.history[self.trick_start :])
            if self.phase == "play"
            else (),
            finished_trick=self._finished_trick(),
            last_play=self.last_play,
            last_player=self.last_player,
            passes=self.passes,
            passed=tuple(self.passed),
            finished=tuple(self.finished),
            legal_moves=self.legal_moves() if seat == self.current_player else (),
            returns=tuple(self.returns()),
        )

    def _finished_trick(self) -> tuple[tuple[int, Move], ...]:
        """The trick that just ended (PRE-09, PRE-17, PRE-18), while no move has followed it."""
        if self.phase != "play" or self.trick_start != len(self.history):
            return ()
        return tuple((s, m) for s, m, _ in self.history[self.finished_start : self.trick_start])

    def _receiver_of(self, giver: int) -> int:
        for g, receiver, _ in self.exchanges:
            if g == giver:
                return receiver
        return -1

    def record(self) -> dict[str, Any]:
        """A JSON-able description of the deal so far; `shedkit.replay` rebuilds it."""
        setup: dict[str, Any] = {
            "hands": [list(h) for h in self.dealt],
            "leftover": list(self.leftover),
            "dealer": self.dealer,
        }
        if self.exchanges:
            setup["previous_order"] = self._previous_order()
            if self.game.options.tax_style != "best":
                # PRE-21: the best cards follow from the hands; only random draws are kept.
                setup["tax_draws"] = [list(d) for d in self.tax_draws]
        if self.start_revolution:
            setup["revolution"] = True
        options = options_to_dict(self.game.options)
        if options["tax_style"] == "drawn":
            # PRE-21: "drawn" goes unnamed, so records are as they were before the option,
            # and a record that does not name it replays as "drawn" (President.replay).
            del options["tax_style"]
        record: dict[str, Any] = {
            "game": self.game.name,
            "version": RECORD_VERSION,
            "preset": self.game.preset,
            "options": options,
            "seed": self.seed,
            "setup": setup,
            "hands_text": [" ".join(card_str(c) for c in h) for h in self.dealt],
            "moves": self._move_texts(),
            "finished": list(self.finished),
            "returns": self.returns() if self.is_over else None,
        }
        return record

    def _move_texts(self) -> list[str]:
        """The moves in PRE-31 notation, each in the order in force when it was made."""
        texts = []
        rev = self.start_revolution
        reversed_text = self.game.tables.text_reversed
        for _, move, _ in self.history:
            texts.append(reversed_text[move.action_id] if rev else str(move))
            if move.kind == "quad" and self.game.options.revolution:
                rev = not rev  # PRE-13
        return texts

    def _previous_order(self) -> list[int]:
        """A finishing order that gives this deal's exchanges (PRE-20)."""
        n = self.num_players
        first, last, _ = self.exchanges[0]
        middle = [s for s in range(n) if s not in (first, last)]
        if len(self.exchanges) == 2:
            second, second_last, _ = self.exchanges[1]
            middle = [s for s in middle if s not in (second, second_last)]
            return [first, second, *middle, second_last, last]
        return [first, *middle, last]

    def __repr__(self) -> str:
        return f"<president.State phase={self.phase} turn={self.current_player} seed={self.seed}>"


def make(preset: str = "standard", **options: Any) -> President:
    """Build the game from a preset and option overrides (validated)."""
    return President(build_options(Options, PRESETS, preset, options, "president"), preset)


def _unpickle_state(game: President, attrs: dict[str, Any]) -> State:
    """The state `State.__reduce__` pickled."""
    return State(game, 0, [], [], 0, [], [], False, attrs=attrs)
