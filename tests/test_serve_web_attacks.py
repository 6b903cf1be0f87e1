"""``cardtable serve web`` attacked once it had its token, Host and Origin checks (issue 28, second pass):
too many tabs, too many idle connections, a log a request could forge or fill with the token, a flood of
keys into one tab. Loopback only (127.0.0.2 and 127.0.0.3 stand for other addresses), every loop bounded."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from tests.web_helpers import rss_kib, tabs_of, wait_until, web_server

TAB_RSS_AFTER_FLOOD_KIB = 96 * 1024    # a tab at rest ~45 MiB; 270 KB of keys took it past 130 MiB


def _serve(tmp_path: Path, *options: str):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    return web_server(home, *options)


def _client(source: str = "127.0.0.1") -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0), force_close=True))


async def _first_screen(ws, seconds: float = 40) -> int:
    received = 0
    deadline = time.monotonic() + seconds
    while received < 2000 and time.monotonic() < deadline:
        try:
            message = await asyncio.wait_for(ws.receive(), max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            received += len(message.data)
        elif message.type != aiohttp.WSMsgType.TEXT:
            break
    return received


async def _refusal(ws, seconds: float = 10) -> tuple[str, int | None]:
    """What a refused tab shows (its terminal's text) and the websocket's close code."""
    shown = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = await asyncio.wait_for(ws.receive(), max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            shown += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED):
            break
    return shown.decode("utf-8", "replace"), ws.close_code


async def test_tabs_past_the_caps_are_refused_with_a_clear_line(tmp_path):
    with _serve(tmp_path, "--max-tabs", "2", "--per-address", "1") as served:
        origin = {"Origin": served.base}
        async with _client() as first, _client() as again, _client("127.0.0.2") as second, \
                _client("127.0.0.3") as third:
            ws_a = await first.ws_connect(served.ws_url(), headers=origin)
            assert await _first_screen(ws_a) >= 2000
            ws_b = await again.ws_connect(served.ws_url(), headers=origin)
            shown, code = await _refusal(ws_b)
            assert code == 1013 and "1" in shown and "address" in shown, (shown, code)
            ws_c = await second.ws_connect(served.ws_url(), headers=origin)
            assert await _first_screen(ws_c) >= 2000                 # another address still gets one
            ws_d = await third.ws_connect(served.ws_url(), headers=origin)
            shown, code = await _refusal(ws_d)
            assert code == 1013 and "2" in shown and "tables" in shown and "address" not in shown, (shown, code)
            assert len(tabs_of(served.process.pid)) == 2, "a refused websocket started a tab"
            await ws_a.close()
            # Its slot is free once its process is gone (a tab still quitting still counts).
            assert await asyncio.to_thread(wait_until, lambda: len(tabs_of(served.process.pid)) == 1, 20)
            ws_d = await third.ws_connect(served.ws_url(), headers=origin)
            assert await _first_screen(ws_d) >= 2000
            await ws_c.close()
            await ws_d.close()
        log = (served.home / "serve-web.log").read_text(errors="replace")
        assert log.count("127.0.0.1 refused") == 1 and log.count("127.0.0.3 refused") == 1, log


async def _raw(port: int, request: bytes, source: str = "127.0.0.1") -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(request)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(4096), 10)
    finally:
        writer.close()


async def test_the_log_keeps_one_plain_line_a_request_and_never_the_token(tmp_path):
    with _serve(tmp_path) as served:
        host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
        forged = b"GET /%1b]0;owned%07%1b[2J%0a127.0.0.9%20GET%20/admin%20200 HTTP/1.1\r\n" + host + b"\r\n"
        assert (await _raw(served.port, forged)).startswith(b"HTTP/1.1 404")
        # A malformed request that carries the token: once logged with a traceback and its locals.
        doubled = b"GET /?token=%s HTTP/1.1\r\n%s%s\r\n" % (served.token.encode(), host, host)
        assert (await _raw(served.port, doubled)).split(b" ")[1] == b"400"
        await asyncio.sleep(1)
        log = (served.home / "serve-web.log").read_text(errors="replace")
    assert "\x1b" not in log and "\x07" not in log
    assert not any(line.lstrip().startswith("127.0.0.9") for line in log.splitlines()), log
    assert log.count(served.token) == 1, log              # the URL printed at start, and nothing else
    assert "│" not in log and "locals" not in log, log    # no traceback boxes with variables in them
    assert len(log.splitlines()) < 12, log


async def test_idle_connections_are_capped_per_address_and_timed_out(tmp_path):
    with _serve(tmp_path) as served:
        from cardtable.serve.web import CONNECTIONS_PER_ADDRESS

        held = []
        for _ in range(CONNECTIONS_PER_ADDRESS + 8):
            held.append(await asyncio.open_connection("127.0.0.1", served.port, local_addr=("127.0.0.2", 0)))
            held[-1][1].write(b"GET / HTTP/1.1\r\n")          # a request that never ends (slowloris)

        async def closed_by_server(reader) -> bool:
            try:
                return await asyncio.wait_for(reader.read(), 40) is not None
            except (TimeoutError, ConnectionError):
                return False

        refused = 0
        for reader, _writer in held[CONNECTIONS_PER_ADDRESS:]:
            try:
                answer = await asyncio.wait_for(reader.read(), 5)
            except TimeoutError:
                continue
            refused += answer.startswith(b"HTTP/1.1 503")
        assert refused == 8
        async with _client() as session, session.get(served.url) as response:
            assert response.status == 200                     # this machine's own page still opens
        # The ones let in are closed by the server once they have waited too long for a whole request.
        results = await asyncio.gather(*(closed_by_server(reader) for reader, _ in held[:CONNECTIONS_PER_ADDRESS]))
        assert all(results)
        for _reader, writer in held:
            writer.close()


async def test_a_flood_of_keys_is_held_to_the_input_budget(tmp_path):
    with _serve(tmp_path) as served:
        async with _client() as session:
            ws = await session.ws_connect(served.ws_url(query="width=100&height=30"),
                                          headers={"Origin": served.base})
            assert await _first_screen(ws) >= 2000
            (tab,) = tabs_of(served.process.pid)
            message = json.dumps(["stdin", "\x1b[B" * 3000])      # 9 KB of Down keys
            for _ in range(30):
                await ws.send_str(message)
            peak, deadline = 0, time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    await asyncio.wait_for(ws.receive(), 0.2)     # keep reading what the tab draws
                except TimeoutError:
                    pass
                peak = max(peak, rss_kib(tab))
            async with session.get(served.url) as response:
                assert response.status == 200
            await ws.close()
        assert peak < TAB_RSS_AFTER_FLOOD_KIB, f"the tab grew to {peak} KiB"


def test_the_input_budget_refills_at_its_rate_up_to_its_burst():
    from cardtable.serve.web import InputBudget

    now = [100.0]
    budget = InputBudget(rate=1000, burst=4000, clock=lambda: now[0])
    assert budget.take(4000) and not budget.take(1)
    now[0] += 1.0
    assert budget.take(1000) and not budget.take(1)
    assert budget.wait_for(500) == pytest.approx(0.5)
    now[0] += 3600
    assert budget.take(4000) and not budget.take(1)          # never more than the burst
    assert not budget.take(4001) and budget.wait_for(4001) == float("inf")


async def _lowest_row_drawn(ws, seconds: float = 30, quiet: float = 2.0) -> int:
    """The lowest row the tab moves its cursor to, read until it has drawn and then sent nothing for
    ``quiet`` seconds (a loaded machine may take longer than that to draw at all)."""
    lowest = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            wait = quiet if lowest else max(deadline - time.monotonic(), 0.01)
            message = await asyncio.wait_for(ws.receive(), wait)
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            lowest = max([lowest, *(int(row) for row in CURSOR_ROW.findall(message.data))])
        elif message.type != aiohttp.WSMsgType.TEXT:
            break
    return lowest


CURSOR_ROW = re.compile(rb"\x1b\[(\d+);\d+H")


async def test_a_flood_of_resizes_ends_at_the_last_size(tmp_path):
    with _serve(tmp_path) as served:
        async with _client() as session:
            ws = await session.ws_connect(served.ws_url(query="width=100&height=30"),
                                          headers={"Origin": served.base})
            assert await _lowest_row_drawn(ws) == 30
            for _ in range(300):
                await ws.send_str(json.dumps(["resize", {"width": 10, "height": 10}]))
                await ws.send_str(json.dumps(["resize", {"width": 12, "height": 12}]))
            await ws.send_str(json.dumps(["resize", {"width": 60, "height": 20}]))
            assert await _lowest_row_drawn(ws) == 20          # the last size is the one the tab has
            await ws.close()


async def test_a_tab_whose_process_dies_closes_its_page_and_frees_its_slot(tmp_path):
    with _serve(tmp_path, "--max-tabs", "1") as served:
        async with _client() as session:
            ws = await session.ws_connect(served.ws_url(), headers={"Origin": served.base})
            assert await _first_screen(ws) >= 2000
            (tab,) = tabs_of(served.process.pid)
            os.kill(tab, signal.SIGKILL)                       # a crash, the OOM killer
            await _refusal(ws, seconds=20)                     # read until it closes, or 20 s
            assert ws.closed, "the page of a dead tab stayed open (and held its slot)"
            # The slot is free again once the server has seen the process go (it may take the page's
            # close a moment longer than that on a busy machine): a new page within 10 s gets a table.
            deadline = time.monotonic() + 10
            while True:
                ws = await session.ws_connect(served.ws_url(), headers={"Origin": served.base})
                drawn = await _first_screen(ws)
                await ws.close()
                if drawn >= 2000 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.5)
            assert drawn >= 2000, "the dead tab's slot was not freed"


@pytest.mark.parametrize("path,logged", [
    ("/ws/secret-token", "/ws/…"), ("/download/0123456789abcdef", "/download/…"), ("/", "/"),
    ("/static/js/textual.js", "/static/js/textual.js"),
])
def test_the_log_shows_no_token_and_no_download_key(path, logged):
    """A download's key is all it takes to fetch that file (a screenshot of the table) while it lasts."""
    from cardtable.serve.web import redact

    assert redact(path) == logged


async def test_handshakes_at_the_same_moment_cannot_pass_the_cap_together(tmp_path):
    with _serve(tmp_path, "--max-tabs", "1") as served:
        async with _client() as session:
            sockets = await asyncio.gather(*(session.ws_connect(served.ws_url(), headers={"Origin": served.base})
                                             for _ in range(6)))
            outcomes = await asyncio.gather(*(_first_screen(ws, seconds=15) for ws in sockets))
            assert len(tabs_of(served.process.pid)) <= 1, "the cap let several tabs in at once"
            assert sum(drawn >= 2000 for drawn in outcomes) == 1, outcomes
            for ws in sockets:
                await ws.close()
