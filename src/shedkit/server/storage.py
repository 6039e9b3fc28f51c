"""Storage of tables and finished deals (SQLAlchemy: SQLite by default, PostgreSQL by URL).

A table is one row: its settings, seats and the record of the deal in
progress, enough to rebuild it with [`shedkit.replay`][shedkit.replay]. Every finished
deal is a row holding its record. Writes go through one writer thread that
coalesces a table's updates (the newest row wins) and commits in batches, so
a move never blocks the event loop on the disk; `Storage.on_commit` runs a
callback once what was queued before it is committed (the server sends a move's
new state only then), and `Storage.flush` waits for the same (reads and
shutdown call it). A table can be deleted from memory by the server and marked
closed here; its deals stay.

One bad row never holds up the others. Rows are encoded one by one before the
batch is written, and a batch the database refuses is written again row by row: a
row that cannot be encoded or written is set aside, logged once with its table, and
reported through `Storage.on_bad_row` (the server closes that table); every
other row is committed and acknowledged. Only a database that cannot be reached
makes the writer retry the whole batch.

On a cluster (`shedkit.server.leases`), a node writes a table only while it holds the
table's lease under the fencing token its state was made under: every queued row and deal
carries that token (the ``fence`` of `save_table` and `add_deal`), and each batch locks
the lease rows of its tables and compares them with the row's own token in the same
transaction, as Kleppmann's fencing tokens travel with each write. A row made under an
older token than the lease's (the table was taken over, perhaps by this very node after a
pause) is dropped, never written, and reported through `Storage.on_lost` with its token;
so a node that lost a table cannot overwrite its new owner's moves, whatever it still had
queued when it lost it.

A deal written twice with the same record (a batch retried after a commit whose answer
was lost) is stored once; the same deal number with another record is a conflict, not a
bad row: on a cluster it is reported as a loss (the table is restored from what is
stored), on a single node the table is set aside as before.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url

from shedkit.server.batch import (
    UNREACHABLE,
    Fence1,
    column_json,
    json_text,
    store,
    table_upsert,
)
from shedkit.server.schema import Fence, db_now, deals_t, leases_t, metadata, tables_t

__all__ = [
    "DEFAULT_URL",
    "UNREACHABLE",
    "Fence",
    "Storage",
    "db_now",
    "deals_t",
    "json_text",
    "leases_t",
    "metadata",
    "stored",
    "tables_t",
]

log = logging.getLogger("shedkit.server")

#: A SQLite file in the working directory.
DEFAULT_URL = "sqlite:///shedkit.db"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets the lobby read while the writer commits; NORMAL syncs at checkpoints only.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Storage:
    """Tables and deals in a database named by a SQLAlchemy URL."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        parsed = make_url(url)
        if parsed.drivername == "postgresql":
            # Plain postgresql:// would pick psycopg2; the [server] extra installs psycopg 3.
            url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
        connect_args: dict[str, Any] = {}
        if parsed.drivername.startswith("sqlite"):
            connect_args["check_same_thread"] = False
        elif parsed.drivername.startswith("postgresql"):
            # A database cut off (not refusing, just silent) must fail a node's writes and
            # lease renewals within seconds, not hang them until the kernel gives up; the
            # URL's own settings win.
            connect_args = {
                "connect_timeout": 5,
                "keepalives": 1,
                "keepalives_idle": 5,
                "keepalives_interval": 2,
                "keepalives_count": 3,
                "tcp_user_timeout": 10_000,
            }
            for name in list(connect_args):
                if name in parsed.query:
                    del connect_args[name]
        self.engine: Engine = create_engine(
            url, connect_args=connect_args, json_serializer=column_json
        )
        if parsed.drivername.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        if self.engine.dialect.name == "postgresql":
            # Nodes of a cluster starting together would race to create the same tables.
            with self.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(7411)"))
                metadata.create_all(conn)
        else:
            metadata.create_all(self.engine)
        self.upsert = table_upsert(self.engine.dialect.name)
        self._cond = threading.Condition()
        # The newest row of each table: game, time, data and the fence it was made under.
        self._tables: dict[str, tuple[str, float, dict[str, Any], int]] = {}
        self._deals: list[dict[str, Any]] = []
        self._after: list[Callable[[], None]] = []
        self._busy = False
        self._closed = False
        #: Called from the writer thread with a table's id when its row was set aside.
        self.on_bad_row: Callable[[str], None] | None = None
        # Tables whose row was set aside: only their closing mark is written any more.
        self._failed: set[str] = set()
        #: On a cluster, this node's name in the leases (its ``owner``); ``None`` (one node)
        #: writes every row unchecked.
        self.owner: str | None = None
        #: On a cluster, the creator of each table created here (its lease row's ``creator``).
        self.creators: dict[str, str] = {}
        #: How long a lease made by the writer lasts (the cluster renews it).
        self.lease_ttl = 5.0
        #: Called from the writer thread with a table's id and the fence its refused write
        #: was made under, when the lease no longer holds that fence.
        self.on_lost: Callable[[str, int], None] | None = None
        #: Called from the writer thread with a table's id and fence once its closing mark
        #: is committed and its lease removed.
        self.on_closed: Callable[[str, int], None] | None = None
        self._thread = threading.Thread(target=self._run, name="shedkit-storage", daemon=True)
        self._thread.start()

    # -- writes (queued) -----------------------------------------------------------

    def save_table(self, table_id: str, game: str, data: dict[str, Any], fence: int = 0) -> None:
        """Queue the newest row of a table (created or updated), made under ``fence``.

        A row queued under a newer fence is kept: what a table's earlier holder made is
        never written over what its current one made.
        """
        if table_id in self._failed and data.get("status") != "closed":
            return
        with self._cond:
            queued = self._tables.get(table_id)
            if queued is not None and queued[3] > fence:
                return
            self._tables[table_id] = (game, time.time(), data, fence)
            self._cond.notify_all()

    def add_deal(
        self,
        table_id: str,
        number: int,
        match: int,
        game: str,
        record: dict[str, Any],
        fence: int = 0,
    ) -> None:
        """Queue a finished deal's record, made under ``fence``."""
        if table_id in self._failed:
            return
        row = {
            "table_id": table_id,
            "number": number,
            "match": match,
            "game": game,
            "created": time.time(),
            "record": record,
            "fence": fence,
        }
        with self._cond:
            self._deals.append(row)
            self._cond.notify_all()

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once every write queued so far is committed.

        Called at once (in the caller's thread) when nothing is waiting to be written;
        otherwise from the writer thread right after the commit, in the order of the calls.
        This is how the server acknowledges nothing before it is stored.
        """
        with self._cond:
            if self._tables or self._deals or self._busy or self._after:
                self._after.append(callback)
                self._cond.notify_all()
                return
        callback()

    def discard(self, table_id: str, below: int) -> None:
        """Drop the queued writes of ``table_id`` made under a fence below ``below``.

        A node that takes a table (again) starts from what is stored: what it queued under
        an earlier hold would be refused anyway, and must not be reported as a loss of the
        new hold.
        """
        with self._cond:
            queued = self._tables.get(table_id)
            if queued is not None and queued[3] < below:
                del self._tables[table_id]
            self._deals[:] = [
                d for d in self._deals if d["table_id"] != table_id or d["fence"] >= below
            ]

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued write is committed (False if ``timeout`` s passed first)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._tables or self._deals or self._busy or self._after:
                if deadline is not None and time.monotonic() >= deadline:
                    return False
                self._cond.wait(0.5)
        return True

    def close(self, timeout: float = 2.0) -> None:
        """Commit what is queued, stop the writer and release the database.

        A database that stays unreachable for ``timeout`` seconds loses the writes still
        queued (they are logged) rather than hanging the shutdown.
        """
        if not self.flush(timeout):
            log.error("storage: database unreachable; %d table(s) not saved", len(self._tables))
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=1.0)
        self.engine.dispose()

    def _run(self) -> None:
        down_since: float | None = None
        while True:
            with self._cond:
                while not (self._tables or self._deals or self._after or self._closed):
                    self._cond.wait()
                if self._closed and not (self._tables or self._deals or self._after):
                    return
                tables, deals, after = self._tables, self._deals, self._after
                self._tables, self._deals, self._after = {}, [], []
                self._busy = True
            try:
                bad, lost, closed = self._store(tables, deals)
            except UNREACHABLE as err:
                # Once per outage, without a stack: an operator needs the fact and its end.
                if down_since is None:
                    down_since = time.monotonic()
                    log.warning(
                        "storage: the database is out of reach (%s); retrying",
                        str(err).splitlines()[0][:200],
                    )
                with self._cond:
                    for key, value in tables.items():
                        newer = self._tables.get(key)
                        if newer is None or newer[3] < value[3]:
                            self._tables[key] = value
                    self._deals[:0] = deals
                    self._after[:0] = after
                time.sleep(0.5)
            else:
                if down_since is not None:
                    log.warning(
                        "storage: the database answers again after %.1f s",
                        time.monotonic() - down_since,
                    )
                    down_since = None
                # The bad rows' tables are closed, and the lost ones dropped, before
                # anything after them is sent, so no state that was not stored goes out.
                for table_id in bad:
                    self._set_aside(table_id)
                for table_id, fence in lost:
                    self._lose(table_id, fence)
                for table_id, fence in closed:
                    self._report(self.on_closed, table_id, fence)
                # Everything else queued before these callbacks is now committed.
                for callback in after:
                    try:
                        callback()
                    except Exception:
                        log.exception("storage: a commit callback failed")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _store(
        self, tables: dict[str, tuple[str, float, dict[str, Any], int]], deals: list[dict[str, Any]]
    ) -> tuple[list[str], set[Fence1], list[Fence1]]:
        """Write one batch (`shedkit.server.batch.store`)."""
        return store(self, tables, deals)

    def _set_aside(self, table_id: str) -> None:
        if table_id in self._failed:
            return
        self._failed.add(table_id)
        with self._cond:
            queued = self._tables.get(table_id)
            if queued is not None and queued[2].get("status") != "closed":
                del self._tables[table_id]
            self._deals[:] = [d for d in self._deals if d["table_id"] != table_id]
        report = self.on_bad_row
        if report is not None:
            try:
                report(table_id)
            except Exception:
                log.exception("storage: reporting table %s failed", table_id)

    def _lose(self, table_id: str, fence: int) -> None:
        # What was queued under the lost hold (or an older one) would be refused too.
        self.discard(table_id, fence + 1)
        self._report(self.on_lost, table_id, fence)

    @staticmethod
    def _report(report: Callable[[str, int], None] | None, table_id: str, fence: int) -> None:
        if report is None:
            return
        try:
            report(table_id, fence)
        except Exception:
            log.exception("storage: reporting table %s failed", table_id)

    # -- reads -----------------------------------------------------------------

    def load_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every stored table as ``(id, data)``, oldest first."""
        self.flush()
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id, tables_t.c.data).order_by(tables_t.c.created))
            return [(r.id, dict(r.data)) for r in rows]

    def load_table(self, table_id: str) -> dict[str, Any] | None:
        """One stored table's row, or ``None``."""
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t.c.data).where(tables_t.c.id == table_id)).first()
            return None if row is None else dict(row.data)

    def load_deals(self, table_id: str) -> list[dict[str, Any]]:
        """The finished deals of a table in order: ``number``, ``match`` and ``record``."""
        self.flush()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(deals_t.c.number, deals_t.c.match, deals_t.c.record)
                .where(deals_t.c.table_id == table_id)
                .order_by(deals_t.c.number)
            )
            return [{"number": r.number, "match": r.match, "record": r.record} for r in rows]

    def get_deal(self, table_id: str, number: int) -> dict[str, Any] | None:
        """The record of a table's deal ``number``, or ``None``."""
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(deals_t.c.record).where(
                    deals_t.c.table_id == table_id, deals_t.c.number == number
                )
            ).first()
            return None if row is None else dict(row.record)


async def stored(storage: Storage) -> None:
    """Wait, without blocking the event loop, until every write queued so far is committed."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle() -> None:
        if not done.done():
            done.set_result(None)

    def wake() -> None:  # in the writer's thread
        loop.call_soon_threadsafe(settle)

    storage.on_commit(wake)
    await done
