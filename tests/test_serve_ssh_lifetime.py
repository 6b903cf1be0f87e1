"""No table outlives ``cardtable serve ssh``: after SIGTERM (every game saved first) or ``kill -9`` of
the server, no process of any table is left. The real command on 127.0.0.1; bounded waits."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh")
pytest.importorskip("pyte")

from cardtable.serve import ssh as serve_ssh
from tests.test_serve_ssh import WAIT, Terminal, _key, _wait_until
from tests.test_serve_ssh_flood import _alive, _children, _tables


def _process_group(pgid: int) -> list[int]:
    """Every live process of a process group (a table and its search worker)."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry))
    return members


async def _serve_one_table(home: Path, key):
    """The server command with one player at a Guiñote table; returns (server, conn, terminal, table pid)."""
    from cardtable.serve import package_root

    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardtable", "serve", "ssh", "--port", "0",
        env={**os.environ, "PYTHONPATH": package_root(), "CARDTABLE_HOME": str(home)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:            # a failure here must not leave the server running (the test's own cleanup needs it)
        first = (await asyncio.wait_for(server.stdout.readline(), WAIT)).decode()
        port = int(first.split("127.0.0.1:")[1].split()[0])
        conn = await asyncssh.connect("127.0.0.1", port, username="player", client_keys=[key],
                                      known_hosts=None, agent_path=None)
        process = await conn.create_process("new guinote --seed 5", term_type="xterm-256color",
                                            term_size=(100, 30), encoding=None)
        terminal = Terminal(process)
        await terminal.wait_for("You")
        [table] = _tables(server.pid)
    except BaseException:
        server.kill()
        await server.wait()
        raise
    return server, conn, terminal, table


def _saves(home: Path, key) -> list[Path]:
    return sorted((home / "serve" / "users" / serve_ssh.key_id(key) / "saves").glob("*.json"))


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
async def test_no_table_outlives_the_server(tmp_path, how):
    key = _key()
    server, conn, _terminal, table = await _serve_one_table(tmp_path, key)
    try:
        group = _process_group(table)
        assert table in group
        helpers = [pid for pid in _children(server.pid) if pid != table]   # the template, the pool
        await _wait_until(lambda: _saves(tmp_path, key), what="the first autosave")
        server.send_signal(getattr(signal, how))
        await asyncio.wait_for(server.wait(), WAIT)
        if how == "SIGTERM":
            assert server.returncode == 0
            assert b"every running game is saved" in await server.stdout.read()
        await _wait_until(lambda: not any(_alive(pid) for pid in group), timeout=serve_ssh.EXIT_GRACE + WAIT,
                          what=f"every process of the table to end after {how} of the server")
        assert not _process_group(table)
        await _wait_until(lambda: not any(_alive(pid) for pid in helpers), timeout=WAIT,
                          what=f"the table template and the search workers to end after {how} of the server")
        [slot] = _saves(tmp_path, key)
        assert isinstance(json.loads(slot.read_text(encoding="utf-8"))["moves"], list)   # saved whole
    finally:
        conn.close()
        if server.returncode is None:
            server.kill()
            await server.wait()
        for pid in _process_group(table):
            os.kill(pid, signal.SIGKILL)
