"""Statistics of the human player's matches, kept in an embedded SQLite database.

The database lives beside the saves (``$CARDTABLE_HOME/stats.sqlite3`` or the user data directory). It
has a schema version (``PRAGMA user_version``) and migrations from each older version. Every finished
hand is written in one transaction. A damaged database is moved aside (``stats.sqlite3.damaged-…``)
with a notice and a fresh one is made: statistics never crash the table and never touch the saves.

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
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardtable import games
from cardtable.engine import Outcome

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
@dataclasses.dataclass(frozen=True)
class HandResult:
    points: float
    won: bool | None
    total: float | None


def hand_result(game: str, record: dict[str, Any], seat: int = 0) -> HandResult | None:
    """What a ``hand_end`` line of the history means for ``seat`` (see the module docstring)."""
    try:
        if game == "gongzhu":
            line = record["lines"][seat]
            return HandResult(float(line["hand"]), None, float(line["total"]))
        if game == "guinote":
            team = seat % 2
            own = record["points"][team] + record["cantes"][team]
            other = record["points"][1 - team] + record["cantes"][1 - team]
            winner = record.get("winner")
            return HandResult(float(own - other), None if winner is None else winner == team,
                              float(record["totals"][team]))
        if game == "guandan":
            team = seat % 2
            won = record["winner_team"] == team
            rise = float(record.get("level_up", 0))
            return HandResult(rise if won else -rise, won, None)
    except (KeyError, IndexError, TypeError, ValueError):
        return None
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


class StatsNotice(Exception):
    """Not an error for the caller to handle: a message for the player (the database was replaced)."""


class StatsDB:
    """The statistics database. Opening it repairs what can be repaired (see the module docstring);
    ``notice`` then says what happened, for the UI to show once."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None
        self._conn: sqlite3.Connection | None = None

    # -- opening, migrating, repairing
    def _open(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = self._connect()
        except sqlite3.DatabaseError as exc:
            self._move_aside(exc)
            conn = self._connect()
        self._conn = conn
        return conn

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"written by a newer cardtable (schema {version})")
            if version > 0:
                conn.execute("PRAGMA quick_check").fetchone()
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if not {"matches", "hands"} <= tables:
                    raise sqlite3.DatabaseError("tables are missing")
            for target in range(version + 1, SCHEMA_VERSION + 1):
                conn.execute("BEGIN IMMEDIATE")
                for statement in _MIGRATIONS[target].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")
                conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self, exc: BaseException) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        with contextlib.suppress(OSError):
            os.replace(self.path, aside)
        for suffix in ("-journal", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.remove(str(self.path) + suffix)
        self.notice = f"the statistics database was damaged ({exc}); it was moved to {aside.name} and a new one started"

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._open()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _guarded(self, action):
        """Run ``action`` and, if the file turns out damaged only now, start afresh and try once more."""
        try:
            return action()
        except sqlite3.DatabaseError as exc:
            self.close()
            self._move_aside(exc)
            return action()

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    # -- writing
    def _match_id(self, conn: sqlite3.Connection, slot: str, game: str, level: str, seed: int,
                  options: dict[str, Any], undo: bool) -> int:
        row = conn.execute("SELECT id, undo FROM matches WHERE slot = ? AND seed = ? AND finished_at IS NULL "
                           "ORDER BY id DESC LIMIT 1", (slot, seed)).fetchone()
        if row is not None:
            if undo and not row[1]:
                conn.execute("UPDATE matches SET undo = 1 WHERE id = ?", (row[0],))
            return int(row[0])
        cursor = conn.execute(
            "INSERT INTO matches (slot, game, level, seed, options, started_at, undo) VALUES (?,?,?,?,?,?,?)",
            (slot, game, level, seed, json.dumps(options, sort_keys=True), _now(), int(undo)))
        return int(cursor.lastrowid or 0)

    def record_hand(self, *, slot: str, game: str, level: str, seed: int, options: dict[str, Any],
                    number: int, record: dict[str, Any], seconds: float = 0.0, undo: bool = False,
                    outcome: Outcome | None = None, seat: int = 0) -> bool:
        """Write one finished hand (and the match's end, if it ended), in one transaction. A hand
        written already (the same slot, seed and number) is not counted twice. Returns whether it was
        counted."""
        result = hand_result(game, record, seat)
        if result is None:
            return False
        partnerships = games.get(game).partnerships if games.is_available(game) else False

        def write() -> bool:
            with self._transaction() as conn:
                match_id = self._match_id(conn, slot, game, level, seed, options, undo)
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO hands (match_id, number, points, won, total, seconds, recorded_at) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (match_id, number, result.points, None if result.won is None else int(result.won),
                     result.total, max(0.0, float(seconds)), _now()))
                ended = None if outcome is None else match_result(outcome, seat, partnerships)
                if ended is not None:
                    conn.execute("UPDATE matches SET finished_at = ?, won = ?, final = ? WHERE id = ?",
                                 (_now(), int(ended[0]), ended[1], match_id))
                return cursor.rowcount > 0

        return bool(self._guarded(write))

    def mark_undo(self, slot: str, seed: int) -> None:
        """The player took a move back in this match: it counts apart from now on."""
        def write() -> None:
            with self._transaction() as conn:
                conn.execute("UPDATE matches SET undo = 1 WHERE slot = ? AND seed = ? AND finished_at IS NULL",
                             (slot, seed))

        self._guarded(write)

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

        return self._guarded(read)

    def history(self, game: str, limit: int = 200) -> list[tuple[str, float]]:
        """Your points per hand in this game, oldest first (the last ``limit`` hands), for a chart."""
        def read() -> list[tuple[str, float]]:
            rows = self._open().execute(
                "SELECT h.recorded_at, h.points FROM hands h JOIN matches m ON m.id = h.match_id "
                "WHERE m.game = ? ORDER BY h.id DESC LIMIT ?", (game, limit)).fetchall()
            return [(str(at), float(points)) for at, points in reversed(rows)]

        return self._guarded(read)


class StatsService:
    """The database behind one thread of its own: the table hands writes over and never waits, the
    statistics screen awaits its reads. Writes are done in order; :meth:`close` waits for the last."""

    def __init__(self, path: Path | None = None) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._path = path
        self._db: StatsDB | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-stats")
        self._notice: str | None = None

    def _invoke(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if self._db is None:
            self._db = StatsDB(self._path)
        try:
            return getattr(self._db, method)(*args, **kwargs)
        except (sqlite3.Error, OSError) as exc:       # never a crash: the player is told once
            self._notice = str(exc)
            return None
        finally:
            if self._db.notice:
                self._notice, self._db.notice = self._db.notice, None

    def submit(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Run a write in the background."""
        self._executor.submit(self._invoke, method, *args, **kwargs)

    async def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Run a read in the background and wait for its answer."""
        import asyncio
        import functools

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(self._invoke, method, *args, **kwargs))

    def take_notice(self) -> str | None:
        notice, self._notice = self._notice, None
        return notice

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
    from cardtable.i18n import catalog, t

    level = t(f"stats_level_{row.level}") if f"stats_level_{row.level}" in catalog("en") else row.level
    name = f"{t('game_' + row.game)} · {level}" + (f" ({t('stats_with_undo')})" if row.undo else "")
    hands_won = f"{row.hands_won}/{row.hands_decided}" if row.hands_decided else "–"
    won = f"{row.won}/{row.finished}" if row.finished else "–"
    return [name, str(row.matches), won, str(row.hands), hands_won, _number(row.mean_points),
            _number(row.best), _number(row.worst), f"{row.streak} ({row.best_streak})", _duration(row.seconds)]


# ---------------------------------------------------------------- the match's running score
_RANK_VALUES = {str(n): n for n in range(2, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14}


def running_scores(game: str, log: list[dict[str, Any]]) -> list[tuple[str, list[float]]]:
    """The match's score after each hand, one series per seat (Gong Zhu: totals) or per side (Guiñote:
    the points of the coto being played; Guandan: the level reached), each with the i18n key of its
    label. Read from the ``hand_end`` lines of the history."""
    hands = [r for r in log if r.get("type") == "hand_end"]
    try:
        if game == "gongzhu":
            return [(f"gz_seat_{s}", [float(h["lines"][s]["total"]) for h in hands]) for s in range(4)]
        if game == "guinote":
            return [(key, [float(h["score"][side]) for h in hands])
                    for side, key in enumerate(("chart_us", "chart_them"))]
        if game == "guandan":
            return [(key, [float(_RANK_VALUES[str(h["levels"][side])]) for h in hands])
                    for side, key in enumerate(("chart_us", "chart_them"))]
    except (KeyError, IndexError, TypeError, ValueError):
        return []
    return []
