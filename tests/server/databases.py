"""Throw-away PostgreSQL databases for the tests (no test URL is read here)."""

from __future__ import annotations

import secrets

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

__all__ = ["drop_database", "fresh_database"]


def fresh_database(pg_url: str, name: str | None = None) -> str:
    """A new, empty database on the PostgreSQL server of ``pg_url``; its URL.

    Named ``name`` (dropped first if it exists), else a random ``shedkit_cluster_…``.
    """
    name = name or f"shedkit_cluster_{secrets.token_hex(4)}"
    admin = create_engine(
        make_url(pg_url).set(drivername="postgresql+psycopg", database="postgres"),
        isolation_level="AUTOCOMMIT",
    )
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(pg_url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop a database that `fresh_database` made."""
    parsed = make_url(url)
    admin = create_engine(
        parsed.set(drivername="postgresql+psycopg", database="postgres"),
        isolation_level="AUTOCOMMIT",
    )
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
    admin.dispose()
