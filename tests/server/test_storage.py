"""Storage: queued writes coalesce per table, deals keep their order, reads see every write."""

from __future__ import annotations

from shedkit.server.storage import Storage


def test_writes_coalesce_and_reads_see_them(db: str) -> None:
    storage = Storage(db)
    try:
        for i in range(50):
            storage.save_table("t1", "doudizhu", {"version": i})
        storage.save_table("t2", "president", {"version": 0})
        storage.add_deal("t1", 2, 0, "doudizhu", {"moves": ["b"]})
        storage.add_deal("t1", 1, 0, "doudizhu", {"moves": ["a"]})
        assert storage.flush(timeout=30)
        assert sorted(storage.load_tables()) == [("t1", {"version": 49}), ("t2", {"version": 0})]
        deals = storage.load_deals("t1")
        assert [(d["number"], d["record"]["moves"]) for d in deals] == [(1, ["a"]), (2, ["b"])]
        assert storage.get_deal("t1", 2) == {"moves": ["b"]}
        assert storage.get_deal("t1", 3) is None and storage.load_deals("t2") == []
    finally:
        storage.close()
    again = Storage(db)
    try:
        assert sorted(t for t, _ in again.load_tables()) == ["t1", "t2"]
    finally:
        again.close()


def test_rows_update_in_place_with_the_upsert_and_without_it(db: str) -> None:
    """Both write paths: one upsert per batch (SQLite, PostgreSQL) and row by row (others)."""
    for upsert in (True, False):
        storage = Storage(db)
        try:
            if not upsert:
                storage.upsert = None  # the path of a database without ON CONFLICT
            key = f"u{int(upsert)}"
            storage.save_table(key, "dominoes", {"version": 0})
            assert storage.flush(timeout=30)
            storage.save_table(key, "dominoes", {"version": 1, "names": {"0": "ana"}})
            storage.save_table("other", "doudizhu", {"version": int(upsert)})
            assert storage.flush(timeout=30)
            rows = dict(storage.load_tables())
            assert rows[key] == {"version": 1, "names": {"0": "ana"}}
            assert rows["other"] == {"version": int(upsert)}
        finally:
            storage.close()
