"""One table: its seats, its match and deal in progress, the rules of play over them.

A `TableRuntime` is the state of one table and the steps that change it (deal, record a
move, end a deal); it sends nothing and stores nothing: the manager saves what it
changes (`shedkit.server.store`) and shows it to the connections (`shedkit.server.hub`).

Fairness, by construction: the server alone draws seeds (a table created with a
fixed seed says so to everyone) and publishes a commitment to each deal's seed
(its SHA-256) before the deal, the seed itself in the record after it; a seat's
hand reaches that seat's connections only; once a deal is under way a seat can be
taken only by the player who held it.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.agents.base import load_entry_points
from shedkit.core.match import Match
from shedkit.core.options import options_to_dict
from shedkit.core.rng import derive_seed
from shedkit.protocol.views import Json

if TYPE_CHECKING:
    from shedkit.server.hub import Connection

__all__ = [
    "CHAT_KEPT",
    "DEFAULT_SPEED",
    "HISTORY_SENT",
    "SPEEDS",
    "SUMMARIES_KEPT",
    "SeatInfo",
    "TableRuntime",
    "agents_for",
    "commitment",
    "default_agent",
    "summary_line",
]

CHAT_KEPT: Final = 50
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


def agents_for(game_name: str) -> list[str]:
    """Names of the registered agents that play ``game_name`` at a table.

    Installed packages' agents (entry points) count; import paths and ``cmd:`` programs
    never do: nobody can make the server import a module or run a program.
    """
    load_entry_points()
    return sorted(n for n, by_game in AGENTS.items() if game_name in by_game or "*" in by_game)


def default_agent(game_name: str) -> str:
    """``greedy`` where it plays the game, else ``random``."""
    return "greedy" if "greedy" in agents_for(game_name) else "random"


@dataclass
class SeatInfo:
    """A seat: the human holding it (name and token hash), or none; the bot that stands in."""

    bot: str
    human: bool = True
    name: str | None = None
    token_hash: str | None = None
    away: bool = False
    connections: int = 0
    # Mid-deal, a seat its player left stays theirs alone (by token) until the deal ends.
    reserved: str | None = None
    client: str | None = None
    timeouts: int = 0
    # The player holding the seat said it is a program (``"bot": true`` when joining).
    program: bool = False

    @property
    def bot_plays(self) -> bool:
        """True when the bot moves for this seat: nobody holds it, or its player is away."""
        return self.token_hash is None or self.away

    def to_data(self) -> Json:
        """The stored form (the token only as a hash)."""
        return {
            "bot": self.bot,
            "human": self.human,
            "name": self.name,
            "token_hash": self.token_hash,
            "reserved": self.reserved,
            "client": self.client,
            "program": self.program,
        }

    def public(self) -> Json:
        """What every client sees of the seat."""
        return {
            "name": self.name,
            "bot": self.bot,
            "human_seat": self.human,
            "taken": self.token_hash is not None,
            "away": self.away,
            "connected": self.connections > 0,
            "bot_plays": self.bot_plays,
            "timeouts": self.timeouts,
            # A bot program holds the seat like a player (shedkit bot connect).
            "is_bot": self.token_hash is not None and self.program,
        }


@dataclass
class TableRuntime:
    """A table in memory: settings, seats, the match and the deal in progress."""

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
    connections: list[Connection] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    away_timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    last_activity: float = field(default_factory=time.monotonic)
    # Messages waiting for the write that holds their state: (sequence, [(conn, text)]).
    outq: deque[tuple[int, list[tuple[Connection, str]]]] = field(default_factory=deque)
    seq: int = 0
    # The turn clock: whose turn it runs for, its timer, the wall-clock deadline shown.
    turn_key: tuple[int, int, int] | None = None
    turn_timer: asyncio.TimerHandle | None = None
    turn_started: float = 0.0
    turn_deadline: float | None = None
    # The bank within this turn's budget (none for a seat on a shortened clock).
    turn_bank: float = 0.0
    banks: list[float] = field(default_factory=list)
    next_timer: asyncio.TimerHandle | None = None
    next_deadline: float | None = None
    # Deals dealt in a row with no human seated: bounded like a table of bots alone.
    bot_only_deals: int = 0
    # The seat whose bot is computing its move in the bot pool, shown to everyone.
    thinking: int | None = None
    think_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    # Set when another node took the table over: what this node did since is not stored.
    lost: bool = False
    # On a cluster, the fencing token of this node's hold on the table (0 on one node):
    # every write of this state carries it, and the storage refuses it once the lease
    # holds another.
    fence: int = 0
    # Set when this node handed the table to another one after storing all it made: the
    # changes made before are stored (unlike a table ``lost``), so they stand.
    handed: bool = False

    def __post_init__(self) -> None:
        self.game = shedkit.make(self.game_name, preset=self.preset, **self.options)
        self.all_options = options_to_dict(self.game.options)
        self.new_match()

    def new_match(self) -> None:
        """A fresh match (totals at zero) seeded from the table seed and the match number."""
        seed = derive_seed(self.seed, "match", self.match_no)
        # A game whose rules set the match's target (Dominoes, DOM-11) plays to it.
        target = (
            self.target if self.target is not None else getattr(self.game.options, "target", None)
        )
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


def summary_line(number: int, match_no: int, state: Any) -> Json:
    """The summary kept of a finished deal: its returns, seed and commitment."""
    return {
        "number": number,
        "match": match_no,
        "returns": list(state.returns()),
        "thrown_in": bool(getattr(state, "thrown_in", False)),
        "moves": len(state.record()["moves"]),
        # The deal is over: its seed is public, and checks the commitment shown before.
        "seed": state.seed,
        "commitment": commitment(state.seed),
        # President: the finishing order, whose titles the seats hold through the next deal.
        "finished": list(getattr(state, "finished", ())),
    }
