"""A terminal that goes away without a SIGHUP is a hang-up too (issue 28).

When the table's input is not its controlling terminal (a pty whose server crashed, a supervisor, a
test harness, a browser tab's pipe when ``serve web`` dies) no signal comes when the other end closes:
Textual's input thread then reads EOF (or fails with EIO) in a loop, for ever, at a quarter of a core.

:func:`watched_driver` wraps the driver Textual picked (the terminal's or the web's) so that, once the
application mode has started, a daemon thread polls the input for a hang-up only (``POLLHUP`` or
``POLLERR``; never ``POLLIN``, so no key is taken from the driver) and then calls the app's hang-up
handler on the event loop: the same path as SIGHUP (save, end the search worker, leave). A backstop
ends the process for sure if the loop does not manage it. The headless test driver is never wrapped.
"""

from __future__ import annotations

import asyncio
import os
import select
import sys
import threading
from collections.abc import Callable

POLL_MS = 500          # how often the watcher looks whether the app has stopped it
BACKSTOP = 4.5         # seconds after a hang-up by which the process ends, whatever the loop does
HANGUP = getattr(select, "POLLHUP", 0) | getattr(select, "POLLERR", 0)
INVALID = getattr(select, "POLLNVAL", 0)


def watch_input(fd: int, on_gone: Callable[[], None], stop: threading.Event) -> None:
    """Block until ``fd`` hangs up (then call ``on_gone`` once) or ``stop`` is set. An fd that cannot be
    polled (closed, or a platform whose poll refuses terminals) is simply not watched."""
    poller = select.poll()
    poller.register(fd, HANGUP)
    while not stop.is_set():
        try:
            events = poller.poll(POLL_MS)
        except OSError:
            return
        for _fd, mask in events:
            if mask & INVALID:
                return
            if mask & HANGUP:
                on_gone()
                return


def exit_later(seconds: float) -> None:
    timer = threading.Timer(seconds, os._exit, args=(0,))
    timer.daemon = True
    timer.start()


def watched_driver(driver_class: type, on_hangup: Callable[[], None]) -> type:
    """A subclass of ``driver_class`` that treats a hang-up of its input as SIGHUP (``on_hangup`` runs
    on the event loop)."""
    if not hasattr(select, "poll"):
        return driver_class

    class TerminalWatchedDriver(driver_class):  # type: ignore[misc, valid-type]  # a base known at run time
        _watch_stop: threading.Event | None = None

        def start_application_mode(self) -> None:
            super().start_application_mode()
            if self._watch_stop is not None or sys.__stdin__ is None:
                return
            loop = asyncio.get_running_loop()
            self._watch_stop = threading.Event()

            def gone() -> None:
                exit_later(BACKSTOP)
                try:
                    loop.call_soon_threadsafe(on_hangup)
                except RuntimeError:        # the loop has already closed: the app is leaving anyway
                    pass

            try:
                fd = sys.__stdin__.fileno()
            except (OSError, ValueError):
                return
            threading.Thread(target=watch_input, args=(fd, gone, self._watch_stop),
                             name="cardtable-hangup-watch", daemon=True).start()

        def stop_application_mode(self) -> None:
            if self._watch_stop is not None:
                self._watch_stop.set()
                self._watch_stop = None
            super().stop_application_mode()

    TerminalWatchedDriver.__name__ = f"Watched{driver_class.__name__}"
    TerminalWatchedDriver.__qualname__ = TerminalWatchedDriver.__name__
    return TerminalWatchedDriver

