"""The hub's table store: a ``SaveStore`` whose writes happen in a thread of their own.

A session saves after every move (``TableSession.autosave``) and an atomic write waits for two fsyncs
(tens of milliseconds on a busy disk); on the hub's event loop that wait would hold up every table's
events. Here ``save`` makes the file's bytes at once, from the match as it is, and a writer thread
writes the newest bytes of each slot atomically, in order, dropping a slot's older bytes that were
never written (only the last state matters). The hub holds every slot it writes locked, so the «changed
by another cardtable» check of ``SaveStore.save`` has nothing to guard here. ``flush`` waits until what
was saved so far is on disk, or only one slot's, which then goes first (the hub flushes a table's slot
on its loop before unlocking it: at most two writes' wait); ``close`` flushes and stops the thread.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.engine import Match
from cardtable.saves import SaveError, SaveStore, atomic_write, envelope

logger = logging.getLogger(__name__)


class BackgroundStore(SaveStore):
    """A save directory written by a background thread (see the module docstring)."""

    def __init__(self, directory: Path | str) -> None:
        super().__init__(directory)
        self._waiting: dict[str, bytes] = {}
        self._writing: list[str] = []             # the slot being written (at most one)
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.errors: dict[str, str] = {}          # the last write that failed, per slot (also logged)
        # Told (in the writer thread) when a slot's writes start failing (slot, why) or work again
        # (slot, None): the hub tells the table's players.
        self.on_change: Callable[[str, str | None], None] | None = None

    def save(self, slot: str, match: Match, players: list[str], summary: str | None = None,
             undo: bool = False, table: dict[str, Any] | None = None) -> Path:
        target = self.path(slot)
        payload = json.dumps(envelope(match, players, summary, undo, table), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
        with self._cond:
            if self._closed:
                raise SaveError(slot, "the table store is closed", "save_why_cannot_write", detail="closed")
            self._waiting.pop(slot, None)         # (re-inserted last: slots are written oldest first)
            self._waiting[slot] = payload
            if self._thread is None:
                self._thread = threading.Thread(target=self._write_loop, name="cardtable-table-store",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()
        return target

    def _write_loop(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if not self._waiting:
                    return
                slot = next(iter(self._waiting))
                payload = self._waiting.pop(slot)
                self._writing.append(slot)
            failed_before = slot in self.errors
            try:
                atomic_write(self.path(slot), payload)
                self.errors.pop(slot, None)
                if failed_before:
                    self._tell(slot, None)
            except OSError as exc:
                self.errors[slot] = exc.strerror or str(exc)
                logger.error("cannot save table slot %s: %s", slot, self.errors[slot])
                if not failed_before:
                    self._tell(slot, self.errors[slot])
            finally:
                with self._cond:
                    self._writing.remove(slot)
                    self._cond.notify_all()

    def _tell(self, slot: str, error: str | None) -> None:
        if self.on_change is not None:
            try:
                self.on_change(slot, error)
            except Exception:                     # (a closed loop): the log has it
                logger.exception("cannot tell the table about its save")

    def flush(self, slot: str | None = None, timeout: float | None = 30.0) -> bool:
        """Wait until every save made so far is written, or only ``slot``'s, which then goes before
        the other slots' waiting writes (or ``timeout``); whether it is."""
        with self._cond:
            if slot is None:
                return self._cond.wait_for(lambda: not self._waiting and not self._writing, timeout)
            if slot in self._waiting:
                self._waiting = {slot: self._waiting.pop(slot), **self._waiting}
            return self._cond.wait_for(lambda: slot not in self._waiting and slot not in self._writing,
                                       timeout)

    def close(self) -> None:
        """Write what is waiting, then stop the writer thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()
