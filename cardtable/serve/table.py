"""How ``cardtable serve ssh`` starts one player's table: ``python -P -s -m cardtable.serve.table PID ARGS``.

Before it runs ``cardtable ARGS`` (in this same process) it ties the table to its server, so that no
table outlives the server however the server ends:

- a parent-death signal (Linux ``prctl(PR_SET_PDEATHSIG, SIGHUP)``): when the server dies, even by
  ``kill -9``, the table gets SIGHUP, which saves the game and ends it;
- its pseudo-terminal becomes the controlling terminal of its session (``TIOCSCTTY``), so the kernel
  also sends SIGHUP to the whole process group when the server's end of the terminal closes.

``-P`` and ``-s`` keep the player's directory (the working directory) and any user site directory off
``sys.path``: nothing a player's files contain is ever importable.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def tie_to_server(server_pid: int) -> bool:
    """Ask for SIGHUP when the server dies; False if it is already gone (then there is no one to play)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGHUP, 0, 0, 0)
    except (OSError, AttributeError):       # pragma: no cover - not Linux: the process group still helps
        pass
    return os.getppid() == server_pid


def take_terminal() -> None:
    """Make the pty on stdin this session's controlling terminal (the table runs in a new session)."""
    try:
        import fcntl
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except (OSError, AttributeError):       # pragma: no cover - not a tty, or no such ioctl here
        pass


def place_fds(mapping: str) -> None:
    """Put the fds the server passed at the numbers it asked for (``"3=17,4=18"``: fd 17 becomes 3),
    as a table forked by the template gets them (serve/zygote.py); the originals are closed."""
    pairs = [tuple(int(n) for n in item.split("=", 1)) for item in mapping.split(",") if item]
    lowest = max([2, *(number for number, _ in pairs)]) + 1
    import fcntl

    moved = [(number, fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest)) for number, fd in pairs]
    for _, fd in pairs:
        os.close(fd)
    for number, fd in moved:
        os.dup2(fd, number, inheritable=False)
        os.close(fd)


def main() -> None:
    if len(sys.argv) < 2 or not sys.argv[1].isdigit():
        raise SystemExit("usage: python -m cardtable.serve.table SERVER_PID [cardtable arguments]")
    if not tie_to_server(int(sys.argv[1])):
        raise SystemExit(1)
    take_terminal()
    mapping = os.environ.pop("CARDTABLE_FD_MAP", "")
    if mapping:
        place_fds(mapping)
    del sys.argv[1]
    import runpy

    runpy.run_module("cardtable", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
