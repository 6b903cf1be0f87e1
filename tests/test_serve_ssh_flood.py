"""``cardtable serve ssh`` under a flood of input from one client: nobody else waits for it.

One client types far more than its table reads; meanwhile another client's table keeps answering its
keys, a new connection gets the server's banner at once, and when the flooding client leaves its table
ends. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh")
pytest.importorskip("pyte")

from cardtable.serve import ssh as serve_ssh
from tests.test_serve_ssh import WAIT, Terminal, _key, _wait_until, running_server, session

BANNER_LIMIT = 1.0       # the brief's bound; the frozen server took 10-100 s


async def banner_time(port: int) -> float:
    """Seconds from connecting to the server's SSH version line."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        line = await asyncio.wait_for(reader.readline(), WAIT)
    finally:
        writer.close()
    assert line.startswith(b"SSH-2.0-")
    return time.monotonic() - started


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:          # a zombie has ended: only its parent has not collected it yet
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    except OSError:
        return False


async def test_a_table_that_reads_nothing_caps_its_input_and_holds_up_no_one(tmp_path):
    """The flooding table is stopped (SIGSTOP), so nothing reads its terminal: its queue fills to the
    cap, the channel pauses, and the rest of the server carries on."""
    flooder_key = _key()
    async with running_server(tmp_path) as server, session(server, flooder_key) as flooder:
        await flooder.wait_for("Choose a game")
        [table] = server.sessions
        os.killpg(table.child.pid, signal.SIGSTOP)
        flooder.process.stdin.write(b"x" * (1024 * 1024))
        await _wait_until(lambda: not table._room.is_set(), what="the input queue to fill")
        async with session(server, _key()) as other:
            await other.wait_for("Choose a game")
            for _ in range(10):         # the queue stays capped while the client keeps sending
                assert len(table.pending) <= serve_ssh.INPUT_CAP + 4096
                await asyncio.sleep(0.05)
            await other.keys("r")
            await other.wait_for("Rules of")
            assert await banner_time(server.port) < BANNER_LIMIT
        pid = table.child.pid
        # The client goes (a paused channel cannot send its close: its data is still queued, so the
        # client drops the connection, as ssh does when it is killed).
        flooder.process.get_extra_info("connection").close()
        await asyncio.wait_for(flooder.closed.wait(), WAIT)
        await _wait_until(lambda: table._hangup is not None, what="the hang-up")
        assert not table.pending                        # its queued input was dropped
        # Gone at once: its queued input dropped, SIGHUP and then (it is stopped) SIGKILL.
        await _wait_until(lambda: not server.sessions and not _alive(pid), timeout=serve_ssh.EXIT_GRACE + WAIT,
                          what="the flooding table to end")


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as children:
            found += [int(child) for child in children.read().split()]
    return found


def _tables(pid: int) -> list[int]:
    """The server's children that are tables (on a pty); its others are the table template and the
    search pool's workers (serve/zygote.py, serve/searchpool.py)."""
    tables = []
    for child in _children(pid):
        try:
            if os.readlink(f"/proc/{child}/fd/0").startswith("/dev/pts/"):
                tables.append(child)
        except OSError:
            pass
    return tables


async def test_a_flood_into_a_live_table_stalls_no_one_and_sigterm_is_prompt(tmp_path):
    """The real command: 256 KiB typed into a running table; another player's key reaches their
    screen, a new connection gets its banner, the flooder's table ends after it leaves, and the server
    stops on SIGTERM."""
    from cardtable.serve import package_root

    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardtable", "serve", "ssh", "--port", "0",
        env={**os.environ, "PYTHONPATH": package_root(), "CARDTABLE_HOME": str(tmp_path)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = (await asyncio.wait_for(server.stdout.readline(), WAIT)).decode()
        port = int(first.split("127.0.0.1:")[1].split()[0])
        options = {"username": "player", "known_hosts": None, "agent_path": None}
        async with asyncssh.connect("127.0.0.1", port, client_keys=[_key()], **options) as flood_conn, \
                asyncssh.connect("127.0.0.1", port, client_keys=[_key()], **options) as other_conn:
            flood_process = await flood_conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                            encoding=None)
            flooder = Terminal(flood_process)
            await flooder.wait_for("Choose a game")
            [flood_table] = _tables(server.pid)
            other = Terminal(await other_conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                             encoding=None))
            await other.wait_for("Choose a game")
            flood_process.stdin.write(b"x" * (256 * 1024))
            await asyncio.sleep(0.5)
            assert await banner_time(port) < BANNER_LIMIT
            await other.keys("r")
            await other.wait_for("Rules of")
            assert await banner_time(port) < BANNER_LIMIT
            flood_conn.close()
            await _wait_until(lambda: not _alive(flood_table), timeout=serve_ssh.EXIT_GRACE + WAIT,
                              what="the flooding table to end after its client left")
            server.send_signal(signal.SIGTERM)
            await asyncio.wait_for(other.closed.wait(), WAIT)
        out, err = await asyncio.wait_for(server.communicate(), WAIT)
        assert server.returncode == 0, err
        assert b"every running game is saved" in out
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


class _SlowChannel:
    """A client that reads nothing until told: what the pump wrote stays in its send buffer."""

    def __init__(self):
        self.unsent = bytearray()
        self.sent = bytearray()
        self.reading = asyncio.Event()
        self.channel = self
        self.stdout = self

    def write(self, data):
        self.unsent += data

    def get_write_buffer_size(self):
        return len(self.unsent)

    async def drain(self):
        await self.reading.wait()
        self.sent += self.unsent
        self.unsent.clear()


async def test_a_table_s_output_is_read_only_while_the_client_keeps_up():
    """The pump reads the table's terminal while the channel has room; once OUTPUT_BACKLOG waits unsent
    it stops reading (the table blocks on its terminal) until the client has taken it, then goes on to
    the end of the table's output."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    pump = object.__new__(serve_ssh._Session)
    pump.master = master
    pump.process = client = _SlowChannel()
    output = bytes(range(256)) * 1024          # 256 KiB: more than the backlog and the pty's buffer
    task = asyncio.ensure_future(pump._pump_output())

    def table():
        with os.fdopen(slave, "wb", buffering=0) as terminal:
            import tty
            tty.setraw(terminal.fileno())
            terminal.write(output)

    writer = asyncio.ensure_future(asyncio.to_thread(table))
    await _wait_until(lambda: client.get_write_buffer_size() >= serve_ssh.OUTPUT_BACKLOG,
                      what="the backlog to fill")
    await asyncio.sleep(0.2)
    assert serve_ssh.OUTPUT_BACKLOG <= len(client.unsent) < serve_ssh.OUTPUT_BACKLOG + 65536   # no more read
    assert not writer.done()                   # the table waits on its terminal meanwhile
    client.reading.set()
    await asyncio.wait_for(writer, WAIT)
    await asyncio.wait_for(task, WAIT)         # the terminal closed: the pump ends
    assert bytes(client.sent + client.unsent) == output
    os.close(master)
