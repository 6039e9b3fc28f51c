"""The database's tables: table rows, finished deals and, on a cluster, leases.

One place for the schema, shared by the storage (which writes rows) and the leases (which
say who may write them).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Float, Integer, MetaData, String, Table, func

__all__ = ["Fence", "db_now", "deals_t", "leases_t", "metadata", "tables_t"]

metadata = MetaData()

tables_t = Table(
    "shedkit_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("data", JSON, nullable=False),
)

deals_t = Table(
    "shedkit_deals",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("match", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("record", JSON, nullable=False),
)


#: Who holds each table on a cluster (`shedkit.server.leases`): a lease that lapses at
#: ``expires`` (the database's clock, seconds since the epoch) and a fencing token that
#: grows by one at every change of owner. ``creator`` counts the tables one client opened
#: across the cluster.
leases_t = Table(
    "shedkit_leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(80), nullable=False),
    Column("fence", BigInteger, nullable=False),
    Column("expires", Float, nullable=False),
    Column("creator", String(80), nullable=False, default=""),
)

#: A node's hold on a table: ``(owner, fencing token)``.
Fence = tuple[str, int]


def db_now() -> Any:
    """The database's clock in seconds since the epoch (PostgreSQL): one clock for every node."""
    return func.extract("epoch", func.clock_timestamp())
