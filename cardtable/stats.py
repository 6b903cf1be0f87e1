"""Statistics of the human player's matches, kept in an embedded SQLite database.

The database lives beside the saves (``$CARDTABLE_HOME/stats.sqlite3`` or the user data directory). It
has a schema version (``PRAGMA user_version``) and migrations from each older version. Every finished
hand is written in one transaction. Only real corruption (not a database, a failing integrity check,
our tables missing) moves the file aside (``stats.sqlite3.damaged-STAMP``, never over another file) and
starts a fresh one. A full disk, a lock held by another cardtable or a read-only file is no damage: the
hand waits in ``stats.sqlite3.pending.json`` and is written later; a database of a newer schema is read
and never changed. The player is told once per session. Statistics never crash the table and never
touch the saves.

What one hand counts, per game, is read from its ``hand_end`` line of the public hand history
(docs/history-format.md), so statistics and histories can never disagree:

- Gong Zhu: ``points`` is your hand score (``lines[seat].hand``); ``won`` is not defined per hand.
- Guiñote: ``points`` is your pair's total minus the other pair's for the hand (card points, las
  últimas and cantes); ``won`` is whether your pair won it (a hand that goes on de vueltas counts as
  undecided).
- Guandan: ``points`` is the levels your team climbed (``+level_up``) or the other team climbed
  (``−level_up``); ``won`` is whether your team won the deal.

A match counts as won when you are among its winners, read from ``Match.outcome()`` (Gong Zhu: the
highest total; the others: your pair or team), never from per-game keys of the ``match_end`` line. Its
``final`` is your total (Gong Zhu) or your side's margin in the outcome's totals (cotos, levels).
Matches in which you took a move back are kept apart («with undo»).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardtable import games
from cardtable.engine import Outcome
from cardtable.games import HandResult

SCHEMA_VERSION = 1
FILE_NAME = "stats.sqlite3"

_MIGRATIONS: dict[int, str] = {
    # version → the SQL that brings version-1 to it
    1: """
    CREATE TABLE matches (
        id          INTEGER PRIMARY KEY,
        slot        TEXT NOT NULL,
        game        TEXT NOT NULL,
        level       TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        options     TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        won         INTEGER,            -- NULL while the match goes on
        final       REAL,               -- your final total (Gong Zhu) or your side's margin
        undo        INTEGER NOT NULL DEFAULT 0,
        UNIQUE (slot, seed, started_at)
    );
    CREATE TABLE hands (
        id          INTEGER PRIMARY KEY,
        match_id    INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number      INTEGER NOT NULL,
        points      REAL NOT NULL,
        won         INTEGER,            -- NULL where a hand has no winner for you (Gong Zhu, de vueltas)
        total       REAL,               -- your running total after the hand, where the game has one
        seconds     REAL NOT NULL DEFAULT 0,
        recorded_at TEXT NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE INDEX hands_by_match ON hands(match_id);
    CREATE INDEX matches_by_game ON matches(game, level);
    """,
}


def default_path() -> Path:
    from cardtable.saves import default_save_dir

    return default_save_dir().parent / FILE_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------- reading a hand
_UNREADABLE = (KeyError, IndexError, TypeError, ValueError)      # a record the game's hook cannot read


def hand_result(game: str, record: dict[str, Any], seat: int = 0) -> HandResult | None:
    """What a ``hand_end`` line of the history means for ``seat`` (see the module docstring; each game
    says it, ``GameSpec.hand_result``). None for a game not installed or a record that cannot be read."""
    if not games.is_available(game):
        return None
    try:
        return games.get(game).hand_result(record, seat)
    except _UNREADABLE:
        return None


def match_result(outcome: Outcome, seat: int = 0, partnerships: bool = False) -> tuple[bool, float] | None:
    """Whether ``seat`` won the match (its ``Match.outcome()``), and its final total (a game where each
    plays alone: Gong Zhu's points) or, with ``partnerships``, its side's margin over the other side
    (Guiñote's cotos, Guandan's levels). None while the match is not over."""
    if not outcome.over:
        return None
    totals = outcome.totals
    final = totals[seat] - totals[(seat + 1) % 4] if partnerships else totals[seat]
    return seat in outcome.winners, float(final)


# ---------------------------------------------------------------- the summary
@dataclasses.dataclass
class LevelStats:
    game: str
    level: str
    undo: bool
    matches: int = 0
    finished: int = 0
    won: int = 0
    hands: int = 0
    hands_won: int = 0
    hands_decided: int = 0
    points: float = 0.0
    best: float | None = None
    worst: float | None = None
    seconds: float = 0.0
    streak: int = 0
    best_streak: int = 0

    @property
    def mean_points(self) -> float | None:
        return self.points / self.hands if self.hands else None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["mean_points"] = self.mean_points
        return data


@dataclasses.dataclass(frozen=True)
class Notice:
    """Something the player is told about the statistics, once per session: ``kind`` is one of
    :data:`NOTICE_KINDS`; :attr:`text` says it in the current language."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def text(self) -> str:
        from cardtable.i18n import t

        return t(f"stats_notice_{self.kind}", **dict(self.params))

    def __str__(self) -> str:
        return self.text


# damaged: moved aside and a new file started; busy: another cardtable holds the lock; full: no room on
# the disk; read_only: the file or its directory cannot be written; newer: written by a newer cardtable
# (read, never changed); error: any other failure of SQLite or the file system. «_lost» variants: the
# hand could not even be kept in the pending file beside the database (it is kept until the app closes).
# read_only_open: opened read-only for reading; unavailable: nothing can be read at all.
NOTICE_KINDS = ("damaged", "busy", "busy_lost", "full", "full_lost", "read_only", "read_only_lost",
                "read_only_open", "newer", "error", "error_lost", "unavailable")


class StatsError(Exception):
    """The statistics cannot be read at all (no database can be opened or read): ``notice`` says why."""

    def __init__(self, notice: Notice) -> None:
        super().__init__(notice.text)
        self.notice = notice


class _Damaged(sqlite3.DatabaseError):
    """Raised by our own checks: the file is a database but not ours or not whole."""


class _Newer(sqlite3.DatabaseError):
    """The file was written by a newer cardtable (a higher schema version)."""


def failure_kind(exc: BaseException) -> str:
    """What an error of SQLite or of the file system means here: only real corruption is ``damaged``."""
    if isinstance(exc, _Damaged):
        return "damaged"
    if isinstance(exc, _Newer):
        return "newer"
    if isinstance(exc, UnicodeDecodeError):      # SQLite's own message quoted bytes of a scribbled schema
        return "damaged"
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return "full"
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EEXIST, errno.EISDIR):
            return "read_only"
        return "error"
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "not a database" in text or "malformed" in text:
        return "damaged"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return "busy"
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "full"
    if (name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"))
            or "readonly" in text or "unable to open" in text):
        return "read_only"
    return "error"


def _reason(exc: BaseException) -> str:
    from cardtable import safetext

    if isinstance(exc, OSError):
        return safetext.clean(exc.strerror or str(exc), safetext.SHORT * 2)
    return safetext.clean(str(exc), safetext.SHORT * 2)


PENDING_SUFFIX = ".pending.json"
MAX_PENDING = 5_000                  # hands kept for later, at most (oldest dropped beyond)
MAX_PENDING_BYTES = 4 * 1024 * 1024
_PENDING_FIELDS: dict[str, type | tuple[type, ...]] = {"kind": str, "slot": str, "game": str, "level": str, "seed": int, "options": dict,
                   "number": int, "points": (int, float), "seconds": (int, float), "undo": bool}


def _valid_pending(entry: Any) -> bool:
    """An entry of the pending file is data from disk: only well-formed ones are replayed."""
    if not isinstance(entry, dict):
        return False
    if entry.get("kind") == "undo":
        return isinstance(entry.get("slot"), str) and isinstance(entry.get("seed"), int)
    if entry.get("kind") != "hand":
        return False
    for key, kind in _PENDING_FIELDS.items():
        if not isinstance(entry.get(key), kind) or (kind is int and isinstance(entry.get(key), bool)):
            return False
    won, total, ended = entry.get("won"), entry.get("total"), entry.get("ended")
    return (won in (None, True, False) and (total is None or isinstance(total, (int, float)))
            and (ended is None or (isinstance(ended, list) and len(ended) == 2 and isinstance(ended[0], bool)
                                   and isinstance(ended[1], (int, float)))))


class StatsDB:
    """The statistics database (see the module docstring). It never raises on a write: a hand that
    cannot be written now (a full disk, a lock held too long, a read-only file) waits in a small pending
    file beside the database (``stats.sqlite3.pending.json``, written atomically) and is written with
    the next write or before the next read (:meth:`summary`); ``notice`` then says what happened, for
    the UI to show. Only real corruption moves the file aside, under a name no other file has. Reads
    raise :class:`StatsError` when there is nothing to read from."""

    def __init__(self, path: Path | str | None = None, busy_timeout: float = 5.0) -> None:
        self.memory = str(path) == ":memory:"
        self.path = Path(path) if path is not None else default_path()
        self.pending_path = self.path.with_name(self.path.name + PENDING_SUFFIX)
        self.busy_timeout = busy_timeout
        self.notice: Notice | None = None
        self.read_only = False           # opened read-only: a newer schema, or a file we cannot write
        self._read_only_why: Notice | None = None
        self._conn: sqlite3.Connection | None = None
        self._queue: list[dict[str, Any]] | None = None   # pending writes, oldest first (loaded lazily)

    # -- opening, migrating, repairing
    def _open(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self._conn = self._open_fresh()
        except sqlite3.DatabaseError as exc:
            if failure_kind(exc) != "damaged":
                raise
            self._move_aside(exc)
            self._conn = self._open_fresh()
        return self._conn

    def _open_fresh(self) -> sqlite3.Connection:
        self.read_only = False
        if not self.memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                if not self.path.is_file():
                    raise
        try:
            return self._connect(writable=True)
        except _Newer as exc:
            why = Notice("newer", (("version", exc.args[1]),))
        except sqlite3.OperationalError as exc:
            if failure_kind(exc) != "read_only" or self.memory or not self.path.is_file():
                raise
            why = Notice("read_only_open", (("reason", _reason(exc)),))
        conn = self._connect(writable=False)       # left alone: read, never written
        self.read_only = True
        self._read_only_why = why
        self.notice = why
        return conn

    def _connect(self, writable: bool) -> sqlite3.Connection:
        if writable:
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        else:
            conn = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True,
                                   timeout=self.busy_timeout, isolation_level=None)
        conn.text_factory = _text          # a scribbled page may hold bytes that are no UTF-8
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION and writable:
                raise _Newer(f"written by a newer cardtable (schema {version})", version)
            if version > SCHEMA_VERSION:
                return conn                  # a newer cardtable's file, read-only: its tables are its own
            if version > 0:
                check = conn.execute("PRAGMA quick_check").fetchone()
                if not check or check[0] != "ok":
                    raise _Damaged(f"integrity check failed ({check[0] if check else 'no answer'})")
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if not {"matches", "hands"} <= tables:
                    raise _Damaged("tables are missing")
            if writable:
                for target in range(version + 1, SCHEMA_VERSION + 1):
                    with self._transaction_on(conn):
                        for statement in _MIGRATIONS[target].split(";"):
                            if statement.strip():
                                conn.execute(statement)
                        conn.execute(f"PRAGMA user_version = {target}")
        except UnicodeDecodeError:
            conn.close()
            raise _Damaged("the schema holds text that is no UTF-8") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self, exc: BaseException) -> None:
        """Keep a damaged file under a new name (``stats.sqlite3.damaged-STAMP[-n]``): never over an
        existing file, with its journal beside it. Raises StatsError when it cannot be moved."""
        self.close()
        if self.memory:
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        aside = None
        for n in range(1, 1000):
            candidate = self.path.with_name(f"{self.path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))
            if not any(os.path.lexists(str(candidate) + s) for s in ("", "-journal", "-wal")):
                aside = candidate
                break
        try:
            if aside is None:
                raise FileExistsError(errno.EEXIST, "no free name to keep the damaged file under")
            _rename_no_replace(self.path, aside)
        except OSError as error:
            notice = Notice("error", (("reason", f"{_reason(exc)}; {_reason(error)}"),))
            self.notice = notice
            raise StatsError(notice) from None
        for suffix in ("-journal", "-wal"):
            with contextlib.suppress(OSError):
                _rename_no_replace(Path(str(self.path) + suffix), Path(str(aside) + suffix))
        with contextlib.suppress(OSError):
            os.remove(str(self.path) + "-shm")
        self.notice = Notice("damaged", (("reason", _reason(exc)), ("name", aside.name)))

    @staticmethod
    @contextlib.contextmanager
    def _transaction_on(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:          # SQLite may have rolled back already (a full disk)
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise

    def _guarded(self, action):
        """Run a read; a file found damaged only now is moved aside and read afresh once. Any other
        failure is a :class:`StatsError` (nothing is moved)."""
        try:
            try:
                return action()
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                if failure_kind(exc) != "damaged":
                    raise
                self._move_aside(exc)
                return action()
        except (sqlite3.Error, OSError, ValueError) as exc:
            newer = self._read_only_why if self.read_only and self._read_only_why else None
            self.close()
            notice = (newer if newer is not None and newer.kind == "newer" else
                      Notice("unavailable", (("reason", _reason(exc)),)))
            self.notice = notice
            raise StatsError(notice) from None

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    # -- the pending writes
    def _pending(self) -> list[dict[str, Any]]:
        if self._queue is None:
            self._queue = [] if self.memory else _read_pending(self.pending_path)
        return self._queue

    def _keep_pending(self) -> bool:
        """Write the pending list beside the database (or remove the file once it is empty). Returns
        whether the list is safe on disk."""
        queue = self._pending()
        if self.memory:
            return False
        try:
            if not queue:
                if os.path.lexists(self.pending_path):
                    os.remove(self.pending_path)
                return True
            from cardtable.saves import atomic_write

            del queue[:-MAX_PENDING]
            atomic_write(self.pending_path, json.dumps(queue, separators=(",", ":")).encode())
            return True
        except OSError:
            return False

    def pending_count(self) -> int:
        return len(self._pending())

    def _write(self, entry: dict[str, Any] | None) -> bool:
        """Add ``entry`` (if any) to the pending writes and write them all, oldest first. Returns whether
        ``entry`` itself was counted now."""
        queue = self._pending()
        if entry is not None:
            queue.append(entry)
        counted = False
        retried = False
        while True:
            try:
                if not queue:
                    return False
                conn = self._open()
                if self.read_only:
                    why = self._read_only_why or Notice("read_only", (("reason", "read-only"),))
                    if why.kind == "newer":          # a newer cardtable's file: not counted, not kept
                        if entry is not None and entry in queue:
                            queue.remove(entry)
                        self.notice = why
                    else:
                        kept = self._keep_pending()
                        self.notice = Notice("read_only" if kept else "read_only_lost", why.params)
                    return False
                while queue:
                    try:
                        done = self._apply(conn, queue[0])
                    except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError,
                            KeyError, TypeError, ValueError):
                        done = False          # this entry can never be written: not a reason to keep the rest
                    if queue[0] is entry:
                        counted = done
                    queue.pop(0)
                break
            except (sqlite3.Error, OSError, ValueError, StatsError) as exc:
                self.close()
                if isinstance(exc, StatsError):
                    kind, reason = exc.notice.kind, dict(exc.notice.params).get("reason", "")
                else:
                    kind, reason = failure_kind(exc), _reason(exc)
                if kind == "damaged" and not retried:
                    retried = True
                    try:
                        self._move_aside(exc)
                    except StatsError:
                        kind = "error"
                    else:
                        continue
                kept = self._keep_pending()
                kind = "error" if kind in ("damaged", "newer") else kind
                self.notice = Notice(kind if kept else f"{kind}_lost", (("reason", reason),))
                return False
        self._keep_pending()
        return counted

    def _apply(self, conn: sqlite3.Connection, entry: dict[str, Any]) -> bool:
        with self._transaction_on(conn):
            if entry["kind"] == "undo":
                conn.execute("UPDATE matches SET undo = 1 WHERE slot = ? AND seed = ? AND finished_at IS NULL",
                             (entry["slot"], entry["seed"]))
                return True
            match_id = self._match_id(conn, entry["slot"], entry["game"], entry["level"], entry["seed"],
                                      entry["options"], entry["undo"], entry.get("at") or _now())
            cursor = conn.execute(
                "INSERT OR IGNORE INTO hands (match_id, number, points, won, total, seconds, recorded_at) "
                "VALUES (?,?,?,?,?,?,?)",
                (match_id, entry["number"], entry["points"], None if entry["won"] is None else int(entry["won"]),
                 entry["total"], max(0.0, float(entry["seconds"])), entry.get("at") or _now()))
            if entry.get("ended") is not None:
                won, final = entry["ended"]
                conn.execute("UPDATE matches SET finished_at = ?, won = ?, final = ? WHERE id = ?",
                             (entry.get("at") or _now(), int(won), final, match_id))
            return cursor.rowcount > 0

    # -- writing
    def _match_id(self, conn: sqlite3.Connection, slot: str, game: str, level: str, seed: int,
                  options: dict[str, Any], undo: bool, at: str) -> int:
        row = conn.execute("SELECT id, undo FROM matches WHERE slot = ? AND seed = ? AND finished_at IS NULL "
                           "ORDER BY id DESC LIMIT 1", (slot, seed)).fetchone()
        if row is not None:
            if undo and not row[1]:
                conn.execute("UPDATE matches SET undo = 1 WHERE id = ?", (row[0],))
            return int(row[0])
        cursor = conn.execute(
            "INSERT INTO matches (slot, game, level, seed, options, started_at, undo) VALUES (?,?,?,?,?,?,?)",
            (slot, game, level, seed, json.dumps(options, sort_keys=True), at, int(undo)))
        return int(cursor.lastrowid or 0)

    def record_hand(self, *, slot: str, game: str, level: str, seed: int, options: dict[str, Any],
                    number: int, record: dict[str, Any], seconds: float = 0.0, undo: bool = False,
                    outcome: Outcome | None = None, seat: int = 0) -> bool:
        """Write one finished hand (and the match's end, if it ended), in one transaction. A hand
        written already (the same slot, seed and number) is not counted twice. Returns whether it was
        counted now (a hand kept for later returns False and sets :attr:`notice`)."""
        result = hand_result(game, record, seat)
        if result is None:
            return False
        partnerships = games.get(game).partnerships if games.is_available(game) else False
        ended = None if outcome is None else match_result(outcome, seat, partnerships)
        entry = {"kind": "hand", "slot": slot, "game": game, "level": level, "seed": int(seed),
                 "options": json.loads(json.dumps(options)), "number": int(number), "points": result.points,
                 "won": result.won, "total": result.total, "seconds": max(0.0, float(seconds)),
                 "undo": bool(undo), "ended": None if ended is None else [ended[0], ended[1]], "at": _now()}
        return self._write(entry)

    def mark_undo(self, slot: str, seed: int) -> None:
        """The player took a move back in this match: it counts apart from now on."""
        self._write({"kind": "undo", "slot": slot, "seed": int(seed)})

    def flush_pending(self) -> int:
        """Write the hands kept for later, if they can be written now; returns how many are left."""
        if self._pending():
            self._write(None)
        return len(self._pending())

    # -- reading
    def summary(self, game: str | None = None) -> list[LevelStats]:
        """Per game, CPU level and undo (used or not): matches, wins, hands, points, streaks, time."""
        def read() -> list[LevelStats]:
            conn = self._open()
            where, params = ("WHERE m.game = ?", (game,)) if game else ("", ())
            rows = conn.execute(
                f"SELECT m.id, m.game, m.level, m.undo, m.won, m.finished_at, h.points, h.won, h.seconds "
                f"FROM matches m LEFT JOIN hands h ON h.match_id = m.id {where} "
                f"ORDER BY m.id, h.number", params).fetchall()
            groups: dict[tuple, LevelStats] = {}
            seen: set[int] = set()
            results: dict[tuple, list[bool]] = {}
            for match_id, g, level, undo, won, finished, points, hand_won, seconds in rows:
                if g not in games.GAME_MODULES:      # a scribbled row: nothing to show it under
                    continue
                key = (g, level, bool(undo))
                stats = groups.setdefault(key, LevelStats(g, level, bool(undo)))
                if match_id not in seen:
                    seen.add(match_id)
                    stats.matches += 1
                    if finished is not None:
                        stats.finished += 1
                        stats.won += int(bool(won))
                        results.setdefault(key, []).append(bool(won))
                if points is None:
                    continue
                stats.hands += 1
                stats.points += points
                stats.seconds += seconds or 0.0
                stats.best = points if stats.best is None else max(stats.best, points)
                stats.worst = points if stats.worst is None else min(stats.worst, points)
                if hand_won is not None:
                    stats.hands_decided += 1
                    stats.hands_won += int(hand_won)
            for key, outcomes in results.items():
                run = best = 0
                for won in outcomes:
                    run = run + 1 if won else 0
                    best = max(best, run)
                groups[key].streak, groups[key].best_streak = run, best
            return sorted(groups.values(), key=lambda s: (s.game, s.level, s.undo))

        self.flush_pending()
        return self._guarded(read)

    def history(self, game: str, limit: int = 200) -> list[tuple[str, float]]:
        """Your points per hand in this game, oldest first (the last ``limit`` hands), for a chart."""
        def read() -> list[tuple[str, float]]:
            rows = self._open().execute(
                "SELECT h.recorded_at, h.points FROM hands h JOIN matches m ON m.id = h.match_id "
                "WHERE m.game = ? ORDER BY h.id DESC LIMIT ?", (game, limit)).fetchall()
            return [(str(at), float(points)) for at, points in reversed(rows)]

        return self._guarded(read)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _rename_no_replace(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target`` only if no ``target`` exists: a hard link fails on an existing
    name (atomically); where links are not supported, check then rename."""
    if not os.path.lexists(source):
        return
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(source, target)
        return
    os.remove(source)


def _read_pending(path: Path) -> list[dict[str, Any]]:
    """The pending file's well-formed entries (none if it is missing, too large, not a regular file)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(MAX_PENDING_BYTES + 1)
    except OSError:
        return []
    finally:
        os.close(fd)
    if len(raw) > MAX_PENDING_BYTES:
        return []
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return []
    return [entry for entry in data if _valid_pending(entry)][-MAX_PENDING:] if isinstance(data, list) else []


class StatsService:
    """The database behind one thread of its own: the table hands writes over and never waits, the
    statistics screen awaits its reads. Writes are done in order; :meth:`close` waits for the last.

    ``on_notice`` is called (in that thread) with each new kind of :class:`Notice`, once per session:
    the app shows it at the table."""

    def __init__(self, path: Path | None = None, on_notice: Any = None, busy_timeout: float = 5.0) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._path = path
        self._busy_timeout = busy_timeout
        self._db: StatsDB | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-stats")
        self._notice: Notice | None = None
        self._told: set[str] = set()
        self.on_notice = on_notice

    def _invoke(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if self._db is None:
            self._db = StatsDB(self._path, busy_timeout=self._busy_timeout)
        try:
            return getattr(self._db, method)(*args, **kwargs)
        except StatsError:            # its notice is set already: told as the database said it
            return None
        except Exception as exc:      # noqa: BLE001 - never a crash at the table: the player is told once
            kind = failure_kind(exc)
            self._db.notice = Notice("error" if kind in ("damaged", "newer") else kind,
                                     (("reason", _reason(exc)),))
            return None
        finally:
            if self._db.notice:
                self._tell(self._db.notice)
                self._db.notice = None

    def _tell(self, notice: Notice) -> None:
        self._notice = notice
        if notice.kind in self._told:
            return
        self._told.add(notice.kind)
        if self.on_notice is not None:
            with contextlib.suppress(Exception):     # the app may be gone: the notice stays for take_notice
                self.on_notice(notice)

    def submit(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Run a write in the background."""
        with contextlib.suppress(RuntimeError):       # shut down already: the app is leaving
            self._executor.submit(self._invoke, method, *args, **kwargs)

    async def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Run a read in the background and wait for its answer."""
        import asyncio
        import functools

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(self._invoke, method, *args, **kwargs))

    def take_notice(self) -> str | None:
        """The last notice, in the current language (the statistics screen shows it), then forgotten."""
        notice, self._notice = self._notice, None
        return notice.text if notice is not None else None

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        if self._db is not None:
            self._db.close()


class HandClock:
    """How long a hand was played: the time between moves, each gap capped, so a table left open
    overnight does not count as play."""

    CAP = 120.0

    def __init__(self) -> None:
        self.seconds = 0.0
        self._last = time.monotonic()

    def tick(self) -> None:
        now = time.monotonic()
        self.seconds += min(now - self._last, self.CAP)
        self._last = now

    def lap(self) -> float:
        self.tick()
        seconds, self.seconds = self.seconds, 0.0
        return seconds


# ---------------------------------------------------------------- presenting


def summary_columns() -> list[str]:
    from cardtable.i18n import t

    return [t(key) for key in ("stats_game", "stats_matches", "stats_won", "stats_hands", "stats_hands_won",
                               "stats_mean", "stats_best", "stats_worst", "stats_streak", "stats_time")]


def _number(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:+.0f}" if float(value).is_integer() else f"{value:+.1f}"


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes >= 60:
        return f"{minutes // 60}h{minutes % 60:02d}"
    from cardtable.i18n import t

    return t("stats_minutes", n=minutes)


def format_row(row: LevelStats) -> list[str]:
    """One line of the statistics table, as text (the CLI and the statistics screen share it)."""
    from cardtable import safetext
    from cardtable.i18n import catalog, t

    level = (t(f"stats_level_{row.level}") if f"stats_level_{row.level}" in catalog("en")
             else safetext.clean(row.level, safetext.SHORT))
    name = f"{t('game_' + row.game)} · {level}" + (f" ({t('stats_with_undo')})" if row.undo else "")
    hands_won = f"{row.hands_won}/{row.hands_decided}" if row.hands_decided else "–"
    won = f"{row.won}/{row.finished}" if row.finished else "–"
    return [name, str(row.matches), won, str(row.hands), hands_won, _number(row.mean_points),
            _number(row.best), _number(row.worst), f"{row.streak} ({row.best_streak})", _duration(row.seconds)]


# ---------------------------------------------------------------- the match's running score
def running_scores(game: str, log: list[dict[str, Any]]) -> list[tuple[str, list[float]]]:
    """The match's score after each hand, one series per seat (Gong Zhu: totals) or per side (Guiñote:
    the points of the coto being played; Guandan: the level reached), each with the i18n key of its
    label. Read from the ``hand_end`` lines of the history by the game (``GameSpec.running_scores``);
    empty for a game not installed or a history that cannot be read."""
    if not games.is_available(game):
        return []
    hands = [r for r in log if r.get("type") == "hand_end"]
    try:
        return games.get(game).running_scores(hands)
    except _UNREADABLE:
        return []
