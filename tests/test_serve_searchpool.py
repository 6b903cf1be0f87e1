"""The server's search pool (cardtable.serve.searchpool): the answers of a table's own worker, served
to many tables fairly, and never a lost question when a worker dies."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from cardtable import games, workers
from cardtable.serve import searchpool
from cardtable.serve.searchpool import SearchPool
from cardtable.workers import Thinker
from tests.test_workers import decisions

WAIT = 60.0


async def _until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def _pooled_thinker(monkeypatch, end: socket.socket) -> Thinker:
    monkeypatch.setenv(workers.POOL_VARIABLE, str(end.detach()))
    return Thinker()


async def test_the_pool_answers_as_the_tables_own_worker(monkeypatch):
    questions = []
    for game in games.games():
        views = decisions(games.get(game), 2)
        questions += [(workers.decide, game, "hard", view) for view in views]
        if game == "guandan":
            questions.append((workers.hint, game, views[0]))
            questions += [(workers.check, game, views[1], move) for move in views[1].legal[-2:]]
    own = Thinker()
    pool = SearchPool(size=2)
    await pool.start()
    try:
        pooled = _pooled_thinker(monkeypatch, await pool.connect())
        from_pool = [await asyncio.to_thread(pooled.call, *q) for q in questions]
        from_own = [await asyncio.to_thread(own.call, *q) for q in questions]
        assert pooled.pooled == len(questions) and pooled.pid is None    # no worker of its own
        assert pooled.answered == {"process": len(questions), "thread": 0}
        assert pool.answered == len(questions)
    finally:
        own.close()
        await pool.close()
    direct = [function(*args) for function, *args in questions]
    assert from_pool == from_own == direct


def _question(view) -> bytes:
    """A pool question: a normal Gong Zhu decision (quick; a real question, as a table sends it)."""
    return workers.encode_question(workers.decide, ("gongzhu", "normal", view))


def _answer(view):
    return ("ok", workers.decide("gongzhu", "normal", view))


async def _held_worker(pool: SearchPool) -> int:
    """The pool's one worker, stopped (SIGSTOP) so that the next question it is given holds it."""
    await _until(lambda: pool.worker_pids, "the worker to start")
    [pid] = pool.worker_pids
    os.kill(pid, signal.SIGSTOP)
    return pid


async def test_a_free_worker_serves_the_waiting_tables_in_turn():
    """One worker, held by a first table's question (the worker is stopped until the test lets it go),
    while a second and a third table each queue three: they are then served alternately, not one after
    the other, and every answer goes to the table that asked."""
    views = decisions(games.get("gongzhu"), 7)
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        holder, first, second = [Connection((await pool.connect()).detach()) for _ in range(3)]
        pid = await _held_worker(pool)
        holder.send_bytes(_question(views[0]))
        await _until(lambda: list(pool.served) == [1], "the first question to be handed out")
        for i in range(3):
            first.send_bytes(_question(views[1 + i]))
            second.send_bytes(_question(views[4 + i]))
        await _until(lambda: sum(len(t.queue) for t in pool.tables.values()) == 6, "six questions queued")
        os.kill(pid, signal.SIGCONT)
        assert await asyncio.to_thread(holder.recv) == _answer(views[0])
        assert [await asyncio.to_thread(first.recv) for _ in range(3)] == [_answer(v) for v in views[1:4]]
        assert [await asyncio.to_thread(second.recv) for _ in range(3)] == [_answer(v) for v in views[4:7]]
        assert list(pool.served) == [1, 2, 3, 2, 3, 2, 3]
        for conn in (holder, first, second):
            conn.close()
    finally:
        await pool.close()


async def test_questions_waiting_with_every_worker_busy_get_an_extra_worker_that_retires(monkeypatch):
    monkeypatch.setattr(searchpool, "RETIRE_AFTER", 0.5)
    views = decisions(games.get("gongzhu"), 2)
    pool = SearchPool(size=1, most=2)
    await pool.start()
    try:
        holder, other = [Connection((await pool.connect()).detach()) for _ in range(2)]
        pid = await _held_worker(pool)
        holder.send_bytes(_question(views[0]))
        await _until(lambda: list(pool.served) == [1], "the first question to be handed out")
        other.send_bytes(_question(views[1]))
        assert await asyncio.to_thread(other.recv) == _answer(views[1])     # while the only worker is held
        assert pool.peak == 2
        os.kill(pid, signal.SIGCONT)
        assert await asyncio.to_thread(holder.recv) == _answer(views[0])
        await _until(lambda: len(pool.worker_pids) == 1, "the extra worker to retire")
        holder.close()
        other.close()
    finally:
        await pool.close()


async def test_a_worker_that_dies_on_a_question_is_replaced_and_the_table_answers_it(monkeypatch):
    [view] = decisions(games.get("gongzhu"), 1)
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        thinker = _pooled_thinker(monkeypatch, await pool.connect())
        pid = await _held_worker(pool)
        asked = asyncio.ensure_future(asyncio.to_thread(thinker.call, workers.decide, "gongzhu", "hard", view))
        await _until(lambda: len(pool.served) == 1, "the question to be handed out")
        os.kill(pid, signal.SIGKILL)
        await _until(lambda: pool.restarts == 1, "the pool to see its worker die")
        # the table asks again on its own (its own worker)
        assert await asyncio.wait_for(asked, WAIT) == workers.decide("gongzhu", "hard", view)
        assert thinker.pooled == 0
        assert await asyncio.to_thread(thinker.call, workers.decide, "gongzhu", "hard", view) \
            == workers.decide("gongzhu", "hard", view)                     # and the pool serves on
        assert thinker.pooled == 1 and pool.worker_pids and pool.worker_pids != [pid]
        thinker.close()
    finally:
        await pool.close()


async def test_a_table_whose_pool_has_gone_keeps_deciding(monkeypatch):
    [view] = decisions(games.get("gongzhu"), 1)
    pool = SearchPool(size=1)
    await pool.start()
    thinker = _pooled_thinker(monkeypatch, await pool.connect())
    await pool.close()
    try:
        assert await asyncio.to_thread(thinker.call, workers.decide, "gongzhu", "hard", view) \
            == workers.decide("gongzhu", "hard", view)
        assert thinker.pooled == 0 and thinker._pool is None
    finally:
        thinker.close()


@pytest.fixture(autouse=True)
def _no_leftover_workers():
    yield
    leftovers = [pid for pid in os.listdir("/proc") if pid.isdigit() and _is_worker_of_ours(int(pid))]
    assert not leftovers


def _is_worker_of_ours(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return b"cardtable-worker" in cmdline and int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() \
        and stat.rsplit(")", 1)[1].split()[0] != "Z"
