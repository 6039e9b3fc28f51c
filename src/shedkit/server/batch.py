"""One batch of the storage's writes: encoded, fenced, and committed in one transaction.

`shedkit.server.storage.Storage` queues rows and deals and hands them here from its writer
thread. A batch is encoded row by row first (a row that cannot be encoded is set aside
alone); on a cluster its lease rows are locked and each row's own fence compared with
them (`shedkit.server.leases`); a deal already stored with the same record is skipped (a
retried batch), with another record it is a conflict; then everything is written in one
transaction. A batch the database refuses is written again row by row, so one bad row
never holds up the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from shedkit.server.schema import db_now, deals_t, leases_t, tables_t


class Storage(Protocol):
    """What a batch needs of `shedkit.server.storage.Storage`: its engine, its upsert, and
    on a cluster this node's name, its lease length and the creators of new tables."""

    engine: Engine
    upsert: Any
    owner: str | None
    lease_ttl: float
    creators: dict[str, str]


__all__ = [
    "UNREACHABLE",
    "Done",
    "Encoded",
    "Fence1",
    "Row",
    "column_json",
    "json_text",
    "store",
    "table_upsert",
]

log = logging.getLogger("shedkit.server")


def json_text(value: Any) -> str:
    """Compact JSON text, for stored rows and the messages sent to clients alike.

    orjson: a state message is encoded several times per move, and the writer thread
    holds the GIL for less time.
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class Encoded(str):
    """JSON text encoded by the writer ahead of the write (passed through as it is)."""

    __slots__ = ()


def column_json(value: Any) -> str:
    """The JSON columns' encoder: rows arrive encoded; anything else is encoded here."""
    if type(value) is Encoded:
        return value
    return json_text(value)


#: Errors that say the database is out of reach, not that a row is wrong: retry them all.
UNREACHABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)


def table_upsert(dialect: str) -> Any:
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


#: A queued table row: id, game, time, encoded data, and the fence it was made under.
Row = tuple[str, str, float, str, int]
#: A table and one of its fences.
Fence1 = tuple[str, int]


class Conflict(Exception):
    """A deal number stored already with another record (a single node sets it aside)."""


@dataclass
class Done:
    """What a batch's commits found: the holds refused and the tables closed."""

    lost: set[Fence1] = field(default_factory=set)
    closed: list[Fence1] = field(default_factory=list)


def as_dict(value: Any) -> Any:
    """A JSON column's value as Python (some drivers give text back)."""
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def store(
    storage: Storage,
    tables: dict[str, tuple[str, float, dict[str, Any], int]],
    deals: list[dict[str, Any]],
) -> tuple[list[str], set[Fence1], list[Fence1]]:
    """Write a batch; return the tables set aside, and the (table, fence) pairs lost
    and closed."""
    bad: dict[str, str] = {}
    done = Done()
    rows: list[Row] = []
    for key, (game, when, data, fence) in tables.items():
        try:
            rows.append((key, game, when, Encoded(json_text(data)), fence))
        except (TypeError, ValueError) as err:
            bad[key] = f"its row cannot be encoded ({err})"
    records = []
    for deal in deals:
        try:
            records.append({**deal, "record": Encoded(json_text(deal["record"]))})
        except (TypeError, ValueError) as err:
            bad[deal["table_id"]] = f"deal {deal['number']} cannot be encoded ({err})"
    records = [r for r in records if r["table_id"] not in bad]
    rows = [r for r in rows if r[0] not in bad]
    if rows or records:
        try:
            _write(storage, rows, records, done)
        except UNREACHABLE:
            raise
        except Exception:
            # The database refused something in the batch: find it row by row.
            done = Done()
            _write_each(storage, rows, records, bad, done)
    for table_id, why in bad.items():
        log.error("storage: table %s set aside: %s", table_id, why, extra={"table": table_id})
    return list(bad), done.lost, done.closed


def _write_each(
    storage: Storage,
    rows: list[Row],
    records: list[dict[str, Any]],
    bad: dict[str, str],
    done: Done,
) -> None:
    for record in records:
        try:
            _write(storage, [], [record], done)
        except UNREACHABLE:
            raise
        except Exception as err:
            bad[record["table_id"]] = f"deal {record['number']} was refused ({err})"
    for row in rows:
        if row[0] in bad:
            continue
        try:
            _write(storage, [row], [], done)
        except UNREACHABLE:
            raise
        except Exception as err:
            bad[row[0]] = f"its row was refused ({err})"


def _fenced(
    storage: Storage, conn: Any, rows: list[Row], deals: list[dict[str, Any]]
) -> set[Fence1]:
    """Lock the batch's leases; return the (table, fence) pairs whose fence they no
    longer hold.

    A table created here has no lease row before its first write: the row is made in
    the same transaction, so a table exists on the cluster only with its owner. Only
    a table with no stored row yet gets one so: a table whose lease was removed
    (closed elsewhere) stays closed.
    """
    owner = storage.owner
    assert owner is not None
    wanted = {(r[0], r[4]) for r in rows} | {(d["table_id"], d["fence"]) for d in deals}
    ids = {t for t, _ in wanted}
    held = {
        r.table_id: (r.owner, r.fence)
        for r in conn.execute(
            select(leases_t.c.table_id, leases_t.c.owner, leases_t.c.fence)
            .where(leases_t.c.table_id.in_(ids))
            .with_for_update()
        )
    }
    new = {t for t, fence in wanted if fence == 1 and t not in held}
    if new:
        stored = set(conn.execute(select(tables_t.c.id).where(tables_t.c.id.in_(new))).scalars())
        for table_id in sorted(new - stored):
            conn.execute(
                insert(leases_t).values(
                    table_id=table_id,
                    owner=owner,
                    fence=1,
                    expires=db_now() + storage.lease_ttl,
                    creator=storage.creators.get(table_id, ""),
                )
            )
            held[table_id] = (owner, 1)
    return {(t, fence) for t, fence in wanted if held.get(t) != (owner, fence)}


def _known_deals(conn: Any, deals: list[dict[str, Any]]) -> dict[tuple[str, int], Any]:
    """The stored records of the batch's deals that are already stored."""
    keys = {(d["table_id"], d["number"]) for d in deals}
    found = conn.execute(
        select(deals_t.c.table_id, deals_t.c.number, deals_t.c.record).where(
            deals_t.c.table_id.in_({t for t, _ in keys})
            & deals_t.c.number.in_({n for _, n in keys})
        )
    )
    return {(r.table_id, r.number): r.record for r in found if (r.table_id, r.number) in keys}


def _write(storage: Storage, rows: list[Row], deals: list[dict[str, Any]], done: Done) -> None:
    """Write rows and deals in one transaction; note the tables lost and closed in
    ``done`` once it commits."""
    closed: list[Fence1] = []
    lost: set[Fence1] = set()
    with storage.engine.begin() as conn:
        if storage.owner is not None:
            lost = _fenced(storage, conn, rows, deals)
            rows = [r for r in rows if (r[0], r[4]) not in lost]
            deals = [d for d in deals if (d["table_id"], d["fence"]) not in lost]
            # A closed table's lease goes with it: it is no longer anyone's to restore.
            for table_id, _game, _when, data, fence in rows:
                if '"status":"closed"' in data:
                    closed.append((table_id, fence))
                    conn.execute(
                        delete(leases_t).where(
                            leases_t.c.table_id == table_id, leases_t.c.fence == fence
                        )
                    )
        if deals:
            known = _known_deals(conn, deals)
            fresh = []
            for deal in deals:
                key = (deal["table_id"], deal["number"])
                if key not in known:
                    fresh.append(deal)
                    known[key] = orjson.loads(str(deal["record"]))
                elif as_dict(known[key]) != orjson.loads(str(deal["record"])):
                    if storage.owner is None:
                        raise Conflict(f"deal {deal['number']} is stored with another record")
                    # Another hold stored this deal: what is stored wins.
                    lost.add((deal["table_id"], deal["fence"]))
                # The same record again: a retried batch whose commit went through.
            fresh = [
                {k: v for k, v in d.items() if k != "fence"}
                for d in fresh
                if (d["table_id"], d["fence"]) not in lost
            ]
            if fresh:
                conn.execute(insert(deals_t), fresh)
            rows = [r for r in rows if (r[0], r[4]) not in lost]
        upsert = storage.upsert
        if upsert is not None and rows:
            # One statement for the whole batch: the writer holds the GIL (and the
            # moves waiting on this commit) for less time than row by row.
            values = [
                {"id": key, "game": game, "created": when, "updated": when, "data": data}
                for key, game, when, data, _fence in rows
            ]
            conn.execute(upsert, values)
            rows = []
        for table_id, game, when, data, _fence in rows:
            changed = conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(updated=when, data=data)
            )
            if changed.rowcount == 0:
                conn.execute(
                    insert(tables_t).values(
                        id=table_id, game=game, created=when, updated=when, data=data
                    )
                )
    done.lost |= lost
    done.closed.extend(closed)
