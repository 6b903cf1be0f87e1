"""The hub's table store (cardtable/serve/tablestore.py): saves written by a thread, newest bytes per
slot, on disk after flush, read back as any save."""

from __future__ import annotations

from cardtable import games
from cardtable.serve.tablestore import BackgroundStore

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]


def test_saves_are_written_by_a_thread_newest_first_and_read_back_after_flush(tmp_path):
    spec = games.get("gongzhu")
    match = spec.new_match(seed=4)
    store = BackgroundStore(tmp_path / "tables")
    try:
        for _ in range(12):                                   # a save after every move, as a table does
            seat = match.to_move()
            match.apply(match.legal_moves(seat)[0], seat)
            store.save("table-ABCDEF", match, PLAYERS, table={"shared": True})
            store.save("table-GHJKMN", match, PLAYERS)
        assert store.flush(timeout=30)
        back, save = store.load("table-ABCDEF")
        assert back.moves == match.moves                      # the last state, not an older one
        assert save.table == {"shared": True}
        assert store.load("table-GHJKMN")[0].moves == match.moves
        assert not store.errors
    finally:
        store.close()
    assert store._thread is not None and not store._thread.is_alive()


def test_a_write_that_fails_is_recorded_and_the_store_goes_on(tmp_path):
    blocked = tmp_path / "tables"
    blocked.write_text("a file where the directory should be")
    store = BackgroundStore(blocked)
    match = games.get("guinote").new_match(seed=1)
    try:
        store.save("table-ABCDEF", match, PLAYERS)
        assert store.flush(timeout=30)
        assert "table-ABCDEF" in store.errors
    finally:
        store.close()


def test_flushing_one_slot_waits_for_that_slot_only(tmp_path, monkeypatch):
    """The hub flushes a table's slot on its event loop before unlocking it: the other tables' waiting
    writes must not be waited for (each is two fsyncs), so that slot goes first."""
    import threading

    from cardtable.serve import tablestore

    written: list[str] = []
    gate = threading.Event()
    real_write = tablestore.atomic_write

    def write(target, payload):
        if not written:
            gate.wait(30)                          # the writer is busy with the first slot meanwhile
        written.append(target.stem)
        real_write(target, payload)

    monkeypatch.setattr(tablestore, "atomic_write", write)
    match = games.get("gongzhu").new_match(seed=4)
    store = BackgroundStore(tmp_path / "tables")
    try:
        for slot in ("table-AAAAAA", "table-BBBBBB", "table-CCCCCC", "table-DDDDDD"):
            store.save(slot, match, PLAYERS)
        flushed: list[bool] = []
        flusher = threading.Thread(target=lambda: flushed.append(store.flush("table-DDDDDD", timeout=30)))
        flusher.start()
        for _ in range(3000):                      # until the flush waits (the writer is at the gate)
            if store._cond._waiters:
                break
            flusher.join(0.01)
        gate.set()
        flusher.join(30)
        assert flushed == [True]
        assert written[:2] == ["table-AAAAAA", "table-DDDDDD"]
        assert store.flush(timeout=30)
        assert sorted(written) == ["table-AAAAAA", "table-BBBBBB", "table-CCCCCC", "table-DDDDDD"]
    finally:
        store.close()
