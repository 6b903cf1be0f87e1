"""A dropped SSH connection (SIGHUP) or SIGTERM: the app saves and exits cleanly; starting again
continues from the same point. The app runs in a real pseudo-terminal here."""

import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from cardtable.saves import SaveStore


def spawn(args, home):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "CARDTABLE_HOME": str(home), "TERM": "xterm-256color", "LANG": "en_US.UTF-8"}
    env.pop("CI", None)
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True, close_fds=True)
    os.close(slave)
    return proc, master


def pump(master, seconds):
    """Read (and discard) the screen output for a while so the app never blocks on a full pty."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 65536)
            except OSError:
                return


def pump_until_exit(proc, master, timeout=12.0):
    """Read the screen output until the process has ended (or ``timeout`` passes): the wait on an exit,
    which took a fixed 2 s pause before."""
    wait_for(lambda: proc.poll() is not None, master, timeout)


def wait_for(predicate, master, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        pump(master, 0.1)
    return False


def slot_moves(saves):
    files = list(saves.glob("*-*.json"))
    if not files:
        return None
    try:
        return len(json.loads(files[0].read_text())["moves"])
    except (ValueError, KeyError):
        return None


# Seeds where the human is not first to play, so the trick is under way at the human's first turn.
GAMES = [("gongzhu", "3", ["--option", "showing=off"]), ("guinote", "0", [])]


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
@pytest.mark.parametrize("game,seed,extra", GAMES)
def test_signal_mid_trick_saves_and_the_game_continues(tmp_path, sig, game, seed, extra):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    saves = home / "saves"
    proc, master = spawn(["new", game, "--seed", seed, *extra], home)
    try:
        assert wait_for(lambda: (slot_moves(saves) or 0) >= 1, master), "the game never started"
        pump(master, 1.0)
        store = SaveStore(saves)
        slot = next(saves.glob(f"{game}-*.json")).stem
        before, _ = store.load(slot)
        assert before.to_move() == 0 and before.trick, "expected the human to be mid-trick"
        os.write(master, b"\r")      # lift
        pump(master, 0.3)
        os.killpg(proc.pid, sig)
        pump_until_exit(proc, master)
        assert proc.wait(timeout=10) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    after, _ = SaveStore(saves).load(slot)
    assert after.moves == before.moves
    assert after.trick == before.trick and after.to_move() == 0

    # Start again: the same trick continues; quitting keeps it.
    proc, master = spawn(["continue", slot], home)
    try:
        pump(master, 3.0)
        assert proc.poll() is None, "the app did not start again"
        os.write(master, b"\x11")    # Ctrl+Q
        pump_until_exit(proc, master)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    again, _ = SaveStore(saves).load(slot)
    assert again.moves == before.moves and again.trick == before.trick


def test_guandan_sighup_during_a_trick_and_during_the_tribute(tmp_path):
    from cardtable import games
    from cardtable.sim import next_cpu_move

    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    saves = home / "saves"
    store = SaveStore(saves)
    spec = games.get("guandan")
    players = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]

    # During a trick: the human leads hand 1; play the hint, and the CPUs answer up to the next turn.
    match = spec.new_match(seed=4)
    store.save("trick", match, players)
    # During the tribute: seed 0 reaches hand 2 with the human to return the tribute.
    tribute = spec.new_match(seed=0)
    bot = spec.bot("easy")
    while not (tribute.hand == 2 and tribute.phase == "tribute" and tribute.to_move() == 0):
        seat, move = next_cpu_move(tribute, lambda _: bot)
        tribute.apply(move, seat)
    store.save("tribute", tribute, players)

    for slot, keys in (("trick", b"h\r"), ("tribute", b"")):
        proc, master = spawn(["continue", slot], home)
        try:
            pump(master, 3.0)
            if keys:
                os.write(master, keys[:1])
                pump(master, 0.5)
                os.write(master, keys[1:])
                pump(master, 2.0)
            before, _ = store.load(slot)
            os.killpg(proc.pid, signal.SIGHUP)
            pump_until_exit(proc, master)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
        after, _ = store.load(slot)
        assert after.moves == before.moves
        if slot == "trick":
            assert len(after.moves) > 1 and after.to_move() == 0
        else:
            assert after.phase == "tribute" and after.to_move() == 0
        # Start again and quit: nothing is lost.
        proc, master = spawn(["continue", slot], home)
        try:
            pump(master, 3.0)
            assert proc.poll() is None
            os.write(master, b"\x11")
            pump_until_exit(proc, master)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
        again, _ = store.load(slot)
        assert again.moves == after.moves
