"""One translation function for every UI string: ``t(key, **params)``.

The language follows the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE) and ``--lang`` or the settings
override it. A language is data: ``cardtable/locales/<lang>.toml`` holds its catalogue (flat
``key = "text"`` lines, read with the standard library's ``tomllib``); modules may still
:func:`register` strings from Python, merged into the same catalogues. English is the reference: a key
missing from another language, or whose text there cannot be filled, shows in English, never as a raw
key or an unfilled ``{placeholder}``. Tests check that every catalogue has every key with the same
placeholders.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from importlib import resources

LANGUAGES = ("en", "es", "zh")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "zh": "简体中文"}
FALLBACK = "en"
MAX_CATALOGUE_BYTES = 1024 * 1024
_catalogs: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_language = "en"


def locale_language(value: str) -> str | None:
    """The language a locale name asks for («zh_CN.UTF-8» → zh), or None when it is none of ours."""
    code = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return code if code in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            # LANGUAGE may list several («zh_CN:en»): the first one counts, as in gettext
            return locale_language(value.split(":")[0]) or FALLBACK
    return FALLBACK


def set_language(lang: str) -> None:
    global _language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of: {', '.join(LANGUAGES)}")
    _language = lang


def language() -> str:
    return _language


def parse_catalogue(text: str) -> dict[str, str]:
    """A catalogue file's text: flat ``key = "text"`` pairs (a table or a non-string value is refused)."""
    data = tomllib.loads(text)
    for key, value in data.items():
        if not isinstance(value, str):
            raise TypeError(f"{key!r} is not a string")
    return data


def load_catalogue_files() -> None:
    """Merge ``cardtable/locales/<lang>.toml`` into the catalogues (called once, on import)."""
    folder = resources.files("cardtable.locales")
    for lang in LANGUAGES:
        page = folder / f"{lang}.toml"
        if page.is_file():
            with page.open("rb") as handle:
                raw = handle.read(MAX_CATALOGUE_BYTES + 1)
            if len(raw) > MAX_CATALOGUE_BYTES:
                raise ValueError(f"{lang}.toml is larger than {MAX_CATALOGUE_BYTES} bytes")
            _catalogs[lang].update(parse_catalogue(raw.decode("utf-8")))


def catalog(lang: str) -> dict[str, str]:
    return _catalogs[lang]


def missing(lang: str) -> list[str]:
    """The keys English has and ``lang`` lacks (they show in English)."""
    return sorted(set(_catalogs[FALLBACK]) - set(_catalogs[lang]))


def progress_text(game: str, progress: object) -> str | None:
    """A save slot's progress (the engine's ``progress()`` dict) in the current language, or None when
    the dict does not fit the game's template (an older or hand-edited file)."""
    if not isinstance(progress, dict):
        return None
    if progress.get("over") is True:
        return t("progress_over")
    if f"progress_{game}" not in _catalogs[_language] and f"progress_{game}" not in _catalogs[FALLBACK]:
        return None
    try:
        return _text(f"progress_{game}", {k: v for k, v in progress.items() if k != "over"})
    except (KeyError, ValueError, TypeError, IndexError):
        return None


def card_count(n: int) -> str:
    """«1 card», «5 cards» in the current language."""
    return t("one_card") if n == 1 else t("n_cards", n=n)


def _text(key: str, params: Mapping[str, object]) -> str:
    """The current language's text, else English's. A translation that cannot be filled with
    ``params`` (a wrong placeholder) falls back to English; English's own failure is raised."""
    for lang in dict.fromkeys((_language, FALLBACK)):
        text = _catalogs[lang].get(key)
        if not text:
            continue
        if not params:
            return text
        try:
            return text.format(**params)
        except (KeyError, ValueError, TypeError, IndexError):
            if lang == FALLBACK:
                raise
    return key


def t(key: str, /, **params: object) -> str:
    return _text(key, params)


# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).

load_catalogue_files()
