"""The ``dominoes`` package's AIs as shedkit agents (when that package is installed).

That package plays the four-player partnership block game with a double-six
set, so the adapter plays shedkit's ``block`` preset (four players, teams,
double six). At each turn it rebuilds the package's game from the view: the
seat's own hand as it is, the other hands as one sample of
``game.determinize`` (the package's AIs only read the seat's own hand, the
board, the moves and the passes), the moves replayed in order. The package
records passes by itself, so shedkit's explicit passes are skipped.

Registered agent: ``pkg-alphabeta`` (``dominoes.players.probabilistic_alphabeta``).
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

from shedkit.agents.base import register_agent

__all__ = ["ALPHABETA_START", "PackageDominoesAgent", "available"]

#: Moves (the package counts passes) before ``probabilistic_alphabeta`` starts
#: searching; earlier it plays its first valid move. Searching every possible
#: deal of the hidden hands from the first move takes minutes per move.
ALPHABETA_START = 16


def available() -> bool:
    """Whether the ``dominoes`` package can be imported."""
    return importlib.util.find_spec("dominoes") is not None


class PackageDominoesAgent:
    """Plays a ``dominoes`` package player from shedkit views of the block game."""

    #: Its alpha-beta search takes tens of milliseconds a move: not on a server's loop.
    thinks_long = True

    def __init__(self, game: Any, seed: int = 0, player: Any = None, name: str = "pkg") -> None:
        import dominoes  # type: ignore[import-untyped]

        opts = game.options
        if game.name != "dominoes" or opts.players != 4 or not opts.teams:
            raise ValueError("the dominoes package plays four players in partnerships only")
        if opts.max_pips != 6 or opts.variant != "block":
            raise ValueError("the dominoes package plays the double-six block game only")
        self.dominoes = dominoes
        self.game = game
        self.rng = random.Random(seed)
        self.player = player if player is not None else dominoes.players.probabilistic_alphabeta()
        self.name = name

    def _domino(self, tile: int) -> Any:
        a, b = self.game.tables.halves[tile]
        return self.dominoes.Domino(a, b)

    def act(self, view: Any) -> Any:
        """The package player's move, mapped back to one of ``view.legal_moves``."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        dm = self.dominoes
        sample = self.game.determinize(view, self.rng)
        held = [list(sample.hand(s)) for s in range(4)]
        for who, move, _, _ in view.history:
            if move.kind in ("lead", "play"):
                held[who].append(move.tile)
        hands = [dm.Hand([self._domino(t) for t in held[s]]) for s in range(4)]
        leader = view.leader
        valid = tuple((d, True) for d in hands[leader])
        pkg = dm.Game(dm.Board(), hands, [], leader, valid, leader, None)
        for _, move, _, _ in view.history:
            if move.kind in ("lead", "play"):
                pkg.make_move(self._domino(move.tile), move.kind == "lead" or move.end == 0)
        if pkg.turn != view.seat:
            raise ValueError("the dominoes package's turn order differs from this deal's")
        self.player(pkg)
        domino, left = pkg.valid_moves[0]
        halves = {(domino.first, domino.second), (domino.second, domino.first)}
        tiles = [m for m in moves if tuple(self.game.tables.halves[m.tile]) in halves]
        for m in tiles:
            if m.kind == "lead" or m.end == (0 if left else 1):
                return m
        if tiles:
            return tiles[0]
        raise ValueError(f"the dominoes package chose {domino}, which is not a legal move here")


def _alphabeta(game: Any, seed: int) -> PackageDominoesAgent:
    import dominoes

    return PackageDominoesAgent(
        game,
        seed,
        dominoes.players.probabilistic_alphabeta(start_move=ALPHABETA_START),
        name="pkg-alphabeta",
    )


if available():
    register_agent("pkg-alphabeta", "dominoes", _alphabeta)
