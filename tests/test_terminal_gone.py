"""A table whose terminal goes away without a SIGHUP (issue 28): its pty's master is closed, but the pty is
not the table's controlling terminal (a crashed server, a supervisor, a test harness), so no signal comes.
Textual's input thread then read EOF for ever at a quarter of a core; now the table saves and leaves."""

import json
import os
import time

from cardtable.saves import SaveStore
from tests.pty_helpers import pump, spawn


def _moves(saves):
    files = sorted(saves.glob("gongzhu-*.json"))
    if not files:
        return 0
    try:
        return len(json.loads(files[0].read_text(encoding="utf-8"))["moves"])
    except (ValueError, KeyError):
        return 0


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_table_whose_pty_master_closes_saves_and_exits(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    saves = home / "saves"
    # Seed 3: the CPUs lead, so the save holds moves before the human's first turn.
    proc, master = spawn(["new", "gongzhu", "--seed", "3", "--option", "showing=off"], home)
    closed = False
    try:
        deadline = time.monotonic() + 30
        while _moves(saves) < 1 and time.monotonic() < deadline and proc.poll() is None:
            pump(master, 0.1)
        assert _moves(saves) >= 1, "the game never started"
        pump(master, 1.0)
        slot = next(saves.glob("gongzhu-*.json")).stem
        before, _ = SaveStore(saves).load(slot)
        assert before.to_move() == 0

        os.close(master)             # the terminal is gone; no signal is sent
        closed = True
        deadline = time.monotonic() + 15
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert proc.poll() is not None, "the table kept running after its terminal went away"
        # Its search worker (same process group) is gone too.
        deadline = time.monotonic() + 10
        while _group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _group_alive(proc.pid), "a process of the table outlived it"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        if not closed:
            os.close(master)
    after, _ = SaveStore(saves).load(slot)
    assert after.moves == before.moves and after.to_move() == 0
