"""``cardtable serve ssh``: an SSH server (asyncssh) that gives every connection its own table.

Each session runs a ``cardtable`` process on a pseudo-terminal of the client's size. The client's
public key decides where that process keeps its files (``users/<sha256 of the key>``), so a player
finds their saves again with the same key and never sees anyone else's; no text from the client
ever becomes part of a path. A dropped connection, the idle timeout and a shutdown of the server all
send the process SIGHUP, which saves the game, and the process is killed if it has not left soon after.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import hashlib
import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections import Counter
from pathlib import Path

try:
    import asyncssh
except ImportError:     # pragma: no cover - the `serve` extra is not installed
    raise ImportError("serving over SSH needs asyncssh: pip install 'cardtable[serve]'") from None

from cardtable.serve import ServeError, child_command, data_dir, package_root

HOST_KEY_NAME = "ssh_host_ed25519_key"
EXIT_GRACE = 5.0          # seconds a table has to save and leave after SIGHUP, before SIGKILL
_LOCALE = re.compile(r"^[A-Za-z]{1,8}(_[A-Za-z]{1,8})?(\.[A-Za-z0-9-]{1,16})?(@[A-Za-z0-9]{1,16})?$")
_TERM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")
_LOCALE_VARS = ("LANG", "LC_ALL", "LC_MESSAGES")


@dataclasses.dataclass(frozen=True)
class SshLimits:
    max_sessions: int = 16
    per_address: int = 4
    idle_timeout: float = 1800.0
    guests: bool = False


# ---------------------------------------------------------------- files
def load_host_key(directory: Path) -> asyncssh.SSHKey:
    """The server's host key: made on first start (ed25519, mode 0600) and kept beside the players."""
    path = directory / HOST_KEY_NAME
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            key = asyncssh.generate_private_key("ssh-ed25519", comment="cardtable host key")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(key.export_private_key())
            return key
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return asyncssh.read_private_key(str(path))
    except (OSError, asyncssh.KeyImportError) as exc:
        raise ServeError(f"cannot use the host key {path}: {getattr(exc, 'strerror', None) or exc}") from None


def key_id(key: asyncssh.SSHKey) -> str:
    """A player's directory name: the SHA-256 of their public key's wire form, in hex."""
    return hashlib.sha256(key.public_data).hexdigest()


def player_home(directory: Path, key: asyncssh.SSHKey | None) -> tuple[Path, bool]:
    """The directory a player's table keeps its files in, and whether it is throwaway (a guest)."""
    if key is None:
        guests = directory / "guests"
        guests.mkdir(parents=True, exist_ok=True, mode=0o700)
        return Path(tempfile.mkdtemp(prefix="guest-", dir=guests)), True
    users = directory / "users"
    users.mkdir(parents=True, exist_ok=True, mode=0o700)
    home = users / key_id(key)
    home.mkdir(exist_ok=True, mode=0o700)
    return home, False


def child_environment(home: Path, term: str | None, client_env: dict) -> dict[str, str]:
    """A clean environment for one player's table: nothing of the server's own, only what is safe of
    the client's (its terminal type and its language, checked against strict patterns)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CARDTABLE_HOME": str(home),
        "TERM": term if term and _TERM.match(term) else "xterm-256color",
        "COLORTERM": "truecolor",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONPATH": package_root(),
    }
    for name in _LOCALE_VARS:
        value = client_env.get(name)
        if isinstance(value, bytes):
            value = value.decode("ascii", "replace")
        if isinstance(value, str) and _LOCALE.match(value):
            env[name] = value
    if "LANG" not in env and "LC_ALL" not in env:
        env["LANG"] = "C.UTF-8"
    return env


_ALLOWED_COMMANDS = ("new", "continue")
_ALLOWED_OPTIONS = ("--seed", "--level", "--option", "--lang")


def client_args(command: str | None) -> list[str] | None:
    """The table's arguments for what the client asked to run (``ssh -t HOST new gongzhu``), or None
    when it asked for something else. Only ``new`` and ``continue`` with options that name no file:
    anything the client sends is checked again by the table's own command line."""
    if not command:
        return []
    if len(command) > 200 or not command.isprintable():
        return None
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or words[0] not in _ALLOWED_COMMANDS:
        return None
    for word in words[1:]:
        if word.startswith("-") and word.split("=", 1)[0] not in _ALLOWED_OPTIONS:
            return None
    return words


def _set_size(fd: int, width: int, height: int) -> None:
    width = max(1, min(int(width or 80), 1000))
    height = max(1, min(int(height or 24), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


# ---------------------------------------------------------------- the server
class TableServer:
    """Listens, authenticates, enforces the limits and runs one table per session."""

    def __init__(self, limits: SshLimits, directory: Path | None = None):
        self.limits = limits
        self.directory = directory or data_dir()
        self.host_key = load_host_key(self.directory)
        self.sessions: set[_Session] = set()
        self.per_address: Counter[str] = Counter()
        self.acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint("sha256")

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.get_port()

    async def start(self, host: str, port: int) -> None:
        try:
            self.acceptor = await asyncssh.create_server(
                lambda: _Connection(self), host, port, server_host_keys=[self.host_key],
                process_factory=self._run_session, encoding=None, line_editor=False,
                allow_scp=False, agent_forwarding=False, x11_forwarding=False,
                login_timeout=60, keepalive_interval=30, keepalive_count_max=4)
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None

    async def stop(self) -> None:
        """Stop listening; every running table saves (SIGHUP) and leaves."""
        if self.acceptor is not None:
            self.acceptor.close()
        sessions = list(self.sessions)
        await asyncio.gather(*(session.hang_up("shutdown") for session in sessions), return_exceptions=True)
        for session in sessions:               # whatever did not leave in time is killed
            session._signal(signal.SIGKILL)
        if self.acceptor is not None:
            await self.acceptor.wait_closed()

    async def _run_session(self, process: asyncssh.SSHServerProcess) -> None:
        connection: _Connection = process.get_extra_info("connection").get_owner()
        refusal = self._refusal(connection)
        if refusal:
            process.stdout.write(f"cardtable: {refusal}\r\n".encode())
            process.exit(1)
            return
        args = client_args(process.command)
        if args is None:
            process.stdout.write(b"cardtable: over SSH you can ask for 'new GAME [--seed N] [--level L] "
                                 b"[--option K=V]' or 'continue [SLOT]', or nothing for the home screen.\r\n")
            process.exit(2)
            return
        if process.get_terminal_type() is None:
            process.stdout.write(b"cardtable needs a terminal: connect with 'ssh -t'.\r\n")
            process.exit(2)
            return
        session = _Session(self, process, connection, args)
        self.sessions.add(session)
        try:
            status = await session.run()
        finally:
            self.sessions.discard(session)
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            process.exit(status)

    def _refusal(self, connection: _Connection) -> str | None:
        if len(self.sessions) >= self.limits.max_sessions:
            return (f"the table is full ({self.limits.max_sessions} players at once); "
                    f"please try again later.")
        if self.per_address[connection.address] > self.limits.per_address:
            return f"too many connections from your address (at most {self.limits.per_address})."
        return None


class _Connection(asyncssh.SSHServer):
    """One client connection: public-key login (any key: the key is who you are), guests if allowed."""

    def __init__(self, server: TableServer):
        self.server = server
        self.key: asyncssh.SSHKey | None = None
        self.address = "?"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.server.per_address[self.address] += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.per_address[self.address] -= 1
        if self.server.per_address[self.address] <= 0:
            del self.server.per_address[self.address]

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh calls this again for the signed request just before it checks the signature, so
        # after a successful login this holds the key that proved itself.
        self.key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.server.limits.guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None     # a guest: nothing of a key offered before counts
        return True


class _Session:
    """One player's table on a pseudo-terminal, bridged to the SSH channel."""

    def __init__(self, server: TableServer, process: asyncssh.SSHServerProcess, connection: _Connection,
                 args: list[str]):
        self.server = server
        self.args = args
        self.process = process
        self.connection = connection
        self.child: asyncio.subprocess.Process | None = None
        self.master = -1
        self.last_input = time.monotonic()
        self.ended_by: str | None = None

    async def run(self) -> int:
        home, throwaway = player_home(self.server.directory, self.connection.key)
        try:
            return await self._run_table(home)
        finally:
            if throwaway:
                shutil.rmtree(home, ignore_errors=True)

    async def _run_table(self, home: Path) -> int:
        width, height, _, _ = self.process.get_terminal_size()
        self.master, slave = os.openpty()
        try:
            _set_size(self.master, width, height)
            env = child_environment(home, self.process.get_terminal_type(), dict(self.process.env))
            self.child = await asyncio.create_subprocess_exec(
                *child_command(*self.args), stdin=slave, stdout=slave, stderr=slave,
                env=env, cwd=str(home), start_new_session=True)
        finally:
            os.close(slave)
        tasks = [asyncio.ensure_future(coro) for coro in
                 (self._pump_output(), self._pump_input(), self._watch_idle())]
        try:
            status = await self.child.wait()
        finally:
            if self.child.returncode is None:      # cancelled (the server stopped): never leave it behind
                self._signal(signal.SIGKILL)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            os.close(self.master)
        if self.ended_by == "idle":
            self._say(f"\r\ncardtable: no key for {self.server.limits.idle_timeout:g} s: your game is saved. "
                      f"Bye.\r\n")
        elif self.ended_by == "shutdown":
            self._say("\r\ncardtable: the server is shutting down: your game is saved.\r\n")
        return status if status >= 0 else 1

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            self.process.stdout.write(text.encode())

    async def _pump_output(self) -> None:
        """Table → client, with flow control: read the pty only while the channel keeps up."""
        loop = asyncio.get_running_loop()
        while True:
            ready = loop.create_future()
            loop.add_reader(self.master, ready.set_result, None)
            try:
                await ready
            finally:
                loop.remove_reader(self.master)
            try:
                data = os.read(self.master, 65536)
            except OSError:          # EIO: the table closed its terminal
                return
            if not data:
                return
            self.process.stdout.write(data)
            await self.process.stdout.drain()

    async def _pump_input(self) -> None:
        """Client → table; resizes follow; the end of the connection hangs the table up."""
        while True:
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                _set_size(self.master, change.width, change.height)
                self._signal(signal.SIGWINCH)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError, BrokenPipeError):
                data = b""
            if not data:
                await self.hang_up("dropped")
                return
            self.last_input = time.monotonic()
            view = memoryview(data)
            while view:
                try:
                    written = os.write(self.master, view)
                except BlockingIOError:
                    await asyncio.sleep(0.01)
                    continue
                except OSError:
                    return
                view = view[written:]

    async def _watch_idle(self) -> None:
        timeout = self.server.limits.idle_timeout
        while True:
            left = self.last_input + timeout - time.monotonic()
            if left <= 0:
                await self.hang_up("idle")
                return
            await asyncio.sleep(min(left, 5.0))

    def _signal(self, sig: int) -> None:
        if self.child is not None and self.child.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.child.pid, sig)

    async def hang_up(self, why: str) -> None:
        """SIGHUP (the table saves and leaves, as when a terminal closes), then SIGKILL if it stays."""
        if self.child is None or self.child.returncode is not None:
            return
        self.ended_by = self.ended_by or why
        self._signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(self.child.wait()), EXIT_GRACE)
        except TimeoutError:
            self._signal(signal.SIGKILL)


# ---------------------------------------------------------------- the command
def run_ssh_server(host: str, port: int, limits: SshLimits) -> int:
    """Run until SIGINT or SIGTERM; then every table saves and the server stops."""
    try:
        server = TableServer(limits)
    except ServeError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2

    async def serve() -> int:
        try:
            await server.start(host, port)
        except ServeError as exc:
            print(f"cardtable: {exc}", file=sys.stderr)
            return 2
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        print(f"cardtable: serving over SSH on {host}:{server.port} (ssh -p {server.port} {host})", flush=True)
        print(f"cardtable: host key {server.fingerprint}", flush=True)
        print(f"cardtable: players' files in {server.directory}", flush=True)
        await stop.wait()
        print("cardtable: stopping; every running game is saved", flush=True)
        await server.stop()
        return 0

    return asyncio.run(serve())
