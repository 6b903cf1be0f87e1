"""The first frames drawn in a real pseudo-terminal (pyte reads the screen after every read)."""

import os
import select
import signal
import time

import pyte
import pytest

from tests.pty_helpers import spawn, wait_exit

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pty")


def screens(master, size, until, seconds):
    """Feed the output to a pyte screen, keeping the screen's text after each read, until ``until``
    (a string) is on screen or ``seconds`` pass."""
    rows, cols = size
    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        stream.feed(data)
        text = "\n".join(screen.display)
        seen.append(text)
        if until in text:
            break
    return seen


def stop(proc, master):
    proc.send_signal(signal.SIGTERM)      # the app saves and leaves (as for a hang-up)
    if wait_exit(proc, master, 10) is None:
        proc.kill()
        proc.wait()
    os.close(master)


def test_continue_draws_the_table_first_not_the_home_screen(tmp_path):
    """Issue 30: `cardtable continue` at 120×40 drew the home screen for a frame before the table."""
    size = (40, 120)
    proc, master = spawn(["new", "gongzhu", "--seed", "1"], tmp_path, size=size)
    try:
        assert "Gong Zhu" in screens(master, size, "Continue later", 30)[-1]
    finally:
        stop(proc, master)
    proc, master = spawn(["continue"], tmp_path, size=size)
    try:
        seen = screens(master, size, "Continue later", 30)
    finally:
        stop(proc, master)
    assert seen and "Continue later" in seen[-1], "the table never showed"
    assert not any("Choose a game" in text for text in seen), "the home screen was drawn first"
