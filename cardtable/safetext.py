"""Text that came from a file is data, never commands: one place that makes it safe to show.

A save file can hold anything in its text fields (summary, saved_at, progress, game name, option keys)
and a slot's file name can hold anything a file name can. Before such text reaches a terminal or a
widget it goes through here: control and format characters (ESC, BEL, CR, bidi overrides, …) are dropped,
line breaks and tabs become spaces, the length is capped with «…», and for places that read Rich/Textual
markup the brackets are escaped.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from rich.markup import escape as _escape_markup
from rich.text import Text

SHORT = 64       # a slot name, a game name, a date
LINE = 200       # a summary, a reason

# Unicode categories that never belong in a line of text shown to the player: controls (C0, C1, DEL),
# format characters (bidi overrides and isolates, zero-width marks), surrogates, private use,
# unassigned code points, and the line/paragraph separators.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SPACES = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029")
ELLIPSIS = "…"


def clean(value: Any, limit: int = LINE) -> str:
    """``value`` as one line of plain text: no control or format characters, at most ``limit`` chars.

    Non-strings are turned into text with ``str`` first (a hostile file may put a number or a list
    where text was expected). The cut keeps ``limit - 1`` characters and adds «…».
    """
    text = value if isinstance(value, str) else str(value)
    # Do not even look at more than a bounded prefix: a 3 MB name costs no more than a short one.
    window = text[: limit * 4 + 16]
    out: list[str] = []
    for char in window:
        if char in _SPACES:
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if unicodedata.category(char) in _DROPPED:
            continue
        out.append(char)
    result = "".join(out).strip()
    if len(result) > limit or (len(text) > len(window) and result):
        result = result[: max(limit - 1, 0)].rstrip() + ELLIPSIS
    return result


def markup(value: Any, limit: int = LINE) -> str:
    """:func:`clean`, then escaped for places that read Rich/Textual markup (notify, labels, cells)."""
    return _escape_markup(clean(value, limit))


def text(value: Any, limit: int = LINE, style: str = "") -> Text:
    """:func:`clean` as a Rich ``Text`` (never parsed as markup)."""
    return Text(clean(value, limit), style=style)

