"""``cardtable serve web`` in a real headless browser (Chromium from the system packages).

The test reads what the page's terminal receives over its websocket through a terminal emulator, types
with the browser's own keyboard events, plays a card of Gong Zhu and keeps a screenshot.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

pyte = pytest.importorskip("pyte")
pytest.importorskip("textual_serve")
playwright_api = pytest.importorskip("playwright.async_api",
                                     reason="the browser test needs playwright (pip install '.[test]')")

from tests.web_helpers import web_server as served_web

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium here: 'apt-get install chromium' (or set CARDTABLE_CHROMIUM) "
                             "to run the browser test of 'cardtable serve web'")
WAIT = 40.0


@pytest.fixture
def web_server(tmp_path):
    with served_web(tmp_path / "home") as served:
        yield served.url, served.home


class PageTerminal:
    """The page's terminal as the browser receives it: websocket frames fed through a VT emulator."""

    def __init__(self) -> None:
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None

    def attach(self, websocket) -> None:
        query = parse_qs(urlparse(websocket.url).query)
        self.screen = pyte.Screen(int(query["width"][0]), int(query["height"][0]))
        self.stream = pyte.ByteStream(self.screen)
        websocket.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        if isinstance(payload, bytes) and self.stream is not None:
            self.stream.feed(payload)

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen else ""

    async def wait_for(self, needle: str) -> None:
        deadline = time.monotonic() + WAIT
        while needle not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared in the page; it shows:\n{self.text()}")
            await asyncio.sleep(0.1)


async def test_a_gongzhu_card_played_in_the_browser(web_server):
    url, home = web_server
    saves = home / "saves"

    def moves() -> list:
        files = sorted(saves.glob("gongzhu-*.json"))
        return json.loads(files[0].read_text(encoding="utf-8"))["moves"] if files else []

    terminal = PageTerminal()
    async with playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 800})
            page.on("websocket", terminal.attach)
            requests: list[str] = []
            page.on("request", lambda request: requests.append(request.url))
            refused: list[str] = []
            page.on("console", lambda message: refused.append(message.text)
                    if "Content Security Policy" in message.text else None)
            await page.goto(url)
            await terminal.wait_for("Choose a game")
            await page.click("#terminal")                   # keys go to the terminal, as a player's would
            await page.keyboard.press("ArrowDown")          # Gong Zhu
            await terminal.wait_for("Gong Zhu")
            await page.keyboard.press("Enter")              # its setup dialog
            await terminal.wait_for("Gong Zhu game")
            await page.keyboard.press("Enter")              # start
            await terminal.wait_for("You")
            # Show no card, then lift and play one: the save gains a play of seat 0.
            deadline = time.monotonic() + WAIT
            while not any(m["seat"] == 0 and "play" in m["move"] for m in moves()):
                assert time.monotonic() < deadline, f"no card played; the page shows:\n{terminal.text()}"
                await page.keyboard.press("Enter")
                await asyncio.sleep(0.6)
            shot = Path(home) / "serve-web.png"
            await page.screenshot(path=str(shot))
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
            # Nothing was asked of another server (no font from a CDN): the page works offline.
            own = url.split("/?", 1)[0] + "/"
            assert requests and all(r.startswith(own) for r in requests), requests
            assert refused == [], refused
        finally:
            await browser.close()
