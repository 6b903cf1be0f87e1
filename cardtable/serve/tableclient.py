"""The table hub's client (asyncio): what a connection's own ``cardtable`` process uses to sit at a
shared table (docs/design.md «Shared tables», «The message format»).

:class:`TableClient` says hello, makes or joins a table, sends the seat's commands (each answered by
a reply, matched by ``id``) and hands out the seat's events, each view decoded into the game's own view
class (``cardtable/wire.py``), so a screen draws from the same object as alone. A gap in the events'
``seq`` (the hub's outbox dropped some) asks for a snapshot by itself.

This module imports no Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import socket
import stat
from pathlib import Path
from typing import Any

from cardtable import games, wire
from cardtable.table import Event

LINE_LIMIT = 4 * 1024 * 1024        # what the client reads in one line (a view is a few kB)
EVENT_LIMIT = 1024                  # events waiting to be read; older ones go (a snapshot is asked for)


HUB_FD_VARIABLE = "CARDTABLE_HUB_FD"   # the inherited hub socket's descriptor (``cardtable serve ssh``)


class HubError(Exception):
    """The hub refused the hello or went away."""


def _inherited_fd() -> int | None:
    """The descriptor of the hub socket ``cardtable serve ssh`` handed this process, if it is one."""
    if os.environ.get("CARDTABLE_SERVED") != "ssh":
        return None
    text = os.environ.get(HUB_FD_VARIABLE, "")
    if not (text.isdigit() and len(text) < 6):
        return None
    try:
        return int(text) if stat.S_ISSOCK(os.fstat(int(text)).st_mode) else None
    except OSError:
        return None


def has_hub() -> bool:
    """Whether this process was served with the shared tables' hub (an inherited socket)."""
    return _inherited_fd() is not None


def take_inherited_socket() -> socket.socket | None:
    """The inherited hub socket, once (it then belongs to the caller); None when there is none."""
    fd = _inherited_fd()
    if fd is None:
        return None
    os.environ.pop(HUB_FD_VARIABLE, None)
    return socket.socket(fileno=fd)


class TableClient:
    """One connection to the hub. ``seat``, ``code`` and ``game`` are set once a table is made or
    joined; ``view`` is the last view an event brought; ``events`` the seat's events, decoded."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.hello: dict[str, Any] = {}
        self.seat: int | None = None
        self.code: str | None = None
        self.game: str | None = None
        self.codec: wire.ViewCodec | None = None
        self.view: Any = None
        self.seq = 0
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        self.notices: list[dict[str, Any]] = []       # refusals not tied to a request (flood, too long…)
        self._behind = False                         # events were dropped here: a snapshot is asked for
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._kinds: dict[int, str] = {}             # each pending request's command
        self._reading: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    # -- connecting
    @classmethod
    async def connect(cls, path: Path | str, identity: str, name: str, timeout: float = 10.0) -> TableClient:
        """Connect to the hub's socket at ``path`` as ``identity`` (an SSH key's id) named ``name``."""
        reader, writer = await asyncio.open_unix_connection(str(path), limit=LINE_LIMIT)
        return await cls._start(reader, writer, {"identity": identity, "name": name}, timeout)

    @classmethod
    async def over_socket(cls, sock: socket.socket, timeout: float = 10.0) -> TableClient:
        """Speak over an inherited socket the server made for this player (``Hub.socket_pair``: its
        identity is the server's to say)."""
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=LINE_LIMIT)
        return await cls._start(reader, writer, {}, timeout)

    @classmethod
    async def _start(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     fields: dict[str, Any], timeout: float) -> TableClient:
        client = cls(reader, writer)
        client._send({"hello": wire.PROTOCOL, "version": wire.WIRE_VERSION, **fields})
        try:
            answer = json.loads(await asyncio.wait_for(reader.readline(), timeout))
        except (TimeoutError, ValueError, ConnectionError, OSError) as exc:
            writer.close()
            raise HubError(f"no hello from the hub: {exc}") from None
        if not isinstance(answer, dict) or answer.get("hello") != wire.PROTOCOL:
            writer.close()
            raise HubError(f"the hub refused: {answer.get('reason') if isinstance(answer, dict) else answer}")
        client.hello = answer
        client._reading = asyncio.create_task(client._read())
        return client

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        if self._reading is not None:
            self._reading.cancel()
            with contextlib.suppress(BaseException):
                await self._reading

    # -- requests
    def _send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")

    async def request(self, cmd: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
        """Send ``{"cmd": cmd, **fields}`` and wait for its reply (``{"ok": …, "data"| "key", …}``)."""
        if self.closed.is_set():
            raise HubError("the hub closed the connection")
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[number], self._kinds[number] = future, cmd
        try:
            try:
                self._send({"cmd": cmd, "id": number, **fields})
                await self.writer.drain()
            except (ConnectionError, OSError):         # broken before the reader saw the end
                raise HubError("the hub closed the connection") from None
            return await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(number, None)
            self._kinds.pop(number, None)

    async def create(self, game: str, options: dict[str, Any] | None = None, open_seats: tuple[int, ...] = (1, 2, 3),
                     level: str = "normal", hints: bool | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"game": game, "options": options or {}, "open": list(open_seats), "level": level}
        if hints is not None:
            fields["hints"] = hints
        return await self.request("create", **fields)

    async def join(self, code: str) -> dict[str, Any]:
        return await self.request("join", code=code)

    async def tables(self) -> dict[str, Any]:
        return await self.request("tables")

    async def leave(self) -> dict[str, Any]:
        return await self.request("leave")

    async def play(self, move: Any) -> dict[str, Any]:
        return await self.request("play", move=move.to_json())

    async def arm(self, move: Any, on: bool = True) -> dict[str, Any]:
        return await self.request("arm", move=move.to_json(), on=on)

    async def decline(self) -> dict[str, Any]:
        return await self.request("decline")

    async def take_back(self) -> dict[str, Any]:
        return await self.request("take_back")

    async def answer(self, yes: bool) -> dict[str, Any]:
        return await self.request("answer", yes=yes)

    async def next_hand(self) -> dict[str, Any]:
        return await self.request("next_hand")

    async def hint(self) -> dict[str, Any]:
        return await self.request("hint")

    async def snapshot(self) -> dict[str, Any]:
        return await self.request("snapshot")

    async def sit(self, seat: int) -> dict[str, Any]:
        """Move to ``seat`` in the lobby (partnerships are who sits opposite whom)."""
        return await self.request("sit", seat=seat)

    async def start(self) -> dict[str, Any]:
        return await self.request("start")

    # -- events
    async def next_event(self, timeout: float | None = None) -> Event:
        """The next event (waits at most ``timeout`` seconds: ``TimeoutError``); ``HubError`` once the
        hub has gone and every event is read."""
        if self.events.empty() and self.closed.is_set():
            raise HubError("the hub closed the connection")
        getting = asyncio.ensure_future(self.events.get())
        closing = asyncio.ensure_future(self.closed.wait())
        try:
            done, _ = await asyncio.wait({getting, closing}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
        if getting in done:
            return getting.result()
        getting.cancel()
        if closing in done:
            raise HubError("the hub closed the connection")
        raise TimeoutError

    async def _read(self) -> None:
        try:
            while True:
                raw = await self.reader.readline()
                if not raw:
                    break
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self._take(message)
        except (ConnectionError, OSError, ValueError):
            pass
        finally:
            self.closed.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(HubError("the hub closed the connection"))

    def _take(self, message: dict[str, Any]) -> None:
        if "notice" in message:                   # the hub tells the table something (a save failed…)
            self.notices.append(message)
            self.events.put_nowait(Event("notice", message))
            return
        if "reply" in message:
            data = message.get("data")
            if message.get("ok") and isinstance(data, dict) and {"code", "game", "seat"} <= set(data):
                # A table made or joined: its codec before its first event is read (they follow at once).
                self.code, self.game, self.seat = data["code"], data["game"], data["seat"]
                self.codec = games.get(data["game"]).wire()
                self.seq = 0
            number = message["reply"] if type(message["reply"]) is int else None
            if number is not None and self._kinds.get(number) == "sit" and message.get("ok") \
                    and type(data) is int and data != self.seat:
                self.seat, self.seq = data, 0          # another seat: its events count afresh
            future = self._pending.get(number) if number is not None else None
            if future is not None and not future.done():
                future.set_result(message)
            elif message["reply"] is None and not message.get("ok"):
                self.notices.append(message)
            return
        if "event" in message and self.codec is not None:
            try:
                event = wire.decode_event(self.codec, message)
            except wire.WireError:
                return
            if self.seq and event.seq != self.seq + 1 and event.type != "snapshot":
                self._send({"cmd": "snapshot"})           # events were dropped: the table afresh
            self.seq = event.seq
            if event.view is not None and event.type != "hand_over":
                self.view = event.view
            if self.events.qsize() >= EVENT_LIMIT:      # nobody reads: the oldest go, a snapshot catches up
                self.events.get_nowait()
                if not self._behind and event.type != "snapshot":
                    self._send({"cmd": "snapshot"})
                    self._behind = True
            if event.type == "snapshot":
                self._behind = False
            self.events.put_nowait(event)
