"""Tables: seats, a match of deals, bots, connections; the server's authority over play.

The manager uses the game contract only (``make``, ``new_deal`` through a
`Match`, ``legal_moves``, ``apply``, ``view``,
``record``, ``replay``, ``parse_move``) and the agents registry. A table is
rebuilt after a restart from its stored finished deals and the record of the
deal in progress, replayed move by move.

Fairness, by construction: the server alone draws seeds (a table created with a
fixed seed says so to everyone) and publishes a commitment to each deal's seed
(its SHA-256) before the deal, the seed itself in the record after it; a seat's
hand reaches that seat's connections only; once a deal is under way a seat can be
taken only by the player who held it; a turn clock lets a seat's bot move for a
player who does not, so a table always moves on; and no state leaves the server
before the write that holds it is committed (`Storage.on_commit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, Protocol

import shedkit
from shedkit.agents import AGENTS, Agent, make_agent
from shedkit.agents.base import load_entry_points
from shedkit.core.errors import IllegalMoveError, InvalidMoveError, OptionError, ShedkitError
from shedkit.core.match import Match
from shedkit.core.options import options_to_dict
from shedkit.core.rng import derive_seed
from shedkit.protocol.views import SERIALIZERS, Json, serialize_view
from shedkit.server.bots import BotPool, Job
from shedkit.server.errors import ServerError, error_message
from shedkit.server.inputs import check_id, check_text, name_keys
from shedkit.server.settings import Settings, TokenBucket
from shedkit.server.storage import Storage
from shedkit.server.storage import json_text as _dumps  # one encoder for rows and messages

__all__ = [
    "EMOTES",
    "MAX_MESSAGE",
    "QUICK_PHRASES",
    "Connection",
    "Manager",
    "SeatInfo",
    "ServerError",
    "TableRuntime",
    "agents_for",
    "default_agent",
]

log = logging.getLogger("shedkit.server")

#: Largest client message accepted, in characters.
MAX_MESSAGE: Final = 4096
MAX_NAME: Final = 24
MAX_CHAT: Final = 300
CHAT_KEPT: Final = 50
#: The quick phrases and emotes a seat may send as codes: each client words a phrase in its
#: own language (``table.quick.phrase.<code>`` in the catalogues) and draws an emote.
QUICK_PHRASES: Final = (
    "well_played",
    "good_luck",
    "hurry_up",
    "thanks",
    "oops",
    "nice_bomb",
    "good_game",
    "one_more",
)
EMOTES: Final = ("thumbs_up", "laugh", "wow", "sad", "fire", "clap")
#: Deal summaries a table keeps in memory (every record stays in the database).
SUMMARIES_KEPT: Final = 100
#: Deal summaries sent with every state message.
HISTORY_SENT: Final = 8
# A connection may send this many messages at once, refilled at RATE per second.
BURST: Final = 30
RATE: Final = 10.0
# Messages waiting for a slow client beyond this close its connection (it reconnects, resyncs).
OUTBOX: Final = 256
#: A table's pace: how many times ``Settings.bot_delay`` a bot waits before it moves.
SPEEDS: Final = {"relaxed": 3.0, "normal": 2.0, "fast": 1.0}
DEFAULT_SPEED: Final = "normal"


def commitment(seed: int) -> str:
    """The published commitment to a deal's seed: SHA-256 of its decimal digits, in hex."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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


class Sender(Protocol):
    """What the manager needs of a WebSocket: send one JSON text."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""
        ...


@dataclass
class Connection:
    """One WebSocket: the seat it speaks for (``None``: a spectator) and its outbox."""

    sender: Sender
    table_id: str
    seat: int | None = None
    # Who opened it (cookie, else address) and from where: the connection caps count both.
    client: str = ""
    address: str = ""
    # The close code sent once the outbox is empty after ``closed`` is set.
    close_code: int = 4408
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    tokens: float = float(BURST)
    refilled: float = field(default_factory=time.monotonic)
    flood_warned: bool = False
    closed: bool = False
    # A state asked for while writes were pending goes out once they are committed.
    pending_state: bool = False

    def allow(self) -> bool:
        """Token bucket: True if this message is within the rate limit."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.flood_warned = False
            return True
        return False

    def post(self, message: str) -> None:
        """Queue a message; a client too slow to take it is dropped (it will resync)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.closed = True


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


class Manager:
    """Every table of the server, its storage, its bots and its clocks."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float | None = None,
        away_after: float | None = None,
        settings: Settings | None = None,
    ) -> None:
        base = settings or Settings()
        self.settings = dataclasses.replace(
            base,
            bot_delay=base.bot_delay if bot_delay is None else bot_delay,
            away_after=base.away_after if away_after is None else away_after,
        )
        self.storage = storage
        self.bot_delay = self.settings.bot_delay
        self.away_after = self.settings.away_after
        self.tables: dict[str, TableRuntime] = {}
        self.moves = 0
        self.errors = 0
        self.timeouts = 0
        self.expired = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.create_limits: dict[str, TokenBucket] = {}
        self.join_limits: dict[str, TokenBucket] = {}
        self.pool = BotPool(self.settings.bot_workers or None)
        self.late_answers = 0
        # Open WebSockets per client and per address, for their caps.
        self.sockets: dict[str, int] = {}
        # Tables closed because their row could not be stored.
        self.failed = 0
        storage.on_bad_row = self._bad_row

    # -- start-up and shutdown ---------------------------------------------------------

    def load(self) -> None:
        """Rebuild every stored table: replay its finished deals, then the deal in progress."""
        for table_id, data in self.storage.load_tables():
            if data.get("status") == "closed":
                continue  # expired: its deals stay stored, the table is gone
            try:
                table = self._restore(table_id, data)
            except (ShedkitError, KeyError, TypeError) as err:
                log.error("table %s cannot be restored: %s", table_id, err)
                continue
            self.tables[table_id] = table

    def _restore(self, table_id: str, data: Json) -> TableRuntime:
        seats = [
            SeatInfo(
                bot=s["bot"],
                human=s["human"],
                name=s["name"],
                token_hash=s["token_hash"],
                reserved=s.get("reserved"),
                client=s.get("client"),
                program=bool(s.get("program", False)),
            )
            for s in data["seats"]
        ]
        table = TableRuntime(
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
            turn_clock=float(data.get("turn_clock", self.settings.turn_clock)),
            creator=str(data.get("creator", "")),
            state_id=int(data.get("state_id", 0)),
            # Tables stored before the pace existed play at the default one.
            speed=str(data["speed"]) if data.get("speed") in SPEEDS else DEFAULT_SPEED,
            card_counter=bool(data.get("card_counter", False)),
        )
        table.banks = [self.settings.time_bank] * len(seats)
        table.chat.extend(data.get("chat", []))
        for deal in self.storage.load_deals(table_id):
            state = shedkit.replay(deal["record"])
            table.summaries.append(self._summary_line(deal["number"], deal["match"], state))
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

    def start(self) -> None:
        """Set the bots, clocks and the expiry sweep going (inside the running event loop).

        Nobody is connected after a restart: a seat whose player does not come back
        within ``away_after`` seconds is played by its bot, as after a disconnection.
        """
        self.loop = asyncio.get_running_loop()
        for table in self.tables.values():
            for seat, info in enumerate(table.seats):
                if info.token_hash is not None:
                    self._away_later(table, seat)
            self._kick(table)
            self._arm_clocks(table)
        self.sweeper = self.loop.create_task(self._sweep())

    async def stop(self) -> None:
        """Stop the bots, clocks and sweep, and commit every table."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for table in self.tables.values():
            for task in [table.bot_task, *table.think_tasks]:
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            self._stop_timers(table)
        self.pool.close()
        # Bounded: what is not committed by then was never acknowledged either.
        if not self.storage.flush(timeout=4.0):
            log.error("storage: shutting down with writes not committed")

    @staticmethod
    def _stop_timers(table: TableRuntime) -> None:
        for timer in table.away_timers.values():
            timer.cancel()
        table.away_timers.clear()
        for handle in (table.turn_timer, table.next_timer):
            if handle is not None:
                handle.cancel()
        table.turn_timer = table.next_timer = None

    # -- lobby actions ---------------------------------------------------------------

    def table(self, table_id: str) -> TableRuntime:
        """The table ``table_id``, or a ``not_found`` error."""
        shaped = check_id(table_id)
        table = self.tables.get(table_id) if shaped else None
        if table is None:
            shown = table_id if shaped else "?"
            raise ServerError("not_found", f"no table {shown!r}", 404, {"table": shown})
        return table

    def lobby(self, limit: int = 200) -> list[Json]:
        """The lobby's tables: open seats first, then those with players, newest first.

        Bot-only tables come last, so a burst of them cannot push real tables out.
        """

        def rank(t: TableRuntime) -> tuple[int, float]:
            open_seat = t.status != "finished" and any(
                s.token_hash is None and s.human for s in t.seats
            )
            return (0 if open_seat else 1 if t.humans else 2, -t.created)

        return [t.summary() for t in sorted(self.tables.values(), key=rank)[:limit]]

    def limit(self, buckets: dict[str, TokenBucket], client: str, per_minute: float) -> bool:
        """True if ``client`` is within ``per_minute`` events of this kind (token bucket)."""
        bucket = buckets.get(client)
        if bucket is None:
            if len(buckets) > 10_000:
                buckets.clear()  # forget idle clients rather than grow without bound
            bucket = buckets[client] = TokenBucket(max(1.0, per_minute), per_minute / 60.0)
        return bucket.allow()

    def create(
        self,
        game: str,
        preset: str = "standard",
        options: dict[str, Any] | None = None,
        bots: int = 0,
        bot: str | None = None,
        deals: int | None = 5,
        target: int | None = None,
        seed: int | None = None,
        hot_seat: bool = False,
        turn_clock: float | None = None,
        client: str = "",
        speed: str = DEFAULT_SPEED,
        card_counter: bool = False,
    ) -> TableRuntime:
        """A new table; the last ``bots`` seats are given to bots from the start.

        ``seed`` fixes the deals (for tests and analysis); such a table says so to
        everyone (``fixed_seed``). Without it the server draws the seed and never shows
        it before a deal is over. ``turn_clock`` seconds per move (0: none). ``speed``
        (``relaxed``, ``normal``, ``fast``) sets how long the bots wait before they move;
        ``card_counter`` shows every seat the cards still out, in the games that have cards.
        """
        s = self.settings
        for what, value in (("game", game), ("preset", preset), ("bot", bot)):
            if value is not None:
                check_text(value, what, 64)
        if len(self.tables) >= s.max_tables:
            raise ServerError(
                "server_full",
                f"this server hosts at most {s.max_tables} tables; try later",
                503,
                {"limit": s.max_tables},
            )
        if sum(1 for t in self.tables.values() if t.creator == client) >= s.tables_per_client:
            raise ServerError(
                "quota",
                f"you already have {s.tables_per_client} open tables here; "
                "finish or leave one first",
                429,
                {"limit": s.tables_per_client},
            )
        if not self.limit(self.create_limits, client, s.creates_per_minute):
            raise ServerError(
                "rate_limited",
                f"at most {s.creates_per_minute:g} new tables a minute; wait a little",
                429,
                {"per_minute": s.creates_per_minute, "reason": "create"},
            )
        if game not in SERIALIZERS:
            raise ServerError(
                "bad_game",
                f"unknown game {game!r}; valid games: {', '.join(sorted(SERIALIZERS))}",
                data={"game": str(game)},
            )
        options = dict(options or {})
        try:
            made = shedkit.make(game, preset=preset, **options)
        except (OptionError, TypeError) as err:
            raise ServerError("bad_option", str(err), data=_option_named(err, options)) from err
        bot = bot or default_agent(game)
        if bot not in agents_for(game):
            raise ServerError(
                "bad_bot",
                f"agent {bot!r} does not play {game}; valid: {', '.join(agents_for(game))}",
                data={"bot": bot},
            )
        n = made.num_players
        if not 0 <= bots <= n:
            raise ServerError("bad_bots", f"bots must be 0…{n}, not {bots}", data={"max": n})
        if deals is not None and not 1 <= deals <= 1000:
            raise ServerError(
                "bad_deals", f"deals must be 1…1000 or none, not {deals}", data={"max": 1000}
            )
        if bots == n and (deals is None or deals > s.bot_only_max_deals):
            raise ServerError(
                "bad_deals",
                f"a table of bots alone plays at most {s.bot_only_max_deals} deals",
                data={"max": s.bot_only_max_deals, "reason": "bots_only"},
            )
        if target is not None and not 1 <= target <= 1_000_000:
            raise ServerError(
                "bad_target",
                f"target must be 1…1000000 or none, not {target}",
                data={"max": 1_000_000},
            )
        if turn_clock is not None and not (turn_clock == 0 or 5 <= turn_clock <= 3600):
            raise ServerError(
                "bad_clock",
                f"turn_clock is 0 (no clock) or 5…3600 seconds, not {turn_clock}",
                data={"min": 5, "max": 3600},
            )
        clock = s.turn_clock if turn_clock is None else turn_clock
        if not isinstance(speed, str) or speed not in SPEEDS:
            raise ServerError(
                "bad_option",
                f"speed is one of {', '.join(SPEEDS)}, not {speed!r}",
                data={"option": "speed", "allowed": list(SPEEDS), "reason": "speed"},
            )
        if not isinstance(card_counter, bool):
            raise ServerError(
                "bad_option",
                f"card_counter is true or false, not {card_counter!r}",
                data={"option": "card_counter", "reason": "card_counter"},
            )
        if seed is not None and not 0 <= seed < 2**63:
            raise ServerError("bad_seed", "a seed is a whole number from 0 to 2**63 - 1")
        table_id = secrets.token_urlsafe(6)
        table = TableRuntime(
            id=table_id,
            game_name=game,
            preset=preset,
            options=options,
            seed=seed if seed is not None else secrets.randbits(62),
            deals=deals,
            target=target,
            seats=[SeatInfo(bot=bot, human=i < n - bots) for i in range(n)],
            created=time.time(),
            fixed_seed=seed is not None,
            hot_seat=hot_seat,
            turn_clock=float(clock),
            creator=client,
            speed=speed,
            card_counter=card_counter,
        )
        table.banks = [s.time_bank] * n
        self.tables[table_id] = table
        if table.ready():
            self._start_deal(table)
        self._changed(table)
        return table

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
            self._start_deal(table)
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
        self._start_deal(table)
        self._changed(table)

    def next_deal(self, table: TableRuntime) -> None:
        """Deal the next hand after the score screen, or a rematch once the match is over."""
        if table.status == "scored":
            self._start_deal(table)
        elif table.status == "finished":
            table.match_no += 1
            table.new_match()
            self._start_deal(table)
        else:
            raise ServerError(
                "bad_state", "the deal in progress is not over", data={"reason": "not_over"}
            )
        self._changed(table)

    # -- play ------------------------------------------------------------------------

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
        table.state_id += 1
        table.deal_moves.append(str(move))
        state = table.state
        if state.is_over:
            record = table.match.finish_deal(state).record
            assert record is not None  # finish_deal returns the record it does not keep
            self.storage.add_deal(
                table.id, table.deal_counter, table.match_no, table.game_name, record
            )
            table.summaries.append(self._summary_line(table.deal_counter, table.match_no, state))
            del table.summaries[:-SUMMARIES_KEPT]
            table.status = "finished" if table.match.is_over else "scored"
            for info in table.seats:
                info.reserved = None  # the hands are public now
        self._changed(table)

    def _start_deal(self, table: TableRuntime) -> None:
        table.state = table.match.next_deal()
        table.deal_start = table.state.record()
        table.deal_moves = []
        table.deal_counter += 1
        table.state_id += 1
        table.agents = {}
        table.status = "playing"
        table.banks = [self.settings.time_bank] * len(table.seats)
        table.bot_only_deals = table.bot_only_deals + 1 if table.humans == 0 else 0
        for info in table.seats:
            info.reserved = None

    @staticmethod
    def _summary_line(number: int, match_no: int, state: Any) -> Json:
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

    # -- bots ------------------------------------------------------------------------

    def _kick(self, table: TableRuntime) -> None:
        """Make sure a bot runner is going if a bot is to move (or deal) at this table."""
        task = table.bot_task
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet; start() kicks every table
        table.bot_task = loop.create_task(self._bots(table))

    async def _bots(self, table: TableRuntime) -> None:
        while True:
            state = table.state
            if table.status == "scored" and table.humans == 0:
                # Bot-only tables deal on by themselves, however they came to have no
                # human (created so, or left by everyone), up to the cap; people press
                # "next deal".
                if table.bot_only_deals >= self.settings.bot_only_max_deals:
                    table.status = "finished"
                    self._changed(table)
                    return
                await asyncio.sleep(self.bot_delay)
                if table.status == "scored" and table.humans == 0:
                    self._start_deal(table)
                    self._changed(table)
                continue
            if state is None or table.status != "playing":
                return
            seat = state.current_player
            if seat is None or not table.seats[seat].bot_plays:
                return
            await asyncio.sleep(self.bot_pause(table))
            if table.state is not state or state.current_player != seat:
                continue
            if not table.seats[seat].bot_plays:
                continue
            if self._thinks_long(table, seat):
                await self._think(table, seat)
            else:
                self._bot_move(table, seat)

    def bot_pause(self, table: TableRuntime) -> float:
        """Seconds a bot waits before the current move, at the table's pace.

        ``bot_delay`` times the pace's factor; twice that before a bot leads a new trick,
        so that the players see the trick's last pass before the table clears.
        """
        factor = SPEEDS.get(table.speed, SPEEDS[DEFAULT_SPEED])
        pause = self.bot_delay * factor
        state = table.state
        # Trick-taking games say so by a ``last_play`` that is empty while a lead is due.
        leads = (
            state is not None
            and getattr(state, "phase", None) == "play"
            and getattr(state, "last_play", True) is None
            and bool(getattr(state, "history", ()))
        )
        return pause * 2 if leads else pause

    def _thinks_long(self, table: TableRuntime, seat: int) -> bool:
        """True when the seat's bot computes its moves in the bot pool."""
        if table.seats[seat].bot in self.settings.pooled_agents:
            return True
        return bool(getattr(table.agent(seat), "thinks_long", False))

    async def _think(self, table: TableRuntime, seat: int, clock: bool = False) -> None:
        """The seat's bot computes the current move in the pool while the loop serves on.

        The answer is applied only if the table is still at the state it was asked about
        (a player who timed out may have moved meanwhile) and, unless the turn ``clock``
        ran out, the bot still plays the seat (its player may have come back); a bot that
        fails or is not back within ``bot_think_limit`` is replaced for this move by the
        greedy bot.
        """
        state, state_id = table.state, table.state_id
        assert table.deal_start is not None
        job = Job(
            start=table.deal_start,
            moves=tuple(table.deal_moves),
            seat=seat,
            agent=table.seats[seat].bot,
            seed=derive_seed(table.seed, "think", table.match_no, table.deal_counter, state_id),
        )
        table.thinking = seat
        self._changed(table, save=False)
        move: Any = None
        try:
            answer = self.pool.submit(job)
            text = await asyncio.wait_for(
                asyncio.wrap_future(answer), self.settings.bot_think_limit
            )
            if table.state is state and table.state_id == state_id:
                move = state.game.parse_move(text, state)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = None
            if table.state is state and table.state_id == state_id:
                move = self._quick_move(table, seat)
        finally:
            if table.thinking == seat:
                table.thinking = None
        current = table.state is state and table.state_id == state_id
        if not current or move is None or not (clock or table.seats[seat].bot_plays):
            self.late_answers += 1
            self._changed(table, save=False)  # the "thinking" mark is gone
            return
        state.apply(move, seat)
        self._moved(table, move)

    def _quick_move(self, table: TableRuntime, seat: int) -> Any:
        """The greedy bot's move for ``seat`` (the first legal move if it fails)."""
        state = table.state
        try:
            seed = derive_seed(table.seed, "fallback", table.deal_counter, table.state_id)
            return make_agent("greedy", table.game, seed).act(state.view(seat))
        except Exception:
            log.exception("the greedy stand-in failed at table %s", table.id)
            return state.legal_moves()[0]

    def _bot_move(self, table: TableRuntime, seat: int) -> None:
        """The seat's bot plays the current move (a faulty bot plays the first legal one)."""
        state = table.state
        try:
            move = table.agent(seat).act(state.view(seat))
            state.apply(move, seat)
        except Exception:
            log.exception("bot %s failed at table %s", table.seats[seat].bot, table.id)
            move = state.legal_moves()[0]
            state.apply(move, seat)
        self._moved(table, move)

    # -- clocks ----------------------------------------------------------------------

    def _arm_clocks(self, table: TableRuntime) -> None:
        """Run the turn clock for a human whose turn it is, and the next-deal clock.

        The clock of a turn is ``turn_clock`` plus what is left of the seat's time bank;
        when it runs out the seat's bot plays that move (`_timeout`).
        """
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        state = table.state
        key: tuple[int, int, int] | None = None
        if state is not None and table.status == "playing" and table.turn_clock > 0:
            seat = state.current_player
            if seat is not None and not table.seats[seat].bot_plays:
                key = (table.deal_counter, table.state_id, seat)
        if key != table.turn_key:
            old = table.turn_key
            if old is not None:
                if table.turn_timer is not None:
                    table.turn_timer.cancel()
                used = loop.time() - table.turn_started - table.turn_clock
                if used > 0 and old[0] == table.deal_counter:
                    table.banks[old[2]] = max(0.0, table.banks[old[2]] - used)
            table.turn_key, table.turn_timer, table.turn_deadline = key, None, None
            if key is not None:
                budget = self._turn_budget(table, key[2])
                table.turn_bank = max(0.0, budget - table.turn_clock)
                table.turn_started = loop.time()
                table.turn_deadline = round(time.time() + budget, 3)
                table.turn_timer = loop.call_later(budget, self._timeout, table, key)
        wait = self.settings.next_deal_after
        if table.status == "scored" and table.humans > 0 and wait > 0:
            if table.next_timer is None:
                table.next_deadline = round(time.time() + wait, 3)
                table.next_timer = loop.call_later(wait, self._auto_next, table, table.deal_counter)
        elif table.next_timer is not None:
            table.next_timer.cancel()
            table.next_timer, table.next_deadline = None, None

    def _turn_budget(self, table: TableRuntime, seat: int) -> float:
        """Seconds for ``seat``'s turn: the clock and its bank, or less after timeouts.

        A seat that timed out into away and came back without moving gets half the
        clock, then a quarter, and so on down to ``min_turn_clock``, without its bank: nobody
        holds a table by saying hello after every timeout.
        """
        strikes = table.seats[seat].timeouts - self.settings.timeouts_before_away
        if strikes < 0:
            return table.turn_clock + table.banks[seat]
        floor = min(self.settings.min_turn_clock, table.turn_clock)
        return max(floor, table.turn_clock / 2.0 ** (strikes + 1))

    def _timeout(self, table: TableRuntime, key: tuple[int, int, int]) -> None:
        """A turn's clock ran out: the seat's bot makes that move; repeated, the seat is away."""
        if table.turn_key != key or self.tables.get(table.id) is not table:
            return
        table.turn_timer = None
        seat = key[2]
        info = table.seats[seat]
        info.timeouts += 1
        self.timeouts += 1
        if info.timeouts >= self.settings.timeouts_before_away:
            info.away = True
        if info.away:
            self._kick(table)  # the bot runner plays for an away seat, in the pool if need be
        elif self._thinks_long(table, seat):
            # Never a search on the loop: the pool computes it, the clock is off meanwhile.
            task = asyncio.get_running_loop().create_task(self._think(table, seat, clock=True))
            table.think_tasks.add(task)
            task.add_done_callback(table.think_tasks.discard)
        else:
            self._bot_move(table, seat)

    def _auto_next(self, table: TableRuntime, deal_counter: int) -> None:
        table.next_timer, table.next_deadline = None, None
        if table.status == "scored" and table.deal_counter == deal_counter:
            self._start_deal(table)
            self._changed(table)

    # -- expiry ----------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Close idle and finished tables now and then (their deals stay stored)."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            self.expire()

    def expire(self, now: float | None = None) -> list[str]:
        """Close tables nobody watches that are finished or idle too long; return their ids."""
        now = time.monotonic() if now is None else now
        s = self.settings
        gone = []
        for table in list(self.tables.values()):
            if table.connections:
                continue
            quiet = now - table.last_activity
            finished = table.status == "finished" and quiet >= s.finished_expiry
            if finished or quiet >= s.idle_expiry:
                gone.append(table.id)
                self.close_table(table)
        return gone

    def close_table(self, table: TableRuntime) -> None:
        """Forget a table in memory and mark it closed in storage."""
        self._forget(table)
        data = table.to_data()
        data["status"] = "closed"
        self.storage.save_table(table.id, table.game_name, data)
        self.expired += 1

    def _forget(self, table: TableRuntime) -> None:
        """Drop a table from memory with its bots, searches and clocks.

        A search still running would otherwise apply its move to the table after it is
        gone and save it again, over its closing mark.
        """
        for task in [table.bot_task, *table.think_tasks]:
            if task is not None:
                task.cancel()
        self._stop_timers(table)
        self.tables.pop(table.id, None)

    # -- connections -------------------------------------------------------------------

    def admit(self, table: TableRuntime, conn: Connection) -> None:
        """Count a new WebSocket against the caps, or refuse it (``too_many_connections``).

        Caps per table, per client (its cookie) and per address: one script cannot hold
        a thousand sockets, and forged cookies still share their address's cap.
        """
        s = self.settings
        checks = (
            (len(table.connections), s.ws_per_table, "table"),
            (self.sockets.get(conn.client, 0), s.ws_per_client, "client"),
            (self.sockets.get(conn.address, 0), s.ws_per_address, "address"),
        )
        for count, limit, reason in checks:
            if count >= limit:
                raise ServerError(
                    "too_many_connections",
                    f"at most {limit} connections per {reason}; close some first",
                    429,
                    {"limit": limit, "reason": reason},
                )
        for key in {conn.client, conn.address}:
            self.sockets[key] = self.sockets.get(key, 0) + 1

    def release(self, conn: Connection) -> None:
        """Uncount a WebSocket that `admit` counted."""
        for key in {conn.client, conn.address}:
            left = self.sockets.get(key, 0) - 1
            if left > 0:
                self.sockets[key] = left
            else:
                self.sockets.pop(key, None)

    def _bad_row(self, table_id: str) -> None:
        """The storage set a row of ``table_id`` aside (called from the writer thread)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.fail_table, table_id)

    def fail_table(self, table_id: str) -> None:
        """Close a table whose state cannot be stored: its clients get ``table_closed``.

        The states that were not stored are never sent; the table's finished deals stay.
        """
        table = self.tables.get(table_id)
        if table is None:
            return
        self.failed += 1
        table.outq.clear()
        closing = ServerError(
            "table_closed",
            "this table could not be saved and is closed",
            data={"reason": "storage"},
        )
        error = error_message(closing)
        for conn in table.connections:
            conn.post(error)
            conn.close_code, conn.closed = 4410, True
        self._forget(table)
        closed = {"status": "closed", "reason": "storage", "game": table.game_name}
        self.storage.save_table(table.id, table.game_name, closed)

    def connect(self, table: TableRuntime, conn: Connection) -> None:
        """Register a connection (a spectator until it says hello with a token)."""
        table.connections.append(conn)
        table.last_activity = time.monotonic()
        self.send_state(table, conn)
        # Marked as past: a client shows them in the chat but pops no emote for them.
        for line in table.chat:
            conn.post(_dumps({"type": "chat", **line, "past": True}))

    def hello(self, table: TableRuntime, conn: Connection, token: Any) -> None:
        """Bind the connection to the seat ``token`` holds; a player back from away resumes."""
        if token is None:
            self._unbind(table, conn)
            self.send_state(table, conn)
            return
        seat = self.seat_of(table, token)
        info = table.seats[seat]
        if conn.seat != seat:
            self._unbind(table, conn)
            conn.seat = seat
            info.connections += 1
            timer = table.away_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
        # Back from away, but the timeouts stand until a move: a player who only says
        # hello after each timeout is away again at the next one, on a shorter clock.
        info.away = False
        self._changed(table, save=False)

    def disconnect(self, table: TableRuntime, conn: Connection) -> None:
        """Forget a connection; a seat left with none is played by its bot after a while."""
        conn.closed = True
        if conn in table.connections:
            table.connections.remove(conn)
        self._unbind(table, conn)
        if self.tables.get(table.id) is table:
            self._changed(table, save=False)

    def _unbind(self, table: TableRuntime, conn: Connection) -> None:
        seat = conn.seat
        if seat is None:
            return
        conn.seat = None
        info = table.seats[seat]
        info.connections = max(0, info.connections - 1)
        self._away_later(table, seat)

    def _away_later(self, table: TableRuntime, seat: int) -> None:
        """A held seat with no connection is marked away (bot plays) after ``away_after``."""
        info = table.seats[seat]
        if info.connections or info.token_hash is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet; start() arms it
        old = table.away_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        table.away_timers[seat] = loop.call_later(self.away_after, self._set_away, table, seat)

    def _set_away(self, table: TableRuntime, seat: int) -> None:
        table.away_timers.pop(seat, None)
        info = table.seats[seat]
        if info.connections == 0 and info.token_hash is not None:
            info.away = True
            self._changed(table, save=False)

    def chat(
        self,
        table: TableRuntime,
        conn: Connection,
        text: Any,
        phrase: Any = None,
        emote: Any = None,
    ) -> None:
        """Post a chat line under the seat's name (spectators may not chat).

        A line is free ``text``, or a quick ``phrase`` or an ``emote`` by its code (one of
        `QUICK_PHRASES`, `EMOTES`): the code travels, each client words it.
        """
        if conn.seat is None:
            raise ServerError("not_seated", "take a seat to chat", data={"reason": "chat"})
        if sum(v is not None for v in (text, phrase, emote)) > 1:
            raise ServerError(
                "bad_message", "a chat message has one of 'text', 'phrase' or 'emote'"
            )
        said: dict[str, str]
        if phrase is not None:
            if not isinstance(phrase, str) or phrase not in QUICK_PHRASES:
                raise ServerError(
                    "bad_phrase",
                    f"unknown quick phrase; valid: {', '.join(QUICK_PHRASES)}",
                    data={"valid": list(QUICK_PHRASES)},
                )
            said = {"phrase": phrase}
        elif emote is not None:
            if not isinstance(emote, str) or emote not in EMOTES:
                raise ServerError(
                    "bad_emote",
                    f"unknown emote; valid: {', '.join(EMOTES)}",
                    data={"valid": list(EMOTES)},
                )
            said = {"emote": emote}
        else:
            if not isinstance(text, str) or not text.strip():
                raise ServerError("bad_message", "a chat message needs 'text'")
            if len(text) > MAX_CHAT:
                raise ServerError(
                    "too_long",
                    f"chat lines are at most {MAX_CHAT} characters",
                    data={"limit": MAX_CHAT},
                )
            said = {"text": text.strip()}
        line = {
            "seat": conn.seat,
            "name": table.seats[conn.seat].name,
            **said,
            "at": time.time(),
        }
        table.chat.append(line)
        message = _dumps({"type": "chat", **line})
        self._save(table)
        self._publish(table, [(other, message) for other in table.connections])

    # -- sending ---------------------------------------------------------------------

    def state_message(
        self, table: TableRuntime, seat: int | None, public: str | None = None
    ) -> str:
        """The ``state`` message for ``seat``: the table and that seat's view only.

        ``public``, the table's JSON, is the same for every seat: a change encodes it once.
        """
        view = None
        if table.state is not None:
            view = serialize_view(table.game_name, table.state.view(seat))
        shown = public if public is not None else _dumps(table.public())
        head = _dumps({"type": "state", "you": seat, "state_id": table.state_id})
        return f'{head[:-1]},"table":{shown},"view":{_dumps(view)}}}'

    def send_state(self, table: TableRuntime, conn: Connection) -> None:
        """Queue the current state for one connection, once what it shows is committed."""
        if table.outq:
            conn.pending_state = True
        else:
            conn.post(self.state_message(table, conn.seat))

    def _changed(self, table: TableRuntime, save: bool = True) -> None:
        if save:
            self._save(table)
        self._arm_clocks(table)
        by_seat: dict[int | None, str] = {}
        batch = []
        public = _dumps(table.public()) if table.connections else None
        for conn in table.connections:
            message = by_seat.get(conn.seat)
            if message is None:
                message = by_seat[conn.seat] = self.state_message(table, conn.seat, public)
            batch.append((conn, message))
        self._publish(table, batch)
        self._kick(table)

    def _publish(self, table: TableRuntime, batch: list[tuple[Connection, str]]) -> None:
        """Send ``batch`` once every write queued so far is committed, in order."""
        table.seq += 1
        table.outq.append((table.seq, batch))
        self.storage.on_commit(partial(self._committed, table, table.seq))

    def _committed(self, table: TableRuntime, seq: int) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            self._drain(table, seq)
        else:
            loop.call_soon_threadsafe(self._drain, table, seq)

    def _drain(self, table: TableRuntime, upto: int) -> None:
        outq = table.outq
        while outq and outq[0][0] <= upto:
            for conn, message in outq.popleft()[1]:
                conn.post(message)
        if not outq:
            for conn in table.connections:
                if conn.pending_state:
                    conn.pending_state = False
                    conn.post(self.state_message(table, conn.seat))

    def _save(self, table: TableRuntime) -> None:
        self.storage.save_table(table.id, table.game_name, table.to_data())


def _option_named(err: Exception, options: dict[str, Any]) -> dict[str, Any] | None:
    """``{"option": name}`` when the options error is about one option the request set."""
    text = str(err)
    for name in options:
        if f"{name!r}" in text:
            return {"option": name}
    return None


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
