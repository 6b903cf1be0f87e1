"""``cardtable serve ssh``: the limits on what one client may ask for, each refusal one line to the
client and one line in the server's log. Real asyncssh clients on 127.0.0.1; bounded waits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh")
pytest.importorskip("pyte")

from cardtable.serve import is_loopback, warn_if_public
from cardtable.serve import ssh as serve_ssh
from tests.test_serve_ssh import WAIT, Terminal, _key, _wait_until, session

REFUSED_COMMAND = "sim gongzhu"     # answered by the server itself: no table process to wait for


@contextlib.asynccontextmanager
async def logged_server(directory: Path, **limits):
    log: list[str] = []
    server = serve_ssh.TableServer(serve_ssh.SshLimits(**limits), directory=directory, log=log.append)
    server.log_lines = log
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


class _Watcher(asyncssh.SSHClient):
    """Keeps why the server ended the connection and the login banners it sent."""

    def __init__(self) -> None:
        self.lost = asyncio.get_event_loop().create_future()
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(exc)


async def _connect(server, key=None):
    conn, client = await asyncssh.create_connection(
        _Watcher, "127.0.0.1", server.port, username="player", known_hosts=None, agent_path=None,
        client_keys=[key or _key()], password_auth=False, kbdint_auth=False)
    return conn, client


async def _disconnect_reason(client: _Watcher) -> str:
    """The line the server sent with its disconnect. asyncssh raises it only for codes other than
    «by application» (the code of the time limits); for those its debug log keeps the line."""
    exc = await asyncio.wait_for(client.lost, WAIT)
    if exc is not None:
        return getattr(exc, "reason", str(exc))
    return "\n".join(record.getMessage() for record in _disconnects.records)


class _DisconnectLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "Received disconnect" in record.getMessage():
            self.records.append(record)


_disconnects = _DisconnectLog()


@pytest.fixture(autouse=True)
def _asyncssh_disconnect_log():
    logger = logging.getLogger("asyncssh")
    level = logger.level
    asyncssh.set_debug_level(1)
    logger.setLevel(logging.DEBUG)
    logger.addHandler(_disconnects)
    _disconnects.records.clear()
    yield
    logger.removeHandler(_disconnects)
    logger.setLevel(level)


async def test_a_second_session_channel_is_refused(tmp_path):
    async with logged_server(tmp_path) as server:
        conn, _ = await _connect(server)
        async with conn:
            first = await conn.create_process(term_type="xterm", term_size=(100, 30), encoding=None)
            terminal = Terminal(first)
            await terminal.wait_for("Choose a game")
            with pytest.raises(asyncssh.ChannelOpenError, match="one table per connection"):
                await conn.create_process(term_type="xterm", encoding=None)
            assert len(server.sessions) == 1
            assert any("refused a second channel" in line for line in server.log_lines)


async def test_logged_in_connections_are_capped_per_address_and_in_all(tmp_path):
    async with logged_server(tmp_path, connections_per_address=2) as server:
        held = [await _connect(server) for _ in range(2)]
        _conn, client = await _connect(server)
        assert "too many connections from your address (at most 2)" in await _disconnect_reason(client)
        assert any("too many connections" in line for line in server.log_lines)
        for c, _ in held:
            c.close()
    async with logged_server(tmp_path, max_connections=2) as server:
        held = [await _connect(server) for _ in range(2)]
        _conn, client = await _connect(server)
        assert "the server is full (2 connections)" in await _disconnect_reason(client)
        for c, _ in held:
            c.close()
        await asyncio.wait_for(asyncio.gather(*(c.wait_closed() for c, _ in held)), WAIT)
        await _wait_until(lambda: not server.connections, what="the connections to be forgotten")
        again, _ = await _connect(server)               # room again once they have gone
        again.close()


async def test_connections_still_logging_in_are_capped(tmp_path):
    async with logged_server(tmp_path) as server:
        silent = [await asyncio.open_connection("127.0.0.1", server.port)
                  for _ in range(server.limits.logins_per_address)]   # connected, never logging in
        await _wait_until(lambda: len(server.logging_in) == server.limits.logins_per_address, what="the logins")
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert await asyncio.wait_for(reader.read(), WAIT) == b""       # closed at once
        writer.close()
        assert any("too many logging in at once" in line for line in server.log_lines)
        for _, held in silent:
            held.close()
        await _wait_until(lambda: not server.logging_in, what="the silent connections to be forgotten")
        conn, _ = await _connect(server)            # room again
        conn.close()


async def test_a_connection_without_a_table_is_closed_after_the_session_timeout(tmp_path):
    async with logged_server(tmp_path, session_timeout=1.0) as server:
        started = time.monotonic()
        _conn, client = await _connect(server)             # like `ssh -N`: logged in, no session
        assert "no table was opened for 1 s" in await _disconnect_reason(client)
        assert time.monotonic() - started < WAIT
        assert any("no table was opened" in line for line in server.log_lines)


async def test_the_idle_timeout_also_bounds_a_connection_without_a_table(tmp_path):
    async with logged_server(tmp_path, session_timeout=600.0, idle_timeout=1.0) as server:
        _conn, client = await _connect(server)
        assert "no table was opened for 1 s" in await _disconnect_reason(client)


async def test_environment_requests_are_capped_in_count_and_size(tmp_path):
    async with logged_server(tmp_path) as server:
        conn, _ = await _connect(server)
        async with conn:
            process = await conn.create_process(REFUSED_COMMAND, encoding=None,
                                                env={"LANG": "en_US.UTF-8", "BIG": "x" * 4000})
            await asyncio.wait_for(process.wait_closed(), WAIT)
        assert any("ignored environment variables over" in line for line in server.log_lines)
        assert any("refused the command 'sim gongzhu'" in line for line in server.log_lines)

        conn, client = await _connect(server)
        env = {f"VAR{n}": "1" for n in range(serve_ssh.ENV_REQUESTS + 5)}
        with contextlib.suppress(asyncssh.Error, OSError):
            process = await conn.create_process(REFUSED_COMMAND, encoding=None, env=env)
            await asyncio.wait_for(process.wait_closed(), WAIT)
        reason = await _disconnect_reason(client)
        assert f"too many environment variables (at most {serve_ssh.ENV_REQUESTS})" in reason


async def test_weak_keys_are_refused_with_a_clear_line(tmp_path):
    weak = asyncssh.generate_private_key("ssh-rsa", key_size=1024)
    async with logged_server(tmp_path) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await _connect(server, weak)
        assert any("RSA keys need at least 2048 bits (this one has 1024)" in line for line in server.log_lines)
        strong = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
        conn, _client = await _connect(server, strong)
        conn.close()

    class Banners(_Watcher):
        seen: list[str] = []

        def auth_banner_received(self, msg: str, lang: str) -> None:
            Banners.seen.append(msg)

    async with logged_server(tmp_path) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.create_connection(Banners, "127.0.0.1", server.port, username="p", known_hosts=None,
                                             agent_path=None, client_keys=[weak], password_auth=False,
                                             kbdint_auth=False)
        assert any("RSA keys need at least 2048 bits" in banner for banner in Banners.seen)


def test_key_strength():
    assert "DSA keys are refused" in serve_ssh.key_weakness(asyncssh.generate_private_key("ssh-dss"))
    assert serve_ssh.key_weakness(asyncssh.generate_private_key("ssh-rsa", key_size=1024))
    assert serve_ssh.key_weakness(asyncssh.generate_private_key("ssh-rsa", key_size=2048)) is None
    assert serve_ssh.key_weakness(asyncssh.generate_private_key("ssh-ed25519")) is None
    assert serve_ssh.key_weakness(asyncssh.generate_private_key("ecdsa-sha2-nistp256")) is None


def test_stored_players_are_pruned_oldest_idle_first_never_a_connected_one(tmp_path):
    users = tmp_path / "users"
    keys = [_key() for _ in range(4)]
    homes = [users / serve_ssh.key_id(key) for key in keys[:3]]
    for age, home in enumerate(homes):                 # homes[0] idle longest
        home.mkdir(parents=True)
        (home / "settings.json").write_text("{}")
        os.utime(home, (1_000_000 + age, 1_000_000 + age))
    connected = {homes[0].name}
    assert serve_ssh.make_room_for_player(tmp_path, keys[3], 3, connected)
    assert homes[0].exists() and not homes[1].exists() and homes[2].exists()
    assert serve_ssh.make_room_for_player(tmp_path, keys[0], 1, connected)    # a known player: no pruning
    assert homes[2].exists()
    assert not serve_ssh.make_room_for_player(tmp_path, keys[3], 1, {homes[0].name, homes[2].name})
    assert homes[0].exists() and homes[2].exists()


async def test_no_room_for_a_new_player_while_the_stored_ones_are_connected(tmp_path):
    async with logged_server(tmp_path, max_players=1) as server, session(server, _key()) as first:
        await first.wait_for("Choose a game")
        async with session(server, _key()) as second:
            await second.wait_for("no room for a new player")
        assert len(list((tmp_path / "users").iterdir())) == 1


async def test_nothing_in_the_player_directory_is_importable(tmp_path):
    key = _key()
    home = tmp_path / "users" / serve_ssh.key_id(key)
    marker = tmp_path / "imported"
    plant = f"open({str(marker)!r}, 'a').write(__name__ + chr(10))\n"
    (home / "cardtable").mkdir(parents=True)
    (home / "cardtable" / "__init__.py").write_text(plant)
    (home / "cardtable" / "__main__.py").write_text(plant)
    (home / "textual.py").write_text(plant)
    async with logged_server(tmp_path) as server, session(server, key) as term:
        await term.wait_for("Choose a game")
    assert not marker.exists(), marker.read_text()


def test_every_loopback_address_is_only_this_machine(capsys):
    for host in ("127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "localhost"):
        assert is_loopback(host), host
        warn_if_public(host)
        assert capsys.readouterr().err == ""
    for host in ("0.0.0.0", "10.0.0.2", "::", "example.org"):
        assert not is_loopback(host), host
    warn_if_public("0.0.0.0")
    assert "not only this machine" in capsys.readouterr().err
