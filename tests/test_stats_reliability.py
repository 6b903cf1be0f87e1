"""Issue 29, items 1 and 2: a full disk, a lock or a read-only file is no damage; only corruption is.

A full disk is made with ``PRAGMA max_page_count`` (SQLite answers SQLITE_FULL exactly as on a full
disk); a lock by another connection holding ``BEGIN EXCLUSIVE``; a read-only database by opening it
with ``mode=ro`` (root ignores file modes, so a chmod would prove nothing here).
"""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from cardtable import i18n, stats

HAND = {"winner_team": 0, "level_up": 2}


def _hand(db, number, slot="a", pad=0):
    return db.record_hand(slot=slot, game="guandan", level="easy", seed=1, options={"pad": "x" * pad} if pad else {},
                          number=number, record=HAND, seconds=5)


def _filled(tmp_path, hands=3):
    path = tmp_path / "stats.sqlite3"
    db = stats.StatsDB(path)
    for number in range(1, hands + 1):
        assert _hand(db, number) is True
    return path, db


def _integrity(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def _integrity_fails(path) -> bool:
    try:
        return _integrity(path) != "ok"
    except sqlite3.DatabaseError:
        return True


def test_a_full_disk_keeps_the_database_and_the_hand_for_later(tmp_path):
    path, db = _filled(tmp_path)
    conn = db._open()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")           # not one page more: the disk is full
    for number in range(4, 40):                                # new matches need a new page soon
        _hand(db, number, slot=f"s{number}", pad=1500)
        if db.notice is not None:
            break
    assert db.notice.kind == "full" and "full" in db.notice.text
    assert not list(tmp_path.glob("stats.sqlite3.damaged-*"))  # no damage: nothing moved aside
    assert _integrity(path) == "ok"
    waiting = json.loads(db.pending_path.read_text())
    assert waiting and all(entry["kind"] == "hand" for entry in waiting)
    db.close()
    # The next session opens the same file, with room again: the kept hands are written.
    again = stats.StatsDB(path)
    assert sum(row.hands for row in again.summary()) == number
    assert not again.pending_path.exists()


def test_a_failing_rollback_after_a_full_disk_is_no_damage(tmp_path, monkeypatch):
    """The issue's case: SQLite rolled back by itself, so ROLLBACK fails («no transaction is active»)."""
    _path, db = _filled(tmp_path)
    real = stats.StatsDB._apply

    def full(self, conn, entry):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")                   # what SQLite does on SQLITE_FULL in some statements
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(stats.StatsDB, "_apply", full)
    assert _hand(db, 4) is False
    assert db.notice.kind == "full"
    monkeypatch.setattr(stats.StatsDB, "_apply", real)
    assert _hand(db, 5) is True
    assert db.summary()[0].hands == 5
    assert not list(tmp_path.glob("stats.sqlite3.damaged-*"))


def test_a_full_disk_with_no_room_for_the_pending_file_says_the_hand_is_not_counted(tmp_path, monkeypatch):
    path, db = _filled(tmp_path)
    db._open().execute(f"PRAGMA max_page_count = {db._open().execute('PRAGMA page_count').fetchone()[0]}")

    def no_room(target, payload):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cardtable.saves.atomic_write", no_room)
    for number in range(4, 40):
        _hand(db, number, slot=f"s{number}", pad=1500)
        if db.notice is not None:
            break
    assert db.notice.kind == "full_lost"
    assert not db.pending_path.exists() and db.pending_count() >= 1
    assert _integrity(path) == "ok" and not list(tmp_path.glob("*.damaged-*"))


def test_a_move_aside_never_overwrites_an_existing_file(tmp_path, monkeypatch):
    path = tmp_path / "stats.sqlite3"

    class Frozen(stats.datetime):
        @classmethod
        def now(cls, tz=None):
            return stats.datetime(2026, 1, 2, 3, 4, 5, tzinfo=tz)

    monkeypatch.setattr(stats, "datetime", Frozen)
    contents = []
    for n in range(3):                                   # three damaged files in the same second
        data = f"damaged file number {n} ".encode() * 50
        contents.append(data)
        path.write_bytes(data)
        db = stats.StatsDB(path)
        assert db.summary() == []
        assert db.notice.kind == "damaged"
        db.close()
    kept = sorted(tmp_path.glob("stats.sqlite3.damaged-*"))
    assert len(kept) == 3
    assert sorted(p.read_bytes() for p in kept) == sorted(contents)


def test_a_locked_database_waits_then_keeps_the_hand_and_is_not_moved_aside(tmp_path):
    path, db = _filled(tmp_path)
    db.close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        busy = stats.StatsDB(path, busy_timeout=0.05)
        assert _hand(busy, 4) is False
        assert busy.notice.kind == "busy" and "another cardtable" in busy.notice.text
        assert path.exists() and not list(tmp_path.glob("*.damaged-*"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _hand(busy, 5) is True                  # the lock is gone: the kept hand and the new one
    assert busy.summary()[0].hands == 5
    assert _integrity(path) == "ok"


def test_a_read_only_database_is_read_and_told_in_one_line(tmp_path, monkeypatch):
    path, db = _filled(tmp_path)
    db.close()
    real_connect = sqlite3.connect

    def read_only(target, *args, **kwargs):       # the file cannot be written (as for a chmod 444)
        if kwargs.get("uri"):
            return real_connect(target, *args, **kwargs)
        return real_connect(f"file:{target}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(stats.sqlite3, "connect", read_only)
    ro = stats.StatsDB(path)
    assert ro.summary()[0].hands == 3
    assert _hand(ro, 4) is False
    assert ro.notice.kind == "read_only" and "\n" not in ro.notice.text
    assert not list(tmp_path.glob("*.damaged-*")) and _integrity(path) == "ok"
    monkeypatch.setattr(stats.sqlite3, "connect", real_connect)
    ro.close()
    assert stats.StatsDB(path).summary()[0].hands == 4      # written once it could be


def test_an_integrity_failure_is_damage(tmp_path):
    path, db = _filled(tmp_path)
    db.close()
    size = path.stat().st_size
    with path.open("r+b") as handle:                   # scribble over every page after the schema's
        handle.seek(4096)
        handle.write(b"\xff" * (size - 4096))
    assert _integrity_fails(path)
    db = stats.StatsDB(path)
    db.summary()
    assert db.notice.kind == "damaged"
    assert list(tmp_path.glob("stats.sqlite3.damaged-*"))


def test_the_pending_file_is_data_from_disk(tmp_path):
    path = tmp_path / "stats.sqlite3"
    good = {"kind": "hand", "slot": "a", "game": "guandan", "level": "easy", "seed": 1, "options": {},
            "number": 1, "points": 2, "won": True, "total": None, "seconds": 3, "undo": False, "ended": None}
    hostile = [good, {"kind": "hand"}, 5, {"kind": "drop table"}, {**good, "seed": "x"}, {**good, "number": 2}]
    (tmp_path / ("stats.sqlite3" + stats.PENDING_SUFFIX)).write_text(json.dumps(hostile))
    db = stats.StatsDB(path)
    [row] = db.summary()
    assert row.hands == 2


def test_notices_reach_the_table_once_per_session_in_the_players_language(tmp_path):
    path, db = _filled(tmp_path)
    db.close()
    told = []
    service = stats.StatsService(path, on_notice=lambda notice: told.append(notice.text), busy_timeout=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    previous = i18n.language()
    i18n.set_language("es")
    try:
        for number in (4, 5, 6):
            service.submit("record_hand", slot="a", game="guandan", level="easy", seed=1, options={},
                           number=number, record=HAND)
        done = threading.Event()
        service._executor.submit(done.set)
        assert done.wait(30)
    finally:
        i18n.set_language(previous)
        holder.execute("ROLLBACK")
        holder.close()
    service.close()
    assert len(told) == 1 and "Otro cardtable" in told[0]
    assert stats.StatsDB(path).summary()[0].hands == 6


@pytest.mark.parametrize("kind", ["file", "missing_dir_in_file"])
def test_an_unusable_home_is_a_stats_error(tmp_path, kind):
    home = tmp_path / "home"
    home.write_text("not a directory")
    path = home / "stats.sqlite3" if kind == "file" else home / "deeper" / "stats.sqlite3"
    db = stats.StatsDB(path)
    with pytest.raises(stats.StatsError) as caught:
        db.summary()
    assert "\n" not in str(caught.value)
    assert db.record_hand(slot="a", game="guandan", level="easy", seed=1, options={}, number=1,
                          record=HAND) is False
    assert db.notice.kind.endswith("_lost")


async def test_a_hand_that_cannot_be_counted_is_said_at_the_table(tmp_path):
    """The player hears about it where they play, not only on the Statistics screen; once."""
    import os
    from pathlib import Path

    from cardtable.games.gongzhu.state import GongZhuOptions
    from tests.test_ui_statistics import _play_one_hand
    from tests.ui_helpers import make_app, settle

    home = Path(os.environ["CARDTABLE_HOME"])
    (home / stats.FILE_NAME).mkdir(parents=True)          # no database can be made there
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), 12345, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await _play_one_hand(pilot, app)
        await app.statistics.call("pending_count")        # after the queued write
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert len([m for m in said if "statistics" in m.lower()]) == 1
        assert "kept" in next(m for m in said if "statistics" in m.lower())
    app.close_statistics()
    assert json.loads((home / (stats.FILE_NAME + stats.PENDING_SUFFIX)).read_text())[0]["game"] == "gongzhu"


def test_an_entry_that_can_never_be_written_does_not_block_the_others(tmp_path, monkeypatch):
    path = tmp_path / "stats.sqlite3"
    real = stats.StatsDB._apply

    def refuse_hand_2(self, conn, entry):
        if entry.get("number") == 2:
            raise sqlite3.IntegrityError("UNIQUE constraint failed")
        return real(self, conn, entry)

    monkeypatch.setattr(stats.StatsDB, "_apply", refuse_hand_2)
    db = stats.StatsDB(path)
    assert [_hand(db, n) for n in (1, 2, 3)] == [True, False, True]
    assert db.pending_count() == 0 and db.notice is None
    assert db.summary()[0].hands == 2


def test_text_that_is_no_utf8_in_a_scribbled_database_never_raises(tmp_path):
    """Found by `cardtable bench chaos`: a page whose bytes are no UTF-8 raised UnicodeDecodeError."""
    path, db = _filled(tmp_path)
    db.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE matches SET level = CAST(x'fffe41' AS TEXT)")
    conn.execute("INSERT INTO matches (slot, game, level, seed, options, started_at) "
                 "VALUES ('b', CAST(x'c328' AS TEXT), 'easy', 2, '{}', 'now')")
    conn.commit()
    conn.close()
    db = stats.StatsDB(path)
    [row] = db.summary()                              # the row of no known game is left out
    assert row.game == "guandan" and "\ufffd" in row.level
    assert stats.format_row(row)[0].startswith("Guandan")
    assert _hand(db, 9) is True


def test_a_schema_scribbled_with_bytes_that_are_no_utf8_is_damage(tmp_path):
    """SQLite's error message then quotes those bytes, and Python raises UnicodeDecodeError for it."""
    path, db = _filled(tmp_path)
    db.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = CAST(x'435245415445ff8e' AS TEXT) WHERE name = 'hands_by_match'")
    conn.commit()
    conn.close()
    db = stats.StatsDB(path)
    assert db.summary() == []
    assert db.notice.kind == "damaged"
    assert len(list(tmp_path.glob("stats.sqlite3.damaged-*"))) == 1
    assert _hand(db, 1) is True


async def test_a_read_that_cannot_be_made_keeps_its_own_notice(tmp_path):
    """The service tells a failed read as the database said it (``unavailable``), not as a write's
    notice wrapped around the text of the first one."""
    path = tmp_path / stats.FILE_NAME
    path.mkdir()                                           # no database can be opened there
    told = []
    service = stats.StatsService(path, on_notice=told.append)
    try:
        assert await service.call("summary") is None
    finally:
        service.close()
    assert [notice.kind for notice in told] == ["unavailable"]
    assert told[0].text.count("(") == 1                    # one reason, not a notice inside another
