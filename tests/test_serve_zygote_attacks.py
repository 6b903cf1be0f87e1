"""The fork server attacked from a table it forked (issue 34 hardening).

A table is untrusted: assume its player runs code in it. The template's table program is replaced by
small ones that do what such a player could (``Zygote(command=...)``, as in tests/test_serve_zygote.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from cardtable.serve import package_root, zygote

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl, pidfd, /proc: Linux")

WAIT = 30.0

# A table that reports what it inherited (every random.Random's state, its fds' targets), and, with
# "orphans", leaves behind children that made themselves session leaders and exited.
ATTACKER = """
import gc, hashlib, json, os, random, sys, time
from cardtable.serve import zygote

def table():
    gc.unfreeze()                  # the template's objects too
    states = sorted(hashlib.sha256(repr(o.getstate()).encode()).hexdigest() for o in gc.get_objects()
                    if type(o) is random.Random)
    targets = []
    for n in os.listdir('/proc/self/fd'):
        try:
            targets.append(os.readlink(f'/proc/self/fd/{n}'))
        except OSError:             # the listing's own fd, closed by now
            pass
    if sys.argv[1] == 'orphans':
        for _ in range(3):
            if os.fork() == 0:
                os.setsid()
                os._exit(0)
        time.sleep(0.2)             # they are zombies of this table, then of the server
    print(json.dumps({'states': states, 'targets': targets, 'pid': os.getpid()}), flush=True)
    return 0

zygote.run_table = table
zygote.main()
"""


def _attacker_zygote() -> zygote.Zygote:
    return zygote.Zygote({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": package_root()},
                         [sys.executable, "-P", "-s", "-c", ATTACKER])


async def _run(z: zygote.Zygote, what: str) -> dict:
    out_r, out_w = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        table = await z.spawn([what], {}, "/", {0: null, 1: out_w, 2: out_w})
    finally:
        os.close(out_w)
        os.close(null)
    assert table is not None
    report = b""
    while not report.endswith(b"\n"):
        chunk = await asyncio.to_thread(os.read, out_r, 65536)
        assert chunk, "the table ended before its report"
        report += chunk
    assert await asyncio.wait_for(table.wait(), WAIT) == 0
    os.close(out_r)
    return json.loads(report)


@pytest.fixture
def subreaper():
    assert zygote.become_subreaper()
    yield
    zygote.become_subreaper(False)


def _zombie_children() -> list[int]:
    zombies = []
    for pid in zygote._children():
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    zombies.append(pid)
        except OSError:
            pass
    return zombies


async def test_no_random_state_and_no_fd_of_another_is_inherited(subreaper):
    """Two tables: no ``random.Random`` with the same state (the template's objects included), and
    nothing open but what each was given (here /dev/null and one pipe; no socket at all)."""
    z = _attacker_zygote()
    assert await z.start()
    try:
        one, two = await _run(z, "echo"), await _run(z, "echo")
    finally:
        z.close()
    assert one["states"] and not set(one["states"]) & set(two["states"])
    for report in (one, two):
        assert not [t for t in report["targets"] if t.startswith("socket:")]
        assert {t for t in report["targets"] if not t.startswith("pipe:")} == {os.devnull}


async def test_orphans_are_reaped_but_never_a_child_the_server_waits_for(subreaper):
    """``reap_orphans`` reaps what a table left behind in its session, never a child of the server's
    that leads its own session (a table, the template: someone waits for its exit status). It read the
    terminal's number for the session, 0 without a terminal, and so reaped every zombie child."""
    import subprocess

    own = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"], start_new_session=True)  # noqa: ASYNC220
    z = _attacker_zygote()
    assert await z.start()
    try:
        await _run(z, "orphans")
        deadline = asyncio.get_running_loop().time() + WAIT
        while own.pid not in _zombie_children() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        zygote.reap_orphans()
        assert own.wait(WAIT) == 3  # noqa: ASYNC101  its status was still ours to read
        assert z.ready
    finally:
        z.close()


async def test_a_stopped_template_is_replaced_without_waiting_out_the_timeout(subreaper, monkeypatch):
    """A table may SIGSTOP its template (same user). A spawn then gives up at once (the caller starts
    that table the plain way) instead of holding every connection for REPLY_TIMEOUT, and a new
    template is started."""
    import signal

    monkeypatch.setattr(zygote, "REPLY_TIMEOUT", 600.0)
    monkeypatch.setattr(zygote, "RESTART_PAUSE", 0.0)
    z = _attacker_zygote()
    assert await z.start()
    try:
        stopped = z.pid
        assert stopped is not None
        os.kill(stopped, signal.SIGSTOP)
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            assert await asyncio.wait_for(z.spawn(["echo"], {}, "/", {0: null}), WAIT) is None
        finally:
            os.close(null)
        deadline = asyncio.get_running_loop().time() + WAIT
        while not (z.ready and z.pid != stopped) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert z.ready and z.pid != stopped
        assert (await _run(z, "echo"))["states"]       # and it forks again
    finally:
        z.close()
