"""The search pool attacked by one of its tables (issue 34 hardening).

A table is untrusted here: assume its player found a way to run code in it, so it can write anything
on its socket to the pool. The pool's workers are shared by every table of the server, so nothing a
table sends may run code in a worker (a pickle would), crash it, hold it, or reach another table.
Every test is bounded and uses the pool's own socket pairs (no network).
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import struct
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from cardtable import games, workers
from cardtable.serve import searchpool
from cardtable.serve.searchpool import SearchPool
from tests.test_serve_searchpool import _is_worker_of_ours, _pooled_thinker, _until
from tests.test_workers import decisions

WAIT = 30.0


@pytest.fixture(autouse=True)
def _no_leftover_workers():
    yield
    leftovers = [pid for pid in os.listdir("/proc") if pid.isdigit() and _is_worker_of_ours(int(pid))]
    assert not leftovers


@pytest.fixture(scope="module")
def positions():
    return decisions(games.get("gongzhu"), 4)


class _Planted:
    """A pickle that runs a function when it is loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (self.path, "ran in the worker"))


def _raw_frame(payload: bytes) -> bytes:
    return struct.pack("!i", len(payload)) + payload


async def _recv(conn: Connection):
    return await asyncio.wait_for(asyncio.to_thread(conn.recv), WAIT)


async def test_a_pickled_question_runs_nothing_in_a_shared_worker(tmp_path, monkeypatch, positions):
    """The old format was ``pickle((function, args))``, called as is by the worker: a table could run
    any code in a process shared with every other table. Now a pickle is no question at all."""
    called, loaded = tmp_path / "called", tmp_path / "loaded"
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        attacker = Connection((await pool.connect()).detach())
        for payload in ((Path.write_text, (called, "ran in the worker")), (str, (_Planted(loaded),))):
            attacker.send(payload)
            status, error = await _recv(attacker)
            assert status == "error" and isinstance(error, workers.BadQuestion)
        assert not called.exists() and not loaded.exists()
        honest = _pooled_thinker(monkeypatch, await pool.connect())
        view = positions[0]
        assert await asyncio.to_thread(honest.call, workers.decide, "gongzhu", "hard", view) \
            == workers.decide("gongzhu", "hard", view)
        assert honest.pooled == 1 and pool.restarts == 0
        honest.close()
        attacker.close()
    finally:
        await pool.close()


async def test_only_the_three_searches_are_asked_of_the_pool(monkeypatch):
    """A table's own calls of any other function never cross to the pool (they are answered by its own
    worker, as before the pool existed)."""
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        thinker = _pooled_thinker(monkeypatch, await pool.connect())
        assert await asyncio.to_thread(thinker.call, pow, 2, 10) == 1024
        assert thinker.pooled == 0 and len(pool.served) == 0
        thinker.close()
    finally:
        await pool.close()


def _malformed(view) -> list[bytes]:
    good = json.loads(workers.encode_question(workers.decide, ("gongzhu", "hard", view)))
    variants = [
        b"\x80\x04not a pickle nor JSON",
        b"[" * 100_000 + b"]" * 100_000,                       # nesting deep enough to overflow a parser
        json.dumps({**good, "call": "__import__"}).encode(),
        json.dumps({**good, "game": "../../etc"}).encode(),
        json.dumps({**good, "level": "__class__"}).encode(),
        json.dumps({**good, "key": "zz"}).encode(),
        json.dumps({**good, "key": "00" * 4096}).encode(),
        json.dumps({**good, "extra": 1}).encode(),
        json.dumps({**good, "view": {**good["view"], "hand": ["XX"]}}).encode(),
        json.dumps({**good, "view": {**good["view"], "legal": []}}).encode(),
        json.dumps({**good, "view": {**good["view"], "decision": [1, 2, 3]}}).encode(),
        json.dumps({**good, "partner_human": "yes"}).encode(),
        b"\xff\xfe" + b"{}" * 10,
    ]
    return [_raw_frame(payload) for payload in variants]


async def test_malformed_truncated_and_huge_frames_cost_only_their_own_table(monkeypatch, positions):
    """Garbage, questions of the right shape with wrong insides (refused, or what the bot raises on a
    view with no legal move), a frame announcing more than a question
    may be, a frame cut short: each is refused or waits on its own table's socket; the worker is never
    lost and another table's questions are answered right all along."""
    view = positions[1]
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        honest = _pooled_thinker(monkeypatch, await pool.connect())
        bad = await pool.connect()
        for data in _malformed(view):
            bad.sendall(data)
            status, _ = pickle.loads((await asyncio.to_thread(bad.recv, 65536))[4:])
            assert status == "error", data[:40]      # refused (BadQuestion), or what its bot raised on it
        huge, cut = await pool.connect(), await pool.connect()
        huge.sendall(struct.pack("!i", workers.MAX_QUESTION + 1) + b"{" * 1000)
        cut.sendall(struct.pack("!i", 1000) + b'{"call": "decide"')       # and never the rest
        huge.settimeout(WAIT)
        assert await asyncio.to_thread(huge.recv, 100) == b""           # cut off at once
        assert await asyncio.to_thread(honest.call, workers.decide, "gongzhu", "hard", view) \
            == workers.decide("gongzhu", "hard", view)
        assert honest.pooled == 1 and pool.restarts == 0
        for end in (bad, huge, cut):
            end.close()
        honest.close()
    finally:
        await pool.close()


async def test_a_table_that_never_reads_its_answers_is_cut_off_and_holds_no_worker(monkeypatch, positions):
    """Questions sent without reading the answers: once its answers back up, that table is dropped; the
    one worker goes on serving another table."""
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        flood = await pool.connect()
        flood.settimeout(0.5)
        question = _raw_frame(b"not a question")
        sent = 0

        def send_until_refused() -> None:
            nonlocal sent
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                try:
                    flood.sendall(question)
                    sent += 1
                except TimeoutError:
                    continue
                except OSError:
                    return              # the pool has closed its end: cut off

        flooding = asyncio.ensure_future(asyncio.to_thread(send_until_refused))
        await _until(lambda: sent > 2000 or flooding.done(), "the flood to back up")
        honest = _pooled_thinker(monkeypatch, await pool.connect())
        view = positions[2]
        answer = await asyncio.wait_for(asyncio.to_thread(honest.call, workers.decide, "gongzhu", "hard", view), WAIT)
        assert answer == workers.decide("gongzhu", "hard", view) and honest.pooled == 1
        await asyncio.wait_for(flooding, WAIT)
        assert len(pool.tables) == 1              # only the honest one is left
        honest.close()
        flood.close()
    finally:
        await pool.close()


async def test_a_question_over_its_cpu_limit_is_stopped_and_answered_by_its_table(monkeypatch, positions):
    """A worker kept busy on one question past QUESTION_CPU seconds of CPU (here made tiny, so that a
    real hard decision crosses it) is killed and replaced; the table answers that question itself."""
    monkeypatch.setattr(searchpool, "QUESTION_CPU", 0.001)
    monkeypatch.setattr(searchpool, "CPU_TICK", 0.005)
    view = positions[3]
    pool = SearchPool(size=1, most=1)
    await pool.start()
    try:
        thinker = _pooled_thinker(monkeypatch, await pool.connect())
        [first] = await asyncio.wait_for(_workers_up(pool), WAIT)
        answer = await asyncio.to_thread(thinker.call, workers.decide, "gongzhu", "hard", view)
        assert answer == workers.decide("gongzhu", "hard", view)
        assert thinker.pooled == 0 and pool.answered == 0 and pool.restarts == 1
        await _until(lambda: pool.worker_pids and pool.worker_pids != [first], "a new worker")
        thinker.close()
    finally:
        await pool.close()


async def _workers_up(pool: SearchPool) -> list[int]:
    while not pool.worker_pids:
        await asyncio.sleep(0.02)
    return pool.worker_pids


async def test_answers_go_only_to_the_table_that_asked(monkeypatch):
    """Five tables asking at once, each its own positions: each gets exactly its own answers, in order."""
    views = decisions(games.get("gongzhu"), 10)
    pool = SearchPool(size=2, most=2)
    await pool.start()
    try:
        ends = [Connection((await pool.connect()).detach()) for _ in range(5)]

        def ask(n: int) -> list:
            mine = views[2 * n:2 * n + 2]
            for view in mine:
                ends[n].send_bytes(workers.encode_question(workers.decide, ("gongzhu", "normal", view)))
            return [ends[n].recv() for _ in mine]

        answers = await asyncio.wait_for(asyncio.gather(*(asyncio.to_thread(ask, n) for n in range(5))), WAIT)
        for n, got in enumerate(answers):
            assert got == [("ok", workers.decide("gongzhu", "normal", v)) for v in views[2 * n:2 * n + 2]]
        for end in ends:
            end.close()
    finally:
        await pool.close()


def test_a_question_crosses_as_checked_json_and_gives_the_same_view(positions):
    """The question's format: JSON, the view in its wire form plus its bot key, decoded to an equal view
    (so the same decision: the bots draw their numbers from the key)."""
    view = positions[0]
    data = workers.encode_question(workers.decide, ("gongzhu", "hard", view, True))
    assert json.loads(data)["call"] == "decide"
    function, args = workers.decode_question(data)
    assert function is workers.decide and args == ("gongzhu", "hard", view, True)
    assert args[2].bot_seed == view.bot_seed
    assert workers.encode_question(pow, (2, 3)) is None
    with pytest.raises(workers.BadQuestion):
        workers.decode_question(pickle.dumps((workers.decide, ("gongzhu", "hard", view))))


async def test_many_tables_asking_at_once_never_start_more_than_most_workers():
    """Eight tables asking while the one worker is held: one extra worker starts (``most`` is 2) and
    answers them all; never more workers than ``most``, whatever the number of tables."""
    views = decisions(games.get("gongzhu"), 9)
    pool = SearchPool(size=1, most=2)
    await pool.start()
    try:
        ends = [Connection((await pool.connect()).detach()) for _ in range(9)]
        await _until(lambda: pool.worker_pids, "the worker to start")
        [held] = pool.worker_pids
        os.kill(held, signal.SIGSTOP)
        for n, (end, view) in enumerate(zip(ends, views, strict=True)):
            end.send_bytes(workers.encode_question(workers.decide, ("gongzhu", "normal", view)))
            if n == 0:
                await _until(lambda: list(pool.served) == [1], "the first question to hold the worker")
        most = 0

        def answers() -> list:
            nonlocal most
            got = []
            for end in ends[1:]:
                got.append(end.recv())
                most = max(most, len(pool.worker_pids))
            return got

        got = await asyncio.wait_for(asyncio.to_thread(answers), WAIT)
        assert got == [("ok", workers.decide("gongzhu", "normal", v)) for v in views[1:]]
        assert pool.peak == 2 and most <= 2
        os.kill(held, signal.SIGCONT)
        assert await _recv(ends[0]) == ("ok", workers.decide("gongzhu", "normal", views[0]))
        for end in ends:
            end.close()
    finally:
        await pool.close()
