"""``cardtable bench serve --shared``: a key at a shared table → the other people's screens, over SSH on
127.0.0.1 only.

Tables of 2, 3, 4, 2… people (``sizes``) play Gong Zhu (easy CPUs in the other seats, no showing
phase) at once, each person a real SSH client on a pty: the host types ``host gongzhu``, makes the
table and starts it once the others have typed ``join CODE``. Whenever a person is to move (the bench
reads whose turn it is from the server's hub, in this process), their client presses the keys a player
would (Enter lifts the card under the cursor, Enter again plays it; → the next card) until the move is
made. Reported: from the key that made the move to the first bytes on each other person's screen after
it (median / p95), how many such moves, and the load average. Bounded in time; every client, table and
the server stop at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Any

SIZES = (2, 3, 4, 2)          # people at each table
COMMAND = "host gongzhu --level easy --option showing=false"
SETTLE = 0.15                 # quiet seconds before a key is pressed (so the time is that key's)


class _Screen:
    """One person's SSH client: its process and when its output arrived."""

    def __init__(self, process: Any) -> None:
        self.process = process
        self.seen = bytearray()
        self.arrivals: list[float] = []
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    return
                self.arrivals.append(time.monotonic())
                self.seen += data
                del self.seen[:-200_000]

    def first_after(self, moment: float) -> float | None:
        return next((arrival for arrival in self.arrivals if arrival > moment), None)

    async def wait_for(self, needle: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.seen:
            if time.monotonic() > deadline:
                raise TimeoutError(needle)
            await asyncio.sleep(0.05)

    async def quiet(self, seconds: float = SETTLE, cap: float = 5.0) -> None:
        end = time.monotonic() + cap
        while time.monotonic() < end:
            last = self.arrivals[-1] if self.arrivals else 0.0
            if time.monotonic() - last >= seconds:
                return
            await asyncio.sleep(seconds / 3)


async def _connect(stack: contextlib.AsyncExitStack, port: int, name: str, command: str) -> _Screen:
    import asyncssh

    conn = await stack.enter_async_context(asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        known_hosts=None, agent_path=None))
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(100, 32),
                                        env={"LANG": "en_US.UTF-8"}, encoding=None)
    return _Screen(process)


async def _table(server: Any, number: int, people: int, deadline: float, result: dict) -> None:

    async with contextlib.AsyncExitStack() as stack:
        host = await _connect(stack, server.port, f"p{number}a", COMMAND)
        await host.wait_for(b"friends", 90)
        await host.quiet()
        host.process.stdin.write(b"\r")                        # «Make the table» (every seat open)
        await host.wait_for(b"code to pass on", 60)
        hub = server.hub
        code = next(c for c, t in hub.tables.items() if t.session.seats[0].name == f"p{number}a")
        screens = [host]
        for other in range(1, people):
            screens.append(await _connect(stack, server.port, f"p{number}{'abcd'[other]}", f"join {code}"))
        session = hub.tables[code].session
        while len(session.connected()) < people:
            if time.monotonic() > deadline:
                return
            await asyncio.sleep(0.1)
        await host.quiet()
        host.process.stdin.write(b"s")                         # the host starts the deal
        by_seat = {seat.index: screens[[f"p{number}{c}" for c in "abcd"].index(seat.name)]
                   for seat in session.seats if seat.person}
        while time.monotonic() < deadline and session.match.view(0).hand_number == 1:
            seat = session.match.to_move()
            screen = by_seat.get(seat) if seat is not None else None
            if screen is None or session.phase != "play":
                await asyncio.sleep(0.05)
                continue
            moves = len(session.match.moves)
            await screen.quiet()
            for key in (b"\r", b"\r", b"\x1b[C"):             # lift, play; else the next card
                pressed = time.monotonic()
                screen.process.stdin.write(key)
                await asyncio.sleep(0.05)
                for _ in range(40):
                    if len(session.match.moves) > moves:
                        break
                    await asyncio.sleep(0.01)
                if len(session.match.moves) > moves:
                    await asyncio.sleep(0.5)                   # the others' frames arrive meanwhile
                    for watcher in screens:
                        if watcher is not screen and (arrival := watcher.first_after(pressed)) is not None:
                            result["latency"].append(arrival - pressed)
                    result["moves"] += 1
                    break
        result["tables"] += 1
        for screen in screens:
            screen.process.close()


async def _run(seconds: float, sizes: tuple[int, ...]) -> dict:
    from cardtable.serve.ssh import SshLimits, TableServer

    people = sum(sizes)
    with tempfile.TemporaryDirectory(prefix="cardtable-shared-") as directory:
        server = TableServer(SshLimits(max_sessions=people, per_address=people, idle_timeout=600,
                                       max_connections=people + 1, connections_per_address=people + 1,
                                       logins=people + 1, logins_per_address=people + 1, turn_timeout=0),
                             directory=Path(directory), log=lambda line: None)
        await server.start("127.0.0.1", 0)
        result: dict = {"latency": [], "moves": 0, "tables": 0}
        started = time.monotonic()
        try:
            await asyncio.gather(*(_table(server, n, size, started + seconds, result)
                                   for n, size in enumerate(sizes)), return_exceptions=True)
        finally:
            await server.stop()
        result["seconds"] = time.monotonic() - started
        return result


def main(seconds: float = 60.0, sizes: tuple[int, ...] = SIZES) -> int:
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        print("cardtable bench serve --shared: needs asyncssh (pip install 'cardtable[serve]')")
        return 2
    from cardtable.serve.load import _ms

    r = asyncio.run(_run(seconds, sizes))
    load = os.getloadavg()
    print(f"shared tables over serve ssh on 127.0.0.1: {len(sizes)} Gong Zhu tables of "
          f"{'/'.join(map(str, sizes))} people, {r['seconds']:.0f} s: {r['moves']} moves by people; "
          f"key → the other people's screens {_ms(r['latency'])}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    return 0
