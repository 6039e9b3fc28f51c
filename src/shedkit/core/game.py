"""What every game class shares: dense action ids and rebuilding a deal from its record.

A game (``DouDizhu``, ``President``, ``Dominoes``) subclasses `GameBase`
and supplies its action table, ``parse_move`` and ``deal_from_setup`` (the
deal a record's ``setup`` describes); replaying the moves and checking the
returns is the same for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from shedkit.core.errors import IllegalMoveError, RecordError, ShedkitError

__all__ = ["ActionTable", "GameBase", "Playable"]

MoveT = TypeVar("MoveT")
MoveT_co = TypeVar("MoveT_co", covariant=True)


class ActionTable(Protocol[MoveT_co]):
    """Interned moves by dense id."""

    @property
    def moves(self) -> Sequence[MoveT_co]:
        """Every move of the game, ``moves[i].action_id == i``."""
        ...

    @property
    def num_actions(self) -> int:
        """``len(moves)``."""
        ...


class Playable(Protocol):
    """The part of a game's ``State`` that replaying a record needs."""

    @property
    def is_over(self) -> bool:
        """True once the deal has ended."""
        ...

    def apply(self, move: Any, seat: int | None = None) -> None:
        """Play ``move``; raise a `ShedkitError` if it is not legal."""
        ...

    def returns(self) -> list[int]:
        """Each seat's score for the deal."""
        ...


StateT = TypeVar("StateT", bound=Playable)


class GameBase(Generic[MoveT, StateT]):
    """Dense action ids and record replay, on top of a game's own table and set-up."""

    #: The game's name for people, used in messages ("Dou Di Zhu").
    title: ClassVar[str] = ""
    tables: ActionTable[MoveT]

    @property
    def num_actions(self) -> int:
        """Size of the dense action space (``move.action_id < num_actions``)."""
        return self.tables.num_actions

    def action_to_move(self, action_id: int) -> MoveT:
        """The move with dense id ``action_id``."""
        if not isinstance(action_id, int) or not 0 <= action_id < self.num_actions:
            raise IllegalMoveError(f"action id {action_id!r} not in 0…{self.num_actions - 1}")
        return self.tables.moves[action_id]

    def action_to_string(self, action_id: int) -> str:
        """The notation of the move with dense id ``action_id``."""
        return str(self.action_to_move(action_id))

    def parse_move(self, text: str, state: StateT | None = None) -> MoveT:
        """Read a move in the game's notation; the state settles ambiguous readings."""
        raise NotImplementedError

    def deal_from_setup(self, seed: int, setup: Mapping[str, Any]) -> StateT:
        """The deal a record's ``seed`` and ``setup`` describe, before any move.

        Raises ``KeyError``/``TypeError`` for a missing or mistyped field and a
        [`ShedkitError`][shedkit.core.game.ShedkitError] for a set-up that is not a possible deal.
        """
        raise NotImplementedError

    def replay(self, record: Mapping[str, Any], steps: int | None = None) -> StateT:
        """Rebuild the state a record describes, or the one after its first ``steps`` moves.

        Raises `RecordError` for a malformed record, a move that does not
        replay, or returns that differ from the replay's.
        """
        try:
            state = self.deal_from_setup(record["seed"], record["setup"])
            moves = record["moves"]
        except (KeyError, TypeError) as err:
            raise RecordError(f"malformed {self.title} record: missing or bad {err}") from err
        except ShedkitError as err:
            raise RecordError(f"record's set-up is not a possible deal: {err}") from err
        if not isinstance(moves, list):
            raise RecordError("record 'moves' must be a list of move strings")
        if steps is not None and not 0 <= steps <= len(moves):
            raise RecordError(f"steps must be 0…{len(moves)}, not {steps}")
        for i, text in enumerate(moves[:steps]):
            try:
                state.apply(self.parse_move(text, state))
            except ShedkitError as err:
                raise RecordError(f"record move {i + 1} ({text!r}) does not replay: {err}") from err
        expected = record.get("returns")
        replayed = state.returns() if steps is None and state.is_over else None
        if expected is not None and replayed is not None and list(expected) != replayed:
            raise RecordError(f"record's returns {expected} differ from the replay's {replayed}")
        return state
