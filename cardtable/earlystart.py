"""The first instant: quit keys typed while the program is still loading.

Until Textual puts the terminal in raw mode (some 0.5 s after launch), the terminal driver handles the
keys itself: Ctrl+C becomes SIGINT, which interrupted the imports with a ``KeyboardInterrupt``
traceback, and Ctrl+Q is taken as flow control (XON) and never reaches the app. :func:`install` runs
first (from the package's ``__init__`` when it is the ``cardtable`` command): a Ctrl+C before the app
exists leaves at once with one line (nothing is open yet, nothing to save), and flow control is turned
off while the app loads, so a Ctrl+Q waits in the terminal's input for the app (which quits once its
first screen is ready). The terminal's own settings are put back at exit.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

APP_COMMANDS = (None, "new", "continue")      # the commands that open the Textual app
OPTIONS_WITH_VALUE = ("--lang", "--save-dir")

_installed = False


def command_word(argv: list[str]) -> str | None:
    """The command of a ``cardtable`` command line (its first word that is not a global option)."""
    words = iter(argv)
    for word in words:
        if word in OPTIONS_WITH_VALUE:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def install(argv: list[str]) -> None:
    """Quiet Ctrl+C and no flow control until the app starts (see the module's text)."""
    global _installed
    if _installed:
        return
    _installed = True
    try:
        signal.signal(signal.SIGINT, _interrupted_while_loading)
    except (ValueError, OSError):       # not the main thread: not the command itself
        return
    if command_word(argv) in APP_COMMANDS:
        _keep_ctrl_q_for_the_app()


def app_starting() -> None:
    """The app exists (it handles Ctrl+C itself from here): Python's own SIGINT handling is back."""
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_while_loading:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except (ValueError, OSError):
        pass


def _interrupted_while_loading(signum: int, frame: object) -> None:
    try:
        os.write(2, b"cardtable: interrupted\n")
    except OSError:
        pass
    os._exit(130)


def _keep_ctrl_q_for_the_app() -> None:
    """Turn off XON/XOFF on the terminal (as Textual's raw mode does) and put it back at exit."""
    try:
        import termios
    except ImportError:                            # not a POSIX terminal
        return
    try:
        if not (os.isatty(0) and os.isatty(1)):    # a pipe: another program may own the terminal
            return
        before = termios.tcgetattr(0)
        changed = list(before)
        changed[0] &= ~(termios.IXON | termios.IXOFF)
        termios.tcsetattr(0, termios.TCSANOW, changed)
    except (OSError, termios.error):
        return

    def restore() -> None:
        try:
            termios.tcsetattr(0, termios.TCSANOW, before)
        except (OSError, termios.error):
            pass

    atexit.register(restore)


def running_as_the_command() -> bool:
    """Whether this process is the ``cardtable`` command (``python -m cardtable`` while its package is
    being imported, or the installed script), not a test, a worker or another program importing us."""
    if not sys.argv:
        return False
    first = sys.argv[0]
    return first == "-m" or os.path.basename(first) == "cardtable"
