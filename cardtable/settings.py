"""User settings (language, card style, CPU speed), kept as JSON beside the saves."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

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


def load_settings(path: Path | None = None) -> Settings:
    """Read settings; anything missing, damaged or unknown falls back to the default."""
    path = path or settings_path()
    settings = Settings()
    try:
        with path.open("rb") as handle:
            data = json.loads(handle.read(MAX_SETTINGS_BYTES))
    except (OSError, ValueError):
        return settings
    if not isinstance(data, dict):
        return settings
    if data.get("language") in LANGUAGES:
        settings.language = data["language"]
    if data.get("card_style") in CARD_STYLES:
        settings.card_style = data["card_style"]
    if data.get("cpu_speed") in CPU_SPEEDS:
        settings.cpu_speed = data["cpu_speed"]
    if data.get("undo") in ("on", "off"):
        settings.undo = data["undo"]
    if data.get("count_help") in COUNT_HELP:
        settings.count_help = data["count_help"]
    if data.get("checker") in CHECKER_CHOICES:
        settings.checker = data["checker"]
    return settings


def save_settings(settings: Settings, path: Path | None = None) -> None:
    atomic_write(path or settings_path(), json.dumps(dataclasses.asdict(settings), indent=2).encode())
