"""The app in a real pseudo-terminal: keys typed from the first instant, Ctrl+Q before the first screen
is up, and closed terminals (a dropped SSH connection): no traceback, and every process ends."""

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import time

from cardtable.saves import SaveStore
from tests.pty_helpers import plain, pump, spawn, wait_exit

UP, DOWN, LEFT, RIGHT = b"\x1b[A", b"\x1b[B", b"\x1b[D", b"\x1b[C"
CTRL_Q = b"\x11"


def type_every(master, keys, every, into):
    for key in keys:
        os.write(master, key)
        pump(master, every, into)


def assert_clean(output, code):
    for word in ("Traceback", "NoMatches", "Error"):
        assert word not in output, output[-2000:]
    assert code == 0, output[-2000:]


def test_keys_typed_every_20_ms_from_the_launch_of_a_game(tmp_path):
    keys = [b"\r", b" ", UP, RIGHT, b"h", b"\r", LEFT, b"p", DOWN, b"x"] * 15
    proc, master = spawn(["new", "guandan", "--seed", "3"], tmp_path)
    out = []
    try:
        type_every(master, keys, 0.02, out)
        assert proc.poll() is None, plain(out)[-2000:]
        os.write(master, CTRL_Q)
        code = wait_exit(proc, master, 15, out)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert_clean(plain(out), code)
    infos = SaveStore(tmp_path / "saves").list()
    assert [info.game for info in infos] == ["guandan"]


def test_enter_typed_every_20_ms_from_the_start_opens_one_game(tmp_path):
    proc, master = spawn([], tmp_path)
    out = []
    try:
        type_every(master, [b"\r"] * 150, 0.02, out)
        assert proc.poll() is None, plain(out)[-2000:]
        os.write(master, CTRL_Q)
        code = wait_exit(proc, master, 15, out)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert_clean(plain(out), code)
    assert len(SaveStore(tmp_path / "saves").list()) == 1     # one table, not one per Enter


def test_ctrl_q_in_the_first_instant_exits_cleanly(tmp_path):
    for run in range(3):
        proc, master = spawn([], tmp_path / str(run), env={"TEXTUAL_PRESS": "ctrl+q"})
        out = []
        try:
            code = wait_exit(proc, master, 15, out)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
        assert_clean(plain(out), code)


def spawn_with_terminal(args, home):
    """Like :func:`spawn`, with the pty as the controlling terminal: closing its master side hangs it
    up (SIGHUP), as a dropped SSH connection does."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "CARDTABLE_HOME": str(home), "TERM": "xterm-256color", "LANG": "en_US.UTF-8"}
    env.pop("CI", None)

    # The child takes the pty as its controlling terminal (it leads a new session), then runs cardtable.
    take_terminal = ("import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
                     "os.execv(sys.executable, [sys.executable, '-m', 'cardtable', *sys.argv[1:]])")
    proc = subprocess.Popen([sys.executable, "-c", take_terminal, *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True, close_fds=True)
    os.close(slave)
    return proc, master


def test_closing_the_terminal_20_times_ends_every_process(tmp_path):
    runs = []
    for run in range(20):
        home = tmp_path / str(run)
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"cpu_speed": "fast"}))
        runs.append((home, *spawn_with_terminal(["new", "gongzhu", "--seed", str(run)], home)))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(list((home / "saves").glob("*.json")) for home, _, _ in runs):
            for _, _, master in runs:
                pump(master, 0.01)
        for _, _, master in runs:
            pump(master, 0.05)
        for _, proc, master in runs:
            assert proc.poll() is None
            os.close(master)                      # the terminal goes away
        closed = time.monotonic()
        while time.monotonic() < closed + 5 and any(proc.poll() is None for _, proc, _ in runs):
            time.sleep(0.05)
        left = [proc.pid for _, proc, _ in runs if proc.poll() is None]
        assert not left, f"{len(left)} of 20 processes still running 5 s after their terminal closed"
    finally:
        for _, proc, _ in runs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for home, _, _ in runs:                       # and each game was saved
        infos = SaveStore(home / "saves").list()
        assert len(infos) == 1 and not infos[0].damaged
