"""``cardtable bench serve``: how the SSH server holds up, measured on 127.0.0.1 only.

For N = 1, 4, 8, … concurrent players, every client connects with its own key, starts a Gong Zhu game
(CPUs at «instant» speed) and presses Enter until a whole hand (56 moves) is saved. Reported: the time
from connecting to the first frame of the table, the time from a key to the table's answer, the memory
of each table process, and whether every hand finished. Bounded in sessions and in time; the server and
all its tables stop at the end.

First, a flood: one client types 256 KiB into its table while a new connection waits for the server's
SSH banner and another player presses keys on their own table. Reported: the banner time and that
player's key→screen time (median / p95), which a server that blocks on one client's input cannot keep.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

HAND_MOVES = 56            # Gong Zhu: four showing decisions and 52 cards
LEVELS = (1, 4, 8, 16, 24)
FLOOD_BYTES = 256 * 1024
FLOOD_PROBE = 0.5          # seconds between two banner probes
FLOOD_CAP = 180.0          # the longest one probe is waited for


def _rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def _player(server, key, number: int, deadline: float, result: dict) -> None:
    import asyncssh

    from cardtable.serve.ssh import key_id

    home = server.directory / "users" / key_id(key)
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}), encoding="utf-8")
    started = time.monotonic()
    async with asyncssh.connect("127.0.0.1", server.port, username="load", client_keys=[key],
                                known_hosts=None, agent_path=None) as conn:
        process = await conn.create_process(f"new gongzhu --seed {1000 + number}", term_type="xterm-256color",
                                            term_size=(100, 30), encoding=None)
        seen = bytearray()
        while b"You" not in seen:
            chunk = await asyncio.wait_for(process.stdout.read(65536), max(0.1, deadline - time.monotonic()))
            if not chunk:
                return
            seen += chunk
        result["first_frame"].append(time.monotonic() - started)
        pid = next((s.child.pid for s in server.sessions
                    if s.connection.key is not None and key_id(s.connection.key) == key_id(key)), None)

        def moves() -> int:
            files = list((home / "saves").glob("*.json"))
            try:
                return len(json.loads(files[0].read_text(encoding="utf-8"))["moves"]) if files else 0
            except (OSError, ValueError, KeyError):
                return 0

        while moves() < HAND_MOVES and time.monotonic() < deadline:
            while True:           # let the table settle, so the time measured is this key's answer
                try:
                    if not await asyncio.wait_for(process.stdout.read(65536), 0.1):
                        return
                except TimeoutError:
                    break
            sent = time.monotonic()
            process.stdin.write(b"\r")
            try:
                chunk = await asyncio.wait_for(process.stdout.read(65536), 2.0)
            except TimeoutError:
                continue          # nothing to redraw (a CPU is about to play): press again
            if not chunk:
                break
            result["key"].append(time.monotonic() - sent)
        if pid is not None and (rss := _rss_kib(pid)) is not None:
            result["rss"].append(rss / 1024)
        if moves() >= HAND_MOVES:
            result["finished"] += 1
        process.close()


async def _level(sessions: int, seconds: float) -> dict:
    import asyncssh

    from cardtable.serve.ssh import SshLimits, TableServer

    with tempfile.TemporaryDirectory(prefix="cardtable-load-") as directory:
        # Every player comes from 127.0.0.1: the per-address limits must let all of them in.
        server = TableServer(SshLimits(max_sessions=sessions, per_address=sessions, idle_timeout=600,
                                       max_connections=sessions + 1, connections_per_address=sessions + 1,
                                       logins=sessions + 1, logins_per_address=sessions + 1),
                             directory=Path(directory), log=lambda line: None)
        await server.start("127.0.0.1", 0)
        result: dict = {"first_frame": [], "key": [], "rss": [], "finished": 0}
        started = time.monotonic()
        deadline = started + seconds
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(sessions)]
        try:
            await asyncio.gather(*(_player(server, key, n, deadline, result) for n, key in enumerate(keys)),
                                 return_exceptions=True)
        finally:
            await server.stop()
        result["seconds"] = time.monotonic() - started
        return result


async def _banner_time(port: int, timeout: float) -> float:
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await asyncio.wait_for(reader.readline(), timeout)
    finally:
        writer.close()
    return time.monotonic() - started


async def _home_screen(conn) -> Any:
    process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
    seen = bytearray()
    while b"Choose" not in seen:
        chunk = await asyncio.wait_for(process.stdout.read(65536), 60)
        if not chunk:
            raise ConnectionError("the table ended before its home screen")
        seen += chunk
    return process


async def _settled(process, quiet: float = 0.1) -> None:
    """Read until the table has been quiet for a moment."""
    while True:
        try:
            if not await asyncio.wait_for(process.stdout.read(65536), quiet):
                return
        except TimeoutError:
            return


async def _flood(seconds: float) -> dict:
    """Banner and key→screen times while one client floods its table (see the module's docstring)."""
    import os
    import signal
    import subprocess
    import sys

    import asyncssh

    from cardtable.serve import package_root

    result: dict = {"banner": [], "key": []}
    with tempfile.TemporaryDirectory(prefix="cardtable-load-") as directory:
        # The server in its own process (the real command), so that a server that stalls cannot also
        # stall the clients that time it.
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardtable", "serve", "ssh", "--port", "0",
            env={**os.environ, "PYTHONPATH": package_root(), "CARDTABLE_HOME": directory},
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        options = {"username": "load", "known_hosts": None, "agent_path": None}
        try:
            assert server.stdout is not None
            first = (await asyncio.wait_for(server.stdout.readline(), 60)).decode()
            port = int(first.split("127.0.0.1:")[1].split()[0])
            async with asyncssh.connect("127.0.0.1", port, client_keys=[asyncssh.generate_private_key(
                        "ssh-ed25519")], **options) as flood_conn, \
                    asyncssh.connect("127.0.0.1", port, client_keys=[asyncssh.generate_private_key(
                        "ssh-ed25519")], **options) as player_conn:
                flooder = await _home_screen(flood_conn)
                player = await _home_screen(player_conn)

                async def drain() -> None:
                    while await flooder.stdout.read(65536):
                        pass

                draining = asyncio.ensure_future(drain())
                flooder.stdin.write(b"x" * FLOOD_BYTES)
                deadline = time.monotonic() + seconds

                async def banners() -> None:
                    # A new connection every half second, each timed on its own: a stalled server
                    # shows as many long waits, not as one.
                    probes = []
                    while time.monotonic() < deadline:
                        probes.append(asyncio.ensure_future(_banner_time(port, FLOOD_CAP)))
                        await asyncio.sleep(FLOOD_PROBE)
                    for waited in await asyncio.gather(*probes, return_exceptions=True):
                        result["banner"].append(waited if isinstance(waited, float) else FLOOD_CAP)

                async def keys() -> None:
                    arrows = (b"\x1b[B", b"\x1b[A")      # down, up: the highlighted game moves
                    while time.monotonic() < deadline:
                        await _settled(player)
                        sent = time.monotonic()
                        player.stdin.write(arrows[len(result["key"]) % 2])
                        try:
                            if not await asyncio.wait_for(player.stdout.read(65536), FLOOD_CAP):
                                return
                        except TimeoutError:
                            pass
                        result["key"].append(time.monotonic() - sent)

                await asyncio.gather(banners(), keys())
                draining.cancel()
                flood_conn.close()
        finally:
            if server.returncode is None:
                server.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(server.wait(), FLOOD_CAP)
                except TimeoutError:
                    server.kill()
                    await server.wait()
    return result


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {statistics.median(values) * 1000:.0f} ms p95 {_pct(values, 0.95) * 1000:.0f} ms "
            f"(n={len(values)})")


def flood_report(seconds: float = 15.0) -> None:
    r = asyncio.run(_flood(seconds))
    print(f"flood of {FLOOD_BYTES // 1024} KiB from one client: SSH banner {_ms(r['banner'])}; "
          f"another player's key→screen {_ms(r['key'])}", flush=True)


def main(seconds: float = 90.0, levels: tuple[int, ...] = LEVELS) -> int:
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        print("cardtable bench serve: needs asyncssh (pip install 'cardtable[serve]')")
        return 2
    flood_report(min(seconds, 15.0))
    print(f"serve ssh on 127.0.0.1: every player starts Gong Zhu and plays one hand (CPUs instant); "
          f"at most {seconds:g} s per level")
    for sessions in levels:
        r = asyncio.run(_level(sessions, seconds))
        ff, key, rss = r["first_frame"], r["key"], r["rss"]
        print(f"{sessions:3} players: hands finished {r['finished']}/{sessions} in {r['seconds']:.1f} s; "
              f"first frame median {statistics.median(ff) * 1000 if ff else float('nan'):.0f} ms "
              f"p95 {_pct(ff, 0.95) * 1000:.0f} ms; key→screen median "
              f"{statistics.median(key) * 1000 if key else float('nan'):.0f} ms p95 {_pct(key, 0.95) * 1000:.0f} ms; "
              f"RSS per table {statistics.mean(rss) if rss else float('nan'):.0f} MiB", flush=True)
        if r["finished"] < sessions:
            break
    return 0
