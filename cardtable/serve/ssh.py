"""``cardtable serve ssh``: an SSH server (asyncssh) that gives every connection its own table.

Each session runs a ``cardtable`` process on a pseudo-terminal of the client's size. The client's
public key decides where that process keeps its files (``users/<sha256 of the key>``), so a player
finds their saves again with the same key and never sees anyone else's; no text from the client
ever becomes part of a path. A dropped connection, the idle timeout and a shutdown of the server all
send the process SIGHUP, which saves the game, and the process is killed if it has not left soon after.

No client can hold up the others: the pseudo-terminal is non-blocking and written from the loop's writer
callbacks, a table's unwritten input is capped (the channel stops being read while it is full), and
every costly thing a client can ask for is counted and limited (see :class:`SshLimits`). Each refusal is
one line to the client and one line in the server's log.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import fcntl
import hashlib
import os
import re
import shutil
import signal
import socket
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    import asyncssh
except ImportError:     # pragma: no cover - the `serve` extra is not installed
    raise ImportError("serving over SSH needs asyncssh: pip install 'cardtable[serve]'") from None

from asyncssh.packet import SSHPacket

from cardtable.serve import ServeError, data_dir, is_loopback, package_root
from cardtable.serve.searchpool import SearchPool
from cardtable.serve.zygote import Zygote, become_subreaper, reap_orphans, spawn_table

HOST_KEY_NAME = "ssh_host_ed25519_key"
EXIT_GRACE = 5.0          # seconds a table has to save and leave after SIGHUP, before SIGKILL
INPUT_CAP = 64 * 1024     # a table's input not yet written to its terminal; above it the channel pauses
OUTPUT_BACKLOG = 64 * 1024  # a table's output the channel has not sent yet; above it the pty is not read
WINDOW = 128 * 1024       # the SSH receive window of a channel: what a client may send ahead of us
LOGIN_TIMEOUT = 30.0      # seconds from connecting to logging in
ENV_REQUESTS = 32         # environment variables one channel may send (OpenSSH sends LANG, LC_*)
ENV_BYTES = 256           # the longest name + value kept; longer ones are ignored
MIN_RSA_BITS = 2048
REFUSED_KEYS = 6          # keys refused in one login before it is closed (OpenSSH's MaxAuthTries)
RESIZE_INTERVAL = 0.25    # seconds between two sizes given to a table: a flood of window changes is a few
_LOCALE = re.compile(r"^[A-Za-z]{1,8}(_[A-Za-z]{1,8})?(\.[A-Za-z0-9-]{1,16})?(@[A-Za-z0-9]{1,16})?$")
_TERM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")
_LOCALE_VARS = ("LANG", "LC_ALL", "LC_MESSAGES")
SPAWN_VARIABLE = "CARDTABLE_SPAWN"   # "plain": a fresh Python and its own search worker per table
POOL_FD = 3                          # the search pool's socket in a table (CARDTABLE_SEARCH_POOL_FD)
HUB_FD = 4                           # the shared tables' hub socket in a table (CARDTABLE_HUB_FD)


@dataclasses.dataclass(frozen=True)
class SshLimits:
    """What one server allows; every number counts something that costs memory, a process or a slot."""
    max_sessions: int = 16              # tables at once, in all
    per_address: int = 4                # tables at once from one address
    max_connections: int = 64           # logged-in connections at once, in all
    connections_per_address: int = 8    # logged-in connections at once from one address
    session_timeout: float = 30.0       # a logged-in connection with no table is closed after this
    idle_timeout: float = 1800.0        # a table with no key for this long is saved and ended
    max_players: int = 1000             # players' directories kept (users/<sha>); the oldest idle go
    logins_per_address: int = 8         # connections still logging in, at once, from one address (like
    logins: int = 64                    # sshd's MaxStartups), and in all
    guests: bool = False
    shared_tables: bool = True          # the hub of shared tables (host GAME / join CODE) runs
    turn_timeout: float = 120.0         # at a shared table, a person who has not moved for this long has
                                        # their CPU make that move (0: never; never with one person)


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


def key_weakness(key: asyncssh.SSHKey) -> str | None:
    """Why a public key is refused (DSA, RSA under 2048 bits), or None: ed25519, ecdsa and strong RSA."""
    algorithm = key.get_algorithm()
    if algorithm == "ssh-dss":
        return "DSA keys are refused; use an ed25519 key (ssh-keygen -t ed25519)."
    if algorithm == "ssh-rsa":
        packet = SSHPacket(key.public_data)
        packet.get_string()                           # "ssh-rsa", then e and n
        packet.get_mpint()
        bits = packet.get_mpint().bit_length()
        if bits < MIN_RSA_BITS:
            return (f"RSA keys need at least {MIN_RSA_BITS} bits (this one has {bits}); "
                    f"use an ed25519 key (ssh-keygen -t ed25519).")
    return None


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
    os.utime(home)                                    # its last use: the pruning's order
    return home, False


def make_room_for_player(directory: Path, key: asyncssh.SSHKey, max_players: int, connected: set[str]) -> bool:
    """Before a new player's directory is made: remove the players idle longest (never a connected one)
    until there is room for it under ``max_players``. False if there is no room (everyone is connected)."""
    users = directory / "users"
    if (users / key_id(key)).exists():
        return True
    try:
        homes = [home for home in users.iterdir() if home.is_dir()]
    except FileNotFoundError:
        return True
    removable = sorted((home for home in homes if home.name not in connected), key=_last_use)
    while len(homes) >= max_players:
        if not removable:
            return False
        oldest = removable.pop(0)
        shutil.rmtree(oldest, ignore_errors=True)
        homes.remove(oldest)
    return True


def _last_use(home: Path) -> float:
    try:
        return home.stat().st_mtime
    except OSError:
        return 0.0


def child_environment(home: Path, term: str | None, client_env: dict) -> dict[str, str]:
    """A clean environment for one player's table: nothing of the server's own, only what is safe of
    the client's (its terminal type and its language, checked against strict patterns)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CARDTABLE_HOME": str(home),
        "CARDTABLE_SERVED": "ssh",      # the table leaves out what cannot work over SSH (screenshots)
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


def template_environment() -> dict[str, str]:
    """The fork server's environment: a table's, without anything of a player's."""
    env = child_environment(Path("/"), None, {})
    for name in ("HOME", "CARDTABLE_HOME"):
        env.pop(name)
    return env


# ---------------------------------------------------------------- shared tables (the hub)
SHARED_COMMANDS = ("host", "join")
SHARED_USAGE = "a shared table is 'host GAME [--level L] [--option K=V]' or 'join CODE'"
_OPTION_WORD = re.compile(r"^[a-z_]{1,32}=[A-Za-z0-9_.,-]{1,32}$")
_MAX_OPTIONS = 8


class SharedCommandError(ValueError):
    """A ``host``/``join`` command that is not well formed: its one-line refusal."""


def shared_args(command: str | None) -> list[str] | None:
    """The table's arguments for ``host GAME [--level L] [--option K=V]…`` or ``join CODE``, or None
    when the command is not one of these two. Strict: bounded length, known games, levels and codes
    only; anything else raises :class:`SharedCommandError` (its text is the refusal). The hub checks
    everything again."""
    if not command:
        return None
    first = command.split(None, 1)[0] if command.strip() else ""
    if first not in SHARED_COMMANDS:
        return None
    if len(command) > 200 or not command.isprintable():
        raise SharedCommandError(SHARED_USAGE)
    words = command.split()
    from cardtable import games
    from cardtable.table import read_code

    if first == "join":
        code = read_code(words[1]) if len(words) == 2 else None
        if code is None:
            raise SharedCommandError(f"{SHARED_USAGE}: a code is 6 letters and digits")
        return ["join", code]
    if len(words) < 2 or words[1] not in games.GAME_MODULES or not games.is_available(words[1]):
        raise SharedCommandError(f"{SHARED_USAGE}; GAME is one of {', '.join(games.GAME_MODULES)}")
    args, rest, options = ["host", words[1]], words[2:], 0
    while rest:
        flag, value = rest[0], rest[1] if len(rest) > 1 else ""
        if flag == "--level" and value in games.get(words[1]).bots:
            args += [flag, value]
        elif flag == "--option" and _OPTION_WORD.match(value) and options < _MAX_OPTIONS:
            args += [flag, value]
            options += 1
        else:
            raise SharedCommandError(SHARED_USAGE)
        rest = rest[2:]
    return args


def hub_identity(key: asyncssh.SSHKey) -> str:
    """A player's identity at the shared tables: their public key's SHA-256 fingerprint."""
    return key.get_fingerprint("sha256")


def player_stats_path(directory: Path, identity: str) -> Path | None:
    """Where a player's statistics are, from their identity at the shared tables (:func:`hub_identity`):
    ``stats.sqlite3`` in their directory (:func:`player_home`), as their own tables' are. None when it
    is not a key's fingerprint or the directory is gone (pruned)."""
    prefix = "SHA256:"
    if not identity.startswith(prefix):
        return None
    encoded = identity[len(prefix):]
    try:
        digest = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except ValueError:
        return None
    home = directory / "users" / digest.hex()
    return home / "stats.sqlite3" if len(digest) == 32 and home.is_dir() else None


def hub_name(username: str) -> str:
    """A player's name at a shared table: their SSH user name, cleaned as text from files is and
    length-capped (``table.clean_name``)."""
    from cardtable.table import clean_name

    return clean_name(username)


def _set_size(fd: int, width: int, height: int) -> None:
    width = max(1, min(int(width or 80), 1000))
    height = max(1, min(int(height or 24), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _log_to_stderr(line: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} cardtable: {line}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the server
class TableServer:
    """Listens, authenticates, enforces the limits and runs one table per connection."""

    def __init__(self, limits: SshLimits, directory: Path | None = None,
                 log: Callable[[str], None] = _log_to_stderr, spawn: str | None = None):
        self.limits = limits
        # "zygote": tables forked from a warm template and one search pool (serve/zygote.py,
        # serve/searchpool.py); "plain": a fresh interpreter per table with its own search worker.
        self.spawn = spawn or os.environ.get(SPAWN_VARIABLE, "zygote")
        self.zygote: Zygote | None = None
        self.pool: SearchPool | None = None
        self.directory = directory or data_dir()
        self.host_key = load_host_key(self.directory)
        self.log = log
        self.sessions: set[_Session] = set()
        self.connections: set[_Connection] = set()        # logged in
        self.logging_in: set[_Connection] = set()         # connected, not logged in yet
        self._quiet_until: dict[str, float] = {}          # refused logins: one log line per address per minute
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.hub: Any = None                              # serve.hub.Hub once started (shared tables)
        self.hub_thinker: Any = None                      # its searches' worker (workers.Thinker)

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint("sha256")

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.get_port()

    async def start(self, host: str, port: int) -> None:
        await self.start_hub()
        try:
            self.acceptor = await asyncssh.create_server(
                lambda: _Connection(self), host, port, server_host_keys=[self.host_key],
                encoding=None, line_editor=False, window=WINDOW,
                allow_scp=False, agent_forwarding=False, x11_forwarding=False,
                login_timeout=LOGIN_TIMEOUT, keepalive_interval=30, keepalive_count_max=4)
        except OSError as exc:
            await self.stop_hub()
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        if self.spawn != "plain":
            await self.start_helpers()

    async def start_helpers(self) -> None:
        """The fork server and the search pool; a template that cannot start leaves the plain way."""
        self.pool = SearchPool()
        await self.pool.start()
        if become_subreaper():
            self.zygote = Zygote(template_environment())
            if not await self.zygote.start():
                self.log("the table template did not start: tables start the plain way")

    async def stop(self) -> None:
        """Stop listening; every running table saves (SIGHUP) and leaves."""
        if self.acceptor is not None:
            self.acceptor.close()
        sessions = list(self.sessions)
        await asyncio.gather(*(session.hang_up("shutdown") for session in sessions), return_exceptions=True)
        for session in sessions:               # whatever did not leave in time is killed
            session._signal(signal.SIGKILL)
        for connection in list(self.connections):
            connection.close()
        if self.zygote is not None:
            self.zygote.close()
            become_subreaper(False)
            reap_orphans()
        if self.pool is not None:
            await self.pool.close()
        if self.acceptor is not None:
            await self.acceptor.wait_closed()
        await self.stop_hub()

    # -- the shared tables' hub (docs/design.md «Shared tables»): in this process, on its own socket
    async def start_hub(self) -> None:
        """Start the hub under ``DIR/hub`` (its saved tables resumed, nobody at them yet)."""
        if not self.limits.shared_tables or self.hub is not None:
            return
        from cardtable import workers
        from cardtable.serve.hub import Hub, HubBusy, HubLimits
        from cardtable.table import WorkerThinker

        # The shared tables' searches (the hard levels, hints) in one worker process of the server's,
        # never on its loop or under its interpreter lock; the cheap levels in the hub's threads.
        thinker = workers.Thinker()          # (its process starts at the first search)
        hub = Hub(self.directory / "hub", HubLimits(idle_timeout=self.limits.idle_timeout,
                                                    turn_timeout=self.limits.turn_timeout),
                  thinker_for=lambda spec: WorkerThinker(spec, thinker),
                  stats_path=lambda identity: player_stats_path(self.directory, identity))
        try:
            await hub.start()
        except HubBusy as exc:
            raise ServeError(f"{exc}: is another cardtable server using {self.directory}?") from None
        except OSError as exc:
            raise ServeError(f"cannot start the shared tables: {exc.strerror or exc}") from None
        self.hub, self.hub_thinker = hub, thinker

    async def stop_hub(self) -> None:
        """Every shared table saved and closed, the hub's socket removed."""
        hub, self.hub = self.hub, None
        if hub is not None:
            await hub.close()
        thinker, self.hub_thinker = self.hub_thinker, None
        if thinker is not None:
            await asyncio.to_thread(thinker.close)

    def hub_socket(self, connection: _Connection) -> socket.socket | None:
        """A connected socket to the hub for one connection's table process to inherit, its identity
        fixed here (the key's fingerprint; the SSH user name as the player's name). None for a guest
        (no key, no identity) or a server without shared tables."""
        if self.hub is None or connection.key is None:
            return None
        return self.hub.socket_pair(hub_identity(connection.key), hub_name(connection.username))

    def connected_players(self) -> set[str]:
        return {key_id(c.key) for c in self.connections if c.key is not None}

    def admit_login(self, connection: _Connection) -> bool:
        """Whether a new connection may try to log in (the others still logging in are few enough)."""
        same = sum(1 for c in self.logging_in if c.address == connection.address)
        if same < self.limits.logins_per_address and len(self.logging_in) < self.limits.logins:
            self.logging_in.add(connection)
            return True
        now = time.monotonic()
        if self._quiet_until.get(connection.address, 0.0) <= now:
            self._quiet_until = {address: t for address, t in self._quiet_until.items() if t > now}
            self._quiet_until[connection.address] = now + 60.0
            self.log(f"{connection.address}: refused connections: too many logging in at once "
                     f"(at most {self.limits.logins_per_address} per address, {self.limits.logins} in all)")
        return False

    def admit(self, connection: _Connection) -> str | None:
        """Why a connection that has just logged in is refused, or None (then it is counted)."""
        if len(self.connections) >= self.limits.max_connections:
            return f"the server is full ({self.limits.max_connections} connections); please try again later."
        same = sum(1 for c in self.connections if c.address == connection.address)
        if same >= self.limits.connections_per_address:
            return f"too many connections from your address (at most {self.limits.connections_per_address})."
        self.connections.add(connection)
        return None

    def table_refusal(self, connection: _Connection) -> str | None:
        if len(self.sessions) >= self.limits.max_sessions:
            return (f"the table is full ({self.limits.max_sessions} players at once); "
                    f"please try again later.")
        same = sum(1 for s in self.sessions if s.connection.address == connection.address)
        if same >= self.limits.per_address:
            return f"too many tables from your address (at most {self.limits.per_address})."
        if connection.key is not None and not make_room_for_player(
                self.directory, connection.key, self.limits.max_players, self.connected_players()):
            return "there is no room for a new player right now; please try again later."
        return None

    async def _run_session(self, process: asyncssh.SSHServerProcess) -> None:
        connection: _Connection = process.get_extra_info("connection").get_owner()
        refusal = self.table_refusal(connection)
        if refusal:
            self.log(f"{connection.address}: refused a table: {refusal}")
            process.stdout.write(f"cardtable: {refusal}\r\n".encode())
            process.exit(1)
            return
        try:
            args = shared_args(process.command)
        except SharedCommandError as exc:
            self.log(f"{connection.address}: refused the command {(process.command or '')[:80]!r}")
            process.stdout.write(f"cardtable: {exc}.\r\n".encode())
            process.exit(2)
            return
        if args is not None and (self.hub is None or connection.key is None):
            self.log(f"{connection.address}: refused a shared table: no key or no hub")
            process.stdout.write(b"cardtable: shared tables need a public key (ssh-keygen -t ed25519) "
                                 b"on a server that has them.\r\n")
            process.exit(2)
            return
        if args is None:
            args = client_args(process.command)
        if args is None:
            self.log(f"{connection.address}: refused the command {(process.command or '')[:80]!r}")
            process.stdout.write(b"cardtable: over SSH you can ask for 'new GAME [--seed N] [--level L] "
                                 b"[--option K=V]', 'continue [SLOT]', 'host GAME' or 'join CODE', "
                                 b"or nothing for the home screen.\r\n")
            process.exit(2)
            return
        if process.get_terminal_type() is None:
            self.log(f"{connection.address}: refused a session without a terminal")
            process.stdout.write(b"cardtable needs a terminal: connect with 'ssh -t'.\r\n")
            process.exit(2)
            return
        session = _Session(self, process, connection, args)
        self.sessions.add(session)
        connection.table = session
        try:
            status = await session.run()
        finally:
            self.sessions.discard(session)
            connection.table_ended()
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            process.exit(status)


class _Connection(asyncssh.SSHServer):
    """One client connection: public-key login (any key: the key is who you are), guests if allowed.
    At most one session channel at a time; closed when it holds no table for ``session_timeout``."""

    def __init__(self, server: TableServer):
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key: asyncssh.SSHKey | None = None
        self.username = ""
        self.address = "?"
        self.channel: asyncssh.SSHServerChannel | None = None
        self.table: _Session | None = None
        self.without_table_since = time.monotonic()
        self.refused_keys = 0
        self.env_refused = False
        self._watch: asyncio.Task | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        if not self.server.admit_login(self):
            conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.logging_in.discard(self)
        self.server.connections.discard(self)
        if self._watch is not None:
            self._watch.cancel()
        if self.table is not None:
            self.table.drop()

    def close(self, reason: str | None = None, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """End the connection; the reason (one line) is shown by the client (OpenSSH: "Received
        disconnect ... : reason")."""
        if self.conn is None:
            return
        if reason:
            self.server.log(f"{self.address}: closed: {reason}")
            self.conn.disconnect(code, f"cardtable: {reason}")
        else:
            self.conn.close()

    def auth_completed(self) -> None:
        self.server.logging_in.discard(self)
        refusal = self.server.admit(self)
        if refusal:
            self.close(refusal, asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return
        self.without_table_since = time.monotonic()
        self._watch = asyncio.ensure_future(self._watch_tableless())

    async def _watch_tableless(self) -> None:
        """The time limit of a connection that holds no table (``ssh -N``, or after its table ended)."""
        limit = min(self.server.limits.session_timeout, self.server.limits.idle_timeout)
        while True:
            if self.table is None:
                left = self.without_table_since + limit - time.monotonic()
                if left <= 0:
                    self.close(f"no table was opened for {limit:g} s; bye.")
                    return
                await asyncio.sleep(min(left, 5.0))
            else:
                await asyncio.sleep(5.0)

    def table_ended(self) -> None:
        self.table = None
        self.without_table_since = time.monotonic()

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel, asyncssh.SSHServerProcess]:
        """A session channel: one at a time per connection, its environment requests capped."""
        assert self.conn is not None
        if self.channel is not None:
            reason = "one table per connection: open another connection for another table."
            self.server.log(f"{self.address}: refused a second channel")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, f"cardtable: {reason}")
        channel = self.conn.create_server_channel(encoding=None, window=WINDOW)
        # asyncssh has no public cap on env requests: its handler for them is wrapped (tested in
        # tests/test_serve_ssh_limits.py against the asyncssh version installed).
        channel._process_env_request = self._env_filter(  # type: ignore[method-assign]
            channel, channel._process_env_request)
        self.channel = channel
        asyncio.ensure_future(self._forget_channel(channel))
        return channel, _TableProcess(self.server._run_session, None, 0, False)

    async def _forget_channel(self, channel: asyncssh.SSHServerChannel) -> None:
        await channel.wait_closed()
        if self.channel is channel:
            self.channel = None

    def _env_filter(self, channel: asyncssh.SSHServerChannel, keep: Callable[[SSHPacket], bool]):
        """At most ENV_REQUESTS environment requests per channel (more close the connection), each kept
        only if its name and value fit in ENV_BYTES."""
        count = 0

        def env_request(packet: SSHPacket) -> bool:
            nonlocal count
            count += 1
            if count > ENV_REQUESTS:
                if count == ENV_REQUESTS + 1:
                    self.close(f"too many environment variables (at most {ENV_REQUESTS}).")
                return False
            peek = SSHPacket(packet.get_remaining_payload())
            if len(peek.get_string()) + len(peek.get_string()) > ENV_BYTES:
                if not self.env_refused:
                    self.env_refused = True
                    self.server.log(f"{self.address}: ignored environment variables over {ENV_BYTES} bytes")
                return False
            return keep(packet)

        return env_request

    def begin_auth(self, username: str) -> bool:
        self.username = username[:256]          # the player's name at a shared table (cleaned there)
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        weakness = key_weakness(key)
        if weakness:
            self.refused_keys += 1
            if self.refused_keys > REFUSED_KEYS:
                if self.refused_keys == REFUSED_KEYS + 1:
                    self.close(f"too many refused keys (at most {REFUSED_KEYS}); use an ed25519 key.",
                               asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
                return False
            if self.refused_keys == 1:      # once per connection: a client may offer several keys
                self.server.log(f"{self.address}: refused a key: {weakness}")
                if self.conn is not None:
                    with contextlib.suppress(OSError):
                        self.conn.send_auth_banner(f"cardtable: {weakness}\r\n")
            return False
        # asyncssh calls this again for the signed request just before it checks the signature, so
        # after a successful login this holds the key that proved itself.
        self.key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.server.limits.guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None     # a guest: nothing of a key offered before counts
        return True


class _TableProcess(asyncssh.SSHServerProcess):
    """asyncssh's server process, but a window change goes straight to the table's session (which keeps
    only the latest) instead of queueing in the input, where a paused channel let a flood of them pile up
    without bound; breaks and signals are refused (a table takes its keys only)."""

    on_resize: Callable[[int, int], None] | None = None

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.on_resize is not None:
            self.on_resize(width, height)

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass


class _Session:
    """One player's table on a pseudo-terminal, bridged to the SSH channel.

    Output (table → client) is read from the pty only while the channel keeps up. Input (client →
    table) goes through a queue of at most INPUT_CAP bytes, written to the non-blocking pty by the
    loop's writer callback as the table reads it; while the queue is full the channel is paused, so the
    client's SSH window closes and the client waits. The end of the channel or the connection drops
    the queue and hangs the table up at once."""

    def __init__(self, server: TableServer, process: asyncssh.SSHServerProcess, connection: _Connection,
                 args: list[str]):
        self.server = server
        self.args = args
        self.process = process
        self.connection = connection
        self.child: Any = None             # asyncio's Process, or a zygote.ForkedTable
        self.master = -1
        self.last_input = time.monotonic()
        self.ended_by: str | None = None
        self.pending = bytearray()
        self._writing = False
        self._room = asyncio.Event()
        self._room.set()
        self._hangup: asyncio.Task | None = None
        self._size: tuple[int, int] | None = None      # the latest window change, not given yet
        self._sized_at = 0.0
        self._resizer: asyncio.TimerHandle | None = None
        if isinstance(process, _TableProcess):
            process.on_resize = self.resize

    def resize(self, width: int, height: int) -> None:
        """A window change: the table gets the latest size at most every RESIZE_INTERVAL (each one costs
        it a full repaint), and always the last one."""
        self._size = (width, height)
        if self._resizer is None and self.master >= 0:
            wait = self._sized_at + RESIZE_INTERVAL - time.monotonic()
            self._resizer = asyncio.get_running_loop().call_later(max(0.0, wait), self._apply_size)

    def _apply_size(self) -> None:
        self._resizer = None
        if self._size is None or self.master < 0:
            return
        (width, height), self._size = self._size, None
        self._sized_at = time.monotonic()
        with contextlib.suppress(OSError):
            _set_size(self.master, width, height)
        self._signal(signal.SIGWINCH)

    async def run(self) -> int:
        home, throwaway = player_home(self.server.directory, self.connection.key)
        try:
            return await self._run_table(home)
        finally:
            if throwaway:
                shutil.rmtree(home, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.utime(home)

    async def _run_table(self, home: Path) -> int:
        width, height, _, _ = self.process.get_terminal_size()
        self.master, slave = os.openpty()
        try:
            _set_size(self.master, width, height)
            os.set_blocking(self.master, False)
            env = child_environment(home, self.process.get_terminal_type(), dict(self.process.env))
            self.child = await self._spawn(env, home, slave)
        finally:
            os.close(slave)
        tasks = [asyncio.ensure_future(coro) for coro in
                 (self._pump_output(), self._pump_input(), self._watch_idle(), self._watch_channel())]
        try:
            status = await self.child.wait()
        finally:
            if self.child.returncode is None:      # cancelled (the server stopped): never leave it behind
                self._signal(signal.SIGKILL)
            self._stop_writing()
            if self._resizer is not None:
                self._resizer.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            os.close(self.master)
            self.master = -1
        if self.ended_by == "idle":
            self._say(f"\r\ncardtable: no key for {self.server.limits.idle_timeout:g} s: your game is saved. "
                      f"Bye.\r\n")
        elif self.ended_by == "shutdown":
            self._say("\r\ncardtable: the server is shutting down: your game is saved.\r\n")
        return status if status >= 0 else 1

    async def _spawn(self, env: dict[str, str], home: Path, slave: int) -> Any:
        """The table: forked from the server's template, or a fresh interpreter when there is none
        (serve/zygote.spawn_table), on ``slave``, holding the search pool's socket as fd POOL_FD and, for
        a keyed player of a server with shared tables, the hub's socket as fd HUB_FD."""
        fds = {0: slave, 1: slave, 2: slave}
        pool = await self.server.pool.connect() if self.server.pool is not None else None
        hub = self.server.hub_socket(self.connection)
        try:
            if pool is not None:
                fds[POOL_FD] = pool.fileno()
                env["CARDTABLE_SEARCH_POOL_FD"] = str(POOL_FD)
            if hub is not None:
                fds[HUB_FD] = hub.fileno()
                env["CARDTABLE_HUB_FD"] = str(HUB_FD)
            return await spawn_table(self.server.zygote, self.args, env, str(home), fds)
        finally:
            for sock in (pool, hub):        # the table holds its own copies
                if sock is not None:
                    sock.close()

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            self.process.stdout.write(text.encode())

    async def _pump_output(self) -> None:
        """Table → client, with flow control: the pty is read while the channel keeps up; once the
        channel holds OUTPUT_BACKLOG unsent, reading waits until it has drained. The reader stays
        registered between chunks (not a future and two epoll calls per chunk: every table's frames pass
        through this one loop)."""
        loop = asyncio.get_running_loop()
        while True:
            wake: asyncio.Future[bool] = loop.create_future()
            loop.add_reader(self.master, self._pump_chunk, wake)
            try:
                ended = await wake
            finally:
                loop.remove_reader(self.master)
            if ended:
                return
            await self.process.stdout.drain()

    def _pump_chunk(self, wake: asyncio.Future[bool]) -> None:
        """The loop's reader callback: one read of the pty to the channel; ``wake`` says when the table
        has ended (True) or the channel is backed up (False)."""
        if wake.done():
            return
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:              # EIO: the table closed its terminal
            data = b""
        if not data:
            wake.set_result(True)
            return
        try:
            self.process.stdout.write(data)
        except Exception as exc:  # noqa: BLE001 - the pump's task ends with it, as when it wrote itself
            wake.set_exception(exc)
            return
        if self.process.channel.get_write_buffer_size() >= OUTPUT_BACKLOG:
            wake.set_result(False)

    async def _pump_input(self) -> None:
        """Client → the input queue; resizes follow; the end of the input hangs the table up."""
        while True:
            await self._room.wait()
            try:
                data = await self.process.stdin.read(4096)
            except (asyncssh.BreakReceived, asyncssh.SignalReceived, asyncssh.TerminalSizeChanged):
                continue             # not queued here (see _TableProcess); kept for safety
            except (asyncssh.Error, OSError, BrokenPipeError):
                data = b""
            if not data:
                self.drop()
                return
            self.last_input = time.monotonic()
            self._queue(data)

    def _queue(self, data: bytes) -> None:
        self.pending += data
        if not self._writing:
            asyncio.get_running_loop().add_writer(self.master, self._write_some)
            self._writing = True
        if len(self.pending) >= INPUT_CAP and self._room.is_set():
            self._room.clear()
            self.process.channel.pause_reading()

    def _write_some(self) -> None:
        """The loop's writer callback: as much of the queue as the terminal takes now, never blocking."""
        try:
            written = os.write(self.master, self.pending[:16384])
        except BlockingIOError:
            return
        except OSError:              # the table closed its terminal: nothing will read the rest
            written = len(self.pending)
        del self.pending[:written]
        if not self.pending:
            self._stop_writing()
        if not self._room.is_set() and len(self.pending) <= INPUT_CAP // 2:
            self._room.set()
            with contextlib.suppress(OSError, asyncssh.Error):
                self.process.channel.resume_reading()

    def _stop_writing(self) -> None:
        if self._writing:
            self._writing = False
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_writer(self.master)

    async def _watch_channel(self) -> None:
        """A channel the client closed ends the table at once, even while its input is paused (a paused
        asyncssh channel holds the close back until its buffer is read; ``is_closing`` tells at once)."""
        channel = self.process.channel
        while not channel.is_closing():
            await asyncio.sleep(0.2)
        self.drop()

    def drop(self) -> None:
        """The client is gone: forget its queued input and hang the table up (it saves)."""
        self.pending.clear()
        self._stop_writing()
        if self._hangup is None:
            self._hangup = asyncio.ensure_future(self.hang_up("dropped"))

    async def _watch_idle(self) -> None:
        timeout = self.server.limits.idle_timeout
        while True:
            left = self.last_input + timeout - time.monotonic()
            if left <= 0:
                self.server.log(f"{self.connection.address}: a table idle for {timeout:g} s ended")
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
        reach = "only this machine can connect" if is_loopback(host) else "reachable beyond this machine"
        print(f"cardtable: serving over SSH on {host}:{server.port} (ssh -p {server.port} {host}; {reach})",
              flush=True)
        print(f"cardtable: host key {server.fingerprint}", flush=True)
        print(f"cardtable: players' files in {server.directory}", flush=True)
        await stop.wait()
        print("cardtable: stopping; every running game is saved", flush=True)
        await server.stop()
        return 0

    return asyncio.run(serve())
