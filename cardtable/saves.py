"""Save slots: one JSON file per slot holding options + seed + moves; the state is rebuilt by replay.

Files are never trusted: size-limited, JSON only, validated field by field, and slot names cannot leave
the save directory. Writes are atomic (temp file in the same directory, fsync, ``os.replace``).
"""

from __future__ import annotations

import builtins
import dataclasses
import datetime as _dt
import errno
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from cardtable import __version__, safetext
from cardtable.engine import MAX_SEED, IllegalMove, Match, MoveError, OptionError, check_seed

try:
    import fcntl
except ImportError:      # not a POSIX system: slots are not locked
    fcntl = None  # type: ignore[assignment]

SAVE_FORMAT = "cardtable-save"
SCHEMA_VERSION = 1
MAX_SAVE_BYTES = 4 * 1024 * 1024
MAX_MOVES = 200_000
SLOT_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
SUFFIX = ".json"
AUTOSAVE_SLOT = "autosave"
# A temp file left by atomic_write when the process died between writing and renaming: ".SLOT.XXXXXXXX.tmp".
TEMP_PATTERN = re.compile(r"^\.(?P<slot>.+)\.[A-Za-z0-9_]+\.tmp$")
LOCK_SUFFIX = ".lock"
DAMAGED_PREFIX = "damaged: "
# The key of a file that is JSON but no cardtable save at all (a schema, some other program's file): the
# slot list leaves such files out (docs/decisions.md «What the saved games list»).
FOREIGN_JSON = "save_why_not_a_save"


class SaveError(Exception):
    """A slot that cannot be read, written or replayed. The message names the slot.

    ``reason`` is the English sentence (logs, the exception's text); ``key`` and ``params`` say it in
    the player's language (:attr:`text`, catalogue keys ``save_why_*``). Only what is genuinely the
    file's own (a game name, a player list, an OS error, why a move does not replay) is a parameter,
    shown as data. The slot name, the reason and every parameter may come from a hostile file: they are
    cleaned and capped here, once, so that every message built from them is safe."""

    def __init__(self, slot: str, reason: str, key: str = "", **params: Any) -> None:
        slot = safetext.clean(slot, safetext.SHORT)
        reason = safetext.clean(reason, safetext.LINE)
        super().__init__(f"save slot {slot!r}: {reason}")
        self.slot = slot
        self.reason = reason
        self.key = key
        self.params = {name: value if isinstance(value, int) and not isinstance(value, bool)
                       else safetext.clean(value, safetext.SHORT * 2) for name, value in params.items()}

    @property
    def text(self) -> str:
        """The reason in the player's language (without «damaged:», which the lists print themselves)."""
        return reason_text(self.key, self.params, self.reason)


def reason_text(key: str, params: dict[str, Any], reason: str) -> str:
    """A save reason's key and parameters in the current language; the English ``reason`` if no key."""
    if not key:
        return reason.removeprefix(DAMAGED_PREFIX)
    from cardtable.i18n import t

    return t(key, **params)


class SaveDirError(Exception):
    """The save directory itself cannot be read (no permission, not a directory, …)."""

    def __init__(self, directory: Path, reason: str) -> None:
        super().__init__(f"cannot use the save directory {safetext.clean(str(directory))}: "
                         f"{safetext.clean(reason)}")
        self.directory = directory
        self.reason = reason


class SlotBusy(SaveError):
    """The slot is open in another cardtable (its lock is held)."""

    def __init__(self, slot: str, holder: str = "") -> None:
        said = (SaveError(slot, f"open in another cardtable (process {holder})", "save_why_busy_pid", pid=holder)
                if holder else SaveError(slot, "open in another cardtable", "save_why_busy"))
        super().__init__(slot, said.reason, said.key, **said.params)
        self.holder = holder


@dataclasses.dataclass(frozen=True)
class SlotInfo:
    """One entry of the slot list: read without replaying the game."""

    slot: str
    path: Path
    game: str | None = None
    summary: str = ""
    saved_at: str = ""
    error: str | None = None
    progress: dict[str, Any] | None = None
    error_key: str = ""                                # the error in the player's language (see problem)
    error_params: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        """The progress in the current language when the file says it, else the stored English summary."""
        from cardtable.i18n import progress_text

        return (progress_text(self.game, self.progress) if self.game else None) or self.summary

    @property
    def damaged(self) -> bool:
        return self.error is not None

    @property
    def problem(self) -> str:
        """Why the slot is damaged, in the player's language, without a leading «damaged: » (the lists
        print their own)."""
        return reason_text(self.error_key, dict(self.error_params), self.error or "")

    @classmethod
    def damaged_by(cls, slot: str, path: Path, error: SaveError) -> SlotInfo:
        return cls(slot, path, error=error.reason, error_key=error.key,
                   error_params=tuple(error.params.items()))


@dataclasses.dataclass(frozen=True)
class SaveData:
    """A validated save envelope."""

    game: str
    options: dict[str, Any]
    seed: int
    moves: list[tuple[int, dict[str, Any]]]
    players: list[str]
    summary: str
    saved_at: str
    app_version: str
    schema: int = SCHEMA_VERSION
    progress: dict[str, Any] | None = None
    undo: bool = False              # a move was taken back in this match
    table: dict[str, Any] | None = None   # the table's answers that are no moves (see envelope)


def default_save_dir() -> Path:
    home = os.environ.get("CARDTABLE_HOME")
    if home:
        return Path(home).expanduser() / "saves"
    from platformdirs import user_data_path

    return user_data_path("cardtable", appauthor=False) / "saves"


def check_slot_name(slot: str) -> str:
    if not isinstance(slot, str) or not SLOT_PATTERN.match(slot):
        raise SaveError(str(slot), "a slot name is 1-64 letters, digits, '-' or '_', starting with a "
                                   "letter or digit", "save_why_slot_name")
    return slot


# ---------------------------------------------------------------- encoding
def envelope(match: Match, players: list[str], summary: str | None = None,
             undo: bool = False, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The save file's JSON object. ``table`` holds what the player answered at the table that no move
    records, a few plain values (Guiñote: a claim question answered «Play on», so that a resumed table
    does not ask it again); the moves alone still rebuild the match."""
    data = {
        "format": SAVE_FORMAT,
        "schema": SCHEMA_VERSION,
        "app_version": __version__,
        "game": match.game,
        "summary": summary if summary is not None else match.summary(),
        "progress": match.progress(),
        "saved_at": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "options": match.options.to_dict(),
        "seed": match.seed,
        "players": list(players),
        "moves": [{"seat": seat, "move": move.to_json()} for seat, move in match.moves],
    }
    if undo:
        data["undo"] = True          # a move was taken back in this match (its statistics count apart)
    if table:
        data["table"] = dict(table)
    return data


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


class LongNumber:
    """A whole number in a save with more digits than any field takes (Python would refuse to convert
    one of 4,300 digits and more, and the JSON would look broken): kept as its length, so that the
    field it is in gives the real reason."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"


MAX_INT_DIGITS = 40


def _bounded_int(text: str) -> int | LongNumber:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_INT_DIGITS else LongNumber(digits)


def parse_envelope(slot: str, raw: bytes) -> SaveData:
    """Validate the bytes of a save file. Raises SaveError with the reason."""
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(slot, f"file too large ({len(raw)} bytes; limit {MAX_SAVE_BYTES})", "save_why_too_large",
                        size=len(raw), limit=MAX_SAVE_BYTES)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constants, parse_int=_bounded_int)
    except UnicodeDecodeError:
        raise SaveError(slot, "damaged: not UTF-8 text", "save_why_not_utf8") from None
    except json.JSONDecodeError as exc:
        raise SaveError(slot, f"damaged: not valid JSON ({exc.msg})", "save_why_not_json", line=exc.lineno,
                        column=exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise SaveError(slot, f"damaged: not valid JSON ({str(exc) or 'too deeply nested'})",
                        "save_why_bad_json") from None
    if not isinstance(data, dict):
        raise SaveError(slot, "damaged: not a save file (expected a JSON object)", FOREIGN_JSON)
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(slot, "not a cardtable save file", FOREIGN_JSON)
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise SaveError(slot, "damaged: bad schema version", "save_why_bad_schema")
    if schema > SCHEMA_VERSION:
        raise SaveError(slot, f"made by a newer cardtable (schema {schema}; this version reads up to "
                              f"{SCHEMA_VERSION}): update cardtable to open it", "save_why_newer",
                        schema=schema, known=SCHEMA_VERSION)
    data = migrate(data)

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise SaveError(slot, f"damaged: field {key!r} missing or of the wrong type", "save_why_field",
                            field=key)
        return value

    game = need("game", str)
    if len(game) > 40:
        raise SaveError(slot, f"unknown game {game!r}", "save_why_unknown_game", game=game)
    options = need("options", dict)
    if isinstance(data.get("seed"), LongNumber):
        raise SaveError(slot, f"damaged: the game number has {data['seed'].digits} digits (a game number is "
                              f"at most {len(str(MAX_SEED))} digits)", "save_why_seed_digits",
                        digits=data["seed"].digits, limit=len(str(MAX_SEED)))
    try:
        seed = check_seed(data.get("seed"))
    except OptionError as exc:
        raise SaveError(slot, f"damaged: {exc}", "save_why_bad_seed") from None
    moves_raw = need("moves", list)
    if len(moves_raw) > MAX_MOVES:
        raise SaveError(slot, "damaged: too many moves", "save_why_too_many_moves")
    moves: list[tuple[int, dict[str, Any]]] = []
    for index, entry in enumerate(moves_raw):
        if (not isinstance(entry, dict) or entry.get("seat") not in (0, 1, 2, 3)
                or isinstance(entry.get("seat"), bool) or not isinstance(entry.get("move"), dict)):
            raise SaveError(slot, f"damaged: move {index + 1} is malformed", "save_why_bad_move", n=index + 1)
        moves.append((entry["seat"], entry["move"]))
    players = data.get("players", ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    if not (isinstance(players, list) and len(players) == 4 and all(isinstance(p, str) and len(p) < 40
                                                                      for p in players)):
        raise SaveError(slot, "damaged: field 'players' must list four players", "save_why_four_players")
    summary = data.get("summary", "")
    saved_at = data.get("saved_at", "")
    return SaveData(game=game, options=options, seed=seed, moves=moves, players=players,
                    summary=summary[:200] if isinstance(summary, str) else "",
                    saved_at=saved_at[:40] if isinstance(saved_at, str) else "",
                    app_version=str(data.get("app_version", ""))[:40], schema=schema,
                    progress=_small_flat_dict(data.get("progress")), undo=data.get("undo") is True,
                    table=_small_flat_dict(data.get("table")))


def check_players(slot: str, game: str, players: list[str]) -> None:
    """The table has one human, at seat 0, and three CPU players of levels the game knows. Anything else
    (a ``cpu:evil``, four humans that would leave the table waiting forever) is a damaged file."""
    from cardtable import games

    levels = games.get(game).bots
    if players[0] == "human" and all(p.startswith("cpu:") and p[4:] in levels for p in players[1:]):
        return
    known = ", ".join(f"cpu:{level}" for level in levels)
    raise SaveError(slot, f"{DAMAGED_PREFIX}players must be 'human' then three of {known}, not "
                          f"{', '.join(players)}", "save_why_players", known=known, players=", ".join(players))


def _small_flat_dict(value: Any) -> dict[str, Any] | None:
    """Keep a progress dict only if it is a few plain values (it is formatted into UI text)."""
    if not isinstance(value, dict) or len(value) > 12:
        return None
    plain = (int, bool, str)
    if not all(isinstance(k, str) and isinstance(v, plain) and (not isinstance(v, str) or len(v) < 40)
               for k, v in value.items()):
        return None
    return dict(value)


# Older schemas are upgraded here, one step at a time: {from_version: function}.
MIGRATIONS: dict[int, Any] = {}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    while data["schema"] < SCHEMA_VERSION:
        data = MIGRATIONS[data["schema"]](data)
    return data


def rebuild(slot: str, save: SaveData) -> Match:
    """Replay a validated save into a match."""
    from cardtable import games

    try:
        spec = games.get(save.game)
    except KeyError as exc:
        raise SaveError(slot, str(exc.args[0]), "save_why_unknown_game", game=save.game) from None
    check_players(slot, save.game, save.players)
    try:
        options = spec.options_type.from_dict(save.options)
        moves = [(seat, spec.match_type.decode_move(move)) for seat, move in save.moves]
        return spec.match_type.replay(options, save.seed, moves)
    except (OptionError, MoveError, IllegalMove, TypeError) as exc:
        raise SaveError(slot, f"does not replay: {exc}", "save_why_replay", detail=str(exc)) from None


# ---------------------------------------------------------------- the store
class SaveStore:
    """The save directory: list, read, write and delete slots; lock the slots open in this process.

    A slot open at the table is locked with an OS file lock (``flock`` on a hidden ``.SLOT.lock`` beside
    it), so a second cardtable cannot open it for writing; the kernel drops the lock if the process
    dies. As a second line of defence, a slot this store has read or written is never overwritten once
    another process has replaced the file since (a window left idle cannot undo newer moves)."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_save_dir()
        self._locks: dict[str, int] = {}
        self._stamps: dict[str, tuple[int, int, int] | None] = {}
        self._replayed: dict[str, tuple[tuple[int, int, int] | None, SaveError | None]] = {}

    def path(self, slot: str) -> Path:
        return self.directory / (check_slot_name(slot) + SUFFIX)

    # -- files
    def save(self, slot: str, match: Match, players: list[str], summary: str | None = None,
             undo: bool = False, table: dict[str, Any] | None = None) -> Path:
        """Write atomically: a crash leaves the old file or the new one, never a mix."""
        target = self.path(slot)
        if slot in self._stamps and self._stamps[slot] is not None:
            now = _stamp(target)
            if now is not None and now != self._stamps[slot]:
                raise SaveError(slot, "changed by another cardtable since it was opened here; "
                                      "not overwritten", "save_why_changed")
        payload = json.dumps(envelope(match, players, summary, undo, table), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
        try:
            atomic_write(target, payload)
        except OSError as exc:
            raise SaveError(slot, f"cannot write: {exc.strerror or exc}", "save_why_cannot_write",
                            detail=exc.strerror or str(exc)) from None
        self._stamps[slot] = _stamp(target)
        return target

    def read(self, slot: str) -> SaveData:
        """Read and validate a slot; remembers which version of the file it saw (see :meth:`save`)."""
        return self._read(slot, remember=True)

    def _read(self, slot: str, remember: bool, path: Path | None = None) -> SaveData:
        path = self.path(slot) if path is None else path
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise SaveError(slot, "no such slot", "save_why_no_slot") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:     # O_NOFOLLOW met a symbolic link
                raise SaveError(slot, "not a regular file", "save_why_not_regular") from None
            raise SaveError(slot, f"cannot read: {exc.strerror or exc}", "save_why_cannot_read",
                            detail=exc.strerror or str(exc)) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise SaveError(slot, "not a regular file", "save_why_not_regular")
            if info.st_size > MAX_SAVE_BYTES:
                raise SaveError(slot, f"file too large ({info.st_size} bytes; limit {MAX_SAVE_BYTES})",
                                "save_why_too_large", size=info.st_size, limit=MAX_SAVE_BYTES)
            with os.fdopen(fd, "rb", closefd=False) as handle:
                raw = handle.read(MAX_SAVE_BYTES + 1)
        except OSError as exc:
            raise SaveError(slot, f"cannot read: {exc.strerror or exc}", "save_why_cannot_read",
                            detail=exc.strerror or str(exc)) from None
        finally:
            os.close(fd)
        if len(raw) > MAX_SAVE_BYTES:      # it grew while we read
            raise SaveError(slot, f"file too large (over {MAX_SAVE_BYTES} bytes)", "save_why_grew",
                            limit=MAX_SAVE_BYTES)
        save = parse_envelope(slot, raw)
        if remember:
            self._stamps[slot] = (info.st_ino, info.st_mtime_ns, info.st_size)
        return save

    def load(self, slot: str) -> tuple[Match, SaveData]:
        save = self.read(slot)
        return rebuild(slot, save), save

    def delete(self, slot: str) -> None:
        """Remove a slot, also one listed as damaged for its odd file name; never one open elsewhere."""
        path = self._listed_path(slot)
        held_here = slot in self._locks
        if SLOT_PATTERN.match(slot) and not held_here:
            self.lock(slot)          # raises SlotBusy when another cardtable has it open
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            raise SaveError(slot, f"cannot delete: {exc.strerror or exc}", "save_why_cannot_delete",
                            detail=exc.strerror or str(exc)) from None
        finally:
            if SLOT_PATTERN.match(slot) and not held_here:
                self.unlock(slot)
        self._stamps.pop(slot, None)

    def _listed_path(self, slot: str) -> Path:
        if isinstance(slot, str) and SLOT_PATTERN.match(slot):
            return self.path(slot)
        if (not isinstance(slot, str) or not slot or slot.startswith(".") or "/" in slot or "\0" in slot
                or os.sep in slot):
            check_slot_name(slot)    # raises with the rule
        return self.directory / (slot + SUFFIX)

    def _entries(self) -> list[os.DirEntry]:
        try:
            with os.scandir(self.directory) as entries:
                return list(entries)
        except FileNotFoundError:
            return []
        except NotADirectoryError:
            raise SaveDirError(self.directory, "not a directory") from None
        except OSError as exc:
            raise SaveDirError(self.directory, exc.strerror or str(exc)) from None

    def check_usable(self) -> None:
        """Create the directory if needed and make sure it can be listed; raise :class:`SaveDirError`."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with os.scandir(self.directory):
                pass
        except OSError as exc:
            raise SaveDirError(self.directory, exc.strerror or str(exc)) from None

    def list(self) -> list[SlotInfo]:
        """Every save slot, newest first; damaged ones (and odd file names) listed with the reason.

        A ``*.json`` file that is well-formed JSON but no cardtable save at all (no ``"format":
        "cardtable-save"``: the repository's ``schema-v1.json``, another program's file) is not a slot
        and is left out; anything that is or may once have been a save — unreadable, not JSON, a save
        with bad fields, a newer schema, a save under a name that is not a slot name — is listed.

        Raises :class:`SaveDirError` when the directory exists but cannot be read: «no saved games»
        would be a lie then."""
        from cardtable import games

        infos = []
        for entry in self._entries():
            if not entry.name.endswith(SUFFIX) or entry.name.startswith("."):
                continue
            slot = entry.name[: -len(SUFFIX)]
            path = Path(entry.path)
            odd_name = not SLOT_PATTERN.match(slot)
            save = None
            try:
                save = self._read(slot, remember=False, path=path)     # listing is not opening
                if odd_name:
                    raise SaveError(slot, "the file name is not a slot name (1-64 letters, digits, '-' or "
                                          "'_', starting with a letter or digit)", "save_why_file_name")
                if games.is_available(save.game):
                    check_players(slot, save.game, save.players)
                    self._check_replays(slot, path, save)
            except SaveError as exc:
                if exc.key == FOREIGN_JSON:
                    continue                  # not a save at all: not a slot
                if odd_name and exc.key != "save_why_file_name":
                    exc = SaveError(slot, "the file name is not a slot name (1-64 letters, digits, '-' or "
                                          "'_', starting with a letter or digit)", "save_why_file_name")
                if save is not None and (exc.key == "save_why_replay" or exc.key == "save_why_unknown_game"):
                    infos.append(SlotInfo(slot, path, save.game, save.summary, save.saved_at, exc.reason,
                                          save.progress, exc.key, tuple(exc.params.items())))
                else:
                    infos.append(SlotInfo.damaged_by(slot, path, exc))
                continue
            if games.is_available(save.game):
                infos.append(SlotInfo(slot, path, save.game, save.summary, save.saved_at, None, save.progress))
            else:
                unknown = SaveError(slot, f"unknown game {save.game!r}", "save_why_unknown_game", game=save.game)
                infos.append(SlotInfo(slot, path, save.game, save.summary, save.saved_at, unknown.reason,
                                      save.progress, unknown.key, tuple(unknown.params.items())))
        infos.sort(key=lambda info: (info.saved_at, info.slot), reverse=True)
        return infos

    def _check_replays(self, slot: str, path: Path, save: SaveData) -> None:
        """Replay the save as opening it would (unknown options and illegal moves are damage the list
        should show); the answer is kept per version of the file, so a list shown again costs nothing."""
        stamp = _stamp(path)
        known = self._replayed.get(str(path))
        if known is not None and stamp is not None and known[0] == stamp:
            if known[1] is not None:
                raise known[1]
            return
        error = None
        try:
            rebuild(slot, save)
        except SaveError as exc:
            error = exc
        if len(self._replayed) >= 512:
            self._replayed.clear()
        self._replayed[str(path)] = (stamp, error)
        if error is not None:
            raise error

    def new_slot_name(self, game: str) -> str:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        base = f"{game}-{stamp}"
        name, n = base, 2
        while self.path(name).exists():
            name, n = f"{base}-{n}", n + 1
        return name

    def claim_new_slot(self, game: str) -> str:
        """A fresh slot name, already locked by this process (two tables started in the same second
        never share a slot)."""
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        base = f"{game}-{stamp}"
        for n in range(1, 1000):
            name = base if n == 1 else f"{base}-{n}"
            try:
                self.lock(name)
            except SlotBusy:
                continue
            if not self.path(name).exists():
                return name
            self.unlock(name)
        raise SaveError(base, "no free slot name", "save_why_no_free_name")

    # -- locks
    def _lock_path(self, slot: str) -> Path:
        return self.directory / f".{check_slot_name(slot)}{LOCK_SUFFIX}"

    def lock(self, slot: str) -> bool:
        """Take the slot's lock for this process. Raises :class:`SlotBusy` when another process holds it,
        and :class:`SaveError` when the lock path is no regular file (a directory, a symbolic link, a
        FIFO: the slot could not be protected, so it is not opened). Returns False when no lock can be
        taken here at all (no ``fcntl``, or the directory cannot hold a lock file: then nothing can be
        saved there either).

        The lock file exists only while it is held (:meth:`unlock` removes it): after taking the lock,
        the path must still name the file locked, or another process removed it meanwhile and we retry."""
        path = self._lock_path(slot)
        if slot in self._locks:
            return True
        if fcntl is None:
            return False
        for _attempt in range(20):
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_CLOEXEC", 0), 0o600)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.EISDIR):   # a symbolic link, a directory
                    raise self._odd_lock(slot, path) from None
                return False
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    raise self._odd_lock(slot, path)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                try:
                    holder = os.read(fd, 32).decode("ascii", "replace").strip()
                except OSError:
                    holder = ""
                os.close(fd)
                raise SlotBusy(slot, holder if holder.isdigit() else "") from None
            except SaveError:
                os.close(fd)
                raise
            except OSError:
                os.close(fd)
                return False
            try:
                now = os.stat(path, follow_symlinks=False)
            except OSError:
                now = None
            if now is None or (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
                os.close(fd)               # removed by its last holder while we opened it: again
                continue
            try:
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode())
            except OSError:
                pass
            self._locks[slot] = fd
            return True
        return False

    def _odd_lock(self, slot: str, path: Path) -> SaveError:
        return SaveError(slot, f"its lock file {path.name} is not a regular file (a directory, a link or a "
                               f"device): remove it to open the slot", "save_why_lock_odd", name=path.name)

    def unlock(self, slot: str) -> None:
        """Drop the slot's lock and remove its lock file (while still holding it, so that no other
        process can have it: see :meth:`lock`)."""
        fd = self._locks.pop(slot, None)
        if fd is None:
            return
        try:
            path = self._lock_path(slot)
            info, now = os.fstat(fd), os.stat(path, follow_symlinks=False)
            if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                os.unlink(path)
        except (OSError, SaveError):
            pass
        finally:
            os.close(fd)      # closing the only descriptor drops the flock

    def holds(self, slot: str) -> bool:
        return slot in self._locks

    def unlock_all(self) -> None:
        for slot in list(self._locks):
            self.unlock(slot)

    # -- housekeeping
    def clean_temp_files(self) -> builtins.list[str]:     # ``list`` here is the method above
        """Remove ``.SLOT.*.tmp`` files left by a process that died while saving. A temp file of a slot
        that is open (locked) elsewhere may be a save in progress: it is left alone. Returns the names
        removed; never raises."""
        removed: list[str] = []
        try:
            entries = self._entries()
        except SaveDirError:
            return removed
        for entry in entries:
            found = TEMP_PATTERN.match(entry.name)
            if not found or not SLOT_PATTERN.match(found["slot"]):
                continue
            slot = found["slot"]
            held_here = slot in self._locks
            try:
                if not held_here and not self.lock(slot) and fcntl is not None:
                    continue
            except SaveError:             # busy, or an odd lock path: not ours to clean
                continue
            try:
                os.unlink(entry.path)
                removed.append(entry.name)
            except OSError:
                pass
            finally:
                if not held_here:
                    self.unlock(slot)
        return removed


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What identifies one version of a file: os.replace gives every save a new inode."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def atomic_write(target: Path, payload: bytes) -> None:
    """Write ``payload`` to ``target`` so that a crash leaves the old file or the new one, never a mix:
    a temp file in the same directory, fsync, ``os.replace``, then fsync the directory."""
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
