"""``cardtable serve ssh``: a real asyncssh client against the server on 127.0.0.1.

Each test starts its own server on a free loopback port with its own data directory, reads what the
client receives through a terminal emulator (pyte), and stops the server (every table saves and exits).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh")
pyte = pytest.importorskip("pyte")

from cardtable.serve import ssh as serve_ssh

WAIT = 30.0      # generous: the first start of a table imports Textual (slow on a busy 2-core machine)


class Terminal:
    """What the client's screen shows: the bytes received, fed through a VT emulator."""

    def __init__(self, process, cols: int = 100, rows: int = 30) -> None:
        self.process = process
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self._task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.raw += data
                self.stream.feed(data)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; the screen:\n{self.text()}\n"
                                     f"raw tail: {bytes(self.raw[-300:])!r}")
            if self.closed.is_set() and needle not in self.text():
                raise AssertionError(f"connection closed before {needle!r}; the screen:\n{self.text()}")
            await asyncio.sleep(0.05)

    async def keys(self, *keys: str, pause: float = 0.25) -> None:
        for key in keys:
            self.process.stdin.write(key.encode())
            await asyncio.sleep(pause)


class _GuestClient(asyncssh.SSHClient):
    """A client without keys that answers keyboard-interactive logins (as OpenSSH's does)."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return [""] * len(prompts)


def _key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@contextlib.asynccontextmanager
async def running_server(directory: Path, **limits):
    server = serve_ssh.TableServer(serve_ssh.SshLimits(**limits), directory=directory)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def session(server, key, command: str | None = None, size=(100, 30), lang="en_US.UTF-8",
                  kbdint: bool = False):
    options = {"username": "player", "known_hosts": None, "client_keys": [key] if key else [],
                   "kbdint_auth": kbdint, "password_auth": False, "agent_path": None}
    if kbdint:
        options["client_factory"] = _GuestClient
    async with asyncssh.connect("127.0.0.1", server.port, **options) as conn:
        process = await conn.create_process(command, term_type="xterm-256color", term_size=size,
                                            env={"LANG": lang}, encoding=None)
        terminal = Terminal(process, *size)
        try:
            yield terminal
        finally:
            process.close()


async def _wait_until(condition, timeout: float = WAIT, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def _saves(server, key) -> list[Path]:
    return sorted((server.directory / "users" / serve_ssh.key_id(key) / "saves").glob("*.json"))


def _moves(path: Path) -> list:
    return json.loads(path.read_text(encoding="utf-8"))["moves"]


async def test_home_screen_over_ssh_and_host_key_kept(tmp_path):
    key = _key()
    async with running_server(tmp_path) as server:
        fingerprint = server.fingerprint
        async with session(server, key) as term:
            await term.wait_for("Choose a game")
            await term.wait_for("No saved games yet")
    host_key = tmp_path / serve_ssh.HOST_KEY_NAME
    assert host_key.stat().st_mode & 0o777 == 0o600
    async with running_server(tmp_path) as again:
        assert again.fingerprint == fingerprint        # kept, not made anew


async def test_language_follows_the_client(tmp_path):
    async with running_server(tmp_path) as server, session(server, _key(), lang="es_ES.UTF-8") as term:
        await term.wait_for("Elige un juego")


async def test_play_drop_reconnect_continue_and_keys_are_isolated(tmp_path):
    key, other = _key(), _key()
    async with running_server(tmp_path) as server:
        async with session(server, key, "new gongzhu --seed 42") as term:
            await term.wait_for("You")
            await _wait_until(lambda: _saves(server, key), what="the first autosave")
            before = len(_moves(_saves(server, key)[0]))
            # Show nothing (Enter), then lift and play a card (Enter, Enter) until a move is saved: keep
            # pressing, as a player would, while the deal animation and the CPUs take their time.
            deadline = time.monotonic() + WAIT
            while len(_moves(_saves(server, key)[0])) <= before and time.monotonic() < deadline:
                await term.keys("\r", pause=0.5)
            await _wait_until(lambda: len(_moves(_saves(server, key)[0])) > before, what="a move saved")
        # The connection is gone: the table saved (SIGHUP) and left.
        await _wait_until(lambda: not server.sessions, what="the table to exit after the drop")
        [slot] = _saves(server, key)
        moves = _moves(slot)
        assert len(moves) > before

        async with session(server, key, "continue") as term:
            await term.wait_for("You")
            await asyncio.sleep(0.5)
            # Resumed exactly where it was: the CPUs may play on, but from the same moves.
            assert _moves(slot)[:len(moves)] == moves
            assert len(_saves(server, key)) == 1
        await _wait_until(lambda: not server.sessions, what="the second table to exit")

        async with session(server, other) as term:   # another key: its own, empty, directory
            await term.wait_for("No saved games yet")
        assert not _saves(server, other)
        assert len(list((server.directory / "users").iterdir())) == 2


async def test_resizes_reach_the_table(tmp_path):
    async with running_server(tmp_path) as server, session(server, _key(), size=(100, 30)) as term:
        await term.wait_for("Choose a game")
        term.process.change_terminal_size(60, 20)
        term.screen.resize(20, 60)
        await term.wait_for("80")          # the "enlarge the terminal" message names 80×24
        term.process.change_terminal_size(100, 30)
        term.screen.resize(30, 100)
        await term.wait_for("Choose a game")


async def test_max_sessions_refuses_with_a_clear_message(tmp_path):
    async with running_server(tmp_path, max_sessions=1) as server, session(server, _key()) as first:
        await first.wait_for("Choose a game")
        async with session(server, _key()) as second:
            await second.wait_for("full")
            await asyncio.wait_for(second.closed.wait(), WAIT)


async def test_tables_per_address_are_capped(tmp_path):
    async with running_server(tmp_path, per_address=1) as server, session(server, _key()) as first:
        await first.wait_for("Choose a game")
        async with session(server, _key()) as second:
            await second.wait_for("too many tables")


async def test_idle_timeout_saves_and_says_so(tmp_path):
    key = _key()
    async with running_server(tmp_path, idle_timeout=4.0) as server:
        async with session(server, key, "new guinote --seed 5") as term:
            await term.wait_for("You")
            await asyncio.wait_for(term.closed.wait(), WAIT)
            assert "your game is saved" in term.raw.decode("utf-8", "replace")
        assert _saves(server, key)


async def test_guests_only_when_allowed_and_their_storage_is_thrown_away(tmp_path):
    async with running_server(tmp_path) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            async with session(server, None, kbdint=True):
                pass
    async with running_server(tmp_path, guests=True) as server:
        async with session(server, None, "new gongzhu --seed 3", kbdint=True) as term:
            await term.wait_for("You")
            guests = list((server.directory / "guests").iterdir())
            assert len(guests) == 1
        await _wait_until(lambda: not server.sessions, what="the guest table to exit")
        assert not list((server.directory / "guests").iterdir())


async def test_commands_that_name_files_are_refused(tmp_path):
    async with running_server(tmp_path) as server:
        for command in ("--save-dir /etc new gongzhu", "new gongzhu --save-dir=/tmp", "sim gongzhu",
                        "rules gongzhu; rm -rf /", "bench"):
            async with session(server, _key(), command) as term:
                await asyncio.wait_for(term.closed.wait(), WAIT)
                assert b"over SSH you can ask for" in term.raw


async def test_shutdown_saves_every_running_game(tmp_path):
    key = _key()
    async with running_server(tmp_path) as server, session(server, key, "new guandan --seed 8") as term:
        await term.wait_for("You")
        pids = [s.child.pid for s in server.sessions]
        await server.stop()
        await asyncio.wait_for(term.closed.wait(), WAIT)
        assert b"shutting down" in term.raw
    assert _saves(server, key)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_client_args_allow_only_new_and_continue():
    assert serve_ssh.client_args(None) == []
    assert serve_ssh.client_args("new gongzhu --seed 4 --option target=500") == [
        "new", "gongzhu", "--seed", "4", "--option", "target=500"]
    assert serve_ssh.client_args("continue gongzhu-1") == ["continue", "gongzhu-1"]
    for bad in ("saves", "sim guandan", "new gongzhu --save-dir /", "new 'unclosed", "new\x1b[2J",
                "x" * 300, "--lang es new"):
        assert serve_ssh.client_args(bad) is None, bad


def test_the_table_environment_keeps_nothing_of_the_server():
    os.environ["SECRET_TOKEN"] = "s3cret"
    try:
        env = serve_ssh.child_environment(Path("/srv/u"), "xterm\x1b]0;x", {
            "LANG": "es_ES.UTF-8", "LC_ALL": "$(reboot)", "LD_PRELOAD": "/tmp/x.so"})
    finally:
        del os.environ["SECRET_TOKEN"]
    assert "SECRET_TOKEN" not in env and "LD_PRELOAD" not in env and "LC_ALL" not in env
    assert env["LANG"] == "es_ES.UTF-8"
    assert env["TERM"] == "xterm-256color"
    assert env["CARDTABLE_HOME"] == "/srv/u"
    assert env["CARDTABLE_SERVED"] == "ssh"        # so the table leaves out the palette's screenshot


async def test_a_table_served_over_ssh_offers_no_screenshot(tmp_path, monkeypatch):
    from cardtable.i18n import t
    from cardtable.saves import SaveStore
    from cardtable.ui.app import CardTableApp

    def titles(app):
        return {str(command.title) for command in app.get_system_commands(app.screen)}

    app = CardTableApp(store=SaveStore(tmp_path))
    async with app.run_test(size=(100, 30)):
        here = titles(app)
        monkeypatch.setenv("CARDTABLE_SERVED", "ssh")
        served = titles(app)
    assert here - served == {t("sys_screenshot")}


def _cardtable(*args: str, env: dict | None = None, **kwargs):
    import subprocess
    import sys

    from cardtable.serve import package_root

    return subprocess.Popen([sys.executable, "-m", "cardtable", *args],
                            env={**os.environ, "PYTHONPATH": package_root(), **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def test_the_command_prints_the_fingerprint_and_stops_cleanly_on_sigterm(tmp_path):
    import signal
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        refused = _cardtable("serve", "ssh", "--port", str(taken), env={"CARDTABLE_HOME": str(tmp_path)})
        _out, err = refused.communicate(timeout=WAIT)
        assert refused.returncode == 2 and "cannot listen" in err and "Traceback" not in err

    server = _cardtable("serve", "ssh", "--port", "0", env={"CARDTABLE_HOME": str(tmp_path)})
    first = server.stdout.readline()
    assert "serving over SSH on 127.0.0.1:" in first and "only this machine can connect" in first
    assert server.stdout.readline().startswith("cardtable: host key SHA256:")
    server.send_signal(signal.SIGTERM)
    out, err = server.communicate(timeout=WAIT)
    assert server.returncode == 0, err
    assert "every running game is saved" in out


def test_binding_beyond_this_machine_warns(capsys):
    from cardtable.serve import warn_if_public

    warn_if_public("127.0.0.1")
    assert capsys.readouterr().err == ""
    warn_if_public("0.0.0.0")
    assert "warning" in capsys.readouterr().err


def test_bad_serve_arguments_are_one_clear_line():
    for args in (("serve", "ssh", "--port", "99999"), ("serve", "ssh", "--idle-timeout", "nan"),
                 ("serve", "ssh", "--max-sessions", "0"), ("serve", "ftp")):
        proc = _cardtable(*args)
        _out, err = proc.communicate(timeout=WAIT)
        assert proc.returncode == 2, args
        assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("cardtable"), err
