"""Where a table's play checker waits: a thread of its own, never the event loop's default executor.

The checker asks the search about every play of the person's (some 270 ms of CPU each, in the worker or
the server's search pool, where it may queue for seconds). Run with ``asyncio.to_thread`` each waiting
check held one of the default executor's few threads (6 on two cores), which the CPUs' turns need too:
behind a pile of checks a CPU could not make its move. Here the checks run one at a time in one daemon
thread (started by a check, ended when none waits). At most :data:`WAITING` wait behind the running one:
more than a hand's plays (Guandan's longest hands ask ~27), so a quick player loses no check; past it (a
key held down for minutes) a newer check drops the oldest waiting one (its verdict None, as for a play
with nothing to say), so the queue stays bounded.
This module imports no Textual.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from collections.abc import Callable
from typing import Any

WAITING = 32         # checks that may wait behind the running one (more than a hand's plays)


def _settle(future: asyncio.Future, ok: bool, value: Any) -> None:
    """Give ``future`` its outcome on its own loop (unless its awaiter has gone: cancelled)."""
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class CheckRunner:
    """One table's checks, answered in order in one thread (see the module docstring). ``dropped``
    counts the checks a newer one replaced."""

    def __init__(self, waiting: int = WAITING) -> None:
        self.waiting = waiting
        self.dropped = 0
        self._queue: collections.deque[tuple[Callable[..., Any], tuple, asyncio.Future]] = collections.deque()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the runner's thread, after the checks asked before it; None when a
        newer check replaced it while it waited."""
        future = asyncio.get_running_loop().create_future()
        with self._lock:
            if len(self._queue) >= self.waiting:
                _, _, oldest = self._queue.popleft()
                self.dropped += 1
                _settle(oldest, True, None)       # (this loop's: run is called on it)
            self._queue.append((function, args, future))
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="cardtable-checker", daemon=True)
                self._thread.start()
        return await future

    def _serve(self) -> None:
        while True:
            with self._lock:
                if not self._queue:           # nothing waits: the thread ends (the next check starts one)
                    self._thread = None
                    return
                function, args, future = self._queue.popleft()
            if future.done():                     # its awaiter went away meanwhile
                continue
            try:
                outcome: tuple[bool, Any] = (True, function(*args))
            except BaseException as exc:  # noqa: BLE001 - the awaiter gets it, as from to_thread
                outcome = (False, exc)
            try:
                future.get_loop().call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:                  # its loop is closed: the app has left
                continue
