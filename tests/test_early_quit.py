"""Quit keys in the first instant (issue 29 item 8): Ctrl+C or Ctrl+Q typed right after launch quits,
without a traceback. The app runs in a real pseudo-terminal that is its controlling terminal, as in a
terminal window or over SSH: before the app turns raw mode on, the terminal driver turns Ctrl+C into
SIGINT and would eat Ctrl+Q as flow control (XON)."""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time

import pytest

from tests.pty_helpers import plain, pump, wait_exit


def spawn_on_a_terminal(args, home):
    """``python -m cardtable ARGS`` in its own session whose controlling terminal is a new pty."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "CARDTABLE_HOME": str(home), "TERM": "xterm-256color", "LANG": "en_US.UTF-8"}
    env.pop("CI", None)

    def take_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)     # after setsid: the pty becomes the controlling terminal

    proc = subprocess.Popen([sys.executable, "-m", "cardtable", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True, close_fds=True,
                            preexec_fn=take_terminal)  # noqa: PLW1509 (one ioctl, nothing to lock)
    os.close(slave)
    return proc, master


def wait_until_loading(master, proc, timeout=20.0):
    """Wait for the first instant of cardtable's own code, seen from the master side of its terminal:
    flow control off (so that a Ctrl+Q typed now reaches the app) while the terminal is still in its
    cooked mode (ICANON: the app has not started, the heavy imports run). Before the fix flow control
    stayed on until Textual's raw mode, and a Ctrl+Q typed while loading was lost."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        iflag, _, _, lflag = termios.tcgetattr(master)[:4]
        if lflag & termios.ICANON and not iflag & termios.IXON:
            return
        if not lflag & termios.ICANON:
            raise AssertionError("the app took the terminal with flow control still on while it loaded")
        time.sleep(0.002)
    raise AssertionError("cardtable did not start loading")


@pytest.mark.parametrize("key", [b"\x03", b"\x11"], ids=["ctrl+c", "ctrl+q"])
def test_a_quit_key_typed_while_loading_quits_without_a_traceback(tmp_path, key):
    proc, master = spawn_on_a_terminal([], tmp_path)
    try:
        wait_until_loading(master, proc)
        os.write(master, key)                    # the imports are still running
        out = []
        code = wait_exit(proc, master, 20, out)
        text = plain(out)
        assert code is not None, "the app is still open"
        assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-2000:]
        assert code in (0, 130), text[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_the_terminal_gets_its_flow_control_back_after_a_quit(tmp_path):
    proc, master = spawn_on_a_terminal([], tmp_path)
    try:
        wait_until_loading(master, proc)
        pump(master, 0.05)
        os.write(master, b"\x11")
        assert wait_exit(proc, master, 20) == 0
        # (the slave end stays open in no process now; the master still reads its settings)
        assert termios.tcgetattr(master)[0] & termios.IXON
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
