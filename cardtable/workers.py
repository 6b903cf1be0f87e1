"""The search's worker process: where the tables' slow decisions run (issue 16: the screen never blocks).

A `hard` or `expert` decision, a hint and the play checker are pure-Python searches of a few hundred
milliseconds. Run in a thread of the app they hold the interpreter lock, and the event loop waits for it:
keys took 100–670 ms to be handled while a CPU thought. A :class:`Thinker` runs them in one long-lived
process of its own instead (one per app, started when first needed or by :meth:`Thinker.warm`), so the
app's process only waits on a pipe.

- **The same decision.** What crosses the boundary is a function of this module (:func:`decide`,
  :func:`hint`, :func:`check`) and its arguments: the game's name, the level, the seat's PlayerView (and
  the move checked). The worker builds the same bot the table would and asks it the same question; the
  bots keep no state between decisions and take their random numbers from the view's seed, so the
  answer is the one the table's own bot gives (``tests/test_workers.py``).
- **Never a lost move.** If the worker cannot start (a restricted environment) or dies (killed, out of
  memory), the call is answered in the calling thread instead, as before the worker existed; after
  :data:`MAX_FAILURES` failures in a row the thinker stops trying processes. An answer that cannot
  cross the pipe is computed in the thread as well.
- **Never left behind.** The worker is a fresh interpreter (``python -c``, never a fork of the threaded
  app) with the app's ``sys.path``, started with no terminal at all (its standard streams are
  ``/dev/null``) and nothing but its two pipes; it ignores Ctrl+C and the terminal's hangup (the app
  saves, then closes it), and ends when its app's process ends, however it ends: it holds the read end
  of a pipe only the app writes to, a *lifeline*, and leaves when that pipe closes (a ``kill -9`` of the
  table included). :meth:`Thinker.close` (the app's exit, SIGHUP, SIGTERM) kills it at once.
  The questions and answers are pickled over a socket pair (``multiprocessing.connection``).

One request at a time goes to the worker (the others wait their turn in their threads). The caller
decides what a late answer is worth: the screens drop one for a position that has changed.
This module never imports Textual.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

SEARCH_LEVELS = ("hard", "expert")   # the levels whose decisions go to the worker
MAX_FAILURES = 3                     # workers lost in a row before the thinker keeps to threads
MODE_VARIABLE = "CARDTABLE_THINKER"  # "thread": never start a worker process (debugging, odd platforms)
POOL_VARIABLE = "CARDTABLE_SEARCH_POOL_FD"   # a served table's socket to its server's search pool
LOST = "lost"                        # the pool's reply when its worker died: answer it yourself


class ThinkerClosed(Exception):
    """The app is leaving: nothing more is decided."""


# ---------------------------------------------------------------- what the worker is asked
_BOTS: dict[tuple[str, str, bool], Any] = {}


def _bot(game: str, level: str, partner_human: bool = False) -> Any:
    """The bot a table at ``level`` has (bots keep no state between decisions: one per level and
    seating will do; ``partner_human``: the seat's partner is the human, see GameSpec.bot)."""
    bot = _BOTS.get((game, level, partner_human))
    if bot is None:
        from cardtable import games

        bot = _BOTS[(game, level, partner_human)] = games.get(game).bot(level, partner_human)
    return bot


def decide(game: str, level: str, view: Any, partner_human: bool = False) -> Any:
    """The move of a ``level`` CPU of ``game`` seeing ``view`` (``partner_human``: its partner is the
    human)."""
    return _bot(game, level, partner_human).choose(view)


def hint(game: str, view: Any, over_partner: bool = False) -> Any:
    """The game's hint for ``view`` (``advice.hint``: the hard level's move and why); ``over_partner``:
    the next hint after one that spared the partner's play (Hint.spared_partner)."""
    from cardtable import games

    advice = games.get(game).advice
    return advice.hint(view, over_partner=True) if over_partner else advice.hint(view)


def check(game: str, view: Any, move: Any) -> Any:
    """The play checker's verdict on ``move`` made in ``view`` (``advice.check``: a Flag or None)."""
    from cardtable import games

    return games.get(game).advice.check(view, move)


# ---------------------------------------------------------------- the search pool's questions
# A served table's questions go to workers its server shares among all its tables (serve/searchpool.py),
# and a table is not trusted there: a pickle runs code when it is loaded, so these questions are JSON
# instead, naming one of the three searches, with the view in its wire form (cardtable/wire.py: every
# field's type checked on the way in) and its bot key (which the wire leaves out: the bots draw their
# numbers from it, so without it the answer would differ). The answers stay pickled: they are made by
# the server's own workers and read by the table, which trusts its server.
POOL_CALLS: dict[str, Callable[..., Any]] = {"decide": decide, "hint": hint, "check": check}
_ARGUMENTS = {"decide": ("level", "partner_human"), "hint": ("over_partner",), "check": ("move",)}
MAX_QUESTION = 256 * 1024            # bytes of one question (a view's wire form is a few KB)
MAX_BOT_KEY = 64                     # bytes of a view's bot key (BLAKE2b's largest)


class BadQuestion(ValueError):
    """What a pool's worker answers to anything that is not one of the three searches, well formed."""


def encode_question(function: Callable[..., Any], args: tuple) -> bytes | None:
    """``function(*args)`` as a pool question, or None when it is not one the pool answers (another
    function, a view the wire has no form for)."""
    name = next((name for name, known in POOL_CALLS.items() if known is function), None)
    if name is None:
        return None
    import inspect

    from cardtable import games

    try:
        bound = inspect.signature(function).bind(*args)
        bound.apply_defaults()
        given = dict(bound.arguments)
        view, key = given["view"], given["view"].decision[0]
        question = {"call": name, "game": given["game"], "view": games.get(given["game"]).wire().encode_view(view),
                    "key": key.hex()}
        for field in _ARGUMENTS[name]:
            question[field] = given[field].to_json() if field == "move" else given[field]
        data = json.dumps(question, separators=(",", ":"), allow_nan=False).encode()
    except Exception:  # noqa: BLE001 - anything that does not encode is answered at the table
        return None
    return data if len(data) <= MAX_QUESTION and len(key) <= MAX_BOT_KEY else None


def decode_question(data: bytes) -> tuple[Callable[..., Any], tuple]:
    """The search and its arguments a pool question names; :class:`BadQuestion` for anything else
    (never a message that repeats what was sent)."""
    try:
        return _decoded(data)
    except BadQuestion:
        raise
    except Exception:  # noqa: BLE001 - a malformed view may raise anything its classes raise
        raise BadQuestion("not a question of the search pool") from None


def _decoded(data: bytes) -> tuple[Callable[..., Any], tuple]:
    import dataclasses

    from cardtable import games

    if len(data) > MAX_QUESTION:
        raise BadQuestion("a question too long")
    question = json.loads(data)
    name = question.get("call") if isinstance(question, dict) else None
    if name not in POOL_CALLS or set(question) != {"call", "game", "view", "key", *_ARGUMENTS[name]}:
        raise BadQuestion("not a question of the search pool")
    game, key = question["game"], question["key"]
    if game not in games.games() or not isinstance(key, str) or len(key) > 2 * MAX_BOT_KEY:
        raise BadQuestion("not a question of the search pool")
    spec = games.get(game)
    codec = spec.wire()
    view = codec.decode_view(question["view"])
    view = dataclasses.replace(view, decision=(bytes.fromhex(key), *view.decision[1:]))
    if name == "decide":
        level, partner_human = question["level"], question["partner_human"]
        if not isinstance(level, str) or level not in spec.bots or type(partner_human) is not bool:
            raise BadQuestion("not a question of the search pool")
        return decide, (game, level, view, partner_human)
    if name == "hint":
        if type(question["over_partner"]) is not bool:
            raise BadQuestion("not a question of the search pool")
        return hint, (game, view, question["over_partner"])
    return check, (game, view, codec.decode_move(question["move"]))


def searches(spec: Any, bot: Any) -> str | None:
    """The level to send to the worker for ``bot`` at a ``spec`` table, or None when the bot decides in
    a thread: a bot of another level (easy and normal decide in microseconds; the pipe would cost more)
    or one the worker would not build the same (not the game's own bot of that level)."""
    level = getattr(bot, "level", None)
    if level in SEARCH_LEVELS and type(bot) is spec.bots.get(level):
        return level
    return None


# ---------------------------------------------------------------- the worker's side
# The worker's command line: ``python -c BOOT cardtable-worker SOCKET LIFELINE`` (so `ps` names it), with
# the app's sys.path (a checkout, a test run) put first from the environment.
PATH_VARIABLE = "CARDTABLE_WORKER_PATH"
BOOT = (f"import json, os, sys; sys.path[:0] = json.loads(os.environ.pop({PATH_VARIABLE!r}, '[]')); "
        "from cardtable.workers import main; main(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ['pool'])")


def _follow(lifeline: int) -> None:
    """End this process as soon as the app's has ended, even by ``kill -9``, which gives it no time to
    close the worker: only the app holds the write end of the ``lifeline`` pipe, so a read returns when
    the app is gone (a daemon thread waits for it, also while a search runs)."""
    def watch() -> None:
        try:
            while os.read(lifeline, 64):
                pass
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=watch, name="cardtable-lifeline", daemon=True).start()


def main(sock: int, lifeline: int, pool: bool = False) -> None:
    """The worker's loop: ``(function, args)`` in, ``("ok", result)`` or ``("error", exception)`` out,
    until the app closes the socket. A ``pool`` worker (serve/searchpool.py) takes only pool questions
    (:func:`decode_question`), never a pickle: its questions come from tables it does not trust."""
    from multiprocessing.connection import Connection

    for name in ("SIGINT", "SIGHUP"):      # Ctrl+C and a closed terminal are the app's to handle
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    _follow(lifeline)
    from cardtable import games

    for name in games.games():    # the games' modules imported before the first question
        if pool:
            games.get(name).wire()   # its codec too
    conn = Connection(sock)
    while True:
        try:
            if pool:
                try:
                    function, args = decode_question(conn.recv_bytes(MAX_QUESTION))
                except BadQuestion as exc:
                    conn.send(("error", exc))
                    continue
            else:
                function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", function(*args))
        except BaseException as exc:  # noqa: BLE001 - the caller gets it, as from a thread
            reply = ("error", exc)
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("error", RuntimeError(f"the worker's answer does not pickle: {exc!r}")))
        except OSError:
            return


# ---------------------------------------------------------------- the app's side
class Thinker:
    """One app's worker process, and the way to ask it: :meth:`call` (blocking: run it in a thread, as
    the screens do with ``asyncio.to_thread``). ``processes=False`` (or ``CARDTABLE_THINKER=thread``)
    answers every call in the calling thread. ``answered`` counts the calls answered by the worker
    (``"process"``) and in the caller's thread (``"thread"``)."""

    def __init__(self, processes: bool = True) -> None:
        # A frozen app's executable is the app itself, not an interpreter that runs ``-c``.
        self.processes = (processes and os.environ.get(MODE_VARIABLE, "process") != "thread"
                          and not getattr(sys, "frozen", False))
        self.closed = False
        self.answered = {"process": 0, "thread": 0}
        self.failures = 0               # workers lost (or never started) since the last answer
        self._lock = threading.Lock()   # one request at a time in the worker
        self._process: subprocess.Popen | None = None
        self._conn: Any = None
        self._lifeline = -1             # our end of the worker's lifeline pipe
        self.pooled = 0                 # calls answered by the server's search pool (also in "process")
        self._pool = _pool_connection() if self.processes else None

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def warm(self) -> None:
        """Start the worker now, in the background, so that the first decision does not wait for it."""
        if self.processes and not self.closed and self._process is None and self._pool is None:
            threading.Thread(target=self._warm, name="cardtable-thinker-start", daemon=True).start()

    def _warm(self) -> None:
        with self._lock:
            self._ensure()

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)``, computed in the worker; in this thread when there is none (it could not
        start, it died meanwhile, the question or the answer does not pickle). ``function`` is one of
        this module's (or any function the worker can import by name). Raises what the function raises,
        and :class:`ThinkerClosed` once :meth:`close` was called."""
        if self.closed:
            raise ThinkerClosed
        if self._pool is not None:
            with self._lock:
                outcome = self._in_pool(function, args)
            if outcome is not None:
                self.pooled += 1
                self.answered["process"] += 1
                status, value = outcome
                if status == "ok":
                    return value
                raise value
            if self.closed:
                raise ThinkerClosed
        if self.processes:
            with self._lock:
                outcome = self._in_worker(function, args)
                if outcome is not None:
                    self.answered["process"] += 1
            if outcome is not None:
                status, value = outcome
                if status == "ok":
                    return value
                raise value
        if self.closed:
            raise ThinkerClosed
        self.answered["thread"] += 1
        return function(*args)

    def _in_worker(self, function: Callable[..., Any], args: tuple) -> tuple[str, Any] | None:
        """The worker's reply, or None when it has none to give (the caller computes it then)."""
        if not self._ensure():
            return None
        try:
            self._conn.send((function, args))      # pickled whole before anything is written
        except (pickle.PicklingError, TypeError, AttributeError):
            return None                            # a question that cannot cross: the worker is fine
        except OSError:
            self._lost()
            return None
        try:
            reply = self._conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ImportError):
            self._lost()
            return None
        self.failures = 0
        return reply

    def _in_pool(self, function: Callable[..., Any], args: tuple) -> tuple[str, Any] | None:
        """The search pool's reply (serve/searchpool.py), or None: then this call is answered as if
        there were no pool. A pool that has gone (the server ends) is not asked again."""
        conn = self._pool
        question = encode_question(function, args) if conn is not None else None
        if conn is None or question is None:
            return None                 # not a search the pool answers: this table's own worker does
        try:
            conn.send_bytes(question)
        except OSError:
            self._drop_pool()
            return None
        try:
            reply = conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ImportError):
            self._drop_pool()
            return None
        if not (isinstance(reply, tuple) and len(reply) == 2) or reply[0] == LOST \
                or isinstance(reply[1], BadQuestion):
            return None                 # its worker died on this question: the pool itself is fine
        return reply

    def _drop_pool(self) -> None:
        conn, self._pool = self._pool, None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()

    def _ensure(self) -> bool:
        """A running worker (started if needed); False when there is none to be had."""
        if self.closed or not self.processes:
            return False
        if self._process is not None:
            if self._process.poll() is None:
                return True
            self._lost()
            if not self.processes:
                return False
        started = start_worker()
        if started is None:
            self._lost()
            return False
        self._process, self._conn, self._lifeline = started
        if self.closed:                 # closed while it started
            self._stop()
            return False
        return True

    def _lost(self) -> None:
        """The worker is gone (or never came): forget it; after too many, keep to threads."""
        self._stop()
        self.failures += 1
        if self.failures >= MAX_FAILURES:
            self.processes = False

    def _stop(self) -> None:
        process, conn, lifeline = self._process, self._conn, self._lifeline
        self._process = self._conn = None
        self._lifeline = -1
        if process is not None:
            _kill(process)
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        if lifeline >= 0:
            try:
                os.close(lifeline)
            except OSError:
                pass

    def close(self) -> None:
        """No more questions: the worker is killed at once (a question being answered is dropped, and
        its caller gets :class:`ThinkerClosed`). Safe to call more than once, from any thread."""
        self.closed = True
        conn = self._pool
        if conn is not None:            # wakes a caller waiting on the pool
            with contextlib.suppress(OSError), socket.socket(fileno=os.dup(conn.fileno())) as end:
                end.shutdown(socket.SHUT_RDWR)
        process = self._process
        if process is not None:
            _kill(process)              # wakes a caller waiting on the socket (it sees the end)


def _pool_connection() -> Any:
    """The connection to the server's search pool named by CARDTABLE_SEARCH_POOL_FD, if this table
    was given one (a socket fd), else None."""
    text = os.environ.get(POOL_VARIABLE, "")
    if not text.isdigit():
        return None
    import stat
    from multiprocessing.connection import Connection

    try:
        if not stat.S_ISSOCK(os.fstat(int(text)).st_mode):
            return None
    except OSError:
        return None
    return Connection(int(text))


def start_worker(pool: bool = False) -> tuple[subprocess.Popen, Any, int] | None:
    """A new worker process: (the process, a ``Connection`` to it, our end of its lifeline), or None
    when it cannot be started. ``pool``: a search pool's worker (it takes pool questions only)."""
    from multiprocessing.connection import Connection

    mine = theirs = None
    lifeline = (-1, -1)
    try:
        mine, theirs = socket.socketpair()
        lifeline = os.pipe()
        process = subprocess.Popen(
            [sys.executable, "-c", BOOT, "cardtable-worker", str(theirs.fileno()), str(lifeline[0]),
             *(["pool"] if pool else [])],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(), lifeline[0]), close_fds=True,
            env={**os.environ, PATH_VARIABLE: json.dumps(sys.path)})
    except (OSError, ValueError, subprocess.SubprocessError):
        for end in (mine, theirs):
            if end is not None:
                end.close()
        for fd in lifeline:
            if fd >= 0:
                os.close(fd)
        return None
    theirs.close()                  # the worker's ends: its end closing is how we learn it died
    os.close(lifeline[0])
    return process, Connection(mine.detach()), lifeline[1]


def _kill(process: subprocess.Popen) -> None:
    try:
        process.kill()
        process.wait(1.0)
    except (OSError, subprocess.TimeoutExpired):
        pass
