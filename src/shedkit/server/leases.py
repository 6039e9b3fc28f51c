"""Who holds which table on a cluster: leases in PostgreSQL with fencing tokens.

A table lives in one node's memory at a time. The node holds it through a row of
``shedkit_leases``: its name (``owner``, the node's name and a tag of this start), a
fencing token (``fence``) and the moment the lease lapses (``expires``, on the database's
clock, so nodes on machines whose clocks differ agree). The owner renews all its leases
in one statement every third of the lease's length. A node that stops renewing (killed,
frozen, cut off) loses its tables once their leases lapse: any other node may then claim
them, which adds one to the fence, and restore them from the database as a restart does.

The fence is what makes this safe without consensus of our own: every write carries the
fence its state was made under, and the storage writes a table's rows only after locking
its lease row and finding that fence there (`shedkit.server.storage`), so a node that
lost a table, however late it wakes up and whatever it still had queued, can no longer
write over the new owner. A renewal extends only the holds the node still has, each
with its own fence, so a hold the node dropped lapses and is claimed like any other.
Claims use ``FOR UPDATE SKIP LOCKED``: nodes claiming at once share the lapsed tables
instead of waiting on one another.

Every call here blocks on the database; the cluster runs them in worker threads.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, and_, delete, func, insert, select, tuple_, update

from shedkit.server.schema import Fence, db_now, leases_t, tables_t

__all__ = ["Holder", "Leases"]


@dataclass(frozen=True)
class Holder:
    """A table's lease as read: its owner, fence, and seconds until it lapses (< 0: lapsed)."""

    owner: str
    fence: int
    left: float


class Leases:
    """The leases of one node (``owner``), each ``ttl`` seconds long."""

    def __init__(self, engine: Engine, owner: str, ttl: float) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("a cluster keeps its tables in PostgreSQL: --db postgresql://…")
        self.engine = engine
        self.owner = owner
        self.ttl = ttl

    def renew(self, held: dict[str, Fence]) -> set[str]:
        """Extend every lease this node holds; return the tables of ``held`` it lost.

        A table created here has no lease row until its first write commits: that is not
        a loss, nor is a first write that commits while this runs (each statement sees
        what was committed before it). A table is lost when its row names another holder
        or fence, or is gone after another node held it.
        """
        if not held:
            return set()
        pairs = [(t, fence) for t, (_owner, fence) in held.items()]
        with self.engine.begin() as conn:
            rows = conn.execute(
                update(leases_t)
                .where(
                    leases_t.c.owner == self.owner,
                    tuple_(leases_t.c.table_id, leases_t.c.fence).in_(pairs),
                )
                .values(expires=db_now() + self.ttl)
                .returning(leases_t.c.table_id, leases_t.c.fence)
            )
            kept = {(r.table_id, r.fence) for r in rows}
            missing = [t for t, fence in held.items() if (t, fence[1]) not in kept]
            if not missing:
                return set()
            now = {
                r.table_id: (r.owner, r.fence)
                for r in conn.execute(
                    select(leases_t.c.table_id, leases_t.c.owner, leases_t.c.fence).where(
                        leases_t.c.table_id.in_(missing)
                    )
                )
            }
        return {
            t
            for t in missing
            if (t in now and now[t] != (self.owner, held[t][1]))
            or (t not in now and held[t][1] > 1)
        }

    def claim(
        self, limit: int, lapsed_for: float = 0.0, besides: frozenset[str] = frozenset()
    ) -> list[Fence]:
        """Take up to ``limit`` leases lapsed at least ``lapsed_for`` seconds ago, in random
        order, none of ``besides``; return ``(table, fence)``."""
        if limit <= 0:
            return []
        lapsed = (
            select(leases_t.c.table_id)
            .where(
                leases_t.c.expires < db_now() - lapsed_for,
                leases_t.c.table_id.not_in(besides),
            )
            .order_by(func.random())
            .limit(limit)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        return self._take(leases_t.c.table_id.in_(lapsed))

    def load(self) -> dict[str, int]:
        """Open tables by holder, lapsed leases counted under ``""``: to even the load out."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(leases_t.c.owner, (leases_t.c.expires >= db_now()).label("live"))
            )
            out: dict[str, int] = {}
            for owner, live in rows:
                key = owner if live else ""
                out[key] = out.get(key, 0) + 1
            return out

    def claim_one(self, table_id: str) -> int | None:
        """Take table ``table_id`` if its lease has lapsed; return the new fence or None."""
        taken = self._take(and_(leases_t.c.table_id == table_id, leases_t.c.expires < db_now()))
        return taken[0][1] if taken else None

    def _take(self, where: object) -> list[Fence]:
        with self.engine.begin() as conn:
            rows = conn.execute(
                update(leases_t)
                .where(where)  # type: ignore[arg-type]
                .values(owner=self.owner, fence=leases_t.c.fence + 1, expires=db_now() + self.ttl)
                .returning(leases_t.c.table_id, leases_t.c.fence)
            )
            return [(r.table_id, int(r.fence)) for r in rows]

    def holder(self, table_id: str) -> Holder | None:
        """Who holds table ``table_id`` now, or None if no open table has that id."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    leases_t.c.owner,
                    leases_t.c.fence,
                    (leases_t.c.expires - db_now()).label("left"),
                ).where(leases_t.c.table_id == table_id)
            ).first()
        return None if row is None else Holder(row.owner, int(row.fence), float(row.left))

    def hand_back(self, held: dict[str, Fence]) -> None:
        """Let other nodes take these tables at once (a node shutting down cleanly, or
        evening the load out).

        The lease lapses now, not at the epoch: a node over its share waits a whole lease
        before it may take one back, so a table handed back goes to a node under its share.
        """
        if not held:
            return
        with self.engine.begin() as conn:
            for table_id, (owner, fence) in held.items():
                conn.execute(
                    update(leases_t)
                    .where(
                        leases_t.c.table_id == table_id,
                        leases_t.c.owner == owner,
                        leases_t.c.fence == fence,
                    )
                    .values(expires=db_now())
                )

    def drop(self, table_id: str, fence: int) -> None:
        """Remove a lease whose table cannot be restored (no row, or closed)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(leases_t).where(leases_t.c.table_id == table_id, leases_t.c.fence == fence)
            )

    def count(self, creator: str | None = None) -> int:
        """Open tables on the cluster, or those ``creator`` opened."""
        query = select(func.count()).select_from(leases_t)
        if creator is not None:
            query = query.where(leases_t.c.creator == creator)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def adopt(self) -> int:
        """Give a lapsed lease to every open table stored without one; return how many.

        Tables written by a single node (before it joined a cluster) have no lease: this
        makes them claimable like any other.
        """
        orphans = select(tables_t.c.id, tables_t.c.data).where(
            ~select(leases_t.c.table_id).where(leases_t.c.table_id == tables_t.c.id).exists()
        )
        with self.engine.begin() as conn:
            found = [
                (r.id, str(r.data.get("creator", "")))
                for r in conn.execute(orphans)
                if isinstance(r.data, dict) and r.data.get("status") != "closed"
            ]
            for table_id, creator in found:
                conn.execute(
                    insert(leases_t).values(
                        table_id=table_id, owner="", fence=0, expires=0.0, creator=creator
                    )
                )
        return len(found)
