"""``cardtable serve ssh`` attacked after its hardening (issue 28, second pass): floods of window changes,
breaks and signals, many keys in one login, hostile commands. Real asyncssh clients on 127.0.0.1; every
loop bounded in count, every wait bounded in time."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import termios

import pytest

asyncssh = pytest.importorskip("asyncssh")
pytest.importorskip("pyte")

from cardtable.serve import ssh as serve_ssh
from tests.test_serve_ssh import _key, _wait_until, running_server, session
from tests.test_serve_ssh_limits import _connect, logged_server


def _pty_size(fd: int) -> tuple[int, int]:
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


async def test_a_flood_of_window_changes_is_a_few_resizes_ending_at_the_last(tmp_path, monkeypatch):
    """Each size given to a table costs it a full repaint (up to 1000 × 1000): 4,000 window changes
    (each asked for a resize and a SIGWINCH) reach it as a few, the last one always."""
    given = []
    set_size = serve_ssh._set_size

    def counted(fd, width, height):
        given.append((width, height))
        set_size(fd, width, height)

    monkeypatch.setattr(serve_ssh, "_set_size", counted)
    async with running_server(tmp_path) as server, session(server, _key()) as term:
        await term.wait_for("Choose a game")
        [table] = server.sessions
        given.clear()
        for number in range(4000):
            big = number % 2 == 0
            term.process.change_terminal_size(1000 if big else 20, 1000 if big else 10)
            if number % 500 == 0:
                await asyncio.sleep(0)
        term.process.change_terminal_size(90, 25)
        await _wait_until(lambda: table.master >= 0 and _pty_size(table.master) == (90, 25),
                          what="the last size to reach the table")
        assert len(given) < 100, f"{len(given)} sizes given to the table"
        await term.wait_for("Choose a game")


async def test_requests_sent_while_the_input_is_paused_do_not_pile_up(tmp_path):
    """A stopped table reads nothing, so its channel is paused; window changes, breaks and signals are
    not data (no SSH window holds them back): they once queued in the paused input without bound."""
    async with running_server(tmp_path) as server, session(server, _key()) as term:
        await term.wait_for("Choose a game")
        [table] = server.sessions
        os.killpg(table.child.pid, signal.SIGSTOP)
        try:
            term.process.stdin.write(b"x" * (128 * 1024))
            await _wait_until(lambda: not table._room.is_set(), what="the input queue to fill")
            for number in range(2000):
                term.process.send_signal(("KILL", "TERM", "INT", "STOP")[number % 4])
                term.process.send_break(1000)
                term.process.change_terminal_size(1000 - number % 2, 1000)
                if number % 250 == 0:
                    await asyncio.sleep(0)
            term.process.change_terminal_size(90, 25)
            await _wait_until(lambda: _pty_size(table.master) == (90, 25), what="the last size")
            assert len(table.process._recv_buf[None]) < 100, "requests queued in the paused input"
            assert table.child.returncode is None   # no signal from the client reached the table
        finally:
            os.killpg(table.child.pid, signal.SIGKILL)  # stopped, it would only leave after EXIT_GRACE


async def test_a_login_offering_many_refused_keys_is_closed_after_a_few(tmp_path, monkeypatch):
    """Each key offered is a round of the login: a client once offered 300 refused keys in 1.4 s, as many
    as it liked until the login timeout."""
    keys = [asyncssh.generate_private_key("ssh-rsa", key_size=1024) for _ in range(serve_ssh.REFUSED_KEYS + 6)]
    offered = 0
    validate = serve_ssh._Connection.validate_public_key

    def counted(self, username, key):
        nonlocal offered
        offered += 1
        return validate(self, username, key)

    monkeypatch.setattr(serve_ssh._Connection, "validate_public_key", counted)
    async with logged_server(tmp_path) as server:
        with pytest.raises((asyncssh.DisconnectError, asyncssh.PermissionDenied)):
            await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", server.port, username="player", known_hosts=None, agent_path=None,
                client_keys=keys, password_auth=False, kbdint_auth=False), 30)
        assert offered == serve_ssh.REFUSED_KEYS + 1, f"{offered} keys looked at"
        assert any("too many refused keys" in line for line in server.log_lines), server.log_lines



async def test_a_client_that_reads_nothing_leaves_a_bounded_backlog_at_the_server(tmp_path):
    """Output is flow-controlled: the server reads its table's terminal only as fast as the client takes
    it, so a client that never reads (its SSH window, 16 KiB here, closes) holds a bounded backlog at the
    server (asyncssh's write buffer, about 64 KiB, and one chunk of the terminal)."""
    async with running_server(tmp_path) as server, asyncssh.connect(
            "127.0.0.1", server.port, username="player", known_hosts=None, agent_path=None,
            client_keys=[_key()], password_auth=False, kbdint_auth=False) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(300, 100), encoding=None,
                                            window=16384)
        await _wait_until(lambda: server.sessions, what="the table")
        [table] = server.sessions
        most = 0
        for number in range(60):                    # keys that repaint, a resize now and then
            process.stdin.write(b"\x1b[B\x1b[A" * 20)
            if number % 10 == 0:
                process.change_terminal_size(300 - number // 10, 100)
            await asyncio.sleep(0.05)
            most = max(most, table.process.channel.get_write_buffer_size())
        assert 0 < most <= 4 * 65536, f"{most} bytes of output queued for a client that reads nothing"
        assert table.child.returncode is None


@pytest.mark.parametrize("command", [
    "x" * 100_000, "new\x1b[2J gongzhu", "new gongzhu\r\nsim", "new --save-dir /etc", "serve ssh --port 2223",
    "sim --games 100000", "new gongzhu --seed=" + "9" * 300, "new guandan --seed -1", "new -h", "--help",
    "bench serve", "export x --out /etc/passwd",
])
def test_hostile_commands_never_reach_a_table(command):
    """What a client's command line can ask of its table: `new` and `continue` with options that name no
    file (anything else is refused before a process starts); slot, game, level, option and language
    values are checked again by the table's own command line (tried: `continue ../../../etc/passwd`,
    `new @/etc/passwd`, `--lang=../../etc`, `--option target=99999999999999999999` are one-line errors)."""
    assert serve_ssh.client_args(command) is None


async def test_a_connection_kept_after_its_table_ended_is_closed_after_the_session_timeout(tmp_path):
    """The table is gone (here: its command was refused) but the client keeps the connection: it is a
    connection without a table again, and the same time limit closes it."""
    async with logged_server(tmp_path, session_timeout=1.0) as server:
        conn, client = await _connect(server)
        process = await conn.create_process("sim gongzhu", term_type="xterm", encoding=None)
        await asyncio.wait_for(process.wait_closed(), 10)
        await asyncio.wait_for(client.lost, 10)
        assert any("closed: no table was opened for 1 s" in line for line in server.log_lines), server.log_lines
        assert not server.connections
