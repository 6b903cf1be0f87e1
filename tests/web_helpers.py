"""Starting ``cardtable serve web`` for the tests, and finding the processes it leaves (loopback only)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cardtable.serve import package_root

WAIT = 40.0
URL = re.compile(r"serving in the browser at (http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+))")


@dataclass
class Served:
    process: subprocess.Popen
    url: str            # the page's address, with the token
    port: int
    token: str
    home: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, token: str | None = None, query: str = "width=80&height=24") -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{self.token if token is None else token}?{query}"


def processes_of(home: Path) -> list[int]:
    """The pids of every process whose environment has ``CARDTABLE_HOME=home`` (the server, its tabs and
    their search workers), this test's own process excluded."""
    wanted = f"CARDTABLE_HOME={home}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state != "Z" and wanted in environ.split(b"\0"):
            found.append(int(entry))
    return found


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def tabs_of(pid: int) -> list[int]:
    """The server's children that are tabs: its others (the table template, the search pool's
    workers; serve/zygote.py, serve/searchpool.py) have /dev/null for their stdin."""
    tabs = []
    for child in children_of(pid):
        try:
            if os.readlink(f"/proc/{child}/fd/0") != os.devnull:
                tabs.append(child)
        except OSError:
            pass
    return tabs


def wait_until(predicate, seconds: float = WAIT, step: float = 0.1) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextmanager
def web_server(home: Path, *options: str, cwd: Path | None = None, python_flags: tuple[str, ...] = ()):
    """``cardtable serve web --port 0 [options]`` with its files in ``home`` (run from ``cwd``, by
    ``python *python_flags``); every process left is killed after."""
    home.mkdir(parents=True, exist_ok=True)
    log = home / "serve-web.log"
    env = {**os.environ, "CARDTABLE_HOME": str(home), "PYTHONPATH": package_root(), "LANG": "C.UTF-8",
           "PYTHONUNBUFFERED": "1"}
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, *python_flags, "-m", "cardtable", "serve", "web", "--port", "0",
                                    *options], env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True, cwd=cwd)
    try:
        found = None

        def started() -> bool:
            nonlocal found
            found = URL.search(log.read_text(errors="replace"))
            return found is not None or process.poll() is not None

        wait_until(started)
        if found is None:
            raise AssertionError(f"serve web did not start: {log.read_text(errors='replace')}")
        yield Served(process, found.group(1), int(found.group(2)), found.group(3), home)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for pid in processes_of(home):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
