"""Play: taking and leaving seats, dealing and moving, each checked against the rules.

Once a deal is under way a seat can be taken only by the player who held it; a move
names the state it was made on; errors leave the table unchanged.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from typing import Any, Final

from shedkit.core.errors import IllegalMoveError, InvalidMoveError
from shedkit.server.base import RoomBase
from shedkit.server.errors import ServerError
from shedkit.server.inputs import check_id, check_text, name_keys
from shedkit.server.table import TableRuntime

__all__ = ["MAX_NAME", "Play"]

MAX_NAME: Final = 24


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Play(RoomBase):
    """What players do at a table: seats, deals, moves."""

    def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        token: Any = None,
        client: str = "",
        bot: bool = False,
    ) -> str:
        """Take ``seat`` under ``name``; return the seat token.

        ``bot`` says a program plays the seat (it is shown as a bot in the lobby); it
        joins, moves and obeys the clocks like any player.

        An open seat, or a bot's, can be taken between deals. Once a deal is under way a
        seat that is not held can be taken back only by the player who left it
        (``token``: theirs), so nobody can look at a hand in play through a seat. A client
        holds one seat per table (by its token here and by ``client``) unless the table
        allows hot-seat play; names are unique per table.
        """
        table = self.table(table_id)
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ServerError(
                "bad_seat",
                f"seat must be 0…{len(table.seats) - 1}, not {seat!r}",
                data={"seats": len(table.seats)},
            )
        info = table.seats[seat]
        if info.token_hash is not None:
            raise ServerError(
                "seat_taken",
                f"seat {seat} is taken by {info.name}",
                409,
                {"seat": seat, "name": info.name},
            )
        if token is not None and not check_id(token):
            raise ServerError("bad_token", "this seat token is not valid at this table", 403)
        digest = _hash(token) if isinstance(token, str) else None
        if table.status == "playing" and (info.reserved is None or info.reserved != digest):
            raise ServerError(
                "seat_locked",
                f"seat {seat}'s hand is in play; it can be taken when this deal ends",
                409,
                {"seat": seat},
            )
        if not table.hot_seat:
            for other in table.seats:
                mine = digest is not None and other.token_hash == digest
                if mine or (client and other.client == _hash(client)):
                    raise ServerError(
                        "one_seat",
                        "you already hold a seat at this table (one seat per player)",
                        409,
                    )
        name = _clean_name(name)
        keys = name_keys(name)
        for i, other in enumerate(table.seats):
            if i != seat and other.name is not None and keys & name_keys(other.name):
                raise ServerError(
                    "name_taken",
                    f"{other.name!r} is already at this table",
                    409,
                    {"name": other.name},
                )
        if info.reserved is not None and info.reserved == digest:
            new_token = token  # the same player back in their seat, with the same token
        else:
            new_token = secrets.token_urlsafe(18)
        info.name, info.token_hash, info.away, info.human = name, _hash(new_token), False, True
        info.reserved, info.timeouts = None, 0
        info.program = bool(bot)
        info.client = _hash(client) if client else None
        table.last_activity = time.monotonic()
        table.bot_only_deals = 0
        if table.status == "waiting" and table.ready():
            table.start_deal(self.settings.time_bank)
        # A seat taken over HTTP whose player never connects is away after a while.
        self._away_later(table, seat)
        self._changed(table)
        return str(new_token)

    def leave(self, table_id: str, token: str) -> int:
        """Give up the seat ``token`` holds; its bot plays on."""
        table = self.table(table_id)
        seat = self.seat_of(table, token)
        self.leave_seat(table, seat)
        return seat

    def leave_seat(self, table: TableRuntime, seat: int) -> None:
        """Free ``seat``: its connections become spectators, its bot plays.

        During a deal the seat stays reserved for the player who left (by token) until
        the deal ends, so no one else sees that hand.
        """
        info = table.seats[seat]
        if table.status == "playing":
            info.reserved = info.token_hash
        info.name, info.token_hash, info.away, info.client = None, None, False, None
        info.program = False
        for conn in table.connections:
            if conn.seat == seat:
                conn.seat = None
        timer = table.away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        info.connections = 0
        self._changed(table)

    def seat_of(self, table: TableRuntime, token: Any) -> int:
        """The seat whose token is ``token``, or a ``bad_token`` error."""
        if check_id(token):
            digest = _hash(token)
            for i, s in enumerate(table.seats):
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                    return i
        raise ServerError("bad_token", "this seat token is not valid at this table", 403)

    def fill_with_bots(self, table: TableRuntime) -> None:
        """Give every open seat to its bot and start the deal (``start`` in the table page)."""
        if table.status != "waiting":
            raise ServerError(
                "bad_state", "the match has already started", data={"reason": "started"}
            )
        for s in table.seats:
            if s.token_hash is None:
                s.human = False
        table.start_deal(self.settings.time_bank)
        self._changed(table)

    def next_deal(self, table: TableRuntime) -> None:
        """Deal the next hand after the score screen, or a rematch once the match is over."""
        if table.status == "scored":
            table.start_deal(self.settings.time_bank)
        elif table.status == "finished":
            table.match_no += 1
            table.new_match()
            table.start_deal(self.settings.time_bank)
        else:
            raise ServerError(
                "bad_state", "the deal in progress is not over", data={"reason": "not_over"}
            )
        self._changed(table)

    def move(self, table: TableRuntime, seat: int | None, text: Any, state_id: Any = None) -> None:
        """Play the move written ``text`` for ``seat`` on state ``state_id``.

        A move made on an older state (a late duplicate, a click on a stale screen) is
        refused with ``stale_state``; errors leave the state unchanged.
        """
        if seat is None:
            raise ServerError(
                "not_seated",
                "spectators cannot move; take a seat first",
                data={"reason": "move"},
            )
        state = table.state
        if state is None or table.status != "playing":
            raise ServerError("no_deal", "there is no deal in progress")
        if not isinstance(text, str) or not text.strip():
            raise ServerError("bad_message", "a move message needs 'move': the move's notation")
        if not isinstance(state_id, int) or isinstance(state_id, bool):
            raise ServerError(
                "bad_message", "a move message needs 'state_id': the id of the state it answers"
            )
        if state_id != table.state_id:
            raise ServerError(
                "stale_state",
                f"that move was made on state {state_id}; the table is at state "
                f"{table.state_id}: look again",
                409,
                {"state_id": table.state_id},
            )
        if state.current_player != seat:
            raise ServerError(
                "not_your_turn",
                f"it is seat {state.current_player}'s turn, not yours",
                data={"seat": state.current_player},
            )
        try:
            move = table.game.parse_move(text, state)
            state.apply(move, seat)
        except InvalidMoveError as err:
            raise ServerError("invalid_move", str(err), data={"move": text}) from err
        except IllegalMoveError as err:
            raise ServerError("illegal_move", str(err), data={"move": text}) from err
        info = table.seats[seat]
        # A move, and only a move, shows the player is there: it clears the timeouts.
        info.away, info.timeouts = False, 0
        table.last_activity = time.monotonic()
        self._moved(table, move)

    def _moved(self, table: TableRuntime, move: Any) -> None:
        # Bots' moves are no activity: a table of bots alone expires unless people watch.
        self.moves += 1
        record = table.record_move(move)
        if record is not None and not table.lost:
            self.storage.add_deal(
                table.id, table.deal_counter, table.match_no, table.game_name, record, table.fence
            )
        self._changed(table)


def _clean_name(name: Any) -> str:
    """A display name in NFKC without control or format characters, spaces collapsed."""
    if not isinstance(name, str):
        raise ServerError("bad_name", "a display name is text")
    check_text(name, "name")
    if len(name) > 4 * MAX_NAME:
        raise ServerError(
            "bad_name", f"a display name has 1…{MAX_NAME} characters", data={"max": MAX_NAME}
        )
    normal = unicodedata.normalize("NFKC", name)
    kept = "".join(ch for ch in normal if unicodedata.category(ch) not in ("Cc", "Cf", "Co"))
    clean = " ".join(kept.split())
    if not 1 <= len(clean) <= MAX_NAME:
        raise ServerError(
            "bad_name", f"a display name has 1…{MAX_NAME} characters", data={"max": MAX_NAME}
        )
    return clean
