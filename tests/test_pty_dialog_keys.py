"""In a real pseudo-terminal, the results of a hand come up with their key bar (issue 31: «the results key
bar is blank for about a second»; pyte reads the screen after every read of the output)."""

import os
import select
import signal
import time

import pyte
import pytest

from cardtable.saves import SaveStore
from tests.pty_helpers import spawn, wait_exit
from tests.test_ui_review import PLAYERS, _before_the_last_human_move

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pty")

SIZE = (24, 80)


def read_screens(master, screen, stream, until, seconds):
    """Feed the output to the pyte screen, keeping its text after each read, until ``until(text)`` holds
    or ``seconds`` pass."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if not ready:
            continue
        try:
            stream.feed(os.read(master, 65536))
        except OSError:
            break
        seen.append(list(screen.display))
        if until(seen[-1]):
            break
    return seen


def test_the_results_come_up_with_their_key_bar(tmp_path):
    match, _move, _full = _before_the_last_human_move("gongzhu", 3)    # one card left to play
    SaveStore(tmp_path / "saves").save("hand", match, PLAYERS)
    proc, master = spawn(["continue", "hand"], tmp_path, size=SIZE)
    screen = pyte.Screen(SIZE[1], SIZE[0])
    stream = pyte.ByteStream(screen)
    try:
        shown = read_screens(master, screen, stream, lambda rows: "Continue later" in rows[-1], 30)
        assert shown and "Continue later" in shown[-1][-1], "the table never showed"
        time.sleep(0.5)
        os.write(master, b"\r")                     # lift the last card, then play it
        time.sleep(0.3)
        os.write(master, b"\r")
        results = read_screens(master, screen, stream, lambda rows: "Review the hand" in "".join(rows), 30)
        assert results and "Review the hand" in "".join(results[-1]), "the results never showed"
        results += read_screens(master, screen, stream, lambda rows: False, 1.5)     # and the frames after
    finally:
        proc.send_signal(signal.SIGTERM)
        if wait_exit(proc, master, 10) is None:
            proc.kill()
            proc.wait()
        os.close(master)
    with_dialog = [rows for rows in results if "Review the hand" in "".join(rows)]
    bars = [rows[-1].strip() for rows in with_dialog]
    assert all("Next hand" in bar and "? Keys" in bar for bar in bars), bars
