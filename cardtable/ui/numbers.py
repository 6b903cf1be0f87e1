"""Signed numbers as the UI writes them: one minus sign everywhere, the typographic «−» (U+2212), and
the ASCII «-» in the ASCII card style.

The hints' reasons and the rules' labels already wrote «−140»; the seat plates, the results and the
reviews wrote an ASCII «-140». «−» is of ambiguous East Asian width, which is what the ASCII card style is
for (terminals that mis-measure symbols: the review's arrows and marks turn ASCII there too), so that
style writes «-». See docs/decisions.md."""

from __future__ import annotations

from cardtable.ui import cells

MINUS = "\u2212"


def in_style(text: str, style: str) -> str:
    """``text`` with its minus signs as ``style`` writes them: «−», or «-» in the ASCII card style."""
    return text.replace(MINUS, "-") if style == "ascii" else text


def signed(value: int, style: str, width: int = 0, zero: str | None = None) -> str:
    """«+140», «−140» (ASCII style: «-140»), «+0» or ``zero`` for 0, right-aligned in ``width`` cells."""
    text = zero if zero is not None and value == 0 else f"{value:+d}"
    if style != "ascii":
        text = text.replace("-", MINUS)
    return cells.rjust(text, width)


def minus(text: str, style: str) -> str:
    """A number formatted elsewhere («-150»), with the minus sign of ``style``."""
    return text if style == "ascii" else text.replace("-", MINUS)
