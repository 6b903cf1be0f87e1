"""Text that came from a file is data, never commands: one place that makes it safe to show.

A save file can hold anything in its text fields (summary, saved_at, progress, game name, option keys)
and a slot's file name can hold anything a file name can. Before such text reaches a terminal or a
widget it goes through here: control and format characters (ESC, BEL, CR, bidi overrides, …) are dropped,
line breaks and tabs become spaces, the length is capped with «…».

Then it is shown as data, never parsed: as a Rich ``Text`` (:func:`text`: tables, consoles, DataTable
cells, labels) or as a plain string where markup is off (``notify(..., markup=False)``). :func:`markup` is only for a string that is parsed on its own as Textual content markup: every
character comes out as it was. To put file text inside markup of our own, substitute it after parsing
(``Content.from_markup("[b]$name[/b]", name=clean(value))``, Textual's own feature), never by escaping.

Why not Rich's ``escape``: Rich's and Textual's markup parsers do not agree on backslashes (Rich pairs the
backslashes before a tag-like ``[x]`` and eats one before any other ``[``; Textual eats one before every
``[``), Rich's ``escape`` doubles a final backslash (right before a closing tag, wrong anywhere else), Rich
turns ``:smile:`` into an emoji, and in Textual markup no escaping at all can put a backslash right before
a tag. Hence: text objects, values substituted after parsing, and one exact escape for the one parser.
"""

from __future__ import annotations

import unicodedata
from typing import Any

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
    """:func:`clean`, escaped for Textual's content markup, to be parsed *on its own* (a ``Static``, a
    ``Label``): it shows every character of the cleaned text and no style.

    Textual's parser reads ``\\[`` as a literal ``[`` and never starts a tag at a ``[`` that follows a
    backslash; so one backslash before every ``[`` is exact, whatever backslashes precede it (``\\[``
    → ``\\\\[`` → ``\\[``). Backslashes elsewhere, ``]``, ``$`` and ``:`` have no meaning there.
    Do not append a tag after the result: a trailing backslash would disable it (see the module doc).
    """
    return clean(value, limit).replace("[", "\\[")


def text(value: Any, limit: int = LINE, style: str = "") -> Text:
    """:func:`clean` as a Rich ``Text`` (never parsed as markup)."""
    return Text(clean(value, limit), style=style)

