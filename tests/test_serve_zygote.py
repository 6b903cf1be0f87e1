"""The fork server (cardtable.serve.zygote): tables forked from a warm template.

A real server forks a real table (screen drawn, keys answered, exit status reaped, survives the
template's death). The fork itself is also checked with the template's table program replaced by a small
one that reports what it was given (``Zygote(command=...)``): its fds, RNG state, session, argv, cwd.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from cardtable.serve import package_root, zygote

pytest.importorskip("asyncssh")
pytest.importorskip("pyte")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl, pidfd, /proc: Linux")

from tests.test_serve_ssh import WAIT, _key, _wait_until, running_server, session

# The table program of the reporting template: what the table was given, as one JSON line on fd 1; then
# "crash" kills itself, "wait" reads its stdin to the end; the exit status is 7.
REPORTER = """
import json, os, random, signal, sys
from cardtable.serve import zygote

def table():
    fds = sorted(int(n) for n in os.listdir('/proc/self/fd'))
    print(json.dumps({'rand': random.getrandbits(64), 'fds': fds, 'argv': sys.argv, 'cwd': os.getcwd(),
                      'env': dict(os.environ), 'sid': os.getsid(0), 'pid': os.getpid(),
                      'ppid': os.getppid()}), flush=True)
    if sys.argv[1] == 'crash':
        os.kill(os.getpid(), signal.SIGSEGV)
    if sys.argv[1] == 'wait':
        sys.stdin.read()
        print('bye', flush=True)
    return 7

zygote.run_table = table
zygote.main()
"""


def _reporting_zygote() -> zygote.Zygote:
    return zygote.Zygote({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": package_root()},
                         [sys.executable, "-P", "-s", "-c", REPORTER])


async def _fork(z: zygote.Zygote, what: str, extra: dict[int, int] | None = None):
    """A reporting table: (the table, its report, the read end of its output, its stdin's write end)."""
    stdin_r, stdin_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        table = await z.spawn([what], {"PLAYER": what}, "/tmp", {0: stdin_r, 1: out_w, 2: out_w, **(extra or {})})
    finally:
        os.close(stdin_r)
        os.close(out_w)
    assert table is not None
    report = b""
    while not report.endswith(b"\n"):
        chunk = await asyncio.to_thread(os.read, out_r, 65536)
        assert chunk, "the table ended before its report"
        report += chunk
    return table, json.loads(report), out_r, stdin_w


@pytest.fixture
def subreaper():
    assert zygote.become_subreaper()
    yield
    zygote.become_subreaper(False)


async def test_the_fork_gives_exactly_what_was_asked_and_tables_share_no_rng_state(subreaper):
    z = _reporting_zygote()
    assert await z.start()
    try:
        extra_r, extra_w = os.pipe()
        first, one, out1, in1 = await _fork(z, "echo", {5: extra_w})
        second, two, out2, in2 = await _fork(z, "echo")
        os.close(extra_w)
        for table in (first, second):
            assert await asyncio.wait_for(table.wait(), WAIT) == 7 and table.returncode == 7
        assert one["rand"] != two["rand"]                  # reseeded in each table
        assert one["argv"] == ["cardtable", "echo"] and one["cwd"] == "/tmp"
        assert one["env"] == {"PLAYER": "echo"}
        assert one["sid"] == one["pid"] and one["ppid"] == os.getpid()   # session leader, our child
        # Its fds: 0–2, the extra one at the number asked, and only the one listing /proc/self/fd.
        assert len(one["fds"]) == 5 and {0, 1, 2, 5} < set(one["fds"])
        assert len(two["fds"]) == 4 and {0, 1, 2} < set(two["fds"])
        # Nobody else kept the extra pipe's write end (the template closed its copy): EOF now.
        assert os.read(extra_r, 10) == b""
        for fd in (extra_r, out1, out2, in1, in2):
            os.close(fd)
    finally:
        z.close()


async def test_a_crashing_table_touches_neither_the_template_nor_another_table(subreaper):
    z = _reporting_zygote()
    assert await z.start()
    try:
        waiting, _, out_w, in_w = await _fork(z, "wait")
        crashing, _, out_c, in_c = await _fork(z, "crash")
        assert await asyncio.wait_for(crashing.wait(), WAIT) == -signal.SIGSEGV
        assert z.ready and waiting.returncode is None
        after, report, out_a, in_a = await _fork(z, "echo")   # the template forks on
        assert await asyncio.wait_for(after.wait(), WAIT) == 7 and report["rand"]
        os.close(in_w)                                        # the waiting table still runs: it ends
        assert await asyncio.wait_for(waiting.wait(), WAIT) == 7
        assert b"bye" in await asyncio.to_thread(os.read, out_w, 100)
        for fd in (out_w, out_c, in_c, out_a, in_a):
            os.close(fd)
    finally:
        z.close()


async def test_a_table_outlives_its_template(subreaper):
    z = _reporting_zygote()
    assert await z.start()
    try:
        waiting, _, out_w, in_w = await _fork(z, "wait")
        os.kill(z.pid or 0, signal.SIGKILL)
        await _wait_until(lambda: z.pid is None, what="the template to die")
        assert await z.spawn(["echo"], {}, "/", {}) is None     # then the caller starts it plainly
        os.close(in_w)
        assert await asyncio.wait_for(waiting.wait(), WAIT) == 7
        os.close(out_w)
    finally:
        z.close()


def _ppid(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


async def test_the_server_forks_a_real_table_that_draws_answers_and_is_reaped(tmp_path):
    async with running_server(tmp_path) as server:
        assert server.zygote is not None and server.zygote.ready
        async with session(server, _key()) as term:
            await term.wait_for("Choose a game")
            [table] = server.sessions
            child = table.child
            assert isinstance(child, zygote.ForkedTable) and server.zygote.forked == 1
            assert _ppid(child.pid) == os.getpid() and os.getsid(child.pid) == child.pid
            assert os.path.realpath(f"/proc/{child.pid}/fd/0").startswith("/dev/pts/")
            assert os.readlink(f"/proc/{child.pid}/fd/3").startswith("socket:")   # the search pool
            await term.keys("s")                            # the settings open
            await term.wait_for("Save")
        await _wait_until(lambda: not server.sessions, what="the table to leave")
        assert child.returncode is not None
        assert not os.path.exists(f"/proc/{child.pid}")    # reaped, no zombie


async def test_when_the_template_dies_tables_start_the_plain_way_and_it_comes_back(tmp_path, monkeypatch):
    monkeypatch.setattr(zygote, "RESTART_PAUSE", 0.0)
    async with running_server(tmp_path) as server:
        assert server.zygote is not None
        async with session(server, _key()) as first:
            await first.wait_for("Choose a game")
            os.kill(server.zygote.pid or 0, signal.SIGKILL)
            await _wait_until(lambda: server.zygote.pid is None, what="the template to die")
            async with session(server, _key()) as second:     # started plainly meanwhile
                await second.wait_for("Choose a game")
                assert server.zygote.fallbacks == 1
                await first.keys("s")                         # the forked table lives on
                await first.wait_for("Save")
        await _wait_until(lambda: server.zygote.ready, what="the template's restart")
        await _wait_until(lambda: not server.sessions, what="the first two tables to leave")
        assert server.zygote.restarts == 1
        async with session(server, _key()) as third:
            await third.wait_for("Choose a game")
            [table] = server.sessions
            assert isinstance(table.child, zygote.ForkedTable) and server.zygote.forked == 2


async def test_plain_spawn_still_passes_the_extra_fds(tmp_path):
    async with running_server(tmp_path) as server:
        assert server.zygote is not None
        server.zygote.close()                               # down: the plain way, same fds mapping
        server.zygote.restart_soon = lambda: None           # and kept down for this test
        async with session(server, _key()) as term:
            await term.wait_for("Choose a game")
            [table] = server.sessions
            assert not isinstance(table.child, zygote.ForkedTable)
            assert os.readlink(f"/proc/{table.child.pid}/fd/3").startswith("socket:")


async def test_serve_web_forks_its_tabs_from_its_template(tmp_path):
    aiohttp = pytest.importorskip("aiohttp")
    pytest.importorskip("textual_serve")
    from tests.test_serve_web_guard import _open_tab
    from tests.web_helpers import children_of, web_server

    home = tmp_path / "home"
    with web_server(home) as served:
        async with aiohttp.ClientSession() as session:
            ws, tab = await _open_tab(session, served)        # it drew its screen
            assert Path(f"/proc/{tab}/comm").read_text().strip() == "cardtable-table"
            assert os.readlink(f"/proc/{tab}/fd/3").startswith("socket:")      # the search pool
            assert len(children_of(served.process.pid)) > 1                     # the template, the pool
            await ws.close()
