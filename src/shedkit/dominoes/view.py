"""What one seat may know of a Dominoes hand, the line as laid out, and deals consistent with it.

A seat sees its own hand and the tiles it drew, how many tiles every seat
holds, how many are left in the boneyard (never their order), the line and
every play. Another seat's draws show as ``draw`` with no tile.

``rules`` makes the views and so sits above this module: where a function here
needs a whole deal, it asks the game it is given (a [`Dealer`][shedkit.dominoes.view.Dealer]).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from shedkit.core.pickling import reduce_dataclass
from shedkit.dominoes.actions import Tables
from shedkit.dominoes.combos import Move
from shedkit.dominoes.movegen import empty_board, place
from shedkit.dominoes.options import Options

__all__ = ["Dealer", "Line", "View", "determinize", "layout", "missing_values", "replay_hand"]

StateT = TypeVar("StateT")


@dataclass(frozen=True, slots=True)
class Line:
    """The tiles on the table as a player would lay them out (DOM-06, DOM-22).

    ``main`` runs from end ``L`` to end ``R``, each tile as the halves seen
    left to right (a double has equal halves and lies crosswise). ``spinner``
    is the index of the spinner in ``main`` (-1: none); ``up`` and ``down`` are
    its cross arms, each tile as ``(inner, outer)`` halves from the spinner out.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by the constructor's arguments (compiled classes need it)."""
        return reduce_dataclass(self)

    main: tuple[tuple[int, int], ...] = ()
    spinner: int = -1
    up: tuple[tuple[int, int], ...] = ()
    down: tuple[tuple[int, int], ...] = ()


def layout(moves: Sequence[Move], tables: Tables) -> Line:
    """Lay out the plays among ``moves`` (draws and passes are skipped)."""
    halves = tables.halves
    fives = tables.num_ends == 4
    main: list[tuple[int, int]] = []
    arms: list[list[tuple[int, int]]] = [[], []]
    spinner = -1
    for m in moves:
        if m.kind == "lead":
            a, b = halves[m.tile]
            main = [(a, b)]
            if fives and a == b:
                spinner = 0
            continue
        if m.kind != "play":
            continue
        a, b = halves[m.tile]
        if m.end == 0:
            v = main[0][0]
            main.insert(0, (b if a == v else a, v))
            if spinner >= 0:
                spinner += 1
            at = 0
        elif m.end == 1:
            v = main[-1][1]
            main.append((v, b if a == v else a))
            at = len(main) - 1
        else:
            arm = arms[m.end - 2]
            v = arm[-1][1] if arm else main[spinner][0]
            arm.append((v, b if a == v else a))
            continue
        if fives and a == b and spinner < 0:
            spinner = at
    return Line(tuple(main), spinner, tuple(arms[0]), tuple(arms[1]))


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a hand (``seat=None``: a spectator's).

    ``board`` is the engine's public board (see `shedkit.dominoes.movegen`);
    ``history`` holds ``(seat, move, tile drawn, points scored)``, the drawn
    tile only for this seat's own draws (-1 otherwise). ``lead_tile`` is the
    tile DOM-04 makes the leader play first, shown to the leader only (-1:
    any tile, or not this seat's lead). ``scores`` are the
    points each seat's side has so far; ``pips`` each hand's pips once the
    hand is over.
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
    tile_counts: tuple[int, ...]
    boneyard_size: int
    leader: int
    lead_tile: int
    board: tuple[int, ...]
    count: int
    line: Line
    history: tuple[tuple[int, Move, int, int], ...]
    scores: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    end_reason: str | None
    winner: int | None
    pips: tuple[int, ...]
    returns: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase == "over"

    @property
    def ends(self) -> tuple[int, ...]:
        """The pip value at each end ``L R U D``, -1 where the end is not open."""
        return self.board[:4]


class Dealer(Protocol[StateT]):
    """What this module asks of the game (`Dominoes`): its tiles, and deals built from hands."""

    @property
    def options(self) -> Options:
        """The game's options."""
        ...

    @property
    def tables(self) -> Tables:
        """The game's tiles and moves."""
        ...

    def deal_from(
        self, view: View, hands: list[list[int]], boneyard: list[int], seed: int
    ) -> StateT:
        """The hand in which each seat holds ``hands`` now, at the point ``view`` shows."""
        ...

    def replay_hand(self, state: StateT, observe: Callable[[StateT, Move], None]) -> StateT | None:
        """Play ``state``'s hand again from its deal, showing ``observe`` every move first."""
        ...


def missing_values(game: Dealer[Any], view: View) -> list[set[int]]:
    """Pip values each seat is known to lack: the ends it passed on (DOM-07).

    A seat passes only with no boneyard left to draw from, so it never gains a
    tile after passing; the values stay missing.
    """
    tables = game.tables
    opts = game.options
    board = empty_board()
    missing: list[set[int]] = [set() for _ in range(view.num_players)]
    for who, move, _, _ in view.history:
        if move.kind == "pass":
            missing[who].update(v for v in board[:4] if v >= 0)
        elif move.kind in ("lead", "play"):
            place(
                board,
                tables.halves[move.tile],
                move.end,
                opts.variant == "fives",
                opts.spinner_opens == "immediately",
            )
    return missing


def _deal_hidden(
    game: Dealer[Any], view: View, unseen: list[int], missing: list[set[int]], rng: random.Random
) -> list[list[int]]:
    """Share ``unseen`` among the other hands and the boneyard (last), honouring voids.

    Random tries deal the most constrained tiles first; if they all fail, a
    bipartite matching (tiles to hand slots) finds a deal whenever one exists.
    """
    halves = game.tables.halves
    n = view.num_players
    cap = [0 if s == view.seat else view.tile_counts[s] for s in range(n)] + [len(unseen)]
    cap[n] -= sum(cap[:n])
    owners = [
        [s for s in range(n + 1) if cap[s] and not (s < n and set(halves[t]) & missing[s])]
        for t in unseen
    ]
    for _ in range(30):
        order = list(range(len(unseen)))
        rng.shuffle(order)
        order.sort(key=lambda i: len(owners[i]))
        room = cap.copy()
        out: list[list[int]] = [[] for _ in range(n + 1)]
        for i in order:
            free = [s for s in owners[i] if room[s]]
            if not free:
                break
            s = rng.choices(free, weights=[room[s] for s in free])[0]
            room[s] -= 1
            out[s].append(unseen[i])
        else:
            return out
    slots = [s for s in range(n + 1) for _ in range(cap[s])]
    rng.shuffle(slots)
    holder: list[int] = [-1] * len(slots)

    def place_tile(i: int, seen: set[int]) -> bool:
        for k, s in enumerate(slots):
            if s in owners[i] and k not in seen:
                seen.add(k)
                if holder[k] < 0 or place_tile(holder[k], seen):
                    holder[k] = i
                    return True
        return False

    for i in range(len(unseen)):
        if not place_tile(i, set()):
            raise ValueError("no deal of the unseen tiles fits the passes in this view")
    out = [[] for _ in range(n + 1)]
    for k, i in enumerate(holder):
        out[slots[k]].append(unseen[i])
    return out


def determinize(game: Dealer[StateT], view: View, rng: random.Random) -> StateT:
    """Deal the tiles ``view`` cannot see at random, consistent with the seats' passes."""
    if view.seat is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    if view.is_over:
        raise ValueError("determinize needs a hand in progress")
    tables = game.tables
    me = view.seat
    on_table = {m.tile for _, m, _, _ in view.history if m.kind in ("lead", "play")}
    unseen = [t for t in range(tables.num_tiles) if t not in on_table and t not in view.hand]
    missing = missing_values(game, view)
    hands = _deal_hidden(game, view, unseen, missing, rng)
    pool = hands.pop()
    hands[me] = list(view.hand)
    return game.deal_from(view, hands, pool, rng.randrange(2**63))


def replay_hand(
    game: Dealer[StateT], state: StateT, observe: Callable[[StateT, Move], None]
) -> StateT | None:
    """Play ``state``'s hand again from its deal, showing ``observe`` every move first.

    ``state`` is a whole hand with every tile known (a `determinize` draw): each seat
    was dealt the tiles it holds now and those it has played. That holds only while
    nobody has drawn, so a hand with draws raises ``ValueError`` (another seat's drawn
    tiles are never seen). The first tile is replayed as forced. ``observe(before,
    move)`` sees each move in the state it was made from, so a search can weigh the
    deal by how likely those hands make the moves seen. Returns the state replayed to
    the end of the history, or ``None`` if those hands could not have made its moves.
    The game replays it (``game.replay_hand``), for the state is its own.
    """
    return game.replay_hand(state, observe)
