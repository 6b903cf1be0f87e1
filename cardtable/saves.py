"""Save slots: one JSON file per slot holding options + seed + moves; the state is rebuilt by replay.

Files are never trusted: size-limited, JSON only, validated field by field, and slot names cannot leave
the save directory. Writes are atomic (temp file in the same directory, fsync, ``os.replace``).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from cardtable import __version__
from cardtable.engine import IllegalMove, Match, MoveError, OptionError, check_seed

SAVE_FORMAT = "cardtable-save"
SCHEMA_VERSION = 1
MAX_SAVE_BYTES = 4 * 1024 * 1024
MAX_MOVES = 200_000
SLOT_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
SUFFIX = ".json"
AUTOSAVE_SLOT = "autosave"


class SaveError(Exception):
    """A slot that cannot be read, written or replayed. The message names the slot."""

    def __init__(self, slot: str, reason: str) -> None:
        super().__init__(f"save slot {slot!r}: {reason}")
        self.slot = slot
        self.reason = reason


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

    def describe(self) -> str:
        """The progress in the current language when the file says it, else the stored English summary."""
        from cardtable.i18n import progress_text

        return (progress_text(self.game, self.progress) if self.game else None) or self.summary

    @property
    def damaged(self) -> bool:
        return self.error is not None


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


def default_save_dir() -> Path:
    home = os.environ.get("CARDTABLE_HOME")
    if home:
        return Path(home).expanduser() / "saves"
    from platformdirs import user_data_path

    return user_data_path("cardtable", appauthor=False) / "saves"


def check_slot_name(slot: str) -> str:
    if not isinstance(slot, str) or not SLOT_PATTERN.match(slot):
        raise SaveError(str(slot), "a slot name is 1-64 letters, digits, '-' or '_', starting with a "
                                   "letter or digit")
    return slot


# ---------------------------------------------------------------- encoding
def envelope(match: Match, players: list[str], summary: str | None = None) -> dict[str, Any]:
    return {
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


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def parse_envelope(slot: str, raw: bytes) -> SaveData:
    """Validate the bytes of a save file. Raises SaveError with the reason."""
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(slot, f"file too large ({len(raw)} bytes; limit {MAX_SAVE_BYTES})")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise SaveError(slot, "damaged: not UTF-8 text") from None
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "too deeply nested"
        raise SaveError(slot, f"damaged: not valid JSON ({reason})") from None
    if not isinstance(data, dict):
        raise SaveError(slot, "damaged: not a save file (expected a JSON object)")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(slot, "not a cardtable save file")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise SaveError(slot, "damaged: bad schema version")
    if schema > SCHEMA_VERSION:
        raise SaveError(slot, f"made by a newer cardtable (schema {schema}; this version reads up to "
                              f"{SCHEMA_VERSION}): update cardtable to open it")
    data = migrate(data)

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise SaveError(slot, f"damaged: field {key!r} missing or of the wrong type")
        return value

    game = need("game", str)
    options = need("options", dict)
    try:
        seed = check_seed(data.get("seed"))
    except OptionError as exc:
        raise SaveError(slot, f"damaged: {exc}") from None
    moves_raw = need("moves", list)
    if len(moves_raw) > MAX_MOVES:
        raise SaveError(slot, "damaged: too many moves")
    moves: list[tuple[int, dict[str, Any]]] = []
    for index, entry in enumerate(moves_raw):
        if (not isinstance(entry, dict) or entry.get("seat") not in (0, 1, 2, 3)
                or isinstance(entry.get("seat"), bool) or not isinstance(entry.get("move"), dict)):
            raise SaveError(slot, f"damaged: move {index + 1} is malformed")
        moves.append((entry["seat"], entry["move"]))
    players = data.get("players", ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    if not (isinstance(players, list) and len(players) == 4 and all(isinstance(p, str) and len(p) < 40
                                                                      for p in players)):
        raise SaveError(slot, "damaged: field 'players' must list four players")
    summary = data.get("summary", "")
    saved_at = data.get("saved_at", "")
    return SaveData(game=game, options=options, seed=seed, moves=moves, players=players,
                    summary=summary[:200] if isinstance(summary, str) else "",
                    saved_at=saved_at[:40] if isinstance(saved_at, str) else "",
                    app_version=str(data.get("app_version", ""))[:40], schema=schema,
                    progress=_small_flat_dict(data.get("progress")))


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
        raise SaveError(slot, str(exc.args[0])) from None
    try:
        options = spec.options_type.from_dict(save.options)
        moves = [(seat, spec.match_type.decode_move(move)) for seat, move in save.moves]
        return spec.match_type.replay(options, save.seed, moves)
    except (OptionError, MoveError, IllegalMove, TypeError) as exc:
        raise SaveError(slot, f"does not replay: {exc}") from None


# ---------------------------------------------------------------- the store
class SaveStore:
    """The save directory: list, read, write and delete slots."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_save_dir()

    def path(self, slot: str) -> Path:
        return self.directory / (check_slot_name(slot) + SUFFIX)

    def save(self, slot: str, match: Match, players: list[str], summary: str | None = None) -> Path:
        """Write atomically: a crash leaves the old file or the new one, never a mix."""
        target = self.path(slot)
        payload = json.dumps(envelope(match, players, summary), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
        try:
            atomic_write(target, payload)
        except OSError as exc:
            raise SaveError(slot, f"cannot write: {exc.strerror or exc}") from None
        return target

    def read(self, slot: str) -> SaveData:
        path = self.path(slot)
        try:
            if path.is_symlink() or not path.is_file():
                raise SaveError(slot, "no such slot" if not path.exists() else "not a regular file")
            with path.open("rb") as handle:
                raw = handle.read(MAX_SAVE_BYTES + 1)
        except OSError as exc:
            raise SaveError(slot, f"cannot read: {exc.strerror or exc}") from None
        return parse_envelope(slot, raw)

    def load(self, slot: str) -> tuple[Match, SaveData]:
        save = self.read(slot)
        return rebuild(slot, save), save

    def delete(self, slot: str) -> None:
        try:
            self.path(slot).unlink(missing_ok=True)
        except OSError as exc:
            raise SaveError(slot, f"cannot delete: {exc.strerror or exc}") from None

    def list(self) -> list[SlotInfo]:
        """Every ``*.json`` slot, newest first, damaged ones included with the reason."""
        if not self.directory.is_dir():
            return []
        infos = []
        for path in self.directory.glob("*" + SUFFIX):
            slot = path.name[: -len(SUFFIX)]
            if not SLOT_PATTERN.match(slot):
                continue
            try:
                save = self.read(slot)
            except SaveError as exc:
                infos.append(SlotInfo(slot, path, error=exc.reason))
                continue
            from cardtable import games

            error = None if games.is_available(save.game) else f"unknown game {save.game!r}"
            infos.append(SlotInfo(slot, path, save.game, save.summary, save.saved_at, error, save.progress))
        infos.sort(key=lambda info: (info.saved_at, info.slot), reverse=True)
        return infos

    def new_slot_name(self, game: str) -> str:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        base = f"{game}-{stamp}"
        name, n = base, 2
        while self.path(name).exists():
            name, n = f"{base}-{n}", n + 1
        return name


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
