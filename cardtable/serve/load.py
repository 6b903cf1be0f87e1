"""``cardtable bench serve``: how the SSH server holds up, measured on 127.0.0.1 only.

For N = 1, 4, 8, … concurrent players, every client connects with its own key (the N connections spread
over ``ramp`` seconds), starts a Gong Zhu game (CPUs at «instant» speed) and presses Enter until a whole
hand (56 moves) is saved. Reported for each way of starting tables (``plain``: a fresh Python per table
with its own search worker, as before issue 34; ``zygote``: forked from the server's warm template, one
search pool), in the same run: the time from connecting to the first frame of the table, the time from
a key to the table's answer, each table's unique memory (USS, from /proc/PID/smaps_rollup) and the
whole server's (the sum of the proportional sizes, PSS, of this process and all its descendants, at its
peak), whether every hand finished, and the load average. Bounded in sessions and in time; the server
and all its tables stop at the end.

The search pool alone: 8 tables asking for hard decisions at once; the time each waited in the queue
is shown apart from the worker's CPU time for it.

``--soak``: one server, C connections spread over S seconds, each opening a table, pressing a few keys
and leaving; then no process, fd or memory may be left behind (compared with before the first).

First, a flood: one client types 256 KiB into its table while a new connection waits for the server's
SSH banner and another player presses keys on their own table. Reported: the banner time and that
player's key→screen time (median / p95), which a server that blocks on one client's input cannot keep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
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


def smaps(pid: int) -> dict[str, int]:
    """/proc/PID/smaps_rollup in KiB: Rss, Pss, Private_Clean, Private_Dirty, ... (empty if gone)."""
    found: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            parts = rest.split()
            if len(parts) == 2 and parts[1] == "kB":
                found[name] = int(parts[0])
    except OSError:
        pass
    return found


def uss_mib(pid: int) -> float | None:
    """A process's unique memory (what ending it would free): its private pages, in MiB."""
    rollup = smaps(pid)
    if "Private_Clean" not in rollup:
        return None
    return (rollup["Private_Clean"] + rollup["Private_Dirty"]) / 1024


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (children first)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as children:
                    kids = [int(child) for child in children.read().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def tree_pss_mib(pid: int) -> float:
    """The memory of ``pid`` and all its descendants, each shared page counted once (PSS), in MiB."""
    return sum(smaps(p).get("Pss", 0) for p in (pid, *descendants(pid))) / 1024


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (user + system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f}"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def _player(server, key, number: int, deadline: float, result: dict, delay: float = 0.0) -> None:
    import asyncssh

    from cardtable.serve.ssh import key_id

    home = server.directory / "users" / key_id(key)
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}), encoding="utf-8")
    await asyncio.sleep(delay)
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
        if pid is not None and (cpu := cpu_seconds(pid)) is not None:
            result["first_cpu"].append(cpu)

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
            if (uss := uss_mib(pid)) is not None:
                result["uss"].append(uss)
        if moves() >= HAND_MOVES:
            result["finished"] += 1
        process.close()


def _limits(sessions: int) -> Any:
    from cardtable.serve.ssh import SshLimits

    # Every player comes from 127.0.0.1: the per-address limits must let all of them in.
    return SshLimits(max_sessions=sessions, per_address=sessions, idle_timeout=600,
                     max_connections=sessions + 1, connections_per_address=sessions + 1,
                     logins=sessions + 1, logins_per_address=sessions + 1)


async def _peak_memory(result: dict, stop: asyncio.Event) -> None:
    """The server's memory (this process and its descendants, PSS) at its peak, sampled every second."""
    while not stop.is_set():
        result["total"] = max(result["total"], await asyncio.to_thread(tree_pss_mib, os.getpid()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def _level(sessions: int, seconds: float, spawn: str = "zygote", ramp: float = 0.0) -> dict:
    import asyncssh

    from cardtable.serve.ssh import TableServer

    with tempfile.TemporaryDirectory(prefix="cardtable-load-") as directory:
        server = TableServer(_limits(sessions), directory=Path(directory), log=lambda line: None, spawn=spawn)
        await server.start("127.0.0.1", 0)
        result: dict = {"first_frame": [], "first_cpu": [], "key": [], "rss": [], "uss": [], "finished": 0,
                        "total": 0.0}
        template = server.zygote.pid if server.zygote is not None else None
        result["template"] = uss_mib(template) if template else None
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(sessions)]
        started = time.monotonic()
        deadline = started + seconds + ramp
        stop = asyncio.Event()
        sampler = asyncio.ensure_future(_peak_memory(result, stop))
        try:
            await asyncio.gather(*(_player(server, key, n, deadline, result, ramp * n / sessions)
                                   for n, key in enumerate(keys)), return_exceptions=True)
        finally:
            stop.set()
            await sampler
            if server.pool is not None:
                result["pool"] = (list(server.pool.timings), server.pool.peak)
            await server.stop()
        result["seconds"] = time.monotonic() - started
        result["load"] = load_average()
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


def _mean(values: list[float]) -> float:
    return statistics.mean(values) if values else float("nan")


def level_report(sessions: int, spawn: str, r: dict) -> str:
    ff, key = r["first_frame"], r["key"]
    template = f"; template USS {r['template']:.0f} MiB" if r.get("template") else ""
    if "pool" in r:
        timings, peak = r["pool"]
        template += (f"; search pool: {len(timings)} questions, queued {_ms([t.queued for t in timings])}, "
                     f"CPU {_ms([t.cpu for t in timings])}, at most {peak} workers")
    return (f"{sessions:3} players, {spawn:6}: hands finished {r['finished']}/{sessions} in {r['seconds']:.1f} s; "
            f"first frame {_ms(ff)} (the table's CPU until then {_ms(r['first_cpu'])}); key→screen {_ms(key)}; per table USS {_mean(r['uss']):.0f} MiB "
            f"(RSS {_mean(r['rss']):.0f}){template}; server total {r['total']:.0f} MiB PSS; {r['load']}")


async def _pool_decisions(tables: int = 8, each: int = 4) -> list:
    """``tables`` tables asking the pool for hard Gong Zhu decisions at once, ``each`` in a row."""
    from cardtable import games, sim, workers
    from cardtable.serve.searchpool import SearchPool

    spec = games.get("gongzhu")
    normal = spec.bot("normal")
    views = []
    for seed in range(1, 400):          # positions somewhere in the first hand, with a real choice
        match = spec.new_match(seed=seed)
        for _ in range(8 + 7 * seed % 31):
            step = sim.next_cpu_move(match, lambda _: normal)
            if step is None or match.is_over():
                break
            match.apply(step[1], step[0])
        seat = match.to_move()
        if seat is not None and match.automatic_move(seat) is None and len((view := match.view(seat)).legal) >= 2:
            views.append(view)
        if len(views) == tables * each:
            break
    pool = SearchPool()
    await pool.start()
    try:
        from multiprocessing.connection import Connection

        ends = [Connection((await pool.connect()).detach()) for _ in range(tables)]

        def ask(n: int) -> None:
            for view in views[n * each:(n + 1) * each]:
                question = workers.encode_question(workers.decide, ("gongzhu", "hard", view))
                assert question is not None
                ends[n].send_bytes(question)
                ends[n].recv()

        await asyncio.to_thread(ask, 0)            # the workers are up and warm
        pool.timings.clear()
        await asyncio.gather(*(asyncio.to_thread(ask, n) for n in range(tables)))
        for end in ends:
            end.close()
        return [list(pool.timings), pool.size, pool.peak]
    finally:
        await pool.close()


def pool_report(tables: int = 8) -> None:
    timings, size, peak = asyncio.run(_pool_decisions(tables))
    print(f"search pool ({size} workers, {peak} at most), {tables} tables asking hard Gong Zhu decisions at once: "
          f"CPU per decision {_ms([t.cpu for t in timings])}; queued {_ms([t.queued for t in timings])}; "
          f"in the worker {_ms([t.wall for t in timings])}; {load_average()}", flush=True)


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _soak(connections: int, seconds: float, spawn: str, keys: int = 4) -> dict:
    """One server; ``connections`` players spread over ``seconds``, each opening a Gong Zhu table,
    pressing ``keys`` keys and leaving. What was left at the end, against the moment after start-up."""
    import asyncssh

    from cardtable.serve.ssh import TableServer

    with tempfile.TemporaryDirectory(prefix="cardtable-soak-") as directory:
        server = TableServer(_limits(connections), directory=Path(directory), log=lambda line: None, spawn=spawn)
        await server.start("127.0.0.1", 0)
        await asyncio.sleep(1.0)
        helpers = set(descendants(os.getpid()))            # the template and the pool's workers
        before = {"fds": _fds(), "rss": _rss_kib(os.getpid()) or 0, "helpers": tree_pss_mib(os.getpid())}
        result: dict = {"first_frame": [], "opened": 0, "failed": 0, "peak": 0}

        async def visit(n: int) -> None:
            await asyncio.sleep(seconds * n / connections)
            started = time.monotonic()
            try:
                async with asyncssh.connect("127.0.0.1", server.port, username="soak", known_hosts=None,
                                            agent_path=None,
                                            client_keys=[asyncssh.generate_private_key("ssh-ed25519")]) as conn:
                    process = await conn.create_process(f"new gongzhu --seed {n}", term_type="xterm-256color",
                                                        term_size=(100, 30), encoding=None)
                    seen = bytearray()
                    while b"You" not in seen:
                        chunk = await asyncio.wait_for(process.stdout.read(65536), 60)
                        if not chunk:
                            raise ConnectionError("the table ended before its first frame")
                        seen += chunk
                    result["first_frame"].append(time.monotonic() - started)
                    result["opened"] += 1
                    result["peak"] = max(result["peak"], len(server.sessions))
                    for _ in range(keys):
                        process.stdin.write(b"\r")
                        await _settled(process, 0.3)
                    process.close()
            except (OSError, asyncssh.Error, TimeoutError, ConnectionError):
                result["failed"] += 1

        await asyncio.gather(*(visit(n) for n in range(connections)))
        deadline = time.monotonic() + 60
        while (server.sessions or set(descendants(os.getpid())) - helpers) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        await asyncio.sleep(2.0)                           # the last orphans reaped, the last fds closed
        gc_collect()
        now = set(descendants(os.getpid()))
        result["left"] = sorted(now - helpers)
        result["helpers_lost"] = sorted(helpers - now)
        result["fds"] = (before["fds"], _fds())
        result["rss"] = (before["rss"] / 1024, (_rss_kib(os.getpid()) or 0) / 1024)
        result["pss"] = (before["helpers"], tree_pss_mib(os.getpid()))
        result["sessions"] = len(server.sessions)
        await server.stop()
        result["after_stop"] = descendants(os.getpid())
        result["load"] = load_average()
        return result


def gc_collect() -> None:
    import gc

    gc.collect()


def soak_report(connections: int, seconds: float, spawn: str) -> int:
    r = asyncio.run(_soak(connections, seconds, spawn))
    clean = not r["left"] and not r["after_stop"] and not r["sessions"] and r["fds"][1] <= r["fds"][0]
    print(f"soak, {spawn}: {connections} connections over {seconds:g} s: tables opened {r['opened']}, failed "
          f"{r['failed']}, at most {r['peak']} at once; first frame {_ms(r['first_frame'])}; left behind: "
          f"processes {r['left'] or 'none'} (after stop {r['after_stop'] or 'none'}), fds {r['fds'][0]} → "
          f"{r['fds'][1]}, server RSS {r['rss'][0]:.0f} → {r['rss'][1]:.0f} MiB, server and helpers PSS "
          f"{r['pss'][0]:.0f} → {r['pss'][1]:.0f} MiB; {r['load']}; {'clean' if clean else 'NOT CLEAN'}",
          flush=True)
    return 0 if clean and not r["failed"] else 1


def main(seconds: float = 90.0, levels: tuple[int, ...] = LEVELS, spawns: tuple[str, ...] = ("plain", "zygote"),
         ramp: float = 0.0, soak: bool = False, connections: int = 200, flood: bool = True) -> int:
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        print("cardtable bench serve: needs asyncssh (pip install 'cardtable[serve]')")
        return 2
    if soak:
        return max(soak_report(connections, seconds, spawn) for spawn in spawns)
    if flood:
        flood_report(min(seconds, 15.0))
    pool_report()
    print(f"serve ssh on 127.0.0.1: every player starts Gong Zhu and plays one hand (CPUs instant); players "
          f"connect over {ramp:g} s; at most {seconds:g} s per level after that")
    stopped = set()
    for sessions in levels:
        for spawn in spawns:
            if spawn in stopped:
                continue
            r = asyncio.run(_level(sessions, seconds, spawn, ramp))
            print(level_report(sessions, spawn, r), flush=True)
            if r["finished"] < sessions:
                stopped.add(spawn)
    return 0
