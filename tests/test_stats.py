"""The statistics database: what a hand counts, matches and streaks, undo apart, damage and migrations."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import games, stats
from cardtable.engine import Outcome
from cardtable.sim import next_cpu_move


def _played_match(game: str, seed: int) -> tuple[object, list[dict]]:
    spec = games.get(game)
    options = spec.options_type()
    if game == "gongzhu":
        options = options.replace(target=500)
    match = spec.new_match(options, seed)
    bot = spec.bot("easy")
    while match.to_move() is not None:
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    return match, list(match.log)


def _record_match(db, game: str, seed: int, slot: str = "s1", undo: bool = False) -> list[dict]:
    match, log = _played_match(game, seed)
    hands = [r for r in log if r["type"] == "hand_end"]
    for i, record in enumerate(hands):
        db.record_hand(slot=slot, game=game, level="easy", seed=seed, options={}, number=record["hand"],
                       record=record, seconds=10, undo=undo,
                       outcome=match.outcome() if i == len(hands) - 1 else None)
    return log


@pytest.mark.parametrize("game", ["gongzhu", "guinote", "guandan"])
def test_a_whole_match_adds_up(tmp_path, game):
    db = stats.StatsDB(tmp_path / "stats.sqlite3")
    log = _record_match(db, game, 7)
    hands = [r for r in log if r["type"] == "hand_end"]
    end = next(r for r in log if r["type"] == "match_end")
    [row] = db.summary(game)
    assert (row.matches, row.finished, row.hands) == (1, 1, len(hands))
    results = [stats.hand_result(game, r) for r in hands]
    assert row.points == pytest.approx(sum(r.points for r in results))
    assert row.best == max(r.points for r in results) and row.worst == min(r.points for r in results)
    assert row.hands_won == sum(1 for r in results if r.won)
    assert row.hands_decided == sum(1 for r in results if r.won is not None)
    assert row.seconds == 10 * len(hands)
    match, _ = _played_match(game, 7)
    won, _final = stats.match_result(match.outcome(), 0, games.get(game).partnerships)
    assert won == (0 in _winning_seats(end))          # the outcome agrees with the match_end line
    assert row.won == int(won) and row.streak == int(won) and row.best_streak == int(won)


def test_what_a_hand_counts_per_game():
    gz = {"lines": [{"hand": -150, "total": -150}, {"hand": 0, "total": 0}, {"hand": 200, "total": 200},
                    {"hand": -50, "total": -50}]}
    assert stats.hand_result("gongzhu", gz) == stats.HandResult(-150, None, -150)
    assert stats.hand_result("gongzhu", gz, seat=2).points == 200
    gn = {"points": [80, 50], "cantes": [20, 40], "totals": [100, 90], "winner": 0}
    assert stats.hand_result("guinote", gn) == stats.HandResult(10, True, 100)
    assert stats.hand_result("guinote", gn, seat=1) == stats.HandResult(-10, False, 90)
    assert stats.hand_result("guinote", {**gn, "winner": None}).won is None
    gd = {"winner_team": 1, "level_up": 3}
    assert stats.hand_result("guandan", gd) == stats.HandResult(-3, False, None)
    assert stats.hand_result("guandan", gd, seat=3) == stats.HandResult(3, True, None)
    assert stats.hand_result("guandan", {"winner_team": 0}) == stats.HandResult(0, True, None)
    assert stats.hand_result("gongzhu", {"lines": "garbage"}) is None
    assert stats.hand_result("chess", gz) is None


def test_a_hand_is_counted_once(tmp_path):
    db = stats.StatsDB(tmp_path / "stats.sqlite3")
    record = {"winner_team": 0, "level_up": 2}
    args = {"slot": "a", "game": "guandan", "level": "normal", "seed": 3, "options": {}, "number": 1, "record": record}
    assert db.record_hand(**args) is True
    assert db.record_hand(**args) is False        # written again (e.g. the hand end shown twice)
    [row] = db.summary()
    assert row.hands == 1 and row.points == 2


def test_undo_matches_are_counted_apart(tmp_path):
    db = stats.StatsDB(tmp_path / "stats.sqlite3")
    _record_match(db, "guinote", 3, slot="clean")
    db.record_hand(slot="undone", game="guinote", level="easy", seed=4, options={}, number=1,
                   record={"points": [70, 60], "cantes": [0, 0], "totals": [70, 60], "winner": None})
    db.mark_undo("undone", 4)
    rows = {row.undo: row for row in db.summary("guinote")}
    assert set(rows) == {False, True}
    assert rows[True].matches == 1 and rows[True].finished == 0
    assert rows[False].matches == 1


@given(st.lists(st.booleans(), max_size=25))
def test_streaks(outcomes):
    db = stats.StatsDB(":memory:")
    for i, won in enumerate(outcomes):
        db.record_hand(slot=f"m{i}", game="guandan", level="normal", seed=i, options={}, number=1,
                       record={"winner_team": 0 if won else 1, "level_up": 1},
                       outcome=Outcome(True, (0, 2) if won else (1, 3), (14, 2, 14, 2) if won else (2, 14, 2, 14)))
    rows = db.summary("guandan")
    best = current = 0
    for won in outcomes:
        current = current + 1 if won else 0
        best = max(best, current)
    if not outcomes:
        assert rows == []
        return
    [row] = rows
    assert (row.streak, row.best_streak, row.won, row.finished) == (current, best, sum(outcomes), len(outcomes))


def test_a_damaged_database_is_moved_aside_and_the_saves_are_untouched(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "slot.json").write_text('{"keep": "me"}')
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    db = stats.StatsDB(path)
    assert db.summary() == []
    assert db.notice and db.notice.kind == "damaged" and "damaged" in db.notice.text
    aside = list(tmp_path.glob("stats.sqlite3.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    assert (saves / "slot.json").read_text() == '{"keep": "me"}'
    db.record_hand(slot="a", game="guandan", level="easy", seed=1, options={}, number=1,
                   record={"winner_team": 0, "level_up": 1})
    assert db.summary()[0].hands == 1


def test_a_newer_schema_is_left_alone_and_read_only(tmp_path):
    path = tmp_path / "stats.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(stats._MIGRATIONS[1])
    conn.execute(f"PRAGMA user_version = {stats.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    db = stats.StatsDB(path)
    assert db.summary() == []                       # read with this version's queries where they still work
    assert db.notice.kind == "newer" and "newer" in db.notice.text
    assert db.record_hand(slot="a", game="guandan", level="easy", seed=1, options={}, number=1,
                          record={"winner_team": 0, "level_up": 1}) is False
    assert db.notice.kind == "newer"
    db.close()
    assert path.read_bytes() == before              # never changed, never moved aside
    assert not list(tmp_path.glob("stats.sqlite3.damaged-*"))
    assert not db.pending_path.exists()


def test_the_schema_has_a_version(tmp_path):
    db = stats.StatsDB(tmp_path / "s.sqlite3")
    db.summary()
    db.close()
    conn = sqlite3.connect(tmp_path / "s.sqlite3")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION


def test_chart_history_is_oldest_first(tmp_path):
    db = stats.StatsDB(tmp_path / "stats.sqlite3")
    for number, rise in enumerate([1, 3, 2], 1):
        db.record_hand(slot="a", game="guandan", level="easy", seed=1, options={}, number=number,
                       record={"winner_team": 0, "level_up": rise})
    assert [points for _, points in db.history("guandan")] == [1, 3, 2]
    assert [points for _, points in db.history("guandan", limit=2)] == [3, 2]


def test_hand_clock_caps_idle_gaps(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(stats.time, "monotonic", lambda: now[0])
    clock = stats.HandClock()
    now[0] += 30
    clock.tick()
    now[0] += 10_000          # the table left open overnight
    assert clock.lap() == 30 + stats.HandClock.CAP
    now[0] += 5
    assert clock.lap() == 5


def _winning_seats(end: dict) -> list[int]:
    """The match_end line's own account of the winners (each game spells it its way)."""
    if "winners" in end:
        return end["winners"]
    team = end.get("winner_team", end.get("winner"))
    return [team, team + 2]


def test_a_finished_match_stores_the_outcome_win_and_final():
    assert stats.match_result(Outcome(False, (), (0, 0, 0, 0))) is None
    assert stats.match_result(Outcome(True, (2,), (-40, 10, 120, -90)), 2) == (True, 120.0)
    assert stats.match_result(Outcome(True, (2,), (-40, 10, 120, -90)), 0) == (False, -40.0)
    assert stats.match_result(Outcome(True, (1, 3), (1, 2, 1, 2)), 0, partnerships=True) == (False, -1.0)
    assert stats.match_result(Outcome(True, (1, 3), (9, 14, 9, 14)), 3, partnerships=True) == (True, 5.0)

