"""One search pool per server (issue 34): a fixed number of search workers shared by all its tables.

Alone, every table starts its own search worker (``cardtable.workers.Thinker``: ~24 MB each). A served
table is instead given one end of a socket pair (its fd in ``CARDTABLE_SEARCH_POOL_FD``) whose other end
is read by the server's :class:`SearchPool`, in the server's event loop: the questions are the three
searches a table would ask its own worker (``workers.encode_question``: checked JSON, never a pickle,
since a table is not trusted with a process other tables use), framed as ``multiprocessing.connection``
frames; the pool only routes those frames: each goes, whole, to one of ``size`` worker processes (the
very ``cardtable.workers.main`` a table would start, taking pool questions only: same functions, same
bots, same answer, the budgets being counts of playouts, not seconds), and its answer goes back to the
table that asked.

- **Fair.** Each table's questions wait in a queue of its own (at most QUEUE_CAP; beyond it the pool
  stops reading that table's socket); a free worker takes the oldest question of the next table in
  turn (round robin over the tables that are waiting), so one table's expert hints cannot starve
  another's hard move.
- **Not starved.** The scheduler gives each process its share of the CPU: ``size`` workers among twenty
  busy tables would get a tenth of a busy machine, so a question that has waited OVERFLOW_WAIT with
  every worker busy starts one more worker, up to ``most`` (4 × ``size`` by default); an extra worker
  ends after RETIRE_AFTER seconds without a question.
- **Never a lost move.** A worker that dies in the middle of a question is replaced; the table gets
  ``("lost", None)`` and answers that question itself (its own worker, or a thread), as the Thinker
  does when its worker dies. A table whose pool has gone (the server ended) goes back to its own worker.
- **Bounded.** A question is at most ``workers.MAX_QUESTION`` bytes (a longer one ends that table's
  connection); a question that has cost its worker QUESTION_CPU seconds of CPU is stopped (the worker
  is killed and replaced, the table answers it itself); a table whose answers pile up unread (beyond
  MAX_BACKLOG bytes) is cut off, so no table holds a worker by not reading.
- **Never left behind.** The workers hold the read end of a lifeline pipe only the server writes to
  (as a Thinker's do), so they end with the server however it ends; :meth:`SearchPool.close` kills them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import socket
import struct
import time
from collections import deque
from typing import Any, NamedTuple

from cardtable.workers import MAX_QUESTION

QUEUE_CAP = 4                    # questions of one table waiting at once
OVERFLOW_WAIT = 0.25             # a question waiting this long with every worker busy: one more worker
RETIRE_AFTER = 60.0              # seconds an extra worker waits for a question before it ends
STARTING_AT_ONCE = 2             # extra workers starting at the same time (a start costs ~1 s of CPU)
MAX_FRAME = 4 * 1024 * 1024      # the largest answer passed on (a question: workers.MAX_QUESTION)
QUESTION_CPU = 30.0              # CPU seconds one question may cost its worker (a hard one: ~0.5 s)
CPU_TICK = 0.5                   # how often a busy worker's CPU time is looked at
MAX_BACKLOG = 256 * 1024         # bytes of answers a table may leave unread beyond its socket's buffer
LOST_REPLY = pickle.dumps(("lost", None))


async def read_frame(reader: asyncio.StreamReader, most: int = MAX_FRAME) -> bytes | None:
    """One ``multiprocessing.connection`` frame (its header included), or None at the end or when it
    is larger than ``most`` bytes."""
    try:
        header = await reader.readexactly(4)
        (size,) = struct.unpack("!i", header)
        if size == -1:
            more = await reader.readexactly(8)
            header += more
            (size,) = struct.unpack("!Q", more)
        if not 0 <= size <= most:
            return None
        return header + await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError, OSError):
        return None


class Timing(NamedTuple):
    """One answered question: seconds queued, seconds in the worker, CPU seconds the worker spent
    (from /proc: in clock ticks)."""
    queued: float
    wall: float
    cpu: float


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def frame(payload: bytes) -> bytes:
    return struct.pack("!i", len(payload)) + payload


class _Table:
    """One table's connection to the pool."""

    def __init__(self, number: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.number = number
        self.reader, self.writer = reader, writer
        self.queue: deque[tuple[float, bytes]] = deque()   # (arrival, question)
        self.room = asyncio.Event()
        self.room.set()
        self.closed = False
        self.busy = False        # a question of its own is in a worker: at most one at a time


class _Worker:
    def __init__(self, process: Any, reader: asyncio.StreamReader | None, writer: Any, lifeline: int) -> None:
        self.process, self.reader, self.writer, self.lifeline = process, reader, writer, lifeline

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError):
            self.writer.close()
        if self.lifeline >= 0:
            with contextlib.suppress(OSError):
                os.close(self.lifeline)
            self.lifeline = -1
        with contextlib.suppress(Exception):
            self.process.wait(1.0)


def _discard(started: tuple[Any, Any, int]) -> None:
    process, conn, lifeline = started
    _Worker(process, None, conn, lifeline).kill()


def _discard_started(future: asyncio.Future) -> None:
    if not future.cancelled() and future.exception() is None and future.result() is not None:
        _discard(future.result())


class SearchPool:
    """``size`` search workers (up to ``most`` while questions wait) and the fair queue in front of them. :meth:`connect` gives a table its
    socket; ``served`` keeps the order in which the tables' questions were handed out (the last 1,000,
    by table number), ``answered`` the count and ``timings`` their times."""

    def __init__(self, size: int | None = None, most: int | None = None) -> None:
        self.size = max(1, size or os.cpu_count() or 1)
        # Extra workers, up to ``most`` in all, while questions wait with every worker busy: a process
        # gets its share of a busy machine's CPU, so two workers among twenty busy tables would get a
        # tenth of it; the extras end once idle (RETIRE_AFTER).
        self.most = max(self.size, most if most is not None else 4 * self.size)
        self.peak = 0                             # the most workers at once
        self.tables: dict[int, _Table] = {}
        self.turn: deque[int] = deque()           # tables with a question waiting, in serving order
        self.served: deque[int] = deque(maxlen=1000)
        self.timings: deque[Timing] = deque(maxlen=10_000)   # the answered questions', for the bench
        self.answered = 0
        self.restarts = 0
        self.closed = False
        self._numbers = 0
        self._waiting = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self._workers: list[_Worker] = []
        self._serving = 0                         # worker loops running
        self._idle = 0                            # of them, waiting for a question
        self._starting = 0                        # of them, starting their worker process

    @property
    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.poll() is None]

    async def start(self) -> None:
        """Start the workers (each its own loop of questions)."""
        for _ in range(self.size):
            self._spawn(self._serve(extra=False))
        self._spawn(self._watch_queue())

    async def _watch_queue(self) -> None:
        """One more worker when the oldest question has waited OVERFLOW_WAIT with every worker busy."""
        while not self.closed:
            await asyncio.sleep(OVERFLOW_WAIT / 2)
            oldest = min((t.queue[0][0] for t in self.tables.values() if t.queue), default=None)
            if (oldest is not None and time.monotonic() - oldest >= OVERFLOW_WAIT
                    and not self._idle and self._starting < STARTING_AT_ONCE and self._serving < self.most):
                self._spawn(self._serve(extra=True))

    def _spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def connect(self) -> socket.socket:
        """A new table's end of its socket to the pool (the caller passes it on and closes it)."""
        number = self._numbers = self._numbers + 1
        mine, theirs = socket.socketpair()
        reader, writer = await asyncio.open_unix_connection(sock=mine)
        table = self.tables[number] = _Table(number, reader, writer)
        self._spawn(self._read_table(table))
        return theirs

    async def _read_table(self, table: _Table) -> None:
        try:
            while not self.closed:
                await table.room.wait()
                data = await read_frame(table.reader, MAX_QUESTION) if not table.closed else None
                if data is None or table.closed:       # its end, or cut off (see _answer)
                    return
                table.queue.append((time.monotonic(), data))
                if len(table.queue) >= QUEUE_CAP:
                    table.room.clear()
                if table.number not in self.turn and not table.busy:
                    self.turn.append(table.number)
                self._waiting.set()
        finally:
            table.closed = True
            table.queue.clear()
            self.tables.pop(table.number, None)
            with contextlib.suppress(ValueError):
                self.turn.remove(table.number)
            with contextlib.suppress(OSError):
                table.writer.close()

    def _next(self) -> tuple[_Table, float, bytes] | None:
        """The next question to hand out: the oldest of the table whose turn it is."""
        while self.turn:
            table = self.tables.get(self.turn.popleft())
            if table is None or not table.queue:
                continue
            arrived, data = table.queue.popleft()
            table.busy = True             # back in turn once answered (so its answers keep their order)
            if len(table.queue) < QUEUE_CAP:
                table.room.set()
            self.served.append(table.number)
            return table, arrived, data
        return None

    async def _new_worker(self) -> _Worker | None:
        from cardtable.workers import start_worker

        starting = asyncio.get_running_loop().run_in_executor(None, start_worker, True)
        try:
            started = await asyncio.shield(starting)
        except asyncio.CancelledError:        # the pool closed while it started: not left behind
            starting.add_done_callback(_discard_started)
            raise
        if started is None:
            return None
        if self.closed:
            _discard(started)
            return None
        process, conn, lifeline = started
        sock = socket.socket(fileno=os.dup(conn.fileno()))
        conn.close()
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        worker = _Worker(process, reader, writer, lifeline)
        self._workers.append(worker)
        return worker

    async def _serve(self, extra: bool) -> None:
        """One worker's loop: the next question, its answer to its table; a new worker if it dies. An
        ``extra`` one ends after RETIRE_AFTER seconds without a question."""
        worker: _Worker | None = None
        self._serving += 1
        self.peak = max(self.peak, self._serving)
        try:
            while not self.closed:
                if worker is None:
                    self._starting += 1
                    try:
                        worker = await self._new_worker()
                    finally:
                        self._starting -= 1
                    if worker is None:            # cannot start processes: the tables answer alone
                        return
                job = self._next()
                if job is not None:
                    worker = await self._answer(worker, job)
                    continue
                self._waiting.clear()
                self._idle += 1
                try:
                    await asyncio.wait_for(self._waiting.wait(), RETIRE_AFTER if extra else None)
                except TimeoutError:
                    return                        # an extra worker no longer needed
                finally:
                    self._idle -= 1
        finally:
            self._serving -= 1
            if worker is not None and worker in self._workers:
                self._workers.remove(worker)
                worker.kill()

    async def _answer(self, worker: _Worker, job: tuple[_Table, float, bytes]) -> _Worker | None:
        """Hand one question to ``worker`` and its answer to its table; None if the worker died on it."""
        table, arrived, question = job
        began, cpu = time.monotonic(), _cpu_seconds(worker.process.pid)
        worker.writer.write(question)
        try:
            await worker.writer.drain()
            reply = await self._reply(worker, cpu) if worker.reader is not None else None
        except (ConnectionError, OSError):
            reply = None
        alive: _Worker | None = worker
        if reply is None:                     # the worker died on it: the table answers it itself
            worker.kill()
            self._workers.remove(worker)
            alive = None
            self.restarts += 1
            reply = frame(LOST_REPLY)
        else:
            self.answered += 1
            self.timings.append(Timing(began - arrived, time.monotonic() - began,
                                       _cpu_seconds(worker.process.pid) - cpu))
        table.busy = False
        if not table.closed:
            # Never waited for: a table that does not read its answers must not hold this worker.
            table.writer.write(reply)
            if table.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
                table.closed = True
                table.queue.clear()
                table.writer.transport.abort()
                table.room.set()              # its reader sees the end and forgets it
            elif table.queue and table.number not in self.turn:
                self.turn.append(table.number)
                self._waiting.set()
        return alive

    async def _reply(self, worker: _Worker, cpu: float) -> bytes | None:
        """The worker's answer, or None if it died or has spent QUESTION_CPU seconds on it."""
        assert worker.reader is not None
        reading = asyncio.ensure_future(read_frame(worker.reader))
        try:
            while True:
                done, _ = await asyncio.wait({reading}, timeout=CPU_TICK)
                if done:
                    return reading.result()
                if _cpu_seconds(worker.process.pid) - cpu > QUESTION_CPU:
                    return None
        finally:
            reading.cancel()

    async def close(self) -> None:
        self.closed = True
        self._waiting.set()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for worker in self._workers:
            await asyncio.to_thread(worker.kill)
        self._workers.clear()
        for table in list(self.tables.values()):
            with contextlib.suppress(OSError):
                table.writer.close()
        self.tables.clear()
