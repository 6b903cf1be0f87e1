"""Output that never ends in a traceback: a closed pipe, a full disk, an ASCII-only terminal.

- :func:`prepare_streams` lets stdout/stderr that cannot encode Unicode (``PYTHONIOENCODING=ascii``, a
  POSIX locale without UTF-8 mode) write a readable ASCII stand-in (│ → |, ñ → n, ♠ → S, … → ...)
  instead of raising ``UnicodeEncodeError`` or printing ``\\u2502``. The table, drawn by Textual through
  stderr, goes through the same handler.
- :func:`guarded` turns a reader that went away (``cardtable rules gongzhu | head -1``) into a quiet
  exit with status 141, like any Unix tool killed by SIGPIPE, and an output that fails (``> /dev/full``)
  into one line on stderr and status 2.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import sys
import unicodedata
from collections.abc import Iterator
from typing import Any

ERROR_HANDLER = "cardtable-ascii"
BROKEN_PIPE_STATUS = 141      # 128 + SIGPIPE: what a shell reports for `yes | head -1`
OUTPUT_ERRNOS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EBADF,
                           getattr(errno, "EDQUOT", errno.ENOSPC)})

# Every stand-in has the width of what it replaces (tables and the screen stay aligned).
_ASCII = {
    # box drawing and blocks (tables, borders, the card frames)
    **dict.fromkeys("│┃║╎╏┆┇┊┋▏▕▌▐", "|"),
    **dict.fromkeys("─━═╌╍┄┅┈┉▁▔", "-"),
    **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫", "+"),
    **dict.fromkeys("█▇▆▅▄▃▂▀░▒▓■", "#"),
    # suits, arrows and marks
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
    "←": "<", "→": ">", "↑": "^", "↓": "v", "↔": "-", "⏎": "J", "↵": "J",
    "▲": "^", "▼": "v", "◀": "<", "▶": ">", "▸": ">", "◂": "<", "•": "*", "·": ".", "●": "*", "○": "o",
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "★": "*", "☆": "*",
    # punctuation
    "—": "-", "–": "-", "‒": "-", "−": "-", "…": ".", "«": '"', "»": '"', "“": '"', "”": '"',
    "„": '"', "‘": "'", "’": "'", "‚": "'", "×": "x", "±": "~", "≤": "<", "≥": ">", "≠": "#",
    "€": "E", "°": "o", "¿": "?", "¡": "!", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
}


def ascii_for(char: str) -> str:
    """An ASCII stand-in for one character, as wide on screen as the character: a table entry, the
    letter without its accent (ñ → n), nothing for a zero-width mark, '?' or '??' for the rest."""
    if char in _ASCII:
        return _ASCII[char]
    from rich.cells import cell_len

    width = cell_len(char)
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if plain.isascii() and len(plain) == width:
        return plain
    return "?" * width


def _handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    chunk = exc.object[exc.start:exc.end]
    return "".join(ascii_for(c) for c in chunk), exc.end


codecs.register_error(ERROR_HANDLER, _handler)


def to_ascii(text: str) -> str:
    return text.encode("ascii", ERROR_HANDLER).decode("ascii")


def can_encode_unicode(stream: Any) -> bool:
    """Whether ``stream`` can write the table's characters (box drawing, suits, accents)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return False
    try:
        "│─♠ñ…·«".encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def prepare_streams() -> None:
    """Give stdout and stderr the ASCII fallback when they cannot encode Unicode."""
    for stream in {id(s): s for s in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
                   if s is not None}.values():
        if not can_encode_unicode(stream) and hasattr(stream, "reconfigure"):
            with contextlib.suppress(Exception):
                stream.reconfigure(errors=ERROR_HANDLER)


class Status:
    """The exit status of a guarded run, and the final flush that may still fail."""

    def __init__(self) -> None:
        self.code = 0

    def flush(self) -> None:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that Python's own flush at exit cannot fail a second time."""
    with contextlib.suppress(Exception):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@contextlib.contextmanager
def guarded() -> Iterator[Status]:
    status = Status()
    try:
        yield status
    except BrokenPipeError:
        _drop_stdout()
        status.code = BROKEN_PIPE_STATUS
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRNOS:
            raise
        _drop_stdout()
        with contextlib.suppress(Exception):
            print(f"cardtable: cannot write the output: {exc.strerror or exc}", file=sys.stderr,
                  flush=True)
        status.code = 2


def console(**kwargs: Any) -> Any:
    """A Rich console whose closed pipe ends like every other one here (Rich would exit with 1)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    return _Console(**kwargs)
