"""One table's state and its rules of play: who may do what, and when. No I/O.

A `Table` is the state of one table (seats, the match, the deal in progress, chat and
the clocks as shown) and every step that changes it: take and free a seat, deal, move,
say something, time out. It sends nothing, stores nothing and schedules nothing: its
room (`shedkit.server.room`) does that around it, and a test drives it without a server.

Fairness, by construction: the server alone draws seeds (a table created with a fixed
seed says so to everyone) and publishes a commitment to each deal's seed (its SHA-256)
before the deal, the seed itself in the record after it; a seat's hand reaches that
seat's connections only; once a deal is under way a seat can be taken only by the player
who held it; a move names the state it was made on; errors leave the table unchanged.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.agents.base import AGENTS_WITH_ARGUMENT, load_entry_points
from shedkit.core.errors import IllegalMoveError, InvalidMoveError, OptionError
from shedkit.core.match import Match
from shedkit.core.options import options_to_dict
from shedkit.core.rng import derive_seed
from shedkit.protocol.views import HIDDEN_FOR_GOOD, Json
from shedkit.server.chat import CHAT_KEPT, said
from shedkit.server.errors import ServerError
from shedkit.server.inputs import check_id, name_keys
from shedkit.server.seats import SeatInfo, clean_name, digest
from shedkit.server.settings import Settings

__all__ = [
    "DEFAULT_SPEED",
    "HISTORY_SENT",
    "SPEEDS",
    "SUMMARIES_KEPT",
    "Table",
    "agents_for",
    "commitment",
    "default_agent",
    "model_games",
    "model_misfit",
    "summary_line",
]

#: Deal summaries a table keeps in memory (every record stays in the database).
SUMMARIES_KEPT: Final = 100
#: Deal summaries sent with every state message.
HISTORY_SENT: Final = 8
#: A table's pace: how many times ``Settings.bot_delay`` a bot waits before it moves.
SPEEDS: Final = {"relaxed": 3.0, "normal": 2.0, "fast": 1.0}
DEFAULT_SPEED: Final = "normal"


def commitment(seed: int) -> str:
    """The published commitment to a deal's seed: SHA-256 of its decimal digits, in hex."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def agents_for(game_name: str, models: Iterable[str] = ()) -> list[str]:
    """Names of the agents that play ``game_name`` at a table: the registered ones, sorted,
    then the server's ``models`` (``Settings.model_dirs``) where they play that game.

    Installed packages' agents (entry points) count; import paths, ``cmd:`` programs and
    agents that take an argument (``douzero:DIR``) never do: nobody can make the server
    import a module, run a program or read a folder. A model is named by the name the
    server offers it under, never by its folder.
    """
    load_entry_points()
    names = sorted(n for n, by_game in AGENTS.items() if game_name in by_game or "*" in by_game)
    if game_name in model_games():
        names += [m for m in models if m not in names]
    return names


def model_games() -> frozenset[str]:
    """The games a model (``shedkit serve --model``) plays: those of the ``douzero`` agent."""
    return frozenset(AGENTS_WITH_ARGUMENT.get("douzero", ("", {}))[1])


def model_misfit(game: Any) -> str | None:
    """Why a model cannot play ``game`` under its options, or None if it can.

    DouZero's networks play three-player Dou Di Zhu under the standard card-play rules
    (`shedkit.agents.douzero.encoding.check_rules`); the auction's and the scoring's
    options are the table's.
    """
    if game.name not in model_games():
        return f"the models play {', '.join(sorted(model_games()))}, not {game.name}"
    # numpy's: imported only once a server offers a model (its settings read the weights).
    from shedkit.agents.douzero.encoding import check_rules

    try:
        check_rules(game.options)
    except OptionError as err:
        return str(err)
    return None


def default_agent(game_name: str) -> str:
    """``greedy`` where it plays the game, else ``random``."""
    return "greedy" if "greedy" in agents_for(game_name) else "random"


@dataclass
class Table:
    """A table: settings, seats, the match and the deal in progress, and its rules."""

    id: str
    game_name: str
    preset: str
    options: dict[str, Any]
    seed: int
    deals: int | None
    target: int | None
    seats: list[SeatInfo]
    created: float
    status: str = "waiting"  # waiting, playing, scored, finished
    match_no: int = 0
    deal_counter: int = 0
    fixed_seed: bool = False
    hot_seat: bool = False
    turn_clock: float = 30.0
    creator: str = ""
    # The bots' pace (a key of SPEEDS) and the card counter every seat sees alike.
    speed: str = DEFAULT_SPEED
    card_counter: bool = False
    # Bumped by every move and deal; a move names the state it was made on.
    state_id: int = 0
    game: Any = None
    all_options: dict[str, Any] = field(init=False)
    match: Match = field(init=False)
    state: Any = None
    deal_start: Json | None = None
    deal_moves: list[str] = field(default_factory=list)
    agents: dict[int, Agent] = field(default_factory=dict)
    summaries: list[Json] = field(default_factory=list)
    chat: deque[Json] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    last_activity: float = field(default_factory=time.monotonic)
    # The turn clock as shown: whose turn it runs for, since when (the room's loop time),
    # the wall-clock deadline, and the bank within this turn's budget.
    turn_key: tuple[int, int, int] | None = None
    turn_started: float = 0.0
    turn_deadline: float | None = None
    turn_bank: float = 0.0
    banks: list[float] = field(default_factory=list)
    next_deadline: float | None = None
    # Deals dealt in a row with no human seated: bounded like a table of bots alone.
    bot_only_deals: int = 0
    # The seat whose bot is computing its move in the bot pool, shown to everyone.
    thinking: int | None = None

    def __post_init__(self) -> None:
        self.game = shedkit.make(self.game_name, preset=self.preset, **self.options)
        self.all_options = options_to_dict(self.game.options)
        self.new_match()

    # -- the match ---------------------------------------------------------------------

    def new_match(self) -> None:
        """A fresh match (totals at zero) seeded from the table seed and the match number."""
        seed = derive_seed(self.seed, "match", self.match_no)
        # A game whose rules set the match's target (Dominoes, DOM-11) plays to it.
        target = self.target if self.target is not None else self.game.info.match_target
        # The records are in the database: a match of thousands of deals stays small.
        self.match = Match(
            self.game, seed=seed, deals=self.deals, target=target, keep_records=False
        )
        self.agents = {}

    def agent(self, seat: int) -> Agent:
        """The bot of ``seat`` for this deal, made on first use with its own seed.

        Bots live for one deal: what they cache about a deal's hands is of no use in the
        next, and a server with many tables must not keep it.
        """
        agent = self.agents.get(seat)
        name = self.seats[seat].bot
        if agent is None or agent.name != name:
            seed = derive_seed(self.seed, "bot", self.match_no, self.deal_counter, seat)
            agent = make_agent(name, self.game, seed)
            self.agents[seat] = agent
        return agent

    @property
    def humans(self) -> int:
        """Seats held by a human."""
        return sum(1 for s in self.seats if s.token_hash is not None)

    def ready(self) -> bool:
        """True when every seat is held by a human or given to a bot."""
        return all(s.token_hash is not None or not s.human for s in self.seats)

    def start_deal(self, time_bank: float) -> None:
        """Deal the next hand of the match; every seat's time bank is full again."""
        self.state = self.match.next_deal()
        self.deal_start = self.state.record()
        self.deal_moves = []
        self.deal_counter += 1
        self.state_id += 1
        self.agents = {}
        self.status = "playing"
        self.banks = [time_bank] * len(self.seats)
        self.bot_only_deals = self.bot_only_deals + 1 if self.humans == 0 else 0
        for info in self.seats:
            info.reserved = None

    def record_move(self, move: Any) -> Json | None:
        """Note ``move``, just applied to the state; return the deal's record if it ended.

        The caller stores that record: the table keeps only the last summaries.
        """
        self.state_id += 1
        self.deal_moves.append(str(move))
        state = self.state
        if not state.is_over:
            return None
        record = self.match.finish_deal(state).record
        assert record is not None  # finish_deal returns the record it does not keep
        self.summaries.append(summary_line(self.deal_counter, self.match_no, state))
        del self.summaries[:-SUMMARIES_KEPT]
        self.status = "finished" if self.match.is_over else "scored"
        for info in self.seats:
            info.reserved = None  # the hands are public now
        return record

    # -- what players do ---------------------------------------------------------------

    def seat_of(self, token: Any) -> int:
        """The seat whose token is ``token``, or a ``bad_token`` error."""
        if check_id(token):
            hashed = digest(token)
            for i, s in enumerate(self.seats):
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                    return i
        raise ServerError("bad_token", "this seat token is not valid at this table", 403)

    def take_seat(
        self,
        seat: Any,
        name: Any,
        token: Any,
        client: str,
        bot: bool,
        time_bank: float,
    ) -> str:
        """Seat a player at ``seat`` under ``name``; return their seat token.

        ``bot`` says a program plays the seat (it is shown as a bot in the lobby); it
        joins, moves and obeys the clocks like any player.

        An open seat, or a bot's, can be taken between deals. Once a deal is under way a
        seat that is not held can be taken back only by the player who left it
        (``token``: theirs), so nobody can look at a hand in play through a seat. A client
        holds one seat per table (by its token here and by ``client``) unless the table
        allows hot-seat play; names are unique per table. A full table deals.
        """
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise ServerError(
                "bad_seat",
                f"seat must be 0…{len(self.seats) - 1}, not {seat!r}",
                data={"seats": len(self.seats)},
            )
        info = self.seats[seat]
        if info.token_hash is not None:
            raise ServerError(
                "seat_taken",
                f"seat {seat} is taken by {info.name}",
                409,
                {"seat": seat, "name": info.name},
            )
        if token is not None and not check_id(token):
            raise ServerError("bad_token", "this seat token is not valid at this table", 403)
        hashed = digest(token) if isinstance(token, str) else None
        if self.status == "playing" and (info.reserved is None or info.reserved != hashed):
            raise ServerError(
                "seat_locked",
                f"seat {seat}'s hand is in play; it can be taken when this deal ends",
                409,
                {"seat": seat},
            )
        if not self.hot_seat:
            for other in self.seats:
                mine = hashed is not None and other.token_hash == hashed
                if mine or (client and other.client == digest(client)):
                    raise ServerError(
                        "one_seat",
                        "you already hold a seat at this table (one seat per player)",
                        409,
                    )
        name = clean_name(name)
        keys = name_keys(name)
        for i, other in enumerate(self.seats):
            if i != seat and other.name is not None and keys & name_keys(other.name):
                raise ServerError(
                    "name_taken",
                    f"{other.name!r} is already at this table",
                    409,
                    {"name": other.name},
                )
        if info.reserved is not None and info.reserved == hashed:
            new_token = str(token)  # the same player back in their seat, with the same token
        else:
            new_token = secrets.token_urlsafe(18)
        info.name, info.token_hash, info.away, info.human = name, digest(new_token), False, True
        info.reserved, info.timeouts = None, 0
        info.program = bool(bot)
        info.client = digest(client) if client else None
        self.last_activity = time.monotonic()
        self.bot_only_deals = 0
        if self.status == "waiting" and self.ready():
            self.start_deal(time_bank)
        return new_token

    def free_seat(self, seat: int) -> None:
        """Free ``seat``: its bot plays on.

        During a deal the seat stays reserved for the player who left (by token) until
        the deal ends, so no one else sees that hand.
        """
        info = self.seats[seat]
        if self.status == "playing":
            info.reserved = info.token_hash
        info.name, info.token_hash, info.away, info.client = None, None, False, None
        info.program = False
        info.connections = 0

    def fill_with_bots(self, time_bank: float) -> None:
        """Give every open seat to its bot and deal (``start`` in the table page)."""
        if self.status != "waiting":
            raise ServerError(
                "bad_state", "the match has already started", data={"reason": "started"}
            )
        for s in self.seats:
            if s.token_hash is None:
                s.human = False
        self.start_deal(time_bank)

    def deal_next(self, time_bank: float) -> None:
        """Deal the next hand after the score screen, or a rematch once the match is over."""
        if self.status == "scored":
            self.start_deal(time_bank)
        elif self.status == "finished":
            self.match_no += 1
            self.new_match()
            self.start_deal(time_bank)
        else:
            raise ServerError(
                "bad_state", "the deal in progress is not over", data={"reason": "not_over"}
            )

    def play(self, seat: int | None, text: Any, state_id: Any) -> Any:
        """Apply the move written ``text`` for ``seat`` on state ``state_id``; return it.

        A move made on an older state (a late duplicate, a click on a stale screen) is
        refused with ``stale_state``; errors leave the state unchanged. The caller notes
        the move (`record_move`).
        """
        if seat is None:
            raise ServerError(
                "not_seated", "spectators cannot move; take a seat first", data={"reason": "move"}
            )
        state = self.state
        if state is None or self.status != "playing":
            raise ServerError("no_deal", "there is no deal in progress")
        if not isinstance(text, str) or not text.strip():
            raise ServerError("bad_message", "a move message needs 'move': the move's notation")
        if not isinstance(state_id, int) or isinstance(state_id, bool):
            raise ServerError(
                "bad_message", "a move message needs 'state_id': the id of the state it answers"
            )
        if state_id != self.state_id:
            raise ServerError(
                "stale_state",
                f"that move was made on state {state_id}; the table is at state "
                f"{self.state_id}: look again",
                409,
                {"state_id": self.state_id},
            )
        if state.current_player != seat:
            raise ServerError(
                "not_your_turn",
                f"it is seat {state.current_player}'s turn, not yours",
                data={"seat": state.current_player},
            )
        try:
            move = self.game.parse_move(text, state)
            state.apply(move, seat)
        except InvalidMoveError as err:
            raise ServerError("invalid_move", str(err), data={"move": text}) from err
        except IllegalMoveError as err:
            raise ServerError("illegal_move", str(err), data={"move": text}) from err
        info = self.seats[seat]
        # A move, and only a move, shows the player is there: it clears the timeouts.
        info.away, info.timeouts = False, 0
        self.last_activity = time.monotonic()
        return move

    def say(self, seat: int | None, text: Any, phrase: Any = None, emote: Any = None) -> Json:
        """A chat line from ``seat`` (spectators may not chat), kept and returned."""
        if seat is None:
            raise ServerError("not_seated", "take a seat to chat", data={"reason": "chat"})
        words = said(text, phrase, emote)
        line: Json = {"seat": seat, "name": self.seats[seat].name, **words, "at": time.time()}
        self.chat.append(line)
        return line

    # -- clocks and bots, as rules -----------------------------------------------------

    def turn_budget(self, seat: int, settings: Settings) -> float:
        """Seconds for ``seat``'s turn: the clock and its bank, or less after timeouts.

        A seat that timed out into away and came back without moving gets half the
        clock, then a quarter, and so on down to ``min_turn_clock``, without its bank:
        nobody holds a table by saying hello after every timeout.
        """
        strikes = self.seats[seat].timeouts - settings.timeouts_before_away
        if strikes < 0:
            return self.turn_clock + self.banks[seat]
        floor = min(settings.min_turn_clock, self.turn_clock)
        return max(floor, self.turn_clock / 2.0 ** (strikes + 1))

    def timed_out(self, seat: int, settings: Settings) -> bool:
        """``seat``'s turn clock ran out: count it; True if the seat is now away."""
        info = self.seats[seat]
        info.timeouts += 1
        if info.timeouts >= settings.timeouts_before_away:
            info.away = True
        return info.away

    def bot_pause(self, bot_delay: float) -> float:
        """Seconds a bot waits before the current move, at the table's pace.

        ``bot_delay`` times the pace's factor; twice that before a bot leads a new trick,
        so that the players see the trick's last pass before the table clears.
        """
        pause = bot_delay * SPEEDS.get(self.speed, SPEEDS[DEFAULT_SPEED])
        state = self.state
        return pause * 2 if state is not None and state.opens_trick() else pause

    # -- what is shown and stored ------------------------------------------------------

    def to_data(self) -> Json:
        """The stored form: settings, seats, chat and the record of the deal in progress."""
        return {
            "game": self.game_name,
            "preset": self.preset,
            "options": self.options,
            "seed": self.seed,
            "deals": self.deals,
            "target": self.target,
            "seats": [s.to_data() for s in self.seats],
            "created": self.created,
            "status": self.status,
            "match_no": self.match_no,
            "deal_counter": self.deal_counter,
            "fixed_seed": self.fixed_seed,
            "hot_seat": self.hot_seat,
            "turn_clock": self.turn_clock,
            "creator": self.creator,
            "speed": self.speed,
            "card_counter": self.card_counter,
            "state_id": self.state_id,
            # The deal in progress as its record at the deal's start plus the moves since:
            # building the whole record after every move would cost more than the move.
            "current": None
            if self.state is None
            else {"start": self.deal_start, "moves": list(self.deal_moves)},
            "chat": list(self.chat),
        }

    @classmethod
    def from_data(cls, table_id: str, data: Json, deals: list[Json], settings: Settings) -> Table:
        """A table as stored: its row ``data`` and its finished ``deals``, replayed."""
        seats = [SeatInfo.from_data(s) for s in data["seats"]]
        table = cls(
            id=table_id,
            game_name=data["game"],
            preset=data["preset"],
            options=dict(data["options"]),
            seed=data["seed"],
            deals=data["deals"],
            target=data["target"],
            seats=seats,
            created=data["created"],
            status=data["status"],
            match_no=data["match_no"],
            deal_counter=data["deal_counter"],
            fixed_seed=bool(data.get("fixed_seed", False)),
            hot_seat=bool(data.get("hot_seat", False)),
            turn_clock=float(data.get("turn_clock", settings.turn_clock)),
            creator=str(data.get("creator", "")),
            state_id=int(data.get("state_id", 0)),
            # Tables stored before the pace existed play at the default one.
            speed=str(data["speed"]) if data.get("speed") in SPEEDS else DEFAULT_SPEED,
            card_counter=bool(data.get("card_counter", False)),
        )
        table.banks = [settings.time_bank] * len(seats)
        table.chat.extend(data.get("chat", []))
        for deal in deals:
            state = shedkit.replay(deal["record"])
            table.summaries.append(summary_line(deal["number"], deal["match"], state))
            del table.summaries[:-SUMMARIES_KEPT]
            if deal["match"] == table.match_no:
                # The same deal attempts in the same order give the same seeds and totals.
                table.match.attempts += 1
                table.match.finish_deal(state)
        current = data.get("current")
        if current is not None:
            table.match.attempts += 1
            state = shedkit.replay(current["start"])
            for text in current["moves"]:
                state.apply(table.game.parse_move(text, state))
            table.state = state
            table.deal_start = current["start"]
            table.deal_moves = list(current["moves"])
        return table

    def summary(self) -> Json:
        """The lobby's line for this table."""
        return {
            "id": self.id,
            "game": self.game_name,
            "preset": self.preset,
            "players": self.game.num_players,
            "status": self.status,
            # Seats by who sits there, named so that a reader needs no docs: kept for people
            # and still empty; played by the server's own bots until someone sits; held by a
            # bot program (the bot protocol). A person may take any seat nobody holds.
            "seats_for_people": [
                i for i, s in enumerate(self.seats) if s.token_hash is None and s.human
            ],
            "seats_for_house_bots": [
                i for i, s in enumerate(self.seats) if s.token_hash is None and not s.human
            ],
            "seats_with_bot_programs": [
                i for i, s in enumerate(self.seats) if s.public()["is_bot"]
            ],
            # The earlier names: every seat nobody holds, and the bot programs' seats.
            "open_seats": [i for i, s in enumerate(self.seats) if s.token_hash is None],
            "bot_seats": [i for i, s in enumerate(self.seats) if s.public()["is_bot"]],
            "seats": [s.public() for s in self.seats],
            "deals": self.deals,
            "created": self.created,
            "fixed_seed": self.fixed_seed,
            # One device may hold several seats: the lobby says so, as the table does.
            "hot_seat": self.hot_seat,
            "turn_clock": self.turn_clock,
            "speed": self.speed,
            # An aid every seat gets alike: the lobby and the table say whether it is on.
            "card_counter": self.card_counter,
        }

    def public(self) -> Json:
        """Everything about the table that is not a seat's view."""
        return {
            **self.summary(),
            "options": self.all_options,
            "target": self.match.target,
            "totals": list(self.match.totals),
            # Seats that score together (Dominoes' partners): the scores are drawn by team.
            "teams": None
            if self.game.info.teams is None
            else [list(team) for team in self.game.info.teams],
            "deals_played": self.match.deals_played,
            "deal_number": self.deal_counter,
            "match_no": self.match_no,
            "match_over": self.match.is_over,
            # The last few deals, trimmed: this goes out with every move, and the full list
            # (seeds and commitments included) is at /api/tables/{id}/deals.
            "history": [
                {k: d[k] for k in ("number", "match", "returns", "thrown_in", "finished") if k in d}
                for d in self.summaries[-HISTORY_SENT:]
            ],
            "state_id": self.state_id,
            # Published before the deal: anyone can check it against the record's seed.
            "commitment": None if self.state is None else commitment(self.state.seed),
            "turn": None
            if self.turn_key is None
            else {
                "seat": self.turn_key[2],
                "deadline": self.turn_deadline,
                "bank": round(self.turn_bank, 1),
            },
            "next_deal_at": self.next_deadline,
            "thinking": self.thinking,
        }


def summary_line(number: int, match_no: int, state: Any) -> Json:
    """The summary kept of a finished deal: its returns, seed and commitment."""
    return {
        "number": number,
        "match": match_no,
        "returns": list(state.returns()),
        "thrown_in": state.thrown_in,
        "moves": len(state.record()["moves"]),
        # The deal is over: its seed is public, and checks the commitment shown before;
        # except where face-down moves stay hidden for good (TG-25), whose seed would deal
        # the hands again.
        "seed": None if state.game.name in HIDDEN_FOR_GOOD else state.seed,
        "commitment": commitment(state.seed),
        # President: the finishing order, whose titles the seats hold through the next deal.
        "finished": state.finishing_order(),
    }
