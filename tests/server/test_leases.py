"""Leases and fencing tokens in PostgreSQL: a node that lost a table can no longer write it.

Runs when ``SHEDKIT_TEST_PG_URL`` names a PostgreSQL database (``make test`` sets it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, update

from shedkit.server.leases import Leases
from shedkit.server.storage import Storage, leases_t
from tests.server.cluster_nodes import PG_URL, drop_database, fresh_database

pytestmark = pytest.mark.skipif(not PG_URL, reason="SHEDKIT_TEST_PG_URL is not set")


@pytest.fixture
def db() -> Iterator[str]:
    url = fresh_database(PG_URL or "")
    yield url
    drop_database(url)


def node(db: str, name: str, ttl: float = 60.0) -> tuple[Storage, Leases, list[tuple[str, int]]]:
    """A node's storage (fenced) and leases; the list collects the (table, fence) holds it
    is told it lost."""
    storage = Storage(db)
    storage.owner = name
    storage.lease_ttl = ttl
    lost: list[tuple[str, int]] = []
    storage.on_lost = lambda table_id, fence: lost.append((table_id, fence))
    return storage, Leases(storage.engine, name, ttl), lost


def lapse(leases: Leases, table_id: str) -> None:
    with leases.engine.begin() as conn:
        conn.execute(update(leases_t).where(leases_t.c.table_id == table_id).values(expires=0.0))


def test_the_first_write_makes_the_lease_and_a_stale_owner_cannot_write(db: str) -> None:
    a, leases_a, lost_a = node(db, "a.1")
    b, leases_b, lost_b = node(db, "b.1")
    try:
        a.creators["t1"] = "c:someone"
        a.save_table("t1", "doudizhu", {"status": "playing", "n": 1}, fence=1)
        assert a.flush(10)
        assert leases_b.holder("t1") is not None and leases_b.holder("t1").owner == "a.1"  # type: ignore[union-attr]
        assert leases_b.count() == 1 and leases_b.count("c:someone") == 1
        # Not lapsed yet: nobody else may take it.
        assert leases_b.claim_one("t1") is None and leases_b.claim(10) == []
        lapse(leases_a, "t1")
        fence = leases_b.claim_one("t1")
        assert fence == 2
        # The old owner wakes up and writes: refused, reported, never stored.
        a.save_table("t1", "doudizhu", {"status": "playing", "n": 99}, fence=1)
        a.add_deal("t1", 1, 0, "doudizhu", {"moves": ["x"]}, fence=1)
        assert a.flush(10)
        assert lost_a == [("t1", 1)]
        assert b.load_table("t1") == {"status": "playing", "n": 1}
        assert b.load_deals("t1") == []
        # The new owner writes; its renewal keeps the table, the old owner's reports it lost.
        b.save_table("t1", "doudizhu", {"status": "playing", "n": 2}, fence=2)
        assert b.flush(10) and lost_b == []
        assert b.load_table("t1") == {"status": "playing", "n": 2}
        assert leases_b.renew({"t1": ("b.1", 2)}) == set()
        assert leases_a.renew({"t1": ("a.1", 1)}) == {"t1"}
    finally:
        a.close()
        b.close()


def test_a_table_not_yet_written_is_not_lost_and_a_closed_one_lets_go(db: str) -> None:
    a, leases, lost = node(db, "a.1")
    try:
        closed: list[tuple[str, int]] = []
        a.on_closed = lambda table_id, fence: closed.append((table_id, fence))
        assert leases.renew({"t2": ("a.1", 1)}) == set()  # its first write is still queued
        a.save_table("t2", "president", {"status": "playing"}, fence=1)
        assert a.flush(10)
        a.save_table("t2", "president", {"status": "closed"}, fence=1)
        assert a.flush(10)
        assert leases.holder("t2") is None and closed == [("t2", 1)] and lost == []
        # A stale first write after the table was closed cannot bring it back.
        a.save_table("t2", "president", {"status": "playing", "late": True}, fence=1)
        assert a.flush(10)
        assert leases.holder("t2") is None and lost == [("t2", 1)]
        assert a.load_table("t2") == {"status": "closed"}
    finally:
        a.close()


def test_a_first_write_committed_during_a_renewal_is_not_a_loss(db: str) -> None:
    # The renewal's UPDATE misses the row (not committed yet); the table's first write
    # commits before its SELECT looks again. Found there with this node's fence, the table
    # is still this node's: once it was reported lost, and the node dropped a table it
    # had just created.
    a, leases, lost = node(db, "a.1")
    try:
        a.creators["t3"] = "c:someone"
        a.save_table("t3", "doudizhu", {"status": "playing"}, fence=1)
        fired: list[str] = []

        def first_write_lands(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.lstrip().startswith("UPDATE shedkit_leases") and not fired:
                fired.append(statement)
                assert a.flush(10)

        event.listen(leases.engine, "after_cursor_execute", first_write_lands)
        try:
            assert leases.renew({"t3": ("a.1", 1)}) == set()
        finally:
            event.remove(leases.engine, "after_cursor_execute", first_write_lands)
        assert fired and leases.holder("t3") is not None and lost == []
        # Another node's fence on the row is a loss.
        with leases.engine.begin() as conn:
            conn.execute(update(leases_t).values(owner="b.1", fence=2))
        assert leases.renew({"t3": ("a.1", 1)}) == {"t3"}
    finally:
        a.close()


def test_claims_share_lapsed_tables_and_adopt_gives_old_tables_a_lease(db: str) -> None:
    plain = Storage(db)  # a single node's tables, written before the cluster
    for i in range(6):
        plain.save_table(f"old{i}", "dominoes", {"status": "playing", "creator": "a:x"})
    plain.save_table("gone", "dominoes", {"status": "closed"})
    plain.close()
    a, leases_a, _ = node(db, "a.1")
    b, leases_b, _ = node(db, "b.1")
    try:
        assert leases_a.adopt() == 6 and leases_b.adopt() == 0
        assert leases_a.count("a:x") == 6
        mine = leases_a.claim(4)
        theirs = leases_b.claim(10)
        assert len(mine) == 4 and len(theirs) == 2
        assert {t for t, _ in mine}.isdisjoint(t for t, _ in theirs)
        assert all(f == 1 for _, f in mine + theirs)
        leases_a.hand_back({t: ("a.1", f) for t, f in mine})
        time.sleep(0.01)
        assert len(leases_b.claim(10)) == 4
    finally:
        a.close()
        b.close()


def test_a_node_that_takes_a_table_back_never_writes_what_it_queued_before(db: str) -> None:
    """The frozen node's case: its writes queued under fence 1 are still in its writer when
    it claims the table again (fence 2, another node held nothing meanwhile). Each write
    carries its own fence: the old ones are refused and reported under fence 1, never
    written with the node's current fence."""
    a, leases_a, lost_a = node(db, "a.1")
    try:
        a.save_table("t4", "doudizhu", {"status": "playing", "n": 1}, fence=1)
        assert a.flush(10)
        lapse(leases_a, "t4")
        assert leases_a.claim_one("t4") == 2
        # Queued under the old hold after the claim (the node had not noticed yet).
        a.save_table("t4", "doudizhu", {"status": "playing", "n": 99}, fence=1)
        a.add_deal("t4", 1, 0, "doudizhu", {"moves": ["stale"]}, fence=1)
        assert a.flush(10)
        assert lost_a == [("t4", 1)]
        assert a.load_table("t4") == {"status": "playing", "n": 1} and a.load_deals("t4") == []
        # The new hold writes; an old row queued after it is never written over it.
        a.save_table("t4", "doudizhu", {"status": "playing", "n": 2}, fence=2)
        a.save_table("t4", "doudizhu", {"status": "playing", "n": 98}, fence=1)
        assert a.flush(10)
        assert a.load_table("t4") == {"status": "playing", "n": 2}
        # Renewal extends only the holds named, each with its own fence.
        assert leases_a.renew({"t4": ("a.1", 1)}) == {"t4"}
        assert leases_a.renew({"t4": ("a.1", 2)}) == set()
        # What a node queued before it took the table again is dropped on the way in.
        a.save_table("t4", "doudizhu", {"status": "playing", "n": 97}, fence=2)
        a.discard("t4", 3)
        assert a.flush(10) and a.load_table("t4") == {"status": "playing", "n": 2}
    finally:
        a.close()


def test_a_deal_written_twice_is_stored_once_and_a_conflict_is_a_loss(db: str) -> None:
    """A batch retried after a commit whose answer was lost writes its deal again: the
    same record is no error. Another record under the same number is a conflict, reported
    as a loss of the hold (what is stored wins), never a bad row that closes the table."""
    a, _leases, lost = node(db, "a.1")
    bad: list[str] = []
    a.on_bad_row = bad.append
    try:
        a.add_deal("t5", 1, 0, "president", {"moves": ["x"]}, fence=1)
        a.save_table("t5", "president", {"status": "playing", "n": 1}, fence=1)
        assert a.flush(10)
        a.add_deal("t5", 1, 0, "president", {"moves": ["x"]}, fence=1)
        a.save_table("t5", "president", {"status": "playing", "n": 2}, fence=1)
        assert a.flush(10)
        assert lost == [] and bad == [] and a.load_table("t5") == {"status": "playing", "n": 2}
        a.add_deal("t5", 1, 0, "president", {"moves": ["y"]}, fence=1)
        a.save_table("t5", "president", {"status": "playing", "n": 3}, fence=1)
        assert a.flush(10)
        assert lost == [("t5", 1)] and bad == []
        assert a.load_table("t5") == {"status": "playing", "n": 2}
        assert [d["record"] for d in a.load_deals("t5")] == [{"moves": ["x"]}]
    finally:
        a.close()
