"""DouZero's observation of a Dou Di Zhu position, computed from a shedkit `View`.

DouZero (Zha et al., 2021) plays only the card play of three-player Dou Di Zhu
under the standard rules: no auction, the landlord fixed and holding the kitty.
Its three networks read one position each:

- ``landlord``: the seat that won the auction;
- ``landlord_down``: the seat that plays right after the landlord
  (``landlord + 1`` here, DDZ-03);
- ``landlord_up``: the seat that plays right before the landlord (``landlord + 2``).

Card play starts once shedkit's auction is over; the auction's bids and passes
are no part of DouZero's history. DouZero writes a card as its value ``3 … 14``
for 3 … A, ``17`` for the 2, ``20`` and ``30`` for the black and the red joker, an
action as the sorted list of its cards' values, and a pass as the empty list.

For a position, with ``n`` the number of actions scored:

- ``x_no_action`` (int8): 319 values for the landlord, 430 for a peasant: the hand,
  the cards in the other hands, the last play, the cards each other seat has
  played, the last action of the landlord and of the partner (peasants), the
  cards left in the other hands (one-hot), and the bombs and rockets played so
  far (one-hot over 0 … 14);
- ``x_batch`` (float32, ``n × 373`` or ``n × 484``): ``x_no_action`` followed by the
  action's cards, one row per action;
- ``z`` (int8, ``5 × 162``): the last 15 actions (passes included, zeros before the
  first), three to a row; ``z_batch`` (float32, ``n × 5 × 162``) repeats it.

A set of cards is 54 values: per rank 3 … 2 four values, the first ``count`` of
them 1, then one value per joker. The actions are DouZero's legal actions in
DouZero's own order (`legal_actions`), duplicates included, unless others are given.

>>> import shedkit
>>> game = shedkit.make("doudizhu")
>>> state = game.new_deal(seed=3, landlord=1, bid=1)
>>> obs = encode(state.view(1))
>>> obs.position, obs.x_batch.shape, obs.z_batch.shape[1:]
('landlord', (..., 373), (5, 162))
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from shedkit.core.errors import OptionError
from shedkit.core.extras import require_extra
from shedkit.doudizhu.combos import NRANKS, card_rank
from shedkit.doudizhu.options import Options
from shedkit.doudizhu.view import View

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError:
    require_extra("rl", "the douzero agent (shedkit.agents.douzero)", "numpy")
    raise

__all__ = [
    "HISTORY",
    "POSITIONS",
    "X_SIZE",
    "Observation",
    "action_type",
    "card_counts_row",
    "card_play",
    "check_rules",
    "douzero_cards",
    "encode",
    "legal_actions",
    "position_of",
    "ranks_of",
    "rival_of",
]

#: DouZero's positions, in the order its files name them.
POSITIONS: Final = ("landlord", "landlord_up", "landlord_down")

#: Width of a row of ``x_batch`` per position (``x_no_action`` plus the 54 of the action).
X_SIZE: Final = {"landlord": 373, "landlord_up": 484, "landlord_down": 484}

#: Actions in ``z``: the last 15, three to a row of 162.
HISTORY: Final = 15

#: DouZero's value of each shedkit rank (0 = the 3 … 14 = the red joker).
VALUE_OF_RANK: Final = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_RANK_OF_VALUE: Final = {v: r for r, v in enumerate(VALUE_OF_RANK)}
_BJ, _RJ = VALUE_OF_RANK[13], VALUE_OF_RANK[14]

# DouZero's action types (its move detector's numbering).
PASS, SOLO, PAIR, TRIO, BOMB, ROCKET = 0, 1, 2, 3, 4, 5
TRIO_SOLO, TRIO_PAIR, CHAIN, PAIR_CHAIN, PLANE = 6, 7, 8, 9, 10
PLANE_SOLO, PLANE_PAIR, QUAD_SOLOS, QUAD_PAIRS, WRONG = 11, 12, 13, 14, 15

#: The card-play options DouZero was trained under (preset ``"standard"``); the
#: auction's and the scoring's options do not change card play and may be anything.
_TRAINED: Final = {
    "players": 3,
    "kickers_may_repeat": True,
    "rocket_as_kickers": False,
    "quad_single_kicker": False,
    "two_in_chains": False,
}

# 0 … 4 cards of a rank as DouZero's four values; a rank's column of the 4 × 13 matrix.
_FILL: Final = np.array([[int(i < n) for i in range(4)] for n in range(5)], dtype=np.int8)
_DECK_COUNTS: Final = (4,) * 13 + (1, 1)

Action = list[int]


def check_rules(options: Options) -> None:
    """Raise `OptionError` unless card play is DouZero's: three players, standard rules.

    >>> check_rules(Options(players=4))
    Traceback (most recent call last):
    ...
    shedkit.core.errors.OptionError: DouZero's models play three-player Dou Di Zhu under ...
    """
    wrong = [
        f"{name}={getattr(options, name)!r} (DouZero: {value!r})"
        for name, value in _TRAINED.items()
        if getattr(options, name) != value
    ]
    if wrong:
        raise OptionError(
            "DouZero's models play three-player Dou Di Zhu under the standard rules "
            f"(preset 'standard'); these options differ: {', '.join(wrong)}"
        )


def position_of(seat: int, landlord: int) -> str:
    """DouZero's position of ``seat`` in a deal whose landlord is ``landlord``.

    >>> [position_of(s, 1) for s in range(3)]
    ['landlord_up', 'landlord', 'landlord_down']
    """
    return ("landlord", "landlord_down", "landlord_up")[(seat - landlord) % 3]


def douzero_cards(ranks: Iterable[int]) -> Action:
    """DouZero's action (sorted card values) for shedkit ranks.

    >>> douzero_cards([12, 0, 13, 14])
    [3, 17, 20, 30]
    """
    return sorted(VALUE_OF_RANK[r] for r in ranks)


def ranks_of(action: Iterable[int]) -> list[int]:
    """Shedkit ranks of DouZero card values (the inverse of `douzero_cards`)."""
    return sorted(_RANK_OF_VALUE[v] for v in action)


def _consecutive(values: Sequence[int]) -> bool:
    return all(b - a == 1 for a, b in itertools.pairwise(values))


def action_type(action: Sequence[int]) -> tuple[int, int]:
    """``(type, length)`` as DouZero's move detector reads a sorted action.

    The length is the number of groups of a chain or plane (1 otherwise); it is
    what a response must match. DouZero reads some plays differently from their
    shedkit move: ``333444555+666`` is a four-trio plane (`PLANE`), a plane with
    solo kickers holding another trio outside the chain is read by its other
    trios, and a few such planes are `WRONG` (answered only by bombs).

    >>> action_type([3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]) == (PLANE, 4)
    True
    """
    size = len(action)
    if size == 0:
        return PASS, 1
    if size == 1:
        return SOLO, 1
    counts = Counter(action)
    if size == 2:
        if action[0] == action[1]:
            return PAIR, 1
        return (ROCKET, 1) if list(action) == [_BJ, _RJ] else (WRONG, 1)
    if size == 3:
        return (TRIO, 1) if len(counts) == 1 else (WRONG, 1)
    if size == 4:
        if len(counts) == 1:
            return BOMB, 1
        a = action
        if len(counts) == 2 and (a[0] == a[1] == a[2] or a[1] == a[2] == a[3]):
            return TRIO_SOLO, 1
        return WRONG, 1
    if _consecutive(action):
        return CHAIN, size
    if size == 5:
        return (TRIO_PAIR, 1) if len(counts) == 2 else (WRONG, 1)
    shape = Counter(counts.values())
    if size == 6 and len(counts) in (2, 3) and shape[4] == 1 and (shape[2] == 1 or shape[1] == 2):
        return QUAD_SOLOS, 1
    if size == 8 and ((len(counts) in (2, 3) and shape[4] == 1 and shape[2] == 2) or shape[4] == 2):
        return QUAD_PAIRS, 1
    keys = sorted(counts)
    if len(counts) == shape[2] and _consecutive(keys):
        return PAIR_CHAIN, len(keys)
    if len(counts) == shape[3] and _consecutive(keys):
        return PLANE, len(keys)
    if shape[3] >= 2:
        trios = sorted(v for v, n in counts.items() if n == 3)
        if shape[4]:
            return WRONG, 1
        solos, pairs = shape[1], shape[2]
        if _consecutive(trios):
            if len(trios) == solos + 2 * pairs:
                return PLANE_SOLO, len(trios)
            if len(trios) == pairs and len(counts) == 2 * len(trios):
                return PLANE_PAIR, len(trios)
        if len(trios) == 4 and (_consecutive(trios[1:]) or _consecutive(trios[:-1])):
            return PLANE_SOLO, 3
    return WRONG, 1


def _dedupe_adjacent(actions: list[Action]) -> list[Action]:
    """Drop an action equal to the one just before it (DouZero drops only those)."""
    return [a for i, a in enumerate(actions) if i == 0 or a != actions[i - 1]]


class _Generator:
    """DouZero's move generator over one hand (sorted card values), in DouZero's order."""

    def __init__(self, hand: list[int]) -> None:
        self.hand = hand
        self.counts: dict[int, int] = {}
        for v in hand:
            self.counts[v] = self.counts.get(v, 0) + 1
        # DouZero lists the solos in the iteration order of a set of the hand's values,
        # not by value: the same set, built from the same list, iterates the same way.
        self.solos = [[v] for v in set(hand)]
        self.pairs = [[v, v] for v, n in self.counts.items() if n >= 2]
        self.trios = [[v, v, v] for v, n in self.counts.items() if n >= 3]
        self.bombs = [[v] * 4 for v, n in self.counts.items() if n == 4]
        self.rockets = [[_BJ, _RJ]] if _BJ in self.counts and _RJ in self.counts else []

    def runs(self, values: Iterable[int], shortest: int, width: int, length: int) -> list[Action]:
        """Chains of ``width`` cards per value inside maximal runs of ``values``.

        ``length`` 0 (or below ``shortest``) gives every length from ``shortest`` up,
        shortest first, then by lowest value; else that length only.
        """
        if length < shortest:
            length = 0
        distinct = sorted(set(values))
        out: list[Action] = []
        start = 0
        for i in range(len(distinct)):
            if i + 1 < len(distinct) and distinct[i + 1] - distinct[i] == 1:
                continue
            run = distinct[start : i + 1]
            start = i + 1
            if len(run) < shortest:
                continue
            sizes = range(shortest, len(run) + 1) if length == 0 else [length]
            for k in sizes:
                for lo in range(len(run) - k + 1):
                    out.append(sorted(run[lo : lo + k] * width))
        return out

    def chains(self, length: int = 0) -> list[Action]:
        """Solo chains of 5 or more."""
        return self.runs(self.hand, 5, 1, length)

    def pair_chains(self, length: int = 0) -> list[Action]:
        """Pair chains of 3 or more."""
        return self.runs([v for v, n in self.counts.items() if n >= 2], 3, 2, length)

    def planes(self, length: int = 0) -> list[Action]:
        """Trio chains of 2 or more."""
        return self.runs([v for v, n in self.counts.items() if n >= 3], 2, 3, length)

    def trio_solos(self) -> list[Action]:
        """A trio and any one card of another value, by the card, then by the trio."""
        return [s + t for s in self.solos for t in self.trios if s[0] != t[0]]

    def trio_pairs(self) -> list[Action]:
        """A trio and a pair of another value, by the pair, then by the trio."""
        return [p + t for p in self.pairs for t in self.trios if p[0] != t[0]]

    def plane_solos(self, length: int = 0) -> list[Action]:
        """A plane and as many cards of other values as it has trios (any cards)."""
        out: list[Action] = []
        for base in self.planes(length):
            values = set(base)
            rest = [v for v in self.hand if v not in values]
            out += [base + list(kick) for kick in itertools.combinations(rest, len(values))]
        return _dedupe_adjacent(out)

    def plane_pairs(self, length: int = 0) -> list[Action]:
        """A plane and as many pairs of distinct other values as it has trios."""
        pair_values = sorted(v for v, n in self.counts.items() if n >= 2)
        out: list[Action] = []
        for base in self.planes(length):
            values = set(base)
            free = [v for v in pair_values if v not in values]
            for kick in itertools.combinations(free, len(values)):
                out.append(sorted(base + list(kick) * 2))
        return out

    def quad_solos(self) -> list[Action]:
        """Four of a kind and any two other cards."""
        out: list[Action] = []
        for q in (v for v, n in self.counts.items() if n == 4):
            rest = [v for v in self.hand if v != q]
            out += [[q] * 4 + list(kick) for kick in itertools.combinations(rest, 2)]
        return _dedupe_adjacent(out)

    def quad_pairs(self) -> list[Action]:
        """Four of a kind and two pairs of distinct other values."""
        out: list[Action] = []
        for q in (v for v, n in self.counts.items() if n == 4):
            free = [v for v, n in self.counts.items() if v != q and n >= 2]
            out += [[q] * 4 + [a, a, b, b] for a, b in itertools.combinations(free, 2)]
        return out

    def leads(self) -> list[Action]:
        """Every action from the hand, kind by kind in DouZero's order."""
        return [
            *self.solos,
            *self.pairs,
            *self.trios,
            *self.bombs,
            *self.rockets,
            *self.trio_solos(),
            *self.trio_pairs(),
            *self.chains(),
            *self.pair_chains(),
            *self.planes(),
            *self.plane_solos(),
            *self.plane_pairs(),
            *self.quad_solos(),
            *self.quad_pairs(),
        ]


def _top_of(action: Sequence[int], count: int) -> int:
    """The highest value held ``count`` times (how DouZero ranks planes and quads)."""
    return max(v for v, n in Counter(action).items() if n == count)


def legal_actions(hand: Sequence[int], rival: Sequence[int]) -> list[Action]:
    """DouZero's legal actions for ``hand`` facing ``rival`` (``[]``: a lead).

    Both are DouZero card values. The list is in DouZero's order with its
    duplicates (some planes and quads with kickers appear twice), each action
    sorted, the pass last when following. Responses follow DouZero's reading of
    ``rival`` (`action_type`), so they can differ from shedkit's legal moves.

    >>> legal_actions([3, 4, 4, 20, 30], [5, 5])
    [[20, 30], []]
    """
    gen = _Generator(sorted(hand))
    rival = sorted(rival)
    kind, length = action_type(rival)
    moves: list[Action]
    if kind == PASS:
        moves = gen.leads()
    elif kind in (SOLO, PAIR, TRIO, CHAIN, PAIR_CHAIN, PLANE):
        candidates = {
            SOLO: gen.solos,
            PAIR: gen.pairs,
            TRIO: gen.trios,
            CHAIN: gen.chains(length),
            PAIR_CHAIN: gen.pair_chains(length),
            PLANE: gen.planes(length),
        }[kind]
        moves = [m for m in candidates if m[0] > rival[0]]
    elif kind == BOMB:
        moves = [m for m in gen.bombs + gen.rockets if m[0] > rival[0]]
    elif kind == TRIO_SOLO:
        moves = [m for m in gen.trio_solos() if sorted(m)[1] > rival[1]]
    elif kind == TRIO_PAIR:
        moves = [m for m in gen.trio_pairs() if sorted(m)[2] > rival[2]]
    elif kind in (PLANE_SOLO, PLANE_PAIR):
        top = _top_of(rival, 3)
        pool = gen.plane_solos(length) if kind == PLANE_SOLO else gen.plane_pairs(length)
        moves = [m for m in pool if _top_of(m, 3) > top]
    elif kind == QUAD_SOLOS:
        moves = [m for m in gen.quad_solos() if sorted(m)[2] > rival[2]]
    elif kind == QUAD_PAIRS:
        top = _top_of(rival, 4)
        moves = [m for m in gen.quad_pairs() if _top_of(m, 4) > top]
    else:  # the rocket, or a play DouZero cannot read: only bombs (below) answer that
        moves = []
    if kind not in (PASS, BOMB, ROCKET):
        moves = moves + gen.bombs + gen.rockets
    if kind != PASS:
        moves = [*moves, []]
    return [sorted(m) for m in moves]


def _rows(actions: Sequence[Sequence[int]]) -> NDArray[np.int8]:
    """DouZero's 54 values of each action's cards, one row per action."""
    counts = np.zeros((len(actions), NRANKS), dtype=np.intp)
    for i, action in enumerate(actions):
        for v in action:
            counts[i, _RANK_OF_VALUE[v]] += 1
    return _rows_of_counts(counts)


def _rows_of_counts(counts: NDArray[np.intp]) -> NDArray[np.int8]:
    """The 54 values of each row of rank counts (ranks 3 … 2 four values each, jokers one)."""
    suited = _FILL[np.minimum(counts[:, :13], 4)].reshape(len(counts), 52)
    jokers = (counts[:, 13:] > 0).astype(np.int8)
    return np.concatenate([suited, jokers], axis=1)


def card_counts_row(ranks: Iterable[int]) -> NDArray[np.int8]:
    """DouZero's 54 values of a set of cards given by their shedkit ranks."""
    counts = np.zeros((1, NRANKS), dtype=np.intp)
    for r in ranks:
        counts[0, r] += 1
    row: NDArray[np.int8] = _rows_of_counts(counts)[0]
    return row


def _one_hot(index: int, size: int) -> NDArray[np.int8]:
    out = np.zeros(size, dtype=np.int8)
    # DouZero writes n cards left at n - 1 (a Python index, so 0 would mark the last).
    out[index] = 1
    return out


@dataclass(frozen=True, eq=False)
class Observation:
    """DouZero's observation of one position (see the module doc for the layout).

    ``actions`` are the scored actions (DouZero card values, ``[]`` a pass), one
    row of ``x_batch`` and ``z_batch`` each.
    """

    position: str
    x_no_action: NDArray[np.int8]
    z: NDArray[np.int8]
    actions: tuple[tuple[int, ...], ...]
    action_rows: NDArray[np.int8]

    @property
    def x_batch(self) -> NDArray[np.float32]:
        """``x_no_action`` then each action's cards, one float32 row per action."""
        n = len(self.actions)
        out = np.empty((n, self.x_no_action.size + 54), dtype=np.float32)
        out[:, : self.x_no_action.size] = self.x_no_action
        out[:, self.x_no_action.size :] = self.action_rows
        return out

    @property
    def z_batch(self) -> NDArray[np.float32]:
        """``z`` repeated once per action, as float32."""
        return np.repeat(self.z[np.newaxis].astype(np.float32), len(self.actions), axis=0)


def card_play(view: View) -> list[tuple[int, Action]]:
    """The card play so far as ``(seat, DouZero action)`` (the auction left out)."""
    return [(seat, douzero_cards(move.ranks)) for seat, move, _ in view.history[len(view.bids) :]]


def _last_move(seq: Sequence[Action]) -> Action:
    """The play to beat as DouZero finds it: the last action, or the one before a pass."""
    if not seq:
        return []
    if seq[-1] or len(seq) < 2:
        return list(seq[-1])
    return list(seq[-2])


def rival_of(view: View) -> Action:
    """The play ``view``'s seat must beat, in DouZero card values (``[]``: it leads)."""
    return _last_move([a for _, a in card_play(view)])


def encode(view: View, actions: Sequence[Sequence[int]] | None = None) -> Observation:
    """DouZero's observation of the seat to play in ``view`` (a seat's own view in play).

    ``actions`` (DouZero card values) are the rows to score; by default DouZero's
    own legal actions for the position (`legal_actions`).
    """
    check_rules(view.options)
    seat, landlord = view.seat, view.landlord
    if seat is None or landlord is None or view.phase != "play":
        raise ValueError("encode needs a seat's own view during card play (after the auction)")
    position = position_of(seat, landlord)
    down, up = (landlord + 1) % 3, (landlord + 2) % 3
    history = card_play(view)
    seq = [a for _, a in history]
    hand = [card_rank(c) for c in view.hand]
    # Rank counts: 0 my hand, 1 the others' hands, 2 the last play, 3 … 5 each seat's
    # played cards, 6 … 8 each seat's last action (a pass: none).
    counts = np.zeros((9, NRANKS), dtype=np.intp)
    for r in hand:
        counts[0, r] += 1
    last_action: dict[int, Action] = {}
    bombs = 0
    for s, action in history:
        for v in action:
            counts[3 + s, _RANK_OF_VALUE[v]] += 1
        last_action[s] = action
        if (len(action) == 4 and len(set(action)) == 1) or action == [_BJ, _RJ]:
            bombs += 1
    counts[1] = np.array(_DECK_COUNTS) - counts[0] - counts[3:6].sum(axis=0)
    for v in _last_move(seq):
        counts[2, _RANK_OF_VALUE[v]] += 1
    for s in range(3):
        for v in last_action.get(s, []):
            counts[6 + s, _RANK_OF_VALUE[v]] += 1
    rows = _rows_of_counts(counts)
    left = view.cards_left
    bomb_hot = _one_hot(bombs, 15)
    parts: list[NDArray[np.int8]]
    if position == "landlord":
        parts = [
            rows[0],
            rows[1],
            rows[2],
            rows[3 + up],
            rows[3 + down],
            _one_hot(left[up] - 1, 17),
            _one_hot(left[down] - 1, 17),
            bomb_hot,
        ]
    else:
        mate = down if position == "landlord_up" else up
        parts = [
            rows[0],
            rows[1],
            rows[3 + landlord],
            rows[3 + mate],
            rows[2],
            rows[6 + landlord],
            rows[6 + mate],
            _one_hot(left[landlord] - 1, 20),
            _one_hot(left[mate] - 1, 17),
            bomb_hot,
        ]
    padded: list[Sequence[int]] = [[] for _ in range(max(0, HISTORY - len(seq)))]
    padded += seq[-HISTORY:]
    z = _rows(padded).reshape(5, 162)
    if actions is None:
        actions = legal_actions(douzero_cards(hand), _last_move(seq))
    return Observation(
        position=position,
        x_no_action=np.concatenate(parts),
        z=z,
        actions=tuple(tuple(a) for a in actions),
        action_rows=_rows(actions),
    )
