"""The server's limits and clocks in one place, with ``shedkit serve`` flags for the main ones.

Every number here bounds something a client could otherwise make unbounded: how long a
table waits for a player, how many tables a client may open, how big a request may be.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import shedkit
from shedkit.agents.base import AGENTS, load_entry_points, make_agent
from shedkit.server.logs import FORMATS as LOG_FORMATS

__all__ = ["LOOPBACK_HOSTS", "MAX_KEYS", "MODEL_NAME", "Buckets", "Settings", "TokenBucket"]

#: Host names a server bound to loopback answers to by default.
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "::1", "[::1]")
#: A cluster node's name.
NODE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: The name a model is offered under (``--model NAME=DIR``): the bot level players choose.
MODEL_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")

_T = TypeVar("_T")


def _flag(default: _T, flag: str, help: str, **more: Any) -> _T:
    """A field that is also the ``shedkit serve`` flag ``flag``, described by ``help``.

    ``more`` goes to the flag as it is (``metavar``, ``choices``); the flag's default is
    the field's.
    """
    return field(default=default, metadata={"flag": flag, "help": help, **more})


@dataclass(frozen=True)
class Settings:
    """Limits, clocks and trusted names of one server.

    ``turn_clock`` is the default seconds per move of a new table (0: no clock, for
    correspondence-style tables), on top of which each seat has ``time_bank`` seconds
    per deal. When both run out the seat's bot plays that move; after
    ``timeouts_before_away`` timeouts in a row the seat is marked away (its bot plays on
    until the player is back). ``next_deal_after`` deals the next hand of a table whose
    players do not press "next". ``allowed_origins`` are extra browser origins allowed to
    open a WebSocket besides the page's own; ``trusted_hosts`` are the ``Host`` names
    served (``("*",)``: any). Bots that think long (search levels) move in ``bot_workers``
    processes of their own (0: the cores but one, at most 4); a move not back within
    ``bot_think_limit`` seconds is made by the greedy bot instead. ``pooled_agents`` names
    further agents whose moves go to those processes. ``models`` are DouZero-style
    networks offered as bot levels at the Dou Di Zhu tables, ``NAME=DIR`` each
    (`model_dirs`): players choose one by its name, never by its folder; their moves go
    to those processes too.

    A field whose metadata names a ``flag`` is that flag of ``shedkit serve``, with the
    metadata's ``help`` (and ``metavar``, ``choices``) and the field's default.
    """

    bot_delay: float = _flag(0.6, "--bot-delay", "seconds a bot waits before moving")
    away_after: float = _flag(
        20.0, "--away-after", "seconds without a connection before a seat's bot plays for it"
    )
    turn_clock: float = _flag(
        30.0,
        "--turn-clock",
        "seconds per move of a new table, then the seat's time bank, before its bot plays "
        "the move; 0 for no clock",
    )
    time_bank: float = _flag(30.0, "--time-bank", "extra seconds per seat and deal")
    timeouts_before_away: int = 2
    # A seat that keeps timing out without a move has its clock halved down to this.
    min_turn_clock: float = 5.0
    next_deal_after: float = 30.0
    max_tables: int = _flag(1000, "--max-tables", "tables this server hosts at most")
    tables_per_client: int = _flag(20, "--tables-per-client", "open tables one address may create")
    creates_per_minute: float = _flag(
        10.0, "--creates-per-minute", "tables one address may create a minute"
    )
    joins_per_minute: float = _flag(
        30.0, "--joins-per-minute", "seats one address may take a minute"
    )
    # Replays not yet cached that one address may ask for a minute (each is built anew).
    replays_per_minute: float = _flag(
        30.0,
        "--replays-per-minute",
        "replays not yet cached one address may ask for a minute",
        metavar="N",
    )
    idle_expiry: float = 3600.0
    finished_expiry: float = 900.0
    sweep_every: float = 30.0
    bot_only_max_deals: int = 200
    max_body: int = 64 * 1024
    allowed_origins: tuple[str, ...] = _flag(
        (),
        "--allowed-origin",
        "a browser origin besides the page's own allowed to open WebSockets "
        "(repeatable, e.g. https://cards.example.org)",
        metavar="URL",
    )
    trusted_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    replay_cache: int = 64
    bot_workers: int = _flag(
        0,
        "--bot-workers",
        "processes in which search bots (hard, expert) compute their moves; "
        "0: the cores but one, at most 4",
        metavar="N",
    )
    bot_think_limit: float = 15.0
    pooled_agents: tuple[str, ...] = ()
    models: tuple[str, ...] = _flag(
        (),
        "--model",
        "offer the DouZero-style model in folder DIR (landlord, landlord_up and "
        "landlord_down as .npz or .ckpt, optionally bidding.npz) as the bot level NAME at "
        "the Dou Di Zhu tables of the three-player standard rules; players choose it by "
        "NAME, never by its folder (repeatable; the weights are read once at start-up to "
        "check them)",
        metavar="NAME=DIR",
    )
    # WebSockets open at once per client (cookie), per address and per table.
    ws_per_client: int = _flag(
        16, "--ws-per-client", "WebSockets one browser (its cookie) may hold open", metavar="N"
    )
    ws_per_address: int = _flag(
        64, "--ws-per-address", "WebSockets one address may hold open", metavar="N"
    )
    ws_per_table: int = _flag(
        200, "--ws-per-table", "WebSockets (players and spectators) per table", metavar="N"
    )
    # The HTTP edge: connections at once (503 past it) and per address (429 past it),
    # request head size, seconds for a request's head and body to arrive, seconds a peer
    # may leave what it was sent unread, idle keep-alive, and the shutdown's grace.
    max_connections: int = _flag(
        4096, "--max-connections", "connections served at once; more are answered 503", metavar="N"
    )
    connections_per_address: int = _flag(
        256,
        "--connections-per-address",
        "connections one address may hold open, more are answered 429; a reverse proxy "
        "trusted for forwarded headers is not capped",
        metavar="N",
    )
    max_head: int = 16 * 1024
    max_headers: int = 100
    request_timeout: float = _flag(
        10.0,
        "--request-timeout",
        "seconds a request's head, or its body, may take to arrive",
        metavar="S",
    )
    send_timeout: float = _flag(
        10.0,
        "--send-timeout",
        "seconds a client may leave an answer or its messages unread before it is disconnected",
        metavar="S",
    )
    keep_alive: int = 5
    shutdown_grace: float = 3.0
    # A cluster (`shedkit.server.cluster`): Redis's URL (None: a single node), this node's
    # name, and how long its hold on a table lasts without renewal.
    cluster_url: str | None = _flag(
        None,
        "--cluster",
        "join a cluster of nodes through Redis (e.g. redis://127.0.0.1:6379/0); needs "
        "--db postgresql://… shared by every node",
        metavar="REDIS_URL",
    )
    node_id: str = _flag(
        "",
        "--node-id",
        "this node's name in the cluster (default: the host name and port)",
        metavar="NAME",
    )
    lease_ttl: float = _flag(
        5.0,
        "--lease",
        "seconds a node holds its tables without renewing: how soon another node takes "
        "over the tables of one that died",
        metavar="S",
    )
    # How `shedkit serve` writes its log lines (`shedkit.server.logs`): "text" or "json".
    log_format: str = _flag(
        "text",
        "--log-format",
        "log lines as text (time, level, node, table, message) or as one JSON object per "
        "line, for a log collector",
        choices=LOG_FORMATS,
    )

    def __post_init__(self) -> None:
        if self.turn_clock < 0 or self.time_bank < 0:
            raise ValueError("turn_clock and time_bank are seconds, 0 or more")
        if self.max_tables < 1 or self.tables_per_client < 1:
            raise ValueError("max_tables and tables_per_client must be at least 1")
        if self.bot_workers < 0 or self.bot_think_limit <= 0:
            raise ValueError("bot_workers must be 0 or more and bot_think_limit positive")
        counts = (
            self.ws_per_client,
            self.ws_per_address,
            self.ws_per_table,
            self.max_connections,
            self.connections_per_address,
        )
        if min(counts) < 1:
            raise ValueError("connection caps must be at least 1")
        if self.replays_per_minute <= 0:
            raise ValueError("replays_per_minute must be positive")
        if self.max_head < 1024 or self.max_headers < 10:
            raise ValueError("max_head is at least 1024 bytes and max_headers at least 10")
        if self.request_timeout <= 0 or self.send_timeout <= 0 or self.keep_alive < 1:
            raise ValueError("request_timeout, send_timeout and keep_alive are positive")
        if self.log_format not in LOG_FORMATS:
            raise ValueError(f"--log-format is text or json, not {self.log_format!r}")
        if self.cluster_url is not None:
            if not self.cluster_url.startswith(("redis://", "rediss://", "unix://")):
                raise ValueError(
                    f"--cluster is a Redis URL (redis://HOST:PORT/DB), not {self.cluster_url!r}"
                )
            if not NODE_ID.fullmatch(self.node_id):
                raise ValueError(
                    f"--node-id is 1 to 32 letters, digits, '-' or '_', not {self.node_id!r}"
                )
            if not 0.5 <= self.lease_ttl <= 300:
                raise ValueError(f"--lease is 0.5 to 300 seconds, not {self.lease_ttl:g}")
        for name, folder in self.model_dirs.items():
            _check_weights(name, folder)

    @functools.cached_property
    def model_dirs(self) -> Mapping[str, str]:
        """The models offered (``models``): each name and its weights folder, made absolute.

        `ValueError` for an item that is not ``NAME=DIR``, a name that is not 1 to 32
        letters, digits, ``-`` or ``_``, one given twice or already a bot's (``greedy``,
        ``hard``, an installed package's; letter case aside), or a folder that is none.
        """
        return _model_dirs(self.models)


def _model_dirs(items: tuple[str, ...]) -> dict[str, str]:
    """``NAME=DIR`` items as names and absolute folders, each checked (`Settings.model_dirs`)."""
    found: dict[str, str] = {}
    if not items:
        return found
    try:
        load_entry_points()  # an installed package's bot names are taken too
    except ValueError as err:
        raise ValueError(f"--model: the installed bots cannot be listed: {err}") from err
    taken = {name.lower(): name for name in AGENTS}
    for item in items:
        name, equals, folder = item.partition("=")
        if not equals or not name or not folder:
            raise ValueError(f"--model is NAME=DIR (e.g. --model dz=models/douzero), not {item!r}")
        if not MODEL_NAME.fullmatch(name):
            raise ValueError(
                f"--model {item!r}: NAME is 1 to 32 letters, digits, '-' or '_', not {name!r}"
            )
        clash = next((n for n in found if n.lower() == name.lower()), None)
        if clash is not None:
            raise ValueError(f"--model {item!r}: another model is named {clash!r} already")
        clash = taken.get(name.lower())
        if clash is not None:
            raise ValueError(f"--model {item!r}: {clash!r} is a bot's name already; choose another")
        path = os.path.abspath(os.path.expanduser(folder))
        if not os.path.isdir(path):
            raise ValueError(f"--model {item!r}: {folder!r} is not a folder")
        found[name] = path
    return found


def _check_weights(name: str, folder: str) -> None:
    """Read a model's weights once, as its bot would: `ValueError` in one line if they fail.

    The networks read stay cached (`shedkit.agents.douzero.model.cached_net`), so a copy
    of the settings (`dataclasses.replace`) does not read them again.
    """
    try:
        make_agent("douzero", shedkit.make("doudizhu"), 0, weights=folder)
    except ImportError as err:  # numpy missing: the message says what to install
        raise ValueError(f"--model {name}: {err}") from err
    except Exception as err:  # unreadable, refused or not DouZero's networks
        text = " ".join(str(err).split())
        raise ValueError(f"--model {name}={folder}: {text}") from err


@dataclass(slots=True)
class TokenBucket:
    """At most ``burst`` events at once, refilled at ``rate`` per second."""

    burst: float
    rate: float
    tokens: float = field(init=False)
    refilled: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def allow(self) -> bool:
        """True (and one token spent) if an event is within the limit now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


#: Clients whose rates are remembered; beyond that the idle ones are forgotten.
MAX_KEYS: Final = 10_000


class Buckets:
    """A token bucket per key, made on first use, the idle ones forgotten past `MAX_KEYS`."""

    def __init__(self) -> None:
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str, per_minute: float) -> bool:
        """True if ``key`` is within ``per_minute`` events (one spent)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > MAX_KEYS:
                self._buckets.clear()  # forget idle clients rather than grow without bound
            bucket = self._buckets[key] = TokenBucket(max(1.0, per_minute), per_minute / 60.0)
        return bucket.allow()
