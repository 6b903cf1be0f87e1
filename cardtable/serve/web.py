"""``cardtable serve web``: the table in a browser tab, through textual-serve.

One ``cardtable`` process per browser tab runs with Textual's web driver; the server relays its output
to the page. Every tab shares the saves and settings of the user who runs the server: this mode is for
playing on your own machine from a browser, or for a trusted few; serve SSH for per-player saves.

What is textual-serve's: the tab protocol (:class:`AppService`: the packets to and from a tab's
process), the page's script and styles (``textual.js``, ``xterm.css``), the Roboto Mono font file and the
file downloads. What is ours (issue 28), because textual-serve 1.1.3 has no option for any of it:

- **Host check** on every request (DNS rebinding): the ``Host`` header must name the bound address and
  port (on a loopback address: any loopback name; bound to every address: an IP literal).
- **Secret token**, made at start and printed in the URL; the page wants it in ``?token=``, the
  websocket in its path (``/ws/TOKEN``), compared in constant time.
- **Origin check**: a websocket opens only from the page's own origin (no other site's page, even with
  the token).
- **Size limits**: the terminal size from the query and from ``resize`` messages is clamped to
  :data:`MIN_SIZE` … :data:`MAX_SIZE` (a tab of 100000×100000 cells took gigabytes).
- **Our page**: no request leaves this server (the font is served from here, not from a CDN) and its
  Content-Security-Policy allows nothing else.
- **No tab outlives the server**: each tab is its own process group, asked to quit, then hung up, then
  killed when its page goes or the server stops; and it gets SIGHUP from the kernel if the server dies
  (``PR_SET_PDEATHSIG``; its hang-up handler saves the game).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import json
import os
import secrets
import shlex
import signal
import socket
import sys
from pathlib import Path
from string import Template
from typing import Any

from cardtable.serve import LOOPBACK_HOSTS, child_command, package_root

MAX_SIZE = (1000, 1000)        # columns, rows: the bounds of `serve ssh` too
MIN_SIZE = (10, 5)
DEFAULT_SIZE = (80, 24)
MAX_MESSAGE = 256 * 1024       # one websocket message from the page (a paste)
QUIT_GRACE = 3.0               # seconds a tab has to save and leave once asked to quit
HANGUP_GRACE = 3.0             # then after SIGHUP, before SIGKILL
PAGE = Path(__file__).with_name("web_page.html")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def _int(value: Any, default: int) -> int:
    """A whole number from text or JSON (``"80"``, ``80``, ``80.5``), else ``default``."""
    if isinstance(value, bool):
        return default
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return default


def clamp_size(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size from the page (a query string or a JSON message: anything) within the limits."""
    return (min(max(_int(width, DEFAULT_SIZE[0]), MIN_SIZE[0]), MAX_SIZE[0]),
            min(max(_int(height, DEFAULT_SIZE[1]), MIN_SIZE[1]), MAX_SIZE[1]))


def _split_host(header: str) -> tuple[str, int | None] | None:
    """``name:port`` / ``[v6]:port`` / ``name`` → (name, port), or None when it is not that shape."""
    if header.startswith("["):
        name, sep, rest = header[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, sep, port_text = header.rpartition(":")
        if not sep:
            name, port_text = header, None
    if port_text is None:
        return name.lower(), None
    if not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5:
        return None
    return name.lower(), int(port_text)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(header: str | None, host: str, port: int) -> bool:
    """Whether a request's ``Host`` header names this server (the defence against DNS rebinding: a
    page of another site whose name now resolves to us still sends its own name)."""
    parts = _split_host(header or "")
    if parts is None:
        return False
    name, asked_port = parts
    if asked_port != port and not (asked_port is None and port == 80):
        return False
    if host in LOOPBACK_HOSTS:
        return name in ("localhost", "127.0.0.1", "::1")
    if host in WILDCARD_HOSTS:
        return _is_ip(name)
    return name == host.lower().strip("[]")


def origin_allowed(origin: str | None, host_header: str) -> bool:
    """A websocket's ``Origin`` must be the page's own: this server, as the browser named it."""
    return origin is not None and origin.lower() == f"http://{host_header}".lower()


def token_matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), token.encode())


def _die_with_parent(parent: int) -> Any:
    """A ``preexec_fn``: the kernel sends SIGHUP to the tab when the server's process ends, however it
    ends (``kill -9`` too); the tab's hang-up handler saves and leaves. Linux only; elsewhere a no-op."""
    prctl = None
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            prctl = None
    set_pdeathsig = 1      # PR_SET_PDEATHSIG

    def preexec() -> None:
        if prctl is not None:
            prctl(set_pdeathsig, int(signal.SIGHUP), 0, 0, 0)
        if os.getppid() != parent:       # the server died before the line above
            os._exit(1)

    return preexec


def redact(path: str) -> str:
    """A request's path for the log, without the token or a guess at it (the websocket's path holds it;
    the page's is in the query, never logged)."""
    return "/ws/…" if path.startswith("/ws/") else path


def build_server(argv: list[str], host: str, port: int, token: str, listening: socket.socket) -> Any:
    """The aiohttp application around textual-serve's pieces (imported here: the extra is optional)."""
    from aiohttp import WSMsgType, web
    from aiohttp.abc import AbstractAccessLogger
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from cardtable import i18n
    from cardtable.i18n import t

    class TabService(AppService):
        """One tab's process: ours to start (argv, own process group, parent-death signal), with the
        size clamped, and ours to end for sure."""

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=self._build_environment(width=width, height=height),
                start_new_session=True, preexec_fn=_die_with_parent(os.getpid()))
            self._process = process
            self._stdin = process.stdin
            return process

        async def start(self, width: int, height: int) -> None:
            await super().start(*clamp_size(width, height))

        async def set_terminal_size(self, width: Any, height: Any) -> None:
            await super().set_terminal_size(*clamp_size(width, height))

        async def stop(self) -> None:
            """Ask the tab to quit (it saves), then hang it up, then kill its process group."""
            with contextlib.suppress(Exception):
                await asyncio.wait_for(super().stop(), QUIT_GRACE)
            process = self._process
            if process is None:
                return
            for sig, grace in ((signal.SIGHUP, HANGUP_GRACE), (signal.SIGKILL, HANGUP_GRACE)):
                if process.returncode is not None:
                    return
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, sig)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), grace)

    class AccessLog(AbstractAccessLogger):
        """One line a request: who, what (path only, no query, no token), the status."""

        def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
            self.logger.info("%s %s %s %s", request.remote, request.method, redact(request.path),
                             response.status)

    class CardTableServer(Server):
        def __init__(self) -> None:
            super().__init__(shlex.join(argv), host=host, port=port, title="cardtable")
            self.tabs: set[TabService] = set()

        async def _make_app(self) -> web.Application:
            app = web.Application(middlewares=[self.guard], client_max_size=64 * 1024)
            app.add_routes([
                web.get("/", self.handle_index),
                web.get("/ws/{token}", self.handle_websocket),
                web.get("/download/{key}", self.handle_download),
                web.static("/static", self.statics_path, show_index=False),
            ])
            app.on_startup.append(self.on_startup)
            app.on_shutdown.append(self.on_shutdown)
            return app

        @web.middleware
        async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
            if not host_allowed(request.headers.get("Host"), host, port):
                return web.Response(status=421, text=t("web_wrong_host") + "\n")
            response = await handler(request)
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
            response.headers.setdefault("Referrer-Policy", "no-referrer")
            return response

        async def handle_index(self, request: web.Request) -> web.Response:
            if not token_matches(request.query.get("token"), token):
                return web.Response(status=403, text=t("web_need_token") + "\n")
            font_size = min(max(_int(request.query.get("fontsize"), 16), 6), 64)
            page = Template(PAGE.read_text(encoding="utf-8")).substitute(
                lang=html.escape(i18n.language()),
                font_size=font_size,
                websocket=html.escape(f"ws://{request.host}/ws/{token}"),
                ended=html.escape(t("web_session_ended")),
                reload=html.escape(t("web_reload")),
            )
            policy = (f"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                      f"font-src 'self'; img-src 'self' data:; connect-src ws://{request.host}; "
                      f"frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
            return web.Response(text=page, content_type="text/html", headers={
                "Content-Security-Policy": policy, "Cache-Control": "no-store"})

        # The base class declares a websocket as the only answer; ours may be a 403 instead.
        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
            if not token_matches(request.match_info.get("token"), token):
                return web.Response(status=403, text=t("web_need_token") + "\n")
            if not origin_allowed(request.headers.get("Origin"), request.host):
                return web.Response(status=403, text=t("web_wrong_origin") + "\n")
            width, height = clamp_size(request.query.get("width"), request.query.get("height"))
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
            await websocket.prepare(request)
            async def close() -> None:
                await websocket.close()

            tab = TabService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=close, download_manager=self.download_manager)
            self.tabs.add(tab)
            try:
                await tab.start(width, height)
                await self.relay(websocket, tab)
            finally:
                await asyncio.shield(self.end_tab(tab))
            return websocket

        async def end_tab(self, tab: TabService) -> None:
            if tab in self.tabs:
                self.tabs.discard(tab)
                await tab.stop()

        async def relay(self, websocket: web.WebSocketResponse, tab: TabService) -> None:
            """The page's messages to the tab; anything malformed is dropped."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except (ValueError, RecursionError):     # not JSON, or nested past the parser's depth
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], (envelope[1] if len(envelope) > 1 else None)
                if kind == "stdin" and isinstance(data, str):
                    await tab.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    await tab.set_terminal_size(data.get("width"), data.get("height"))
                elif kind == "ping" and isinstance(data, (str, int, float)):
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await tab.blur()
                elif kind == "focus":
                    await tab.focus()

        async def on_startup(self, app: web.Application) -> None:
            shown = f"[{host}]" if ":" in host else host
            print(f"cardtable: serving in the browser at http://{shown}:{port}/?token={token}", flush=True)

        async def on_shutdown(self, app: web.Application) -> None:
            await asyncio.gather(*(self.end_tab(tab) for tab in list(self.tabs)), return_exceptions=True)

        def serve(self, debug: bool = False) -> None:
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self.request_exit)
            web.run_app(self._make_app(), sock=listening, handle_signals=False, loop=loop, print=None,
                        access_log_class=AccessLog, shutdown_timeout=QUIT_GRACE + 2 * HANGUP_GRACE + 1)

    return CardTableServer()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)[0][0]
    return socket.create_server((host, port), family=family, backlog=128)


def run_web_server(host: str, port: int) -> int:
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        print("cardtable: serving the web needs textual-serve (pip install 'cardtable[serve]')",
              file=sys.stderr)
        return 2
    try:
        listening = _listen(host, port)
    except OSError as exc:
        print(f"cardtable: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    os.environ["PYTHONPATH"] = package_root()      # every tab runs this very package
    from cardtable import i18n

    i18n.set_language(i18n.detect_language())     # the page's few words
    token = secrets.token_urlsafe(24)
    server = build_server(child_command(), host, listening.getsockname()[1], token, listening)
    server.serve()
    return 0
