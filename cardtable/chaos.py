"""`cardtable bench chaos`: the data a player owns, tried as a chaos tester would (issue 29).

Four families of cases, each bounded in time and in tries, all inside a temporary directory (with
``CARDTABLE_HOME`` pointing there while they run):

- mutated saves: real saves of the three games, mutated (bytes flipped, cut short, JSON values replaced
  by hostile ones, moves shuffled); the slot list, opening, `continue` and `export` must agree (what the
  list shows as playable opens, what it shows as damaged is refused), fail only with one line and
  status 2, leave no partial export and no lock file;
- hostile settings: wrong types, deep nesting, huge files, a FIFO, a directory: defaults and one
  problem, never an exception, never a hang;
- the statistics database: a full disk (``PRAGMA max_page_count``), a lock held by another connection,
  a file SQLite may only read, scribbled pages: no hand lost when the file is healthy, nothing moved
  aside unless it is damaged, a moved-aside file never overwritten;
- lock paths: a directory, a symbolic link (dangling or not), a FIFO where the lock file goes: the slot
  is refused with the reason and the link's target is untouched.

Each case that breaks a rule is a failure, described in one line.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import random
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]
HOSTILE_VALUES: list[Any] = [None, True, False, 0, -1, 2**63, 1.5, "", "x" * 500, [], {}, [[[]]],
                             {"a": {"b": {}}}, "\u202e\u0007", "1" * 60]


@dataclasses.dataclass
class Family:
    name: str
    tries: int = 0
    failures: list[str] = dataclasses.field(default_factory=list)

    def fail(self, text: str) -> None:
        self.failures.append(text[:300])


@contextlib.contextmanager
def _home(root: Path) -> Iterator[Path]:
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("CARDTABLE_HOME")
    os.environ["CARDTABLE_HOME"] = str(home)
    try:
        yield home
    finally:
        if old is None:
            os.environ.pop("CARDTABLE_HOME", None)
        else:
            os.environ["CARDTABLE_HOME"] = old


def _cli(*args: str) -> tuple[int, str]:
    """Run a command in this process: its status and what it wrote on stderr."""
    from cardtable.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, err.getvalue()


def _one_line_refusal(code: int, err: str) -> str | None:
    if code != 2:
        return f"status {code}, not 2"
    if "Traceback" in err or len(err.strip().splitlines()) != 1:
        return f"not one line: {err.strip()[:200]!r}"
    return None


# ---------------------------------------------------------------- mutated saves
def _base_saves(rng: random.Random) -> list[bytes]:
    from cardtable import games
    from cardtable.saves import envelope
    from cardtable.sim import next_cpu_move

    found = []
    for name in games.games():
        spec = games.get(name)
        match = spec.new_match(seed=rng.randrange(1000))
        bot = spec.bot("easy")

        def bots(seat: int, bot: Any = bot) -> Any:
            return bot

        for _ in range(rng.randrange(5, 60)):
            step = next_cpu_move(match, bots) if match.to_move() is not None else None
            if step is None:
                break
            seat, move = step
            match.apply(move, seat)
        found.append(json.dumps(envelope(match, PLAYERS), separators=(",", ":")).encode())
    return found


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:40]):
            yield from _paths(item, (*prefix, index))


def _mutate(raw: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:                                           # flip a few bytes
        data = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == 1:                                           # cut short
        return raw[: rng.randrange(len(raw))]
    data = json.loads(raw)
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if kind == 2:                                           # a hostile value
        parent[path[-1]] = rng.choice(HOSTILE_VALUES)
    elif kind == 3 and isinstance(parent, dict):            # a key removed
        del parent[path[-1]]
    elif kind == 4 and isinstance(data.get("moves"), list) and len(data["moves"]) > 2:
        i, j = rng.sample(range(len(data["moves"])), 2)     # two moves swapped
        data["moves"][i], data["moves"][j] = data["moves"][j], data["moves"][i]
    else:                                                   # a huge number where a number was
        text = json.dumps(data, separators=(",", ":"))
        return text.replace('"seed":', '"seed":' + "9" * rng.choice([20, 400, 5000]), 1).encode()
    return json.dumps(data, separators=(",", ":")).encode()


def mutated_saves(root: Path, rng: random.Random, seconds: float, limit: int) -> Family:
    from cardtable.history import read_records
    from cardtable.saves import SaveDirError, SaveError, SaveStore

    family = Family("mutated saves")
    bases = _base_saves(rng)
    directory = root / "saves"
    directory.mkdir()
    store_dir = str(directory)
    out_dir = root / "exports"
    out_dir.mkdir()
    deadline = time.monotonic() + seconds              # after the setup: every family gets its tries
    while family.tries < limit and (family.tries == 0 or time.monotonic() < deadline):
        family.tries += 1
        raw = _mutate(rng.choice(bases), rng)
        path = directory / "s.json"
        path.write_bytes(raw)
        where = f"try {family.tries} ({raw[:60]!r}…)"
        store = SaveStore(directory)
        try:
            infos = [info for info in store.list() if info.slot == "s"]
        except SaveDirError as exc:
            family.fail(f"{where}: the list failed: {exc}")
            continue
        except Exception as exc:                         # noqa: BLE001 - a chaos run reports everything
            family.fail(f"{where}: the list raised {type(exc).__name__}: {exc}")
            continue
        listed_ok = bool(infos) and not infos[0].damaged
        try:
            store.load("s")
            opened = True
        except SaveError:
            opened = False
        except Exception as exc:                         # noqa: BLE001
            family.fail(f"{where}: opening raised {type(exc).__name__}: {exc}")
            continue
        if infos and listed_ok != opened:
            family.fail(f"{where}: listed as {'playable' if listed_ok else 'damaged'} but "
                        f"{'opens' if opened else 'does not open'}")
        target = out_dir / "history.jsonl"
        try:
            code, err = _cli("--save-dir", store_dir, "export", "s", "--history", str(target))
            if opened and code != 0:
                family.fail(f"{where}: export failed on a slot that opens: {err.strip()[:200]}")
            elif not opened:
                problem = _one_line_refusal(code, err)
                if problem:
                    family.fail(f"{where}: export: {problem}")
                if list(out_dir.iterdir()):
                    family.fail(f"{where}: export left a file behind")
            if code == 0:
                list(read_records(target.read_text(encoding="utf-8").splitlines()))
            code, err = _cli("--save-dir", store_dir, "continue", "s")   # no terminal: refused either way
            if _one_line_refusal(code, err):
                family.fail(f"{where}: continue: {_one_line_refusal(code, err)}")
        except Exception as exc:                         # noqa: BLE001
            family.fail(f"{where}: a command raised {type(exc).__name__}: {exc}")
        for leftover in out_dir.iterdir():
            leftover.unlink()
        locks = [p.name for p in directory.iterdir() if p.name.endswith(".lock")]
        if locks:
            family.fail(f"{where}: lock files left: {locks}")
            for name in locks:
                (directory / name).unlink()
    return family


# ---------------------------------------------------------------- hostile settings
def _sparse_file(path: Path) -> None:
    """A 64 MiB file that takes no room (a hole)."""
    path.touch()
    os.truncate(path, 64 * 1024 * 1024)


def _settings_cases(rng: random.Random) -> list[tuple[str, Callable[[Path], object]]]:
    def content(data: bytes) -> Callable[[Path], object]:
        return lambda path: path.write_bytes(data)

    cases: list[tuple[str, Callable[[Path], object]]] = [
        ("wrong type", content(b'{"cpu_speed": []}')),
        # (under a setting's name: where the recursion limit is high enough to parse them, the value
        # is still of the wrong type)
        ("5,000 nested objects", content(b'{"cpu_speed":' + b'{"a":' * 5000 + b"1" + b"}" * 5001)),
        ("5,000 nested lists", content(b"[" * 5000 + b"]" * 5000)),
        ("huge file", _sparse_file),
        ("directory", lambda path: path.mkdir()),
        ("not UTF-8", content(b"\xff\xfe\x00")),
        ("a huge number", content(b'{"cpu_speed": ' + b"9" * 5000 + b"}")),
        ("not an object", content(b"[1, 2, 3]")),
    ]
    if hasattr(os, "mkfifo"):
        cases.append(("FIFO", lambda path: os.mkfifo(path)))
    keys = ["language", "card_style", "cpu_speed", "undo", "count_help", "checker", "other"]
    for _ in range(40):
        data = {rng.choice(keys): rng.choice([*HOSTILE_VALUES, "es", "fast", "ascii", "on"])
                for _ in range(rng.randint(1, 5))}
        cases.append((f"random {data!r}"[:80], content(json.dumps(data).encode())))
    return cases


def hostile_settings(root: Path, rng: random.Random, seconds: float, limit: int) -> Family:
    from cardtable.settings import Settings, read_settings

    family = Family("hostile settings")
    deadline = time.monotonic() + seconds
    for index, (name, make) in enumerate(_settings_cases(rng)):
        if family.tries >= limit or (family.tries and time.monotonic() >= deadline):
            break
        family.tries += 1
        path = root / f"settings-{index}" / "settings.json"
        path.parent.mkdir()
        make(path)
        answer: list[Any] = []
        worker = threading.Thread(target=lambda answer=answer, path=path: answer.append(
            _guarded(read_settings, path)), daemon=True)
        worker.start()
        worker.join(5.0)
        if worker.is_alive():
            family.fail(f"{name}: read_settings hangs")
            if path.is_fifo():                # let the thread go: open the other end once
                with contextlib.suppress(OSError):
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            continue
        result = answer[0]
        if isinstance(result, BaseException):
            family.fail(f"{name}: read_settings raised {type(result).__name__}: {result}")
            continue
        settings, problem = result
        if not isinstance(settings, Settings):
            family.fail(f"{name}: no Settings")
        elif problem is not None and "\n" in problem.text:
            family.fail(f"{name}: the problem is not one line")
        elif not name.startswith("random") and problem is None:
            family.fail(f"{name}: ignored without a word")
    return family


def _guarded(function: Callable, *args: Any) -> Any:
    try:
        return function(*args)
    except BaseException as exc:        # noqa: BLE001 - reported as a failure
        return exc


# ---------------------------------------------------------------- the statistics database
HAND = {"winner_team": 0, "level_up": 1}


def _record(db: Any, number: int, slot: str = "a", pad: int = 0) -> bool:
    return db.record_hand(slot=slot, game="guandan", level="easy", seed=1,
                          options={"pad": "x" * pad} if pad else {}, number=number, record=HAND)


def _hands(path: Path) -> int:
    from cardtable.stats import StatsDB

    db = StatsDB(path)
    try:
        return sum(row.hands for row in db.summary())
    finally:
        db.close()


def _asides(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".damaged-*"))


def _integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")    # its answer may quote garbage
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:     # a message quoting garbage
        return str(exc)
    finally:
        conn.close()


def _stats_full(path: Path, rng: random.Random) -> str | None:
    from cardtable.stats import StatsDB

    class FullDisk(StatsDB):
        def _connect(self, writable: bool) -> sqlite3.Connection:
            conn = super()._connect(writable)
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages + rng.randint(0, 1)}")
            return conn

    before = _hands(path)
    db = FullDisk(path)
    written = 0
    for number in range(1, 60):
        _record(db, number, slot=f"s{number}", pad=rng.choice([0, 500, 2000]))
        written = number
        if db.notice is not None:
            break
    db.close()
    if db.notice is None:
        return None                          # the pages sufficed: nothing to check
    if db.notice.kind not in ("full", "full_lost"):
        return f"full disk told as {db.notice.kind}"
    if _asides(path):
        return "a full disk moved the database aside"
    if _integrity(path) != "ok":
        return "the database is not whole after a full disk"
    if db.notice.kind == "full" and _hands(path) != before + written:
        return f"{before + written} hands played, {_hands(path)} counted once there was room"
    return None


def _stats_busy(path: Path, rng: random.Random) -> str | None:
    from cardtable.stats import StatsDB

    before = _hands(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute(rng.choice(["BEGIN EXCLUSIVE", "BEGIN IMMEDIATE"]))
    try:
        db = StatsDB(path, busy_timeout=0.02)
        if _record(db, 1000):
            return "a hand was counted through another writer's lock"
        if db.notice is None or db.notice.kind != "busy":
            return f"a lock told as {db.notice.kind if db.notice else 'nothing'}"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    if _asides(path):
        return "a lock moved the database aside"
    _record(db, 1001)
    db.close()
    if _hands(path) != before + 2:
        return "the hand kept during the lock was not counted afterwards"
    return None


def _stats_read_only(path: Path, rng: random.Random) -> str | None:
    from cardtable.stats import StatsDB

    class ReadOnlyFile(StatsDB):           # what SQLite does with a file it may only read (chmod 444)
        def _connect(self, writable: bool) -> sqlite3.Connection:
            return super()._connect(False)

    before = _hands(path)
    db = ReadOnlyFile(path)
    if _record(db, 2000 + rng.randrange(1000)):
        return "a hand was counted in a read-only file"
    if db.notice is None or not db.notice.kind.startswith("read_only"):
        return f"a read-only file told as {db.notice.kind if db.notice else 'nothing'}"
    if "\n" in db.notice.text:
        return "the read-only notice is not one line"
    db.close()
    if _asides(path) or _hands(path) != before + 1:
        return "the hand kept for a read-only file was lost, or the file moved aside"
    return None


def _stats_damage(path: Path, rng: random.Random) -> str | None:
    from cardtable.stats import StatsDB

    data = bytearray(path.read_bytes())
    for _ in range(rng.randint(1, 30)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    path.write_bytes(bytes(data))
    earlier = {p: p.read_bytes() for p in _asides(path)}
    healthy = _integrity(path) == "ok"
    db = StatsDB(path)
    try:
        db.summary()
    except Exception as exc:               # noqa: BLE001 - a read may fail, in one line
        if "\n" in str(exc):
            return f"a read failed in more than one line: {exc}"
    _record(db, 3000 + rng.randrange(1000))
    db.close()
    for aside, content in earlier.items():
        if not aside.exists() or aside.read_bytes() != content:
            return f"{aside.name} was overwritten"
    moved = [p for p in _asides(path) if p not in earlier]
    if moved and moved[0].read_bytes() != bytes(data):
        return "the moved-aside file is not the damaged one"
    if healthy and moved:
        return "a healthy database was moved aside"
    return None


def statistics_db(root: Path, rng: random.Random, seconds: float, limit: int) -> Family:
    from cardtable.stats import StatsDB

    family = Family("statistics database")
    cases = [("full disk", _stats_full), ("lock", _stats_busy), ("read-only file", _stats_read_only),
             ("scribbled pages", _stats_damage)]
    deadline = time.monotonic() + seconds
    while family.tries < limit and (family.tries < len(cases) or time.monotonic() < deadline):
        name, case = cases[family.tries % len(cases)]
        family.tries += 1
        path = root / f"stats-{family.tries}" / "stats.sqlite3"
        path.parent.mkdir()
        db = StatsDB(path)
        for number in range(1, rng.randint(2, 12)):
            _record(db, number)
        db.close()
        try:
            problem = case(path, rng)
        except Exception as exc:            # noqa: BLE001
            problem = f"raised {type(exc).__name__}: {exc}"
        if problem:
            family.fail(f"{name} (try {family.tries}): {problem}")
    return family


# ---------------------------------------------------------------- lock paths
def lock_paths(root: Path, rng: random.Random, seconds: float, limit: int) -> Family:
    from cardtable import games
    from cardtable.saves import SaveError, SaveStore

    family = Family("lock paths")
    kinds = ["directory", "symlink", "dangling symlink", "missing slot", "damaged slot"]
    if hasattr(os, "mkfifo"):
        kinds.append("fifo")
    deadline = time.monotonic() + seconds
    for index in range(limit):
        if index >= len(kinds) and time.monotonic() >= deadline:
            break
        kind = kinds[index % len(kinds)]
        family.tries += 1
        directory = root / f"locks-{index}"
        store = SaveStore(directory)
        store.save("s", games.get("guinote").new_match(seed=rng.randrange(100)), PLAYERS)
        lock = directory / ".s.lock"
        target = directory.parent / f"target-{index}"
        if kind == "directory":
            lock.mkdir()
        elif kind == "symlink":
            target.write_text("keep")
            lock.symlink_to(target)
        elif kind == "dangling symlink":
            lock.symlink_to(target)
        elif kind == "fifo":
            os.mkfifo(lock)
        elif kind == "damaged slot":
            (directory / "s.json").write_text("{")
        slot = "nosuchslot" if kind == "missing slot" else "s"
        code, err = _cli("--save-dir", str(directory), "continue", slot)
        problem = _one_line_refusal(code, err)
        if problem:
            family.fail(f"{kind}: continue: {problem}")
        if kind in ("directory", "symlink", "dangling symlink", "fifo"):
            if "lock" not in err:
                family.fail(f"{kind}: the reason does not name the lock file: {err.strip()[:200]}")
            try:
                SaveStore(directory).lock("s")
                family.fail(f"{kind}: the slot was locked through an odd lock path")
            except SaveError:
                pass
            if kind == "symlink" and target.read_text() != "keep":
                family.fail("symlink: its target was changed")
            if kind == "dangling symlink" and target.exists():
                family.fail("dangling symlink: its target was created")
        else:
            left = [p.name for p in directory.iterdir() if p.name.endswith(".lock")]
            if left:
                family.fail(f"{kind}: lock files left: {left}")
    return family


FAMILIES = (mutated_saves, hostile_settings, statistics_db, lock_paths)


def run(seconds: float = 3.0, seed: int = 1, tries: int = 2000) -> list[Family]:
    """Each family for at most ``seconds`` (after its setup) and ``tries``, each kind of case at least
    once, in a temporary directory removed after."""
    from cardtable import i18n

    rng = random.Random(seed)
    language = i18n.language()
    results = []
    with tempfile.TemporaryDirectory(prefix="cardtable-chaos-") as temp:
        root = Path(temp)
        with _home(root):
            for number, family in enumerate(FAMILIES):
                place = root / f"family-{number}"
                place.mkdir()
                results.append(family(place, rng, seconds, tries))
    i18n.set_language(language)
    return results
