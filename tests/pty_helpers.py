"""Running cardtable in a real pseudo-terminal for the tests of signals, exits and type-ahead."""

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time


def spawn(args, home, env=None, size=(24, 80)):
    """Start ``python -m cardtable ARGS`` on a new pty in its own session; returns (process, master)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    full_env = {**os.environ, "CARDTABLE_HOME": str(home), "TERM": "xterm-256color", "LANG": "en_US.UTF-8",
                **(env or {})}
    full_env.pop("CI", None)
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=full_env, start_new_session=True, close_fds=True)
    os.close(slave)
    return proc, master


def pump(master, seconds, into=None):
    """Read the screen output for a while (kept in ``into`` if given) so the app never blocks."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.02)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if into is not None:
                into.append(data)


def wait_exit(proc, master, seconds, into=None):
    """Pump until the process ends or ``seconds`` pass; returns its exit code or None."""
    end = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < end:
        pump(master, 0.05, into)
    pump(master, 0.1, into)
    return proc.poll()


def plain(chunks):
    """The output without escape sequences."""
    text = b"".join(chunks).decode("utf-8", "replace")
    return re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])", "", text)
