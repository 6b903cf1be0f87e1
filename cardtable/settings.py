"""User settings (language, card style, CPU speed), kept as JSON beside the saves."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path
from typing import Any

from cardtable import safetext
from cardtable.i18n import LANGUAGES
from cardtable.saves import atomic_write

CARD_STYLES = ("colour", "four", "ascii")
CPU_SPEEDS = {"slow": 0.9, "normal": 0.45, "fast": 0.15, "instant": 0.0}
COUNT_HELP = ("off", "on")        # Guiñote: the table adds up your pair's points de vueltas
CHECKER_CHOICES = ("auto", "on", "off")
MAX_SETTINGS_BYTES = 64 * 1024


@dataclasses.dataclass
class Settings:
    language: str | None = None          # None: follow the locale
    card_style: str = "colour"
    cpu_speed: str = "normal"
    undo: str = "on"                     # «on»: a player may take moves back (the match counts apart)
    count_help: str = "off"
    checker: str = "auto"                # the play checker: «auto» at easy/normal tables, «on», «off»

    @property
    def cpu_delay(self) -> float:
        return CPU_SPEEDS[self.cpu_speed]


def settings_path() -> Path:
    home = os.environ.get("CARDTABLE_HOME")
    if home:
        return Path(home).expanduser() / "settings.json"
    from platformdirs import user_config_path

    return user_config_path("cardtable", appauthor=False) / "settings.json"


class SettingsProblem:
    """Why settings.json (or some of its values) was ignored: a catalogue key and its parameters, said
    in the language chosen once the settings are read (:attr:`text`)."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    @property
    def text(self) -> str:
        from cardtable.i18n import t

        return t(self.key, **self.params)

    def __repr__(self) -> str:
        return f"SettingsProblem({self.key!r}, **{self.params!r})"


# Each setting and the values it may take (a value of another type, e.g. a list, is ignored too).
CHOICES: dict[str, tuple[str, ...]] = {"language": tuple(LANGUAGES), "card_style": CARD_STYLES,
                                       "cpu_speed": tuple(CPU_SPEEDS), "undo": ("on", "off"),
                                       "count_help": COUNT_HELP, "checker": CHECKER_CHOICES}


def _read_bytes(path: Path) -> tuple[bytes | None, SettingsProblem | None]:
    """The file's bytes, read without ever blocking: only a regular file of at most
    MAX_SETTINGS_BYTES (a FIFO, a device or a directory is not opened for reading)."""
    where = safetext.clean(str(path), safetext.SHORT * 2)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as exc:
        try:
            os.stat(path)
        except OSError:       # the directory itself cannot be searched: the command says so for the saves
            return None, None
        return None, SettingsProblem("settings_ignored_unreadable", path=where,
                                     reason=safetext.clean(exc.strerror or str(exc)))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, SettingsProblem("settings_ignored_not_file", path=where)
        if info.st_size > MAX_SETTINGS_BYTES:
            return None, SettingsProblem("settings_ignored_too_large", path=where, limit=MAX_SETTINGS_BYTES)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        return None, SettingsProblem("settings_ignored_unreadable", path=where,
                                     reason=safetext.clean(exc.strerror or str(exc)))
    finally:
        os.close(fd)
    if len(raw) > MAX_SETTINGS_BYTES:        # it grew while we read
        return None, SettingsProblem("settings_ignored_too_large", path=where, limit=MAX_SETTINGS_BYTES)
    return raw, None


def read_settings(path: Path | None = None) -> tuple[Settings, SettingsProblem | None]:
    """Read settings, never raising and never blocking: a file that cannot be used gives the defaults,
    a value of the wrong type or unknown gives that setting's default; the problem says which, for one
    line to the player. A missing file is no problem."""
    path = path or settings_path()
    settings = Settings()
    raw, problem = _read_bytes(path)
    if raw is None:
        return settings, problem
    where = safetext.clean(str(path), safetext.SHORT * 2)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):         # not UTF-8, not JSON, nested too deep, a huge number
        return settings, SettingsProblem("settings_ignored_not_json", path=where)
    if not isinstance(data, dict):
        return settings, SettingsProblem("settings_ignored_not_object", path=where)
    bad = []
    for name, choices in CHOICES.items():
        if name not in data or (name == "language" and data[name] is None):
            continue
        value = data[name]
        if isinstance(value, str) and value in choices:
            setattr(settings, name, value)
        else:
            bad.append(name)
    if bad:
        return settings, SettingsProblem("settings_values_ignored", path=where, names=", ".join(bad))
    return settings, None


def load_settings(path: Path | None = None) -> Settings:
    """Read settings; anything missing, damaged or unknown falls back to the default (see read_settings)."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    atomic_write(path or settings_path(), json.dumps(dataclasses.asdict(settings), indent=2).encode())
