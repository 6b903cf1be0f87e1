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
- **Limits**: tables in all and per address (``--max-tabs``, ``--per-address``; a tab still quitting
  counts until its process is gone), connections in all and per address (:class:`ConnectionGate`, in
  front of aiohttp's handler), a time limit for a connection to send a whole request (slowloris), and an
  input budget per tab (:class:`InputBudget`: keys beyond it are dropped, resizes coalesced), since a
  flood of keys grew a tab by hundreds of megabytes.
- **A plain log**: one line a request, control characters escaped (a path could forge lines or send
  escape sequences to the operator's terminal), tracebacks cut to their last line and the token
  redacted (textual-serve's rich tracebacks showed every frame's variables, the raw request among them).
- **Our page**: no request leaves this server (the font is served from here, not from a CDN) and its
  Content-Security-Policy allows nothing else.
- **No tab outlives the server**: each tab is its own process group, asked to quit, then hung up, then
  killed when its page goes or the server stops; and it gets SIGHUP from the kernel if the server dies
  (``PR_SET_PDEATHSIG``; its hang-up handler saves the game).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import html
import ipaddress
import json
import logging
import math
import os
import secrets
import shlex
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
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
MAX_TABS = 16                  # the defaults of --max-tabs and --per-address (as serve ssh's)
TABS_PER_ADDRESS = 4
MAX_CONNECTIONS = 256          # open HTTP and websocket connections, in all and from one address
CONNECTIONS_PER_ADDRESS = 32
REQUEST_TIMEOUT = 10.0         # seconds a connection may take to send a whole request, or sit idle
INPUT_RATE = 4096              # bytes a second of keys a tab is sent; a tab handles some 6-20 KB/s
INPUT_BURST = 16 * 1024        # ... after a burst of this many (a tab grew ~1.5 KiB per byte queued)
META_COST = 512                # a resize, focus or blur, counted against the same budget
REFUSAL_LINGER = 1.0           # seconds a refused connection stays open to deliver its answer
TRY_AGAIN_LATER = 1013         # the websocket close code of a refused tab
POOL_VARIABLE = "CARDTABLE_SEARCH_POOL_FD"

log = logging.getLogger("cardtable.serve.web")


@dataclass(frozen=True)
class WebLimits:
    max_tabs: int = MAX_TABS
    per_address: int = TABS_PER_ADDRESS


class InputBudget:
    """A token bucket: ``rate`` units a second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level, self.at = float(burst), clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now

    def take(self, cost: float) -> bool:
        self._refill()
        if cost > self.level:
            return False
        self.level -= cost
        return True

    def wait_for(self, cost: float) -> float:
        """Seconds until ``cost`` can be taken (infinite if it is more than the burst)."""
        self._refill()
        if cost > self.burst:
            return math.inf
        return max(0.0, (cost - self.level) / self.rate)


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
    the page's is in the query, never logged) and without a download's key (a capability too)."""
    for secret in ("/ws/", "/download/"):
        if path.startswith(secret):
            return secret + "…"
    return path


def printable(text: str) -> str:
    """``text`` on one line with nothing a terminal acts on: control characters (newlines, ESC, BEL) and
    anything unprintable are written as escapes."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


class PlainLog(logging.Formatter):
    """The server's log: one line a record, made printable, the token never in it, an exception reduced
    to its type and message (no frames, no variables)."""

    def __init__(self, token: str) -> None:
        super().__init__("%(levelname)s %(message)s")
        self.token = token

    def formatException(self, ei: Any) -> str:
        exc = ei[1]
        return f"{type(exc).__name__}: {exc}" if exc is not None else ""

    def format(self, record: logging.LogRecord) -> str:
        record = logging.makeLogRecord(record.__dict__)
        if record.exc_info:
            record.msg, record.args = f"{record.getMessage()}: {self.formatException(record.exc_info)}", None
            record.exc_info, record.exc_text = None, None
        record.stack_info = None
        return printable(super().format(record)).replace(self.token, "…")


class ConnectionGate(asyncio.Protocol):
    """Stands in front of aiohttp's protocol for each accepted connection: past the caps (in all, from one
    address) it answers 503 and closes before aiohttp sees a byte; otherwise it hands everything on."""

    def __init__(self, make_handler: Callable[[], asyncio.Protocol], counts: Counter, refusal: bytes,
                 on_refused: Callable[[str], None]) -> None:
        self.make_handler, self.counts, self.refusal, self.on_refused = make_handler, counts, refusal, on_refused
        self.inner: asyncio.Protocol | None = None
        self.address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if self.counts[self.address] >= CONNECTIONS_PER_ADDRESS or self.counts.total() >= MAX_CONNECTIONS:
            self.on_refused(self.address)
            # Answer, then close a little later: closing with the request unread would reset the
            # connection, and the client could lose the answer.
            with contextlib.suppress(Exception):
                transport.write(self.refusal)     # type: ignore[attr-defined]
                transport.write_eof()             # type: ignore[attr-defined]
            asyncio.get_running_loop().call_later(REFUSAL_LINGER, transport.close)
            return
        self.counts[self.address] += 1
        self.inner = self.make_handler()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        self.counts[self.address] -= 1
        if self.counts[self.address] <= 0:
            del self.counts[self.address]
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class RateLimitedLog:
    """One log line per ``every`` seconds at most for a kind of event, with how many were not logged."""

    def __init__(self, every: float = 5.0) -> None:
        self.every, self.last, self.quiet = every, -math.inf, 0

    def __call__(self, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            self.quiet += 1
            return
        more = f" (and {self.quiet} more)" if self.quiet else ""
        self.last, self.quiet = now, 0
        log.warning(message + more, *args)


class Helpers:
    """The web server's table template and search pool (as ``serve ssh``'s; see serve/zygote.py)."""

    def __init__(self) -> None:
        self.zygote: Any = None
        self.pool: Any = None

    async def start(self, env: dict[str, str]) -> None:
        from cardtable.serve.searchpool import SearchPool
        from cardtable.serve.zygote import Zygote, become_subreaper

        self.pool = SearchPool()
        await self.pool.start()
        if become_subreaper():
            self.zygote = Zygote(env)
            if not await self.zygote.start():
                log.warning("the table template did not start: tabs start the plain way")

    async def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()
        if self.pool is not None:
            await self.pool.close()


class PipedTab:
    """A tab forked from the template, with the pipes textual-serve reads and writes: the parts of
    ``asyncio.subprocess.Process`` that textual-serve and :class:`TabService` use."""

    def __init__(self, table: Any, stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader,
                 stderr: asyncio.StreamReader) -> None:
        self.table, self.stdin, self.stdout, self.stderr = table, stdin, stdout, stderr

    @property
    def pid(self) -> int:
        return self.table.pid

    @property
    def returncode(self) -> int | None:
        return self.table.returncode

    async def wait(self) -> int:
        code = await self.table.wait()
        with contextlib.suppress(Exception):
            self.stdin.close()
        return code


async def fork_tab(zygote: Any, args: list[str], env: dict[str, str], pool: socket.socket | None) -> PipedTab | None:
    """A tab forked by ``zygote`` on three new pipes (and the pool's socket as fd 3), or None."""
    loop = asyncio.get_running_loop()
    pipes = [os.pipe() for _ in range(3)]
    fds = {0: pipes[0][0], 1: pipes[1][1], 2: pipes[2][1]}
    if pool is not None:
        fds[3] = pool.fileno()
        env = {**env, POOL_VARIABLE: "3"}
    try:
        table = await zygote.spawn(args, env, os.getcwd(), fds) if zygote.ready else None
    finally:
        for fd in fds.values():
            if fd != (pool.fileno() if pool is not None else -1):
                os.close(fd)
    if table is None:
        for fd in (pipes[0][1], pipes[1][0], pipes[2][0]):
            os.close(fd)
        zygote.restart_soon()
        return None
    readers = []
    for fd in (pipes[1][0], pipes[2][0]):
        reader = asyncio.StreamReader(limit=2 ** 16)
        await loop.connect_read_pipe(functools.partial(asyncio.StreamReaderProtocol, reader), os.fdopen(fd, "rb", 0))
        readers.append(reader)
    transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.streams.FlowControlMixin(), os.fdopen(pipes[0][1], "wb", 0))
    stdin = asyncio.StreamWriter(transport, protocol, None, loop)
    return PipedTab(table, stdin, readers[0], readers[1])


def build_server(argv: list[str], host: str, port: int, token: str, listening: socket.socket,
                 limits: WebLimits = WebLimits(), spawn: str | None = None) -> Any:
    """The aiohttp application around textual-serve's pieces (imported here: the extra is optional).
    ``spawn``: "zygote" (the default, or $CARDTABLE_SPAWN): tabs forked from a warm template, one search
    pool; "plain": a fresh process per tab with its own search worker."""
    from aiohttp import WSMsgType, web
    from aiohttp.abc import AbstractAccessLogger
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from cardtable import i18n
    from cardtable.i18n import t

    spawn = spawn or os.environ.get("CARDTABLE_SPAWN", "zygote")
    helpers = Helpers()

    class TabService(AppService):
        """One tab's process: ours to start (argv, own process group, parent-death signal), with the
        size clamped, its input within a budget, and ours to end for sure."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.budget = InputBudget(INPUT_RATE, INPUT_BURST)
            self.pending_size: tuple[int, int] | None = None
            self.resizer: asyncio.Task[None] | None = None
            self.closing: asyncio.Future[Any] | None = None
            self.dropped = False

        async def send_keys(self, data: bytes) -> None:
            """Keys from the page, or nothing if they are past the budget (a flood; one log line)."""
            if self.budget.take(len(data)):
                await self.send_bytes(data)
            elif not self.dropped:
                self.dropped = True
                log.warning("a tab's input is past its budget (%d bytes a second): dropping keys", INPUT_RATE)

        async def send_meta_within_budget(self, data: dict[str, Any]) -> None:
            if self.budget.take(META_COST):
                await self.send_meta(data)

        def resize_soon(self, width: Any, height: Any) -> None:
            """The latest size asked for reaches the tab as soon as the budget allows; the ones between
            are skipped (a flood of resizes is one resize)."""
            self.pending_size = clamp_size(width, height)
            if self.resizer is None or self.resizer.done():
                self.resizer = asyncio.create_task(self._resize_when_allowed())

        async def _resize_when_allowed(self) -> None:
            while self.pending_size is not None:
                await asyncio.sleep(self.budget.wait_for(META_COST))
                if self.pending_size is not None and self.budget.take(META_COST):
                    size, self.pending_size = self.pending_size, None
                    await self.set_terminal_size(*size)

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            """The tab's process: forked from the server's template when it is up (serve/zygote.py),
            else a fresh one; either way with the search pool's socket if the server has one."""
            env = self._build_environment(width=width, height=height)
            pool = await helpers.pool.connect() if helpers.pool is not None else None
            process: Any = None
            try:
                if helpers.zygote is not None:
                    process = await fork_tab(helpers.zygote, argv[len(child_command()):], env, pool)
                    if process is None:
                        helpers.zygote.fallbacks += 1
                if process is None:
                    if pool is not None:
                        env[POOL_VARIABLE] = str(pool.fileno())
                    process = await asyncio.create_subprocess_exec(
                        *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True,
                        pass_fds=(pool.fileno(),) if pool is not None else (),
                        preexec_fn=_die_with_parent(os.getpid()))
            finally:
                if pool is not None:
                    pool.close()
            self._process = process
            self._stdin = process.stdin
            return process

        async def start(self, width: int, height: int) -> None:
            await super().start(*clamp_size(width, height))
            if self._task is not None:
                self._task.add_done_callback(self._process_ended)

        def _process_ended(self, _task: asyncio.Task[None]) -> None:
            """The tab's output has ended (it left, crashed or was killed): close its page, which ends
            the relay and frees its slot (else the page of a dead tab stayed open, holding it)."""
            self.closing = asyncio.ensure_future(self.remote_close())

        async def set_terminal_size(self, width: Any, height: Any) -> None:
            await super().set_terminal_size(*clamp_size(width, height))

        async def stop(self) -> None:
            """Ask the tab to quit (it saves), then hang it up, then kill its process group."""
            if self.resizer is not None:
                self.resizer.cancel()
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
            self.tabs: dict[TabService, str] = {}       # every tab whose process may be alive → address
            self.ending: set[TabService] = set()
            self.stopping = asyncio.Event()
            self.connections: Counter = Counter()
            self.log_refused_connection = RateLimitedLog()

        def initialize_logging(self) -> None:
            """Plain lines on stdout (see :class:`PlainLog`), not textual-serve's rich tracebacks."""
            handler = logging.StreamHandler(sys.stdout)
            handler.setFormatter(PlainLog(token))
            logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)

        def tab_refusal(self, address: str) -> str | None:
            """Why a new tab from ``address`` is refused (a line for its page), or None."""
            if sum(1 for where in self.tabs.values() if where == address) >= limits.per_address:
                return t("web_too_many_tabs_here", limit=limits.per_address)
            if len(self.tabs) >= limits.max_tabs:
                return t("web_too_many_tabs", limit=limits.max_tabs)
            return None

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
            address = request.remote or ""
            refusal = self.tab_refusal(address)
            if refusal is not None:
                await websocket.prepare(request)
                await self.refuse_tab(websocket, address, refusal)
                return websocket
            async def close() -> None:
                await websocket.close()

            tab = TabService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=close, download_manager=self.download_manager)
            self.tabs[tab] = address          # its slot is taken before the first await
            try:
                await websocket.prepare(request)
                await tab.start(width, height)
                await self.relay(websocket, tab)
            finally:
                await asyncio.shield(self.end_tab(tab))
            return websocket

        async def refuse_tab(self, websocket: web.WebSocketResponse, address: str, refusal: str) -> None:
            """One line in the page's terminal, a close with "try again later", one line in the log."""
            log.warning("%s refused a table: %d open, %d from there (--max-tabs %d, --per-address %d)",
                        address, len(self.tabs), sum(1 for a in self.tabs.values() if a == address),
                        limits.max_tabs, limits.per_address)
            with contextlib.suppress(Exception):
                await websocket.send_bytes(f"\r\n  {refusal}\r\n".encode())
            reason = refusal.encode()[:120].decode("utf-8", "ignore").encode()
            await websocket.close(code=TRY_AGAIN_LATER, message=reason)

        async def end_tab(self, tab: TabService) -> None:
            """Stop a tab once (the page's handler and the server's shutdown may both ask); it counts
            against the limits until its process is gone."""
            if tab not in self.tabs or tab in self.ending:
                return
            self.ending.add(tab)
            try:
                await tab.stop()
            finally:
                self.tabs.pop(tab, None)
                self.ending.discard(tab)

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
                    await tab.send_keys(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    tab.resize_soon(data.get("width"), data.get("height"))
                elif kind == "ping" and isinstance(data, (str, int, float)):
                    await websocket.send_json(["pong", data])
                elif kind in ("blur", "focus"):
                    await tab.send_meta_within_budget({"type": kind})

        async def on_startup(self, app: web.Application) -> None:
            if spawn != "plain":
                await helpers.start(self._build_template_environment())
            shown = f"[{host}]" if ":" in host else host
            print(f"cardtable: serving in the browser at http://{shown}:{port}/?token={token}", flush=True)

        async def on_shutdown(self, app: web.Application) -> None:
            await asyncio.gather(*(self.end_tab(tab) for tab in list(self.tabs)), return_exceptions=True)
            await helpers.close()

        def _build_template_environment(self) -> dict[str, str]:
            """A tab's environment without its size: the template's (Textual reads the rest at import)."""
            env = TabService(self.command, write_bytes=None, write_str=None, close=None,  # type: ignore[arg-type]
                             download_manager=self.download_manager)._build_environment()
            for name in ("COLUMNS", "ROWS"):
                env.pop(name, None)
            return env

        def refused_connection(self, address: str) -> None:
            self.log_refused_connection("%s refused a connection: %d open, %d from there", address,
                                        self.connections.total(), self.connections[address])

        async def run(self) -> None:
            """aiohttp's runner with our site: each connection passes the :class:`ConnectionGate` first;
            ``REQUEST_TIMEOUT`` is aiohttp's keep-alive timer, which also ends a connection that has not
            sent a whole request by then."""
            runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log_class=AccessLog,
                                   keepalive_timeout=REQUEST_TIMEOUT,
                                   shutdown_timeout=QUIT_GRACE + 2 * HANGUP_GRACE + 1)
            await runner.setup()
            text = t("web_too_many_connections").encode() + b"\n"
            refusal = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                       b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(text), text))
            server = self

            class GatedSite(web.SockSite):
                async def start(self) -> None:
                    await web.BaseSite.start(self)
                    handlers = self._runner.server
                    assert handlers is not None, "the runner is set up before its site starts"
                    self._server = await asyncio.get_running_loop().create_server(
                        lambda: ConnectionGate(handlers, server.connections, refusal, server.refused_connection),
                        sock=listening, backlog=128)

            try:
                await GatedSite(runner, listening).start()
                await self.stopping.wait()
            finally:
                await runner.cleanup()

        def serve(self, debug: bool = False) -> None:
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self.stopping.set)
            try:
                loop.run_until_complete(self.run())
            finally:
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

    return CardTableServer()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)[0][0]
    return socket.create_server((host, port), family=family, backlog=128)


def run_web_server(host: str, port: int, limits: WebLimits = WebLimits()) -> int:
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
    server = build_server(child_command(), host, listening.getsockname()[1], token, listening, limits)
    server.serve()
    return 0
