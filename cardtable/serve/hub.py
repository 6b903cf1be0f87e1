"""The table hub: the server's shared tables, on a local Unix socket (docs/design.md «Shared tables»).

The hub holds every shared :class:`~cardtable.table.TableSession`. Each connection's own ``cardtable``
process is its client (``cardtable/serve/tableclient.py``), speaking JSON lines: it says who it is
(``hello``), makes or joins a table (``create``, ``join CODE``), then sends its seat's commands and
reads its seat's events, each view encoded by the game's codec (``cardtable/wire.py``).

What it guards: every line is bounded (length, rate), every client's outgoing lines wait in a queue of
their own (a slow reader never slows the others; one that cannot keep up is cut off), every command goes
through the session's checks for the connection's own seat, wrong join codes are rate-limited per
identity, and the tables a player hosts or sits at are capped. CPU decisions run in a thread, never on
the loop. A table nobody is connected to for the idle timeout is saved and closed; tables are saved in
a store of their own (``DIR/tables``, not the solo slot list) and resumed after a restart.

This module imports no Textual.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
import os
import socket
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable import games, wire
from cardtable.engine import IllegalMove
from cardtable.games import GameSpec
from cardtable.saves import SUFFIX, SaveData, SaveError, SlotBusy
from cardtable.serve.tablestore import BackgroundStore
from cardtable.stats import StatsService
from cardtable.table import (
    OVER,
    SEATS,
    Answer,
    BotThinker,
    CommandError,
    Decline,
    Hint,
    NextHand,
    Play,
    Reply,
    Seat,
    Sit,
    Snapshot,
    TableSession,
    Thinker,
    clean_name,
    command_from_json,
    make_code,
    owner_tag,
    read_code,
)

PROTOCOL = wire.PROTOCOL
SOCKET_NAME = "tables.sock"
STORE_NAME = "tables"
SLOT_PREFIX = "table-"
IDENTITY_LIMIT = 256
HUB_COMMANDS = ("create", "join", "tables", "leave")
logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class HubLimits:
    """The hub's bounds. ``rate``/``burst``: messages per second a connection may send, sustained and
    at once (more: it is cut off); ``queue_lines``: lines waiting for a client (more: it is cut off);
    ``write_timeout``: how long a client may leave its socket full; ``guesses`` wrong join codes per
    identity in ``guess_window`` seconds; ``think_time``: how long a person's automatic move waits at
    a table with other people (so its timing shows nothing); ``turn_timeout``: how long a person who
    holds up a table with other people here may take before their CPU moves for them (0: never);
    ``keep_finished`` / ``keep_unfinished``: how long a table's slot stays in the store after its last
    save, once its match is over / while it is not (abandoned); ``tables_kept``: the store's slots at
    most (beyond it the oldest go, finished ones first). See :meth:`Hub.prune_store`."""

    line_bytes: int = 64 * 1024
    rate: float = 20.0
    burst: int = 60
    queue_lines: int = 512
    write_timeout: float = 10.0
    hello_timeout: float = 10.0
    connections: int = 256
    tables_hosted: int = 3
    tables_seated: int = 8
    tables_total: int = 200
    guesses: int = 5
    guess_window: float = 60.0
    idle_timeout: float = 1800.0
    cpu_delay: float = 0.6
    think_time: float = 1.0
    turn_timeout: float = 0.0
    keep_finished: float = 7 * 86400.0
    keep_unfinished: float = 90 * 86400.0
    tables_kept: int = 2000


class _Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens, self.stamp = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class HubBusy(Exception):
    """Another hub serves this directory."""


async def _answers(path: Path) -> bool:
    """Whether a live server listens on the socket ``path``."""
    try:
        _reader, writer = await asyncio.open_unix_connection(str(path))
    except OSError:
        return False
    writer.close()
    return True


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _notice(told: IllegalMove) -> dict[str, Any]:
    """A notice to a table's people, not tied to a request: ``{"notice": key, "params", "reason"}``."""
    return {"notice": told.key, "params": wire.plain(dict(told.params)), "reason": told.reason}


def _refusal(reply_id: Any, key: str, reason: str, **params: Any) -> dict[str, Any]:
    return {"reply": reply_id, "ok": False, "key": key, "params": params, "reason": reason}


class _Conn:
    """One client: its identity and name, its outgoing queue and writer, and the seat it speaks for."""

    def __init__(self, hub: Hub, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 identity: str | None, name: str) -> None:
        self.hub = hub
        self.reader, self.writer = reader, writer
        self.identity, self.name = identity, name
        self.out: asyncio.Queue[bytes] = asyncio.Queue(hub.limits.queue_lines)
        self.bucket = _Bucket(hub.limits.rate, hub.limits.burst, hub.clock)
        self.table: _Table | None = None
        self.seat: int | None = None
        self.closed = False
        self.ended_by = ""
        self.pump: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue a line for this client; a client whose queue is full is cut off (never waited for)."""
        if self.closed:
            return
        try:
            self.out.put_nowait(_line(message))
        except asyncio.QueueFull:
            self.drop("slow")

    def drop(self, why: str) -> None:
        """Cut this client off now: its seat goes to its CPU, its socket is aborted."""
        if self.closed:
            return
        self.closed, self.ended_by = True, why
        self.hub._detach(self)
        self.writer.transport.abort()

    async def write_out(self) -> None:
        timeout = self.hub.limits.write_timeout
        try:
            while True:
                line = await self.out.get()
                self.writer.write(line)
                async with asyncio.timeout(timeout):
                    await self.writer.drain()
        except (TimeoutError, ConnectionError, OSError):
            self.drop("slow")


class _Table:
    """A session in the hub: its connections by seat, the thinker of its CPUs and the task that runs
    them."""

    def __init__(self, session: TableSession, thinker: Thinker) -> None:
        self.session = session
        self.thinker = thinker
        self.conns: dict[int, _Conn] = {}
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.timer: tuple[Any, float] | None = None     # (who holds the table up, since when: loop time)

    @property
    def code(self) -> str:
        return self.session.code


class Hub:
    """The shared tables of one server, on ``DIR/tables.sock`` (mode 0600; ``DIR`` made 0700).

    ``thinker_for(spec)`` gives a table's CPU thinker (default: the game's bots, asked in a thread; a
    server gives a ``table.WorkerThinker`` for the search levels). ``stats_path(identity)`` is where a
    player's statistics database is (None: that player's are not kept; no ``stats_path``: nobody's):
    each person's hands are written there, by a ``stats.StatsService`` of the player's (its own
    thread, never the loop). ``clock`` is the time the idle timeout, the rate caps and the guess
    limits read."""

    def __init__(self, directory: Path | str, limits: HubLimits | None = None, *,
                 thinker_for: Callable[[GameSpec], Thinker] | None = None,
                 stats_path: Callable[[str], Path | None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.directory = Path(directory)
        self.limits = limits or HubLimits()
        self.thinker_for = thinker_for or BotThinker
        self.stats_path = stats_path
        self.clock = clock
        self._identities: dict[str, str] = {}          # a seat's owner tag → the identity it was made of
        self._statistics: dict[str, StatsService | None] = {}     # identity → that player's service
        self.store = BackgroundStore(self.directory / STORE_NAME)   # writes off the event loop
        self.tables: dict[str, _Table] = {}
        self.conns: set[_Conn] = set()
        self._guesses: dict[str, collections.deque[float]] = {}
        self._server: asyncio.AbstractServer | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._handlers: set[asyncio.Task[Any]] = set()      # the connections' own (not cancelled)

    @property
    def socket_path(self) -> Path:
        return self.directory / SOCKET_NAME

    # ---------------------------------------------------------------- starting and stopping
    async def start(self) -> Path:
        """Resume the saved tables, listen on the socket; returns its path. Raises :class:`HubBusy` when
        another hub serves the directory."""
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)
        path = self.socket_path
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(path).st_mode):
                if await _answers(path):
                    raise HubBusy(f"another hub is serving {path}")
                path.unlink()                     # a socket left by a hub that died
        loop = asyncio.get_running_loop()

        def save_changed(slot: str, error: str | None) -> None:     # (the store's writer thread)
            loop.call_soon_threadsafe(self._save_changed, slot, error)

        self.store.on_change = save_changed
        await asyncio.to_thread(self.prune_store)
        self.resume_saved()
        old = os.umask(0o177)
        try:
            self._server = await asyncio.start_unix_server(self._accept, path, limit=self.limits.line_bytes)
        finally:
            os.umask(old)
        os.chmod(path, 0o600)
        self._sweeper = asyncio.create_task(self._sweep())
        return path

    async def close(self) -> None:
        """Stop listening, cut every client off, save and close every table."""
        if self._server is not None:
            self._server.close()
        for conn in list(self.conns):
            conn.drop("shutdown")
        if self._handlers:                            # they end by themselves once their sockets are gone
            await asyncio.wait(list(self._handlers), timeout=5.0)
        for table in list(self.tables.values()):
            self._close_table(table)
        for task in [self._sweeper, *self._tasks]:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in [self._sweeper, *self._tasks] if t is not None),
                             return_exceptions=True)
        await asyncio.to_thread(self.store.close)
        services = [service for service in self._statistics.values() if service is not None]
        self._statistics.clear()
        for service in services:                      # the last writes done
            await asyncio.to_thread(service.close)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()

    def resume_saved(self) -> int:
        """Resume every saved table whose match is not over (nobody connected: it stands still until its
        people join again), newest first. Only those are replayed, once each. Returns how many."""
        resumed = 0
        for code, save in self._saved_tables(set()):
            if len(self.tables) >= self.limits.tables_total:
                break
            if code in self.tables or (save.table or {}).get("phase") == OVER:
                continue
            if self._resume(code) is not None:
                resumed += 1
        return resumed

    def prune_store(self, now: float | None = None) -> int:
        """Remove the slots of tables not held now whose last save is older than ``keep_finished``
        (the match is over: its people's statistics have it already) or ``keep_unfinished``
        (abandoned), then the oldest beyond ``tables_kept`` (finished ones first). Returns how many
        went. Run at start and by the sweeper, in a thread."""
        now = time.time() if now is None else now
        limits = self.limits
        slots: list[tuple[bool, float, str]] = []        # (unfinished, saved, slot)
        for code, save in self._saved_tables(set(self.tables)):
            slot = SLOT_PREFIX + code
            try:
                saved = os.stat(self.store.path(slot)).st_mtime
            except OSError:
                continue
            slots.append(((save.table or {}).get("phase") != OVER, saved, slot))
        doomed = {slot for unfinished, saved, slot in slots
                  if now - saved > (limits.keep_unfinished if unfinished else limits.keep_finished)}
        kept = sorted((entry for entry in slots if entry[2] not in doomed), reverse=True)
        doomed.update(slot for _, _, slot in kept[limits.tables_kept:])     # unfinished and newest first kept
        removed = 0
        for slot in doomed:
            try:
                self.store.delete(slot)
                removed += 1
            except (SaveError, SlotBusy):
                continue
        if removed:
            logger.info("the table store: %d old tables removed", removed)
        return removed

    def _save_changed(self, slot: str, error: str | None) -> None:
        """The store's writes of ``slot`` started failing (``error``) or work again: its people are told."""
        table = self.tables.get(slot[len(SLOT_PREFIX):])
        if table is None:
            return
        if error is not None:
            notice = _notice(IllegalMove(f"the server cannot save this table: {error[:120]}", "hub_save_failed",
                                         why=error[:120]))
        else:
            notice = _notice(IllegalMove("the table is saved again", "hub_saved_again"))
        for conn in table.conns.values():
            conn.send(notice)

    def _saved_tables(self, skip: set[str]) -> list[tuple[str, SaveData]]:
        """The table store's slots (but ``skip``'s codes) as ``(code, envelope)``, newest first: only each
        file's envelope is read, no match is replayed (the store keeps every table ever made; a damaged
        one shows when it is resumed)."""
        try:
            names = os.listdir(self.store.directory)
        except OSError:
            return []
        found = []
        for name in names:
            slot = name[:-len(SUFFIX)] if name.endswith(SUFFIX) else ""
            code = read_code(slot[len(SLOT_PREFIX):]) if slot.startswith(SLOT_PREFIX) else None
            if code is None or code in skip or slot != SLOT_PREFIX + code:
                continue
            try:
                found.append((code, self.store.read(slot)))
            except SaveError:
                continue
        found.sort(key=lambda item: item[1].saved_at, reverse=True)
        return found

    def _resume(self, code: str) -> _Table | None:
        slot = SLOT_PREFIX + code
        if not self.store.path(slot).is_file():
            return None
        try:
            session = TableSession.resume(self.store, slot, cpu_delay=self.limits.cpu_delay, clock=self.clock)
        except SlotBusy:                             # another process holds it
            return None
        except (SaveError, KeyError, ValueError):
            self.store.unlock(slot)
            return None
        if not session.shared or session.match.is_over() or session.code != code:
            self.store.unlock(slot)
            return None
        return self._hold(session)

    def _hold(self, session: TableSession) -> _Table:
        table = _Table(session, self.thinker_for(session.spec))
        session.thinker = table.thinker
        session.stats_for = self._stats_for
        self.tables[session.code] = table
        table.task = asyncio.get_running_loop().create_task(self._run(table))
        self._tasks.add(table.task)
        table.task.add_done_callback(self._tasks.discard)
        return table

    def _close_table(self, table: _Table) -> None:
        """Save the table and let it go (its slot stays, to join it again or resume it)."""
        for conn in list(table.conns.values()):
            conn.drop("closed")
        table.session.autosave()
        if table.task is not None:
            table.task.cancel()
        self.store.flush(table.session.slot)        # on disk before anyone else may open the slot
        self.store.unlock(table.session.slot)
        self.tables.pop(table.code, None)

    # ---------------------------------------------------------------- connections
    def socket_pair(self, identity: str, name: str) -> socket.socket:
        """A connected socket for a connection process to inherit, its identity fixed by the server
        (no other process can speak for that seat). The hub serves the other end."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._spawn(self._serve_socket(ours, identity, name))
        return theirs

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve_socket(self, sock: socket.socket, identity: str, name: str) -> None:
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=self.limits.line_bytes)
        await self._serve(reader, writer, identity, name)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._serve(reader, writer, None, "")

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     identity: str | None, name: str) -> None:
        conn = _Conn(self, reader, writer, identity, name)
        full = len(self.conns) >= self.limits.connections
        self.conns.add(conn)
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
            handler.add_done_callback(self._handlers.discard)
        conn.pump = asyncio.create_task(conn.write_out())
        try:
            if full:
                conn.send(_refusal(None, "hub_full", "the server has as many connections as it can hold"))
                await self._flush_and_drop(conn, "full")
            elif await self._hello(conn):
                while not conn.closed:
                    try:
                        raw = await reader.readline()
                    except ValueError:                        # longer than the line limit
                        conn.send(self._reply(None, Reply.refused(IllegalMove(
                            f"a line is at most {self.limits.line_bytes} bytes", "hub_line_too_long",
                            limit=self.limits.line_bytes))))
                        await self._flush_and_drop(conn, "line_too_long")
                        break
                    if not raw:
                        break
                    if not conn.bucket.take():
                        conn.send(_refusal(None, "hub_flood", "too many messages"))
                        await self._flush_and_drop(conn, "flood")
                        break
                    await self._handle(conn, raw)
        except (ConnectionError, OSError):
            pass
        except Exception:                              # a bug: this client goes, the hub stays
            logger.exception("a table connection failed")
            conn.ended_by = "error"
        finally:
            conn.drop(conn.ended_by or "closed")
            self.conns.discard(conn)
            conn.pump.cancel()
            with contextlib.suppress(BaseException):
                await conn.pump

    async def _flush_and_drop(self, conn: _Conn, why: str) -> None:
        """Let the refusal just queued reach the client (briefly), then cut it off."""
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            async with asyncio.timeout(1.0):
                await self._drained(conn)
        conn.drop(why)

    @staticmethod
    async def _drained(conn: _Conn) -> None:
        while not conn.out.empty() and not conn.closed:
            await asyncio.sleep(0.01)
        await conn.writer.drain()

    async def _hello(self, conn: _Conn) -> bool:
        """The first line: ``{"hello": PROTOCOL, "version": 1, "identity": …, "name": …}``. A socket the
        server handed out (:meth:`socket_pair`) has its identity already: the hello's is ignored."""
        # A socket handed to a connection process (identity fixed) may say hello late: its table
        # process speaks when the player first opens a shared table, and its end closes with it.
        timeout = self.limits.hello_timeout if conn.identity is None else None
        try:
            raw = await asyncio.wait_for(conn.reader.readline(), timeout)
            hello = json.loads(raw)
        except (TimeoutError, ValueError, RecursionError):     # (RecursionError: nested too deep)
            hello = None
        if not (isinstance(hello, dict) and hello.get("hello") == PROTOCOL and hello.get("version") == wire.WIRE_VERSION):
            conn.send(_refusal(None, "hub_bad_hello", f"expected a hello of {PROTOCOL} version {wire.WIRE_VERSION}"))
            await self._flush_and_drop(conn, "hello")
            return False
        if conn.identity is None:
            identity = hello.get("identity")
            if not isinstance(identity, str) or not 0 < len(identity) <= IDENTITY_LIMIT:
                conn.send(_refusal(None, "hub_bad_hello", "a hello names the player's identity"))
                await self._flush_and_drop(conn, "hello")
                return False
            conn.identity = identity
            conn.name = clean_name(hello.get("name", ""))
        else:
            conn.name = clean_name(conn.name)
        conn.send({"hello": PROTOCOL, "version": wire.WIRE_VERSION, "name": conn.name,
                   "games": list(games.games())})
        return True

    # ---------------------------------------------------------------- messages
    async def _handle(self, conn: _Conn, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):                    # (UnicodeDecodeError is a ValueError)
            conn.send(_refusal(None, "hub_bad_json", "a line is one JSON object"))
            return
        reply_id = message.get("id") if isinstance(message, dict) else None
        if not (reply_id is None or type(reply_id) is int or (isinstance(reply_id, str) and len(reply_id) <= 64)):
            reply_id = None
        if not isinstance(message, dict) or not isinstance(message.get("cmd"), str):
            conn.send(_refusal(reply_id, "table_bad_command", "a message is a JSON object with a 'cmd'"))
            return
        name = message["cmd"]
        if name in HUB_COMMANDS:
            reply = getattr(self, f"_cmd_{name}")(conn, message)
            if asyncio.iscoroutine(reply):               # ``tables`` reads files: in a thread
                reply = await reply
            conn.send(self._reply(reply_id, reply))
            if conn.table is not None:
                self._flush(conn.table)
            return
        table, seat = conn.table, conn.seat
        if table is None or seat is None:
            conn.send(_refusal(reply_id, "hub_no_table", "make or join a table first"))
            return
        session = table.session
        try:
            command = command_from_json(session.spec, message)
        except CommandError as exc:
            conn.send(_refusal(reply_id, exc.key, exc.reason))
            return
        if isinstance(command, Hint):
            reply = await self._hint(table, seat)
        else:
            reply = session.submit(seat, command)
            if isinstance(command, Sit) and reply.ok and reply.data != seat:   # the client moved seats
                del table.conns[seat]
                self._attach(conn, table, reply.data)
        conn.send(self._reply(reply_id, reply))
        self._flush(table)
        table.wake.set()

    @staticmethod
    def _reply(reply_id: Any, reply: Reply) -> dict[str, Any]:
        if reply.ok:
            return {"reply": reply_id, "ok": True, "data": reply.data}
        return {"reply": reply_id, "ok": False, "key": reply.key, "params": wire.plain(reply.params),
                "reason": reply.reason}

    async def _hint(self, table: _Table, seat: int) -> Reply:
        """A hint is a search: asked in a thread; the session's own checks first."""
        asked = table.session.hint_view(seat)
        if not asked.ok:
            return asked
        try:
            hint = await asyncio.to_thread(table.thinker.hint, asked.data)
        except Exception:
            logger.exception("table %s: no hint for seat %d", table.code, seat)
            hint = None
        if hint is None:
            return Reply.refuse("hint_none", "no hint here")
        return Reply(True, data=wire.encode_hint(hint))

    def _seated(self, identity: str) -> list[_Table]:
        tag = owner_tag(identity)
        return [table for table in self.tables.values()
                if any(seat.owner == tag for seat in table.session.seats)]

    def _cmd_create(self, conn: _Conn, message: dict[str, Any]) -> Reply:
        """``{"cmd": "create", "game": "gongzhu", "options": {…}, "open": [1, 2, 3], "level": "normal",
        "hints": false}``: a new table in its lobby, this client its host at seat 0."""
        assert conn.identity is not None
        extra = set(message) - {"cmd", "id", "game", "options", "open", "level", "hints"}
        if extra:
            return Reply.refuse("table_bad_command", f"unexpected field {min(extra)[:32]!r} in 'create'")
        game = message.get("game")
        if not isinstance(game, str) or game not in games.games():
            return Reply.refuse("hub_no_such_game", "no such game")
        spec = games.get(game)
        try:
            raw = message.get("options", {})
            if not isinstance(raw, dict):
                raise TypeError("options are a JSON object")
            options = spec.options_type.from_dict(raw)
        except (ValueError, TypeError, KeyError) as exc:
            return Reply.refuse("hub_bad_options", f"bad options: {str(exc)[:120]}")
        opened = message.get("open", [1, 2, 3])
        if (not isinstance(opened, list) or len(opened) > SEATS - 1
                or any(type(s) is not int or not 0 < s < SEATS for s in opened)):
            return Reply.refuse("hub_bad_seats", "open seats are a list of seats 1 to 3")
        level = message.get("level", "normal")
        if not isinstance(level, str) or level not in spec.bots:
            return Reply.refuse("hub_bad_level", "no such CPU level")
        hints = message.get("hints")
        if hints is not None and type(hints) is not bool:
            return Reply.refuse("hub_bad_options", "'hints' is true or false")
        tag = owner_tag(conn.identity)
        seated = self._seated(conn.identity)
        hosted = [t for t in seated if t.session.phase != OVER and t.session.host is not None
                  and t.session.seats[t.session.host].owner == tag]
        if len(hosted) >= self.limits.tables_hosted:
            return Reply.refused(IllegalMove("you host as many tables as one player may",
                                             "hub_too_many_hosted", limit=self.limits.tables_hosted))
        if len(seated) >= self.limits.tables_seated:
            return Reply.refused(IllegalMove("you sit at as many tables as one player may",
                                             "hub_too_many_seated", limit=self.limits.tables_seated))
        if len(self.tables) >= self.limits.tables_total:
            return Reply.refuse("hub_full", "the server has as many tables as it can hold")
        code = make_code()
        while code in self.tables or self.store.path(SLOT_PREFIX + code).exists():
            code = make_code()
        try:
            if not self.store.lock(SLOT_PREFIX + code):     # no lock file here: nothing can be saved either
                raise SaveError(SLOT_PREFIX + code, "the table store cannot hold a lock file",
                                "save_why_cannot_write", detail="no lock")
            session = TableSession.create(spec, conn.identity, conn.name, options=options,
                                          levels=(level,) * SEATS, open_seats=opened, code=code,
                                          store=self.store, cpu_delay=self.limits.cpu_delay, hints=hints,
                                          clock=self.clock)
        except (SaveError, OSError) as exc:
            self.store.unlock(SLOT_PREFIX + code)
            return Reply.refuse("hub_cannot_save", f"the table cannot be saved: {str(exc)[:120]}")
        self._detach(conn)                               # (a refused create leaves the client where it was)
        table = self._hold(session)
        self._attach(conn, table, 0)
        session.submit(0, Snapshot())
        return Reply(True, data={"code": code, "game": game, "seat": 0})

    def _guessed_wrong(self, identity: str) -> None:
        self._guesses.setdefault(identity, collections.deque()).append(self.clock())

    def _guesses_left(self, identity: str) -> tuple[int, float]:
        """Wrong codes this identity may still try now, and the seconds until one more is allowed."""
        window = self.limits.guess_window
        tries = self._guesses.get(identity)
        if tries is None:
            return self.limits.guesses, 0.0
        now = self.clock()
        while tries and now - tries[0] >= window:
            tries.popleft()
        if not tries:
            del self._guesses[identity]
            return self.limits.guesses, 0.0
        return self.limits.guesses - len(tries), window - (now - tries[0])

    def _cmd_join(self, conn: _Conn, message: dict[str, Any]) -> Reply:
        """``{"cmd": "join", "code": "K7QX2M"}``: this client's seat back at that table, or an open
        seat in its lobby. Wrong codes are limited per identity."""
        assert conn.identity is not None
        if set(message) - {"cmd", "id", "code"}:
            return Reply.refuse("table_bad_command", "'join' takes a 'code'")
        left, wait = self._guesses_left(conn.identity)
        if left <= 0:
            return Reply.refused(IllegalMove("too many wrong codes: wait a little", "hub_code_guesses",
                                             seconds=max(1, round(wait))))
        code = read_code(message.get("code"))
        table = self.tables.get(code) if code is not None else None
        if table is None and code is not None and len(self.tables) < self.limits.tables_total:
            table = self._resume(code)               # a table closed while nobody was at it
        if table is None:
            self._guessed_wrong(conn.identity)
            return Reply.refuse("hub_no_such_table", "no table has that code")
        session = table.session
        mine = session.seat_of(conn.identity)
        if mine is None and len(self._seated(conn.identity)) >= self.limits.tables_seated:
            return Reply.refused(IllegalMove("you sit at as many tables as one player may",
                                             "hub_too_many_seated", limit=self.limits.tables_seated))
        if conn.table is table and conn.seat is not None:
            session.submit(conn.seat, Snapshot())
            return Reply(True, data={"code": table.code, "game": session.spec.name, "seat": conn.seat})
        if mine is not None and mine in table.conns:     # the same player on a new connection: it wins
            old = table.conns.pop(mine)                  # (no ``leave``: in the lobby it would free the seat)
            old.table = old.seat = None
            old.send(_refusal(None, "hub_replaced", "you joined this table from another connection"))
            self._spawn(self._flush_and_drop(old, "replaced"))
        reply = session.join(conn.identity, conn.name)
        if not reply.ok:                                 # (the client stays where it was)
            return reply
        self._detach(conn)
        self._attach(conn, table, reply.data)
        table.wake.set()
        return Reply(True, data={"code": table.code, "game": session.spec.name, "seat": reply.data})

    async def _cmd_tables(self, conn: _Conn, message: dict[str, Any]) -> Reply:
        """``{"cmd": "tables"}``: the tables this player has a seat at (for «Continue»)."""
        assert conn.identity is not None
        tag = owner_tag(conn.identity)
        listed = []
        for table in self._seated(conn.identity):
            session = table.session
            listed.append({"code": table.code, "game": session.spec.name, "phase": session.phase,
                           "seat": next(s.index for s in session.seats if s.owner == tag),
                           "names": session.names()})
        listed.extend(await asyncio.to_thread(self._closed_tables, tag, set(self.tables)))
        return Reply(True, data=listed)

    def _closed_tables(self, tag: str, skip: set[str]) -> list[dict[str, Any]]:
        """The saved tables not held now (closed while nobody was at them) with a seat of ``tag``'s,
        newest first. Run in a thread (it reads every slot's envelope)."""
        found = []
        for code, save in self._saved_tables(skip):
            table = save.table or {}
            seats = [table.get(f"seat{index}") for index in range(SEATS)]
            owners = [entry.partition(" ") if isinstance(entry, str) else ("", "", "") for entry in seats]
            mine = next((index for index, (owner, _, _) in enumerate(owners) if owner == tag), None)
            if mine is None or table.get("phase") == OVER:
                continue
            found.append({"code": code, "game": save.game, "phase": table.get("phase"), "seat": mine,
                          "names": [clean_name(name) for _, _, name in owners]})
        return found

    def _cmd_leave(self, conn: _Conn, message: dict[str, Any]) -> Reply:
        """``{"cmd": "leave"}``: away from the table (the seat stays this player's; its CPU plays it)."""
        self._detach(conn)
        return Reply(True)

    def _attach(self, conn: _Conn, table: _Table, seat: int) -> None:
        conn.table, conn.seat = table, seat
        table.conns[seat] = conn
        if conn.identity is not None:        # whose statistics the seat's hands go to
            self._identities[owner_tag(conn.identity)] = conn.identity

    def _stats_for(self, seat: Seat) -> StatsService | None:
        """The statistics of the person owning ``seat``: known once they have sat at a table of this
        hub since it started (a resumed table's seat counts from its owner's joining again)."""
        identity = self._identities.get(seat.owner) if seat.owner is not None else None
        if identity is None or self.stats_path is None:
            return None
        if identity not in self._statistics:
            path = self.stats_path(identity)
            self._statistics[identity] = None if path is None else StatsService(path)
        return self._statistics[identity]

    def _detach(self, conn: _Conn) -> None:
        """The client leaves its table: its seat goes to its CPU at once (the session's ``leave``)."""
        table, seat = conn.table, conn.seat
        conn.table = conn.seat = None
        if table is None or seat is None or table.conns.get(seat) is not conn:
            return
        del table.conns[seat]
        table.session.leave(seat)
        self._flush(table)
        table.wake.set()

    def _flush(self, table: _Table) -> None:
        """Send every seat's waiting events to its client (each in its own queue)."""
        session = table.session
        codec = session.spec.wire()
        for seat in range(SEATS):
            events = session.drain(seat)
            conn = table.conns.get(seat)
            if conn is None:
                continue
            for event in events:
                conn.send(wire.encode_event(codec, event))

    # ---------------------------------------------------------------- the CPUs and the clock
    async def _run(self, table: _Table) -> None:
        """Make the table's CPU moves whenever they are due (each decision in a thread), pausing after
        each CPU move as its event says, so people see the moves one by one."""
        session = table.session
        while True:
            wait = self._turn_wait(table)
            try:
                await asyncio.wait_for(table.wake.wait(), wait)
            except TimeoutError:
                await self._time_out(table)
            table.wake.clear()
            while True:
                turn = session.pending()
                self._flush(table)
                if turn is None:
                    break
                if turn.automatic is not None:
                    await asyncio.sleep(self.limits.think_time)
                    move = turn.automatic
                else:
                    move = await self._decide(table, turn)
                resolved = session.resolve(turn, move)
                if not resolved and turn.automatic is None and session.pending() == turn:
                    # Refused though nothing changed: a wrong answer (a bot's bug), which asked again
                    # would spin the table forever. The CPU declines or makes its first legal move.
                    logger.error("table %s: the table refused the answer of the CPU at seat %d",
                                 table.code, turn.seat)
                    move = None if turn.optional else turn.view.legal[0]
                    resolved = session.resolve(turn, move)
                if resolved:
                    self._flush(table)
                    if move is not None and turn.automatic is None and not session.match.silent(move):
                        await asyncio.sleep(session.cpu_delay)

    # -- the turn timer: a person who holds up a table with other people here
    @staticmethod
    def _holder(session: TableSession) -> tuple[Any, ...] | None:
        """Who the table waits for and at which position, when the turn timer applies: only in play,
        with two people or more here, no take-back asked."""
        people = session.connected()
        if session.phase != "play" or len(people) < 2:
            return None
        if session.request is not None:                # the others have not all answered a take-back
            return ("answer", session.position, tuple(sorted(session.request.waiting)))
        if session.results is not None:
            return ("results", session.position)
        to_move = session.match.to_move()
        if to_move in people:
            return ("move", session.position, to_move)
        waiting = sorted(set(session.match.optional_movers()) & set(people) - session._declined_here())
        return ("optional", session.position, tuple(waiting)) if waiting else None

    def _turn_wait(self, table: _Table) -> float | None:
        """Seconds until the turn timer runs out for whoever holds the table up (None: no timer)."""
        if self.limits.turn_timeout <= 0:
            return None
        holder = self._holder(table.session)
        if holder is None:
            table.timer = None
            return None
        now = asyncio.get_running_loop().time()
        if table.timer is None or table.timer[0] != holder:
            table.timer = (holder, now)
        return max(0.0, table.timer[1] + self.limits.turn_timeout - now)

    async def _time_out(self, table: _Table) -> None:
        """The turn timer ran out: the held-up move is made for the person by their seat's CPU (the
        results are gone on from, an optional move declined), and everyone is told."""
        session = table.session
        holder = self._holder(session)
        if holder is None or table.timer is None or table.timer[0] != holder:
            return
        table.timer = None
        if holder[0] == "answer":                       # no answer in time is a «no»
            for seat in holder[2]:
                session.submit(seat, Answer(False))
        elif holder[0] == "results":
            for seat in session.connected():
                session.submit(seat, NextHand())
        elif holder[0] == "optional":
            for seat in holder[2]:
                session.submit(seat, Decline())
        else:
            seat = holder[2]
            view = session.match.view(seat)
            partner = getattr(session, "_partner_is_a_person", lambda _seat: False)(seat)
            try:
                move = await asyncio.to_thread(table.thinker.decide, session.seats[seat].level, view, partner)
            except Exception:
                logger.exception("table %s: the CPU could not move for seat %d", table.code, seat)
                move = view.legal[0] if view.legal else None
            if self._holder(session) != holder or move is None:
                return                                # the person moved meanwhile
            if not session.submit(seat, Play(move)).ok and view.legal:
                session.submit(seat, Play(view.legal[0]))
            name = session.seats[seat].name
            theirs = _notice(IllegalMove(f"{name} took too long: their CPU moved for them", "hub_turn_timeout",
                                         name=name, seat=seat))
            yours = _notice(IllegalMove("you took too long: your CPU moved for you", "hub_turn_timeout_you"))
            for place, conn in table.conns.items():
                conn.send(yours if place == seat else theirs)
        self._flush(table)

    @staticmethod
    async def _decide(table: _Table, turn: Any) -> Any:
        """The CPU's decision, asked in a thread. A thinker that fails (a worker that died twice, a bug)
        must not hang the table: the CPU then declines an optional move or makes its first legal one."""
        try:
            return await asyncio.to_thread(table.thinker.decide, turn.level, turn.view, turn.partner_human)
        except Exception:
            logger.exception("table %s: the CPU at seat %d could not decide", table.code, turn.seat)
            return None if turn.optional else turn.view.legal[0]

    async def _sweep(self) -> None:
        """Close the tables nobody has been at for the idle timeout (saved: they can be joined again)."""
        period = max(0.05, min(self.limits.idle_timeout / 4, 30.0))
        pruned = time.monotonic()
        while True:
            await asyncio.sleep(period)
            if time.monotonic() - pruned >= 3600.0:
                pruned = time.monotonic()
                await asyncio.to_thread(self.prune_store)
            now = self.clock()
            for table in list(self.tables.values()):
                idle = table.session.idle_since
                if not table.conns and idle is not None and now - idle >= self.limits.idle_timeout:
                    self._close_table(table)
            for identity in list(self._guesses):
                self._guesses_left(identity)            # forgets the old wrong guesses
