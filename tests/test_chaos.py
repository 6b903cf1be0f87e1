"""Chaos (issue 10): kill -9 during rapid play, two instances on one slot, hostile text, permission errors,
odd terminals. The app runs in a real pseudo-terminal; every loop is bounded in time.

Permission tests and root: root ignores file modes (CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH), and the
unprivileged user cannot reach this machine's interpreter. So when the tests run as root the child
process drops those two capabilities from its bounding set before it starts (``prctl(PR_CAPBSET_DROP)``):
it stays uid 0 and owner of the files, and the owner bits of ``chmod 000`` / ``chmod 555`` then apply to
it exactly as they do to an ordinary user. As a normal user nothing needs dropping.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from cardtable import games
from cardtable.saves import SaveError, SaveStore, SlotBusy

REPO = Path(__file__).resolve().parents[1]
PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]
HOSTILE = "\u001b]0;OWNED\u0007\u001b[2J[bold red]RED[/] [link=https://evil.example]LINK[/link]"
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2
_LIBC = ctypes.CDLL(None, use_errno=True)     # loaded here: the child only calls prctl


def _drop_file_permission_override() -> None:
    """In the child, before exec: give up root's right to ignore file modes (see the module doc)."""
    if os.geteuid() != 0:
        return
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if _LIBC.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "CARDTABLE_HOME": str(home), "TERM": "xterm-256color", "LANG": "en_US.UTF-8"}
    env.pop("CI", None)
    env.update(extra)
    return env


class Tty:
    """cardtable in a pseudo-terminal of 80x24; everything it writes is kept in ``output``."""

    def __init__(self, args: list[str], home: Path, unprivileged: bool = False, **env: str) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", *args], stdin=slave, stdout=slave, stderr=slave,
            env=_env(home, **env), start_new_session=True, close_fds=True, cwd=REPO,
            preexec_fn=_drop_file_permission_override if unprivileged else None)  # noqa: PLW1509
        os.close(slave)
        self.output = b""

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.03)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.output += chunk

    def wait_for(self, predicate, timeout: float = 20.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            if self.proc.poll() is not None:
                self.pump(0.2)
                return predicate()
            self.pump(0.1)
        return False

    def send(self, keys: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, keys)

    def finish(self, timeout: float = 10.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.1)
        self.pump(0.2)
        return self.close()

    def close(self) -> int:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        code = self.proc.wait(timeout=10)
        with contextlib.suppress(OSError):
            os.close(self.master)
        return code

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


def make_home(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"cpu_speed": "instant"}))
    return home, home / "saves"


def moves_in(path: Path) -> int | None:
    try:
        return len(json.loads(path.read_bytes())["moves"])
    except (OSError, ValueError, KeyError):
        return None


def human_to_move(saves: Path, slot: str) -> bool:
    """The CPU players have moved up to the human's turn: the window now waits for keys."""
    try:
        match, _ = SaveStore(saves).load(slot)
    except SaveError:
        return False
    return len(match.moves) > 0 and match.to_move() == 0


def locked_elsewhere(saves: Path, slot: str) -> bool:
    probe = SaveStore(saves)
    try:
        probe.lock(slot)
    except SlotBusy:
        return True
    probe.unlock(slot)
    return False


# ---------------------------------------------------------------- kill -9
PLAY_KEYS = [b"h", b"\r", b"\r", b"\r"]      # hint, lift/play, and Enter for «Next hand»


def test_kill_9_during_rapid_play_never_tears_the_save(tmp_path):
    home, saves = make_home(tmp_path)
    rng = random.Random(10)
    tty = Tty(["new", "gongzhu", "--seed", "3", "--option", "showing=off"], home)
    slot = None
    try:
        assert tty.wait_for(lambda: any(saves.glob("gongzhu-*.json"))), tty.text[-500:]
        slot = next(saves.glob("gongzhu-*.json")).stem
    finally:
        if slot is None:
            tty.close()
    path = saves / f"{slot}.json"
    for _ in range(2):
        seen = start = moves_in(path) or 0
        target = start + rng.randint(3, 12)          # kill after a random number of moves, mid-burst
        give_up = time.monotonic() + 30
        while seen < target:                         # keys every ~20 ms, the file watched meanwhile
            assert time.monotonic() < give_up, f"no progress: {seen} moves, wanted {target}"
            tty.send(rng.choice(PLAY_KEYS))
            tty.pump(0.02)
            now = moves_in(path)
            assert now is not None, "a torn or unreadable save file"
            seen = max(seen, now)
        tty.send(rng.choice(PLAY_KEYS))
        os.killpg(tty.proc.pid, signal.SIGKILL)
        tty.close()
        # Not torn: the file parses, validates and replays; nothing it showed before is lost.
        match, _ = SaveStore(saves).load(slot)
        assert len(match.moves) >= seen
        # A temp file a killed save may leave behind is gone at the next start.
        # Only the files left before the restart count: the new instance's own saves make temp files too
        # (the CPUs play on at once), each of them alive for a moment under a fresh random name.
        (saves / f".{slot}.x1y2z3w4.tmp").write_bytes(b'{"half": ')
        left_behind = set(saves.glob("*.tmp"))
        tty = Tty(["continue", slot], home)
        assert tty.wait_for(lambda tty=tty: b"Gong Zhu" in tty.output), tty.text[-500:]
        assert not [leftover for leftover in left_behind if leftover.exists()]
    assert tty.proc.poll() is None
    tty.pump(0.5)
    tty.send(b"\x11")                                # Ctrl+Q
    assert tty.finish() == 0
    match, _ = SaveStore(saves).load(slot)
    assert len(match.moves) >= seen


# ---------------------------------------------------------------- two instances, one slot
def test_two_instances_on_one_slot(tmp_path):
    home, saves = make_home(tmp_path)
    store = SaveStore(saves)
    store.save("s", games.get("gongzhu").new_match(seed=3), PLAYERS)
    first = Tty(["continue", "s"], home)
    try:
        assert first.wait_for(lambda: b"Gong Zhu" in first.output), first.text[-500:]
        assert locked_elsewhere(saves, "s")
        # A second `continue s`: says so, asks, and by default opens nothing.
        second = Tty(["continue", "s"], home)
        try:
            assert second.wait_for(lambda: b"[n] do not open" in second.output), second.text[-300:]
            assert "Slot s is open in another cardtable." in second.text
            second.send(b"\r")
            assert second.finish() == 2
        finally:
            second.close()
        # Read-only: it may be looked at (and played), nothing is written. (The first window's CPU
        # players have moved up to its human's turn by now: its file no longer changes by itself.)
        assert first.wait_for(lambda: human_to_move(saves, "s"))
        before = (saves / "s.json").read_bytes()
        third = Tty(["continue", "s"], home)
        try:
            assert third.wait_for(lambda: b"[r] read-only" in third.output)
            third.send(b"r\r")
            assert third.wait_for(lambda: b"read-only" in third.output.split(b"[r] read-only")[-1])
            for key in (b"h", b"\r", b"\r"):
                third.send(key)
                third.pump(0.3)
            third.send(b"\x11")
            assert third.finish() == 0
            assert "Slot s was open read-only: nothing was saved." in third.text
        finally:
            third.close()
        assert (saves / "s.json").read_bytes() == before
        # The first window still owns the slot and saves its moves.
        for key in (b"h", b"\r", b"\r"):
            first.send(key)
            first.pump(0.3)
        assert first.wait_for(lambda: (moves_in(saves / "s.json") or 0) > len(json.loads(before)["moves"]))
        first.send(b"\x11")
        assert first.finish() == 0
        assert "Game saved in slot s." in first.text
    finally:
        first.close()
    assert not locked_elsewhere(saves, "s")


# ---------------------------------------------------------------- hostile text
def hostile_saves(saves: Path) -> None:
    saves.mkdir(parents=True, exist_ok=True)
    base = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], "players": PLAYERS}
    (saves / "summary.json").write_text(json.dumps({**base, "summary": HOSTILE, "saved_at": HOSTILE,
                                                    "progress": {"hand": HOSTILE[:38]}}))
    (saves / "game.json").write_text(json.dumps({**base, "game": HOSTILE + "G" * 1_000_000}))
    (saves / "players.json").write_text(json.dumps({**base, "players": ["human"] * 4}))
    (saves / "\x1b]0;OWNED\x07.json").write_text(json.dumps(base))


def test_hostile_text_fields_are_rendered_harmlessly(tmp_path):
    home, saves = make_home(tmp_path)
    hostile_saves(saves)
    tty = Tty([], home)
    try:
        assert tty.wait_for(lambda: b"OWNED" in tty.output), tty.text[-500:]
        tty.send(b"c")                               # the slot list
        tty.pump(1.5)
        tty.send(b"\x11")
        assert tty.finish() == 0
    finally:
        tty.close()
    assert b"\x1b]0;OWNED" not in tty.output and b"OWNED\x07" not in tty.output
    assert b"\x1b]8;" not in tty.output              # no hyperlink made from the file's markup
    assert b"evil.example" not in tty.output or b"[link=" in tty.output
    # `cardtable saves` on a terminal (colours on) likewise.
    tty = Tty(["saves"], home)
    try:
        assert tty.finish() == 0
    finally:
        tty.close()
    assert b"OWNED" in tty.output and b"\x1b]" not in tty.output and b"\x07" not in tty.output


# ---------------------------------------------------------------- permissions
def run_unprivileged(args: list[str], home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True, text=True,
                          env=_env(home), stdin=subprocess.DEVNULL, cwd=REPO, check=False, timeout=60,
                          preexec_fn=_drop_file_permission_override)


def one_line_error(out: subprocess.CompletedProcess, *words: str) -> None:
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "No saved games" not in out.stdout
    for word in words:
        assert word in out.stderr


def test_permission_errors_are_one_line_and_status_2(tmp_path):
    locked = tmp_path / "locked"
    home = locked / "home"
    (home / "saves").mkdir(parents=True)
    SaveStore(home / "saves").save("s", games.get("gongzhu").new_match(seed=1), PLAYERS)
    try:
        # CARDTABLE_HOME under a directory that cannot be searched.
        locked.chmod(0)
        for args in (["saves"], ["continue"], ["continue", "s"]):
            one_line_error(run_unprivileged(args, home), "Permission denied")
        tty = Tty(["new", "gongzhu"], home, unprivileged=True)
        try:
            assert tty.finish() == 2
        finally:
            tty.close()
        assert "Permission denied" in tty.text and "Traceback" not in tty.text
        # The save directory itself chmod 000: not «No saved games yet».
        locked.chmod(0o700)
        (home / "saves").chmod(0)
        one_line_error(run_unprivileged(["saves"], home), "Permission denied", "save directory")
        one_line_error(run_unprivileged(["continue"], home), "Permission denied")
    finally:
        locked.chmod(0o700)
        (home / "saves").chmod(0o700)


def test_a_read_only_save_dir_is_said_plainly_on_quitting(tmp_path):
    home, saves = make_home(tmp_path)
    SaveStore(saves).save("s", games.get("gongzhu").new_match(seed=3), PLAYERS)
    before = (saves / "s.json").read_bytes()
    saves.chmod(0o555)
    try:
        tty = Tty(["continue", "s"], home, unprivileged=True)
        try:
            assert tty.wait_for(lambda: b"Gong Zhu" in tty.output), tty.text[-500:]
            for key in (b"h", b"\r", b"\r"):
                tty.send(key)
                tty.pump(0.4)
            tty.send(b"\x11")
            assert tty.finish() == 0
        finally:
            tty.close()
    finally:
        saves.chmod(0o755)
    tail = tty.text.split("\x1b[?1049l")[-1]        # what is printed after the screen is left
    assert "was NOT saved" in tail and "Permission denied" in tail
    assert "Game saved" not in tail
    assert (saves / "s.json").read_bytes() == before


# ---------------------------------------------------------------- odd terminals and encodings
@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"LC_ALL": "POSIX", "LANG": "", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_an_ascii_terminal_gets_ascii_art_and_plain_text(tmp_path, env):
    home, saves = make_home(tmp_path)
    SaveStore(saves).save("s", games.get("guinote").new_match(seed=0), PLAYERS)
    tty = Tty(["--lang", "es", "continue", "s"], home, **env)
    try:
        assert tty.wait_for(lambda: b"Pista" in tty.output), tty.text[-800:]     # the table is up
        tty.pump(1.0)
        tty.send(b"\x11")
        assert tty.finish() == 0
    finally:
        tty.close()
    assert tty.output.isascii(), sorted({chr(b) for b in tty.output if b > 127})[:10]
    assert b"\\u2502" not in tty.output and b"\\u" not in tty.output
    shown = re.sub(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]", b"", tty.output)       # the text without sequences
    assert b"+-" in shown and b"| " in shown and b"Guinote" in shown     # frames in ASCII, ñ -> n


def test_a_dumb_terminal_gets_a_one_line_hint(tmp_path):
    home, _ = make_home(tmp_path)
    tty = Tty(["new", "gongzhu"], home, TERM="dumb")
    try:
        assert tty.finish() == 2
    finally:
        tty.close()
    lines = [line for line in tty.text.splitlines() if line.strip()]
    assert len(lines) == 1 and "TERM=dumb" in lines[0] and "\x1b[" not in tty.text
