"""The server's limits and clocks in one place, with ``shedkit serve`` flags for the main ones.

Every number here bounds something a client could otherwise make unbounded: how long a
table waits for a player, how many tables a client may open, how big a request may be.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Final

from shedkit.server.logs import FORMATS as LOG_FORMATS

__all__ = ["LOOPBACK_HOSTS", "Settings", "TokenBucket"]

#: Host names a server bound to loopback answers to by default.
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "::1", "[::1]")
#: A cluster node's name.
NODE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


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
    further agents whose moves go to those processes.
    """

    bot_delay: float = 0.6
    away_after: float = 20.0
    turn_clock: float = 30.0
    time_bank: float = 30.0
    timeouts_before_away: int = 2
    # A seat that keeps timing out without a move has its clock halved down to this.
    min_turn_clock: float = 5.0
    next_deal_after: float = 30.0
    max_tables: int = 1000
    tables_per_client: int = 20
    creates_per_minute: float = 10.0
    joins_per_minute: float = 30.0
    # Replays not yet cached that one address may ask for a minute (each is built anew).
    replays_per_minute: float = 30.0
    idle_expiry: float = 3600.0
    finished_expiry: float = 900.0
    sweep_every: float = 30.0
    bot_only_max_deals: int = 200
    max_body: int = 64 * 1024
    allowed_origins: tuple[str, ...] = ()
    trusted_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    replay_cache: int = 64
    bot_workers: int = 0
    bot_think_limit: float = 15.0
    pooled_agents: tuple[str, ...] = ()
    # WebSockets open at once per client (cookie), per address and per table.
    ws_per_client: int = 16
    ws_per_address: int = 64
    ws_per_table: int = 200
    # The HTTP edge: connections at once (503 past it) and per address (429 past it),
    # request head size, seconds for a request's head and body to arrive, seconds a peer
    # may leave what it was sent unread, idle keep-alive, and the shutdown's grace.
    max_connections: int = 4096
    connections_per_address: int = 256
    max_head: int = 16 * 1024
    max_headers: int = 100
    request_timeout: float = 10.0
    send_timeout: float = 10.0
    keep_alive: int = 5
    shutdown_grace: float = 3.0
    # A cluster (`shedkit.server.cluster`): Redis's URL (None: a single node), this node's
    # name, and how long its hold on a table lasts without renewal.
    cluster_url: str | None = None
    node_id: str = ""
    lease_ttl: float = 5.0
    # How `shedkit serve` writes its log lines (`shedkit.server.logs`): "text" or "json".
    log_format: str = "text"

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


@dataclass
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
