"""A fork server for the tables (issue 34): tables that start warm.

A fresh ``python -P -s`` that imports Textual and cardtable costs a table over a second of CPU and some
50 MB before its first frame. The server instead starts one *template* process at start-up (this module,
``python -P -s -m cardtable.serve.zygote SERVER_PID FD``): it imports Textual, the app and the games, loads
the locale catalogues and then holds no player's state at all. For each table the server sends it one
request over a ``SOCK_SEQPACKET`` socket pair private to the two of them: a JSON header (argv, env, cwd,
the child's fd numbers) and, with ``SCM_RIGHTS``, the file descriptors themselves (the pty slave, the
search pool's socket, a hub socket...). The template forks twice and answers with the table's pid:

- the first child forks the table and leaves at once; the server is a *child subreaper*
  (``PR_SET_CHILD_SUBREAPER``), so the table is re-parented to the server, which reaps it and learns its
  exit status (:class:`ForkedTable`, a ``pidfd``), as for a table it had started itself. A template that
  dies takes no table with it.
- the table becomes a session leader with its pty as controlling terminal, has exactly the fds of its
  request at the numbers asked (every other fd is closed, the template's socket included), takes its
  env, cwd and argv, asks for SIGHUP when the server dies (``PR_SET_PDEATHSIG``, set once it is the
  server's child), reseeds ``random`` (no RNG state is shared between two tables: cardtable's own seeds
  come from ``secrets``), rebuilds ``sys.stdin``/``stdout``/``stderr`` on its terminal, and runs
  ``cardtable ARGS`` as ``serve/table.py`` does. ``-P -s`` hold for it as for the template.

The server's side is :class:`Zygote`: :meth:`Zygote.spawn` is the one call (``argv, env, cwd, fds``, the
``fds`` a mapping *fd number in the table → fd in the server*, which the server may close once the call
returns). When the template is down, :func:`spawn_table` starts the table the plain way (a fresh
``python -m cardtable.serve.table``, the same fds mapping) and the template is restarted in the
background. Shared in the template's pages: code and imported modules (copy-on-write); not shared:
anything a table computes. What the forked tables do share is the template's ``hash()`` seed
(``PYTHONHASHSEED`` is drawn once per interpreter).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36
MAX_MESSAGE = 256 * 1024       # one request's header; argv and env are small
MAX_FDS = 16                   # fds one request may carry
REPLY_TIMEOUT = 10.0           # seconds the server waits for a pid before it calls the template broken
STOPPED_TICK = 0.1             # how often, while it waits, it looks whether the template is stopped
RESTART_PAUSE = 5.0            # seconds between two restarts of a template that keeps dying
REPARENT_WAIT = 2.0            # seconds a new table waits to become the server's child
# Not imported in the template: the servers and the tools (a table never runs them).
WARM_SKIP = ("cardtable.serve", "cardtable.bench", "cardtable.chaos", "cardtable.__main__")
FD_MAP_VARIABLE = "CARDTABLE_FD_MAP"   # plain spawn: "3=17,4=18" (table fd = fd passed), see serve/table


def _prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):       # pragma: no cover - not Linux
        return False


def become_subreaper(on: bool = True) -> bool:
    """Make this process (the server) the reaper of its orphaned descendants: the forked tables
    (``on=False``: no longer, once the server has stopped; an embedding process, such as a test run,
    gets its usual semantics back)."""
    return sys.platform.startswith("linux") and _prctl(PR_SET_CHILD_SUBREAPER, int(on))


# ---------------------------------------------------------------- the template's side
def warm_up() -> None:
    """Everything a table needs before its first frame that is the same for every table: every module
    of cardtable and of Textual's widgets imported (Textual imports its widgets lazily, on first use),
    the games registered, the locale catalogues parsed."""
    import importlib
    import pkgutil

    import cardtable
    from cardtable import games, i18n

    for module in pkgutil.walk_packages(cardtable.__path__, "cardtable."):
        if module.name.startswith(WARM_SKIP):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(module.name)
    games.games()
    i18n.load_catalogue_files()
    import textual.widgets

    for name in getattr(textual.widgets, "__all__", ()):
        with contextlib.suppress(Exception):          # a widget with an optional dependency
            getattr(textual.widgets, name)
    import gc

    gc.collect()
    gc.freeze()     # the template's objects are never scanned by a table's collector: their pages stay shared


def _receive(sock: socket.socket) -> tuple[dict, list[int]] | None:
    """One request, or None when the server has closed its end."""
    fds = array.array("i")
    data, ancillary, flags, _ = sock.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(MAX_FDS * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None
    if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
        for fd in fds:
            os.close(fd)
        return {}, []
    try:
        request = json.loads(data)
    except ValueError:
        request = {}
    return (request if isinstance(request, dict) else {}), list(fds)


def _valid(request: dict, fds: list[int]) -> bool:
    argv, env, cwd, numbers = (request.get(k) for k in ("argv", "env", "cwd", "fds"))
    return (isinstance(argv, list) and all(isinstance(a, str) for a in argv)
            and isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
            and isinstance(cwd, str) and isinstance(numbers, list) and len(numbers) == len(fds)
            and all(isinstance(n, int) and 0 <= n < 1024 for n in numbers) and len(set(numbers)) == len(numbers))


def serve(sock: socket.socket, server_pid: int) -> dict | None:
    """The template's loop: fork a table per request. Returns in the table only (with what it is to
    run: its fds already in place); in the template it returns None once the server has gone."""
    while True:
        received = _receive(sock)
        if received is None:
            return None
        request, fds = received
        if not _valid(request, fds):
            for fd in fds:
                os.close(fd)
            with contextlib.suppress(OSError):
                sock.send(b'{"error": "bad request"}')
            continue
        report_r = report_w = -1
        try:
            report_r, report_w = os.pipe()
            pid = os.fork()
        except OSError:                                # out of processes or fds: this table only
            for fd in (*fds, report_r, report_w):
                if fd >= 0:
                    os.close(fd)
            with contextlib.suppress(OSError):
                sock.send(b'{"error": "the fork failed"}')
            continue
        if pid == 0:                                   # the first child
            os.close(report_r)
            try:
                table = os.fork()
            except OSError:
                os._exit(1)
            if table:
                os.write(report_w, str(table).encode())
                os._exit(0)
            os.close(report_w)                         # the table (re-parented when the first child ends)
            sock.detach()                              # closed by fd below; the object must not close it again
            _become_table(request, fds, server_pid)
            return request
        os.close(report_w)
        for fd in fds:                                 # the table's now: the template must not keep a pty open
            os.close(fd)
        with os.fdopen(report_r, "rb") as report:
            text = report.read()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        reply = {"pid": int(text)} if text.isdigit() else {"error": "the fork failed"}
        try:
            sock.send(json.dumps(reply).encode())
        except OSError:
            return None


def _become_table(request: dict, fds: list[int], server_pid: int) -> None:
    """In the new table: its session, terminal, fds, environment and ties to the server."""
    numbers: list[int] = request["fds"]
    # Move what was received out of the way of the numbers asked for, then into place.
    lowest = max([2, *numbers]) + 1
    high = [fcntl_dupfd(fd, lowest) for fd in fds]
    for number, fd in zip(numbers, high, strict=True):
        os.dup2(fd, number, inheritable=number <= 2)
    keep = set(numbers)
    for fd in _open_fds():
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)
    os.setsid()
    _name_process(b"cardtable-table")
    if 0 in keep and os.isatty(0):
        from cardtable.serve.table import take_terminal

        take_terminal()
    deadline = time.monotonic() + REPARENT_WAIT
    while os.getppid() != server_pid and time.monotonic() < deadline:
        time.sleep(0.001)
    _prctl(PR_SET_PDEATHSIG, int(signal.SIGHUP))
    if os.getppid() != server_pid:                     # the server is gone (or never was ours)
        os._exit(1)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import locale
    import random

    random.seed()                                      # from os.urandom: this table's own state
    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    _open_standard_streams(keep)
    sys.argv = ["cardtable", *request["argv"]]


def _name_process(name: bytes) -> None:
    """The name ``ps``/``top`` show (a forked table's command line is still its template's)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(name[:15]), 0, 0, 0)
    except (OSError, AttributeError):               # pragma: no cover - not Linux
        pass


def fcntl_dupfd(fd: int, lowest: int) -> int:
    import fcntl

    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest)
    os.close(fd)
    return new


def _open_fds() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:                                    # pragma: no cover - no /proc
        return list(range(3, 1024 + MAX_FDS * 2))


def _open_standard_streams(keep: set[int]) -> None:
    """New ``sys.stdin``/``stdout``/``stderr`` on the table's fds 0–2 (the template's were /dev/null:
    their buffering was chosen for a file, not a terminal)."""
    import io

    encoding = os.environ.get("PYTHONIOENCODING", "utf-8").split(":")[0] or "utf-8"
    for number, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if number not in keep:
            continue
        tty = os.isatty(number)
        raw = io.FileIO(number, "rb" if number == 0 else "wb", closefd=False)
        buffered: Any = io.BufferedReader(raw) if number == 0 else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(buffered, encoding=encoding,
                                  errors="strict" if number < 2 else "backslashreplace",
                                  line_buffering=tty or number == 2)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def run_table() -> int:
    """The forked table's program: ``cardtable ARGS`` (``sys.argv`` set by the template)."""
    from cardtable import cli

    return cli.main(sys.argv[1:])


def main() -> None:
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or not sys.argv[2].isdigit():
        raise SystemExit("usage: python -m cardtable.serve.zygote SERVER_PID FD")
    server_pid, fd = int(sys.argv[1]), int(sys.argv[2])
    _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))     # it holds nothing worth saving
    if os.getppid() != server_pid:
        raise SystemExit(1)
    for name in ("SIGINT", "SIGHUP"):                  # the server's terminal is not the template's
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    sock = socket.socket(fileno=fd)
    warm_up()
    sock.send(b'{"ready": true}')
    if serve(sock, server_pid) is None:
        return
    raise SystemExit(run_table())


# ---------------------------------------------------------------- the server's side
class ForkedTable:
    """A table the template forked, now the server's child: the bits of ``asyncio.subprocess.Process``
    the servers use (``pid``, ``returncode``, ``wait()``), reaped through a pidfd."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        try:
            self._pidfd = os.pidfd_open(pid)
        except OSError:                                # pragma: no cover - already reaped by someone
            self._pidfd = -1
            self._reap()
            return
        asyncio.get_running_loop().add_reader(self._pidfd, self._reap)

    def _reap(self) -> None:
        try:
            _, status = os.waitpid(self.pid, os.WNOHANG)
            if _ == 0:
                return                                 # not ended yet (a spurious wake-up)
            code = os.waitstatus_to_exitcode(status)
        except ChildProcessError:                      # not ours to reap after all
            code = 255
        self.returncode = code
        if self._pidfd >= 0:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = -1
        if not self._done.done():
            self._done.set_result(code)
        asyncio.get_running_loop().call_later(1.0, reap_orphans)   # its workers end a moment later

    async def wait(self) -> int:
        return await asyncio.shield(self._done)


def _stopped(pid: int) -> bool:
    """Whether ``pid`` is stopped (a SIGSTOP) or traced."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


def reap_orphans() -> int:
    """Reap the zombies the tables left to this subreaper: processes of a table's session that outlived
    it (a search worker of a table that was killed), never a child someone else waits for (those lead
    their session, or share the server's). Returns how many were reaped."""
    mine = os.getsid(0)
    reaped = 0
    for pid in _children():
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        state, session = fields[0], int(fields[3])     # (fields[4] is the terminal)
        if state == "Z" and session not in (pid, mine):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
                reaped += 1
    return reaped


def _children() -> list[int]:
    pids: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as listing:
                pids += [int(pid) for pid in listing.read().split()]
    return pids


class Zygote:
    """The server's handle on its template process: started by :meth:`start`, asked by :meth:`spawn`,
    restarted when it has died (at most once every RESTART_PAUSE seconds)."""

    def __init__(self, env: Mapping[str, str], command: list[str] | None = None) -> None:
        self.env = dict(env)            # the template's environment: what every table shares
        # The template's command, to which SERVER_PID and FD are added (tests run it with another
        # table program: ``python -P -s -c`` replacing ``run_table``).
        self.command = command or [sys.executable, "-P", "-s", "-m", "cardtable.serve.zygote"]
        self.process: subprocess.Popen | None = None
        self.sock: socket.socket | None = None
        self.forked = 0                 # tables forked
        self.fallbacks = 0              # tables started the plain way because the template was down
        self.restarts = 0
        self._lock = asyncio.Lock()
        self._starting: asyncio.Task | None = None
        self._started_at = -RESTART_PAUSE

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.poll() is None else None

    @property
    def ready(self) -> bool:
        return self.sock is not None and self.pid is not None

    async def start(self) -> bool:
        """Start the template and wait until it has warmed up; False if it could not."""
        self._started_at = time.monotonic()
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            # Forked from the loop's own thread (not a thread of the pool): its parent-death signal
            # follows the thread that forked it.
            self.process = subprocess.Popen(  # noqa: ASYNC220
                [*self.command, str(os.getpid()), str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), env=self.env, cwd="/", start_new_session=True)
        except OSError:
            mine.close()
            return False
        finally:
            theirs.close()
        mine.setblocking(False)
        try:
            reply = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(mine, 64), 120.0)
        except (OSError, TimeoutError):
            reply = b""
        if b"ready" not in reply:
            mine.close()
            self._kill()
            return False
        self.sock = mine
        return True

    def restart_soon(self) -> None:
        """Start a new template in the background (not more than once every RESTART_PAUSE seconds)."""
        if self._starting is not None and not self._starting.done():
            return
        if time.monotonic() - self._started_at < RESTART_PAUSE:
            return
        self.restarts += 1
        self._starting = asyncio.ensure_future(self.start())

    async def spawn(self, argv: list[str], env: Mapping[str, str], cwd: str,
                    fds: Mapping[int, int]) -> ForkedTable | None:
        """A table forked from the template: ``cardtable ARGV`` with ``env`` and ``cwd``, holding only
        ``fds`` (fd number in the table → an fd of the server's, which stays the server's to close).
        None when the template is down or does not answer (then it is restarted in the background)."""
        async with self._lock:
            if not self.ready:
                self.restart_soon()
                return None
            assert self.sock is not None
            header = json.dumps({"argv": list(argv), "env": dict(env), "cwd": cwd,
                                 "fds": list(fds)}).encode()
            loop = asyncio.get_running_loop()
            try:
                self.sock.sendmsg([header], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                              array.array("i", list(fds.values())))])
                reply = await self._reply(loop.sock_recv(self.sock, 4096))
            except (OSError, TimeoutError):
                reply = b""
            try:
                pid = json.loads(reply).get("pid") if reply else None
            except (ValueError, AttributeError):
                pid = None
            if not isinstance(pid, int):
                if not reply:                          # gone or stuck: another one is started
                    self.close()
                    self.restart_soon()
                return None
            self.forked += 1
            return ForkedTable(pid)

    async def _reply(self, receiving: Any) -> bytes:
        """The template's answer; b"" after REPLY_TIMEOUT, or at once if the template is stopped (a
        SIGSTOP from a table: same user) rather than make every connection wait out the timeout."""
        reading = asyncio.ensure_future(receiving)
        deadline = time.monotonic() + REPLY_TIMEOUT
        try:
            while time.monotonic() < deadline:
                done, _ = await asyncio.wait({reading}, timeout=STOPPED_TICK)
                if done:
                    return reading.result()
                if self.pid is None or _stopped(self.pid):
                    return b""
            return b""
        finally:
            reading.cancel()

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                process.wait(2.0)

    def close(self) -> None:
        """End the template (the tables it forked are not its: they stay)."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self._starting is not None:
            self._starting.cancel()
        self._kill()


async def spawn_table(zygote: Zygote | None, argv: list[str], env: Mapping[str, str], cwd: str,
                      fds: Mapping[int, int]) -> Any:
    """Start one player's table: forked by ``zygote`` when it is up, else the plain way (a fresh
    ``python -P -s -m cardtable.serve.table SERVER_PID ARGV``). Both give the table exactly ``fds``
    (table fd → server fd: 0–2 its terminal, others e.g. the search pool's or a hub's socket) and
    return an object with ``pid``, ``returncode`` and ``wait()``; both make the table a session leader
    whose controlling terminal is its fd 0, tied to this server by a parent-death SIGHUP."""
    if zygote is not None:
        table = await zygote.spawn(argv, env, cwd, fds)
        if table is not None:
            return table
        zygote.fallbacks += 1
    std = {n: fds[n] for n in (0, 1, 2) if n in fds}
    extra = {n: fd for n, fd in fds.items() if n > 2}
    plain_env = dict(env)
    if extra:
        plain_env[FD_MAP_VARIABLE] = ",".join(f"{n}={fd}" for n, fd in extra.items())
    return await asyncio.create_subprocess_exec(
        sys.executable, "-P", "-s", "-m", "cardtable.serve.table", str(os.getpid()), *argv,
        stdin=std.get(0, subprocess.DEVNULL), stdout=std.get(1, subprocess.DEVNULL),
        stderr=std.get(2, subprocess.DEVNULL), pass_fds=tuple(extra.values()),
        env=plain_env, cwd=cwd, start_new_session=True)


if __name__ == "__main__":
    main()
