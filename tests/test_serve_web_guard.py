"""``cardtable serve web`` against a hostile page or client (issue 28), on 127.0.0.1 with aiohttp's client:
the token, the Origin and Host checks, the size limits, the page's own files, and no tab process left
once the server has gone (SIGTERM or ``kill -9``)."""

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

from tests.web_helpers import processes_of, rss_kib, tabs_of, wait_until, web_server

MAX_TAB_RSS_KIB = 400 * 1024     # a tab at the largest size measured ~60 MiB; 100000² took gigabytes


@pytest.fixture
def served(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    with web_server(home) as server:
        yield server


async def _status(session, url, **kwargs) -> int:
    async with session.get(url, **kwargs) as response:
        await response.read()
        return response.status


async def _refused(session, url, headers) -> int:
    """The HTTP status with which a websocket handshake is refused (101 would mean it opened)."""
    try:
        ws = await session.ws_connect(url, headers=headers)
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status
    await ws.close()
    return 101


async def _screen_bytes(ws, seconds: float, wanted: int = 1) -> int:
    """Read the tab's output for at most ``seconds``; stops once ``wanted`` bytes have come."""
    received = 0
    deadline = time.monotonic() + seconds
    while received < wanted and time.monotonic() < deadline:
        try:
            message = await asyncio.wait_for(ws.receive(), max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            received += len(message.data)
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            break
    return received


async def _open_tab(session, served, query="width=100&height=30"):
    ws = await session.ws_connect(served.ws_url(query=query), headers={"Origin": served.base})
    assert await _screen_bytes(ws, 40, wanted=2000) >= 2000, "the tab drew nothing"
    tabs = tabs_of(served.process.pid)
    assert len(tabs) == 1
    return ws, tabs[0]


async def test_the_page_and_the_websocket_want_the_token(served):
    async with aiohttp.ClientSession() as session:
        assert await _status(session, served.base + "/") == 403
        assert await _status(session, served.base + "/?token=" + "x" * len(served.token)) == 403
        assert await _status(session, served.url) == 200
        for token in ("", "x" * len(served.token), served.token[:-1]):
            url = served.ws_url(token=token) if token else served.base.replace("http", "ws") + "/ws"
            assert await _refused(session, url, {"Origin": served.base}) in (403, 404)
        assert tabs_of(served.process.pid) == [], "a refused websocket started a tab"


async def test_a_page_of_another_origin_cannot_open_a_table(served):
    async with aiohttp.ClientSession() as session:
        for origin in ("http://evil.example", f"http://evil.example:{served.port}",
                       f"http://127.0.0.1:{served.port + 1}", "null", None):
            headers = {} if origin is None else {"Origin": origin}
            assert await _refused(session, served.ws_url(), headers) == 403, origin
        assert tabs_of(served.process.pid) == [], "a refused websocket started a tab"
        ws, _tab = await _open_tab(session, served)      # the page's own origin opens one
        await ws.close()
    log_file = served.home / "serve-web.log"
    # The websocket's line is written when its tab has ended (the server asks it to quit first).
    assert await asyncio.to_thread(wait_until, lambda: "/ws/… 101" in log_file.read_text(errors="replace"), 20)
    assert log_file.read_text(errors="replace").count(served.token) == 1     # printed once, never logged


async def test_a_request_for_another_host_name_is_refused(served):
    """DNS rebinding: a page of evil.example whose name now points to 127.0.0.1 still sends its Host."""
    foreign = {"Host": f"evil.example:{served.port}"}
    async with aiohttp.ClientSession() as session:
        assert await _status(session, served.url, headers=foreign) == 421
        assert await _status(session, served.base + "/static/css/xterm.css", headers=foreign) == 421
        headers = {**foreign, "Origin": f"http://evil.example:{served.port}"}
        assert await _refused(session, served.ws_url(), headers) == 421
        assert tabs_of(served.process.pid) == []
        localhost = served.url.replace("127.0.0.1", "localhost")
        assert await _status(session, localhost) == 200       # this machine's own names are fine


CURSOR_TO = re.compile(rb"\x1b\[(\d+);(\d+)H")


async def _rows_drawn(ws, until_row: int, seconds: float = 30, quiet: float = 1.0) -> int:
    """The lowest row the tab moves its cursor to, read until it has reached ``until_row`` and then sent
    nothing for ``quiet`` seconds (so the whole redraw is counted), or ``seconds`` have passed."""
    lowest, tail = 0, b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        wait = quiet if lowest >= until_row else deadline - time.monotonic()
        try:
            message = await asyncio.wait_for(ws.receive(), max(0.05, wait))
        except TimeoutError:
            if lowest >= until_row:
                break
            continue
        if message.type != aiohttp.WSMsgType.BINARY:
            continue
        chunk, tail = tail + message.data, message.data[-16:]
        lowest = max([lowest, *(int(row) for row, _col in CURSOR_TO.findall(chunk))])
    return lowest


@pytest.fixture(params=["zygote", "plain"])
def served_either_way(request, tmp_path, monkeypatch):
    """The server with tabs forked from its template, and with tabs started the plain way."""
    monkeypatch.setenv("CARDTABLE_SPAWN", request.param)
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    with web_server(home) as server:
        yield request.param, server


async def test_a_huge_terminal_size_is_clamped(served_either_way):
    spawn, served = served_either_way
    async with aiohttp.ClientSession() as session:
        ws, tab = await _open_tab(session, served, query="width=100000&height=100000")
        if spawn == "plain":   # a forked tab's /proc/PID/environ is its template's, not what it was given
            environ = dict(item.split(b"=", 1) for item in Path(f"/proc/{tab}/environ").read_bytes().split(b"\0")
                           if b"=" in item)
            assert (environ[b"COLUMNS"], environ[b"ROWS"]) == (b"1000", b"1000")
        assert await _rows_drawn(ws, until_row=1000) == 1000
        # Malformed messages are dropped; a resize far too big is clamped: the tab draws 1000 rows.
        for raw in ("not json", "{}", "[]", "[" * 100_000, '["resize", "big"]', '["stdin", 5]', '["resize", {"width": 1e400}]'):
            await ws.send_str(raw)
        await ws.send_str(json.dumps(["resize", {"width": 10, "height": 10}]))
        assert await _rows_drawn(ws, until_row=10) == 10
        await ws.send_str(json.dumps(["resize", {"width": 100000, "height": 100000}]))
        assert await _rows_drawn(ws, until_row=1000) == 1000
        assert rss_kib(tab) < MAX_TAB_RSS_KIB
        await ws.send_str(json.dumps(["ping", "still there"]))
        deadline = time.monotonic() + 20
        pong = None
        while pong is None and time.monotonic() < deadline:
            message = await asyncio.wait_for(ws.receive(), 20)
            if message.type == aiohttp.WSMsgType.TEXT:
                pong = json.loads(message.data)
        assert pong == ["pong", "still there"]
        await ws.close()


URL_IN_PAGE = re.compile(r"""(?:src|href|data-[a-z-]*url)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)""")


async def test_the_page_asks_nothing_of_another_server(served):
    async with aiohttp.ClientSession() as session:
        async with session.get(served.url) as response:
            page = await response.text()
            policy = response.headers["Content-Security-Policy"]
        async with session.get(served.base + "/static/css/xterm.css") as response:
            css = await response.text()
    urls = [a or b for a, b in URL_IN_PAGE.findall(page + css)]
    assert any("textual.js" in url for url in urls) and any(".ttf" in url for url in urls)
    own = f"ws://127.0.0.1:{served.port}/"
    for url in urls:
        assert url == "" or (url.startswith("/") and not url.startswith("//")) or url.startswith(own), url
    assert "googleapis" not in page and "https://" not in page and "http://" not in page
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "kill-9"])
async def test_no_tab_outlives_the_server(served, sig):
    saves = served.home / "saves"
    async with aiohttp.ClientSession() as session:
        ws, tab = await _open_tab(session, served)
        # Start a game: Gong Zhu, its setup dialog, start; Enter again until a save appears (a key typed
        # before the next screen is ready is dropped, by design; at the table Enter only lifts a card).
        await ws.send_str(json.dumps(["stdin", "\x1b[B"]))
        deadline = time.monotonic() + 40
        while not any(saves.glob("*-*.json")) and time.monotonic() < deadline:
            await _screen_bytes(ws, 1.0, wanted=10**9)
            await ws.send_str(json.dumps(["stdin", "\r"]))
        assert any(saves.glob("*-*.json")), "no game started in the tab"
        os.kill(served.process.pid, sig)
        assert await asyncio.to_thread(wait_until, lambda: served.process.poll() is not None, 30)
        gone = await asyncio.to_thread(wait_until, lambda: not processes_of(served.home), 20)
        assert gone, f"left behind: {processes_of(served.home)} (the tab was {tab})"
        await ws.close()
    from cardtable.saves import SaveStore

    slot = next(saves.glob("*-*.json")).stem
    _match, data = SaveStore(saves).load(slot)       # the tab's save survived its server, readable
    assert slot.startswith(data.game)


@pytest.mark.parametrize("header,host,port,allowed", [
    ("127.0.0.1:8000", "127.0.0.1", 8000, True),
    ("localhost:8000", "127.0.0.1", 8000, True),
    ("[::1]:8000", "::1", 8000, True),
    ("127.0.0.1:8001", "127.0.0.1", 8000, False),
    ("127.0.0.1", "127.0.0.1", 8000, False),
    ("evil.example:8000", "127.0.0.1", 8000, False),
    ("localhost.evil.example:8000", "localhost", 8000, False),
    ("192.168.1.5:8000", "0.0.0.0", 8000, True),          # bound to every address: any IP literal
    ("[fe80::1]:8000", "::", 8000, True),
    ("rebind.evil.example:8000", "0.0.0.0", 8000, False),
    ("Cards.Lan:8000", "cards.lan", 8000, True),
    ("cards.lan", "cards.lan", 80, True),
    ("", "127.0.0.1", 8000, False), ("[::1:8000", "::1", 8000, False), ("127.0.0.1:80x", "127.0.0.1", 80, False),
])
def test_which_host_headers_name_this_server(header, host, port, allowed):
    from cardtable.serve.web import host_allowed

    assert host_allowed(header, host, port) is allowed


@pytest.mark.parametrize("width,height,expected", [
    ("100000", "100000", (1000, 1000)), (0, -5, (10, 5)), ("80", "24", (80, 24)), (None, None, (80, 24)),
    ("9" * 5000, "x", (80, 24)), (float("inf"), float("nan"), (80, 24)), (True, 120.7, (80, 120)),
])
def test_terminal_sizes_are_clamped(width, height, expected):
    from cardtable.serve.web import clamp_size

    assert clamp_size(width, height) == expected
