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
table's lease: each batch locks the lease rows of its tables and checks them against the
node's fencing tokens (`Storage.fences`) in the same transaction. The rows of a table
another node has taken over are dropped, never written, and reported through
`Storage.on_lost`; so a node that lost a table cannot overwrite its new owner's moves.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import (
    Engine,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from shedkit.server.schema import Fence, db_now, deals_t, leases_t, metadata, tables_t

__all__ = [
    "DEFAULT_URL",
    "Fence",
    "Storage",
    "db_now",
    "deals_t",
    "json_text",
    "leases_t",
    "metadata",
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


def json_text(value: Any) -> str:
    """Compact JSON text, for stored rows and the messages sent to clients alike.

    orjson: a state message is encoded several times per move, and the writer thread
    holds the GIL for less time.
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class _Encoded(str):
    """JSON text encoded by the writer ahead of the write (passed through as it is)."""

    __slots__ = ()


def _column_json(value: Any) -> str:
    """The JSON columns' encoder: rows arrive encoded; anything else is encoded here."""
    if type(value) is _Encoded:
        return value
    return json_text(value)


#: Errors that say the database is out of reach, not that a row is wrong: retry them all.
_UNREACHABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)


def _table_upsert(dialect: str) -> Any:
    """``INSERT … ON CONFLICT (id) DO UPDATE`` of a table row, where the dialect has it."""
    if dialect == "sqlite":
        from sqlalchemy.dialects import sqlite

        stmt: Any = sqlite.insert(tables_t)
    elif dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        stmt = postgresql.insert(tables_t)
    else:
        return None
    return stmt.on_conflict_do_update(
        index_elements=[tables_t.c.id],
        set_={"updated": stmt.excluded.updated, "data": stmt.excluded.data},
    )


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
        self.engine: Engine = create_engine(
            url, connect_args=connect_args, json_serializer=_column_json
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
        self._upsert = _table_upsert(self.engine.dialect.name)
        self._cond = threading.Condition()
        self._tables: dict[str, tuple[str, float, dict[str, Any]]] = {}
        self._deals: list[dict[str, Any]] = []
        self._after: list[Callable[[], None]] = []
        self._busy = False
        self._closed = False
        #: Called from the writer thread with a table's id when its row was set aside.
        self.on_bad_row: Callable[[str], None] | None = None
        # Tables whose row was set aside: only their closing mark is written any more.
        self._failed: set[str] = set()
        #: On a cluster, the tables this node holds and its token for each; ``None`` (one
        #: node) writes every row unchecked.
        self.fences: dict[str, Fence] | None = None
        #: On a cluster, the creator of each table created here (its lease row's ``creator``).
        self.creators: dict[str, str] = {}
        #: How long a lease made by the writer lasts (the cluster renews it).
        self.lease_ttl = 5.0
        #: Called from the writer thread with a table's id when another node holds it now.
        self.on_lost: Callable[[str], None] | None = None
        self._thread = threading.Thread(target=self._run, name="shedkit-storage", daemon=True)
        self._thread.start()

    # -- writes (queued) -----------------------------------------------------------

    def save_table(self, table_id: str, game: str, data: dict[str, Any]) -> None:
        """Queue the newest row of a table (created or updated)."""
        if table_id in self._failed and data.get("status") != "closed":
            return
        with self._cond:
            self._tables[table_id] = (game, time.time(), data)
            self._cond.notify_all()

    def add_deal(
        self, table_id: str, number: int, match: int, game: str, record: dict[str, Any]
    ) -> None:
        """Queue a finished deal's record."""
        if table_id in self._failed:
            return
        row = {
            "table_id": table_id,
            "number": number,
            "match": match,
            "game": game,
            "created": time.time(),
            "record": record,
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
                bad, lost = self._store(tables, deals)
            except _UNREACHABLE:
                log.exception("storage: the database is out of reach; retrying")
                with self._cond:
                    for key, value in tables.items():
                        self._tables.setdefault(key, value)
                    self._deals[:0] = deals
                    self._after[:0] = after
                time.sleep(0.5)
            else:
                # The bad rows' tables are closed before anything after them is sent, so
                # no state that was not stored goes out.
                for table_id in bad:
                    self._set_aside(table_id)
                for table_id in lost:
                    self._lose(table_id)
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
        self, tables: dict[str, tuple[str, float, dict[str, Any]]], deals: list[dict[str, Any]]
    ) -> tuple[list[str], set[str]]:
        """Write a batch; return the tables whose rows were set aside, and those lost."""
        bad: dict[str, str] = {}
        lost: set[str] = set()
        rows: list[tuple[str, str, float, str]] = []
        for key, (game, when, data) in tables.items():
            try:
                rows.append((key, game, when, _Encoded(json_text(data))))
            except (TypeError, ValueError) as err:
                bad[key] = f"its row cannot be encoded ({err})"
        records = []
        for deal in deals:
            try:
                records.append({**deal, "record": _Encoded(json_text(deal["record"]))})
            except (TypeError, ValueError) as err:
                bad[deal["table_id"]] = f"deal {deal['number']} cannot be encoded ({err})"
        records = [r for r in records if r["table_id"] not in bad]
        rows = [r for r in rows if r[0] not in bad]
        if rows or records:
            try:
                lost = self._write(rows, records)
            except _UNREACHABLE:
                raise
            except Exception:
                # The database refused something in the batch: find it row by row.
                lost = self._write_each(rows, records, bad)
        for table_id, why in bad.items():
            log.error("storage: table %s set aside: %s", table_id, why)
        return list(bad), lost

    def _write_each(
        self,
        rows: list[tuple[str, str, float, str]],
        records: list[dict[str, Any]],
        bad: dict[str, str],
    ) -> set[str]:
        lost: set[str] = set()
        for record in records:
            try:
                lost |= self._write([], [record])
            except _UNREACHABLE:
                raise
            except Exception as err:
                bad[record["table_id"]] = f"deal {record['number']} was refused ({err})"
        for row in rows:
            if row[0] in bad:
                continue
            try:
                lost |= self._write([row], [])
            except _UNREACHABLE:
                raise
            except Exception as err:
                bad[row[0]] = f"its row was refused ({err})"
        return lost

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

    def _lose(self, table_id: str) -> None:
        with self._cond:
            self._tables.pop(table_id, None)
            self._deals[:] = [d for d in self._deals if d["table_id"] != table_id]
        if self.fences is not None:
            self.fences.pop(table_id, None)
        report = self.on_lost
        if report is not None:
            try:
                report(table_id)
            except Exception:
                log.exception("storage: reporting table %s lost failed", table_id)

    def _fenced(
        self,
        conn: Any,
        rows: list[tuple[str, str, float, str]],
        deals: list[dict[str, Any]],
    ) -> set[str]:
        """Lock the batch's leases; return the tables this node no longer holds.

        A table created here has no lease row before its first write: the row is made in
        the same transaction, so a table exists on the cluster only with its owner.
        """
        fences = self.fences
        assert fences is not None
        ids = {r[0] for r in rows} | {d["table_id"] for d in deals}
        held = {
            r.table_id: (r.owner, r.fence)
            for r in conn.execute(
                select(leases_t.c.table_id, leases_t.c.owner, leases_t.c.fence)
                .where(leases_t.c.table_id.in_(ids))
                .with_for_update()
            )
        }
        lost = set()
        for table_id in ids:
            mine = fences.get(table_id)
            if mine is not None and held.get(table_id) == mine:
                continue
            if mine is not None and mine[1] == 1 and table_id not in held:
                conn.execute(
                    insert(leases_t).values(
                        table_id=table_id,
                        owner=mine[0],
                        fence=1,
                        expires=db_now() + self.lease_ttl,
                        creator=self.creators.get(table_id, ""),
                    )
                )
                continue
            lost.add(table_id)
        return lost

    def _write(
        self, rows: list[tuple[str, str, float, str]], deals: list[dict[str, Any]]
    ) -> set[str]:
        """Write rows and deals in one transaction; return the tables lost (cluster)."""
        closed: list[str] = []
        with self.engine.begin() as conn:
            lost: set[str] = set()
            if self.fences is not None:
                lost = self._fenced(conn, rows, deals)
                rows = [r for r in rows if r[0] not in lost]
                deals = [d for d in deals if d["table_id"] not in lost]
                # A closed table's lease goes with it: it is no longer anyone's to restore.
                for table_id, _game, _when, data in rows:
                    if '"status":"closed"' in data:
                        fence = self.fences.get(table_id)
                        if fence is not None:
                            closed.append(table_id)
                            conn.execute(
                                delete(leases_t).where(
                                    leases_t.c.table_id == table_id, leases_t.c.fence == fence[1]
                                )
                            )
            if deals:
                conn.execute(insert(deals_t), deals)
            upsert = self._upsert
            if upsert is not None and rows:
                # One statement for the whole batch: the writer holds the GIL (and the
                # moves waiting on this commit) for less time than row by row.
                values = [
                    {"id": key, "game": game, "created": when, "updated": when, "data": data}
                    for key, game, when, data in rows
                ]
                conn.execute(upsert, values)
                rows = []
            for table_id, game, when, data in rows:
                done = conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == table_id)
                    .values(updated=when, data=data)
                )
                if done.rowcount == 0:
                    conn.execute(
                        insert(tables_t).values(
                            id=table_id, game=game, created=when, updated=when, data=data
                        )
                    )
        # Committed: a closed table is no longer this node's to renew.
        if self.fences is not None:
            for table_id in closed:
                self.fences.pop(table_id, None)
        return lost

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
