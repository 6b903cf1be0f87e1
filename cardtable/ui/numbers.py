"""Signed numbers as the UI writes them: one minus sign everywhere, the typographic «−» (U+2212).

The hints' reasons and the rules' labels already wrote «−140»; the seat plates, the results and the
reviews wrote an ASCII «-140». The ASCII card style changes the cards only (as the rest of the text keeps
its «·», «»» and «±»); a terminal that cannot show «−» gets «-» from the output layer, as it gets «.» for
«·» (cardtable.output). See docs/decisions.md."""

from __future__ import annotations

from cardtable.ui import cells

MINUS = "\u2212"


def minus(text: str) -> str:
    """``text`` with its ASCII hyphen-minus signs written as «−» (for numbers formatted elsewhere)."""
    return text.replace("-", MINUS)


def signed(value: float, width: int = 0, zero: str | None = None) -> str:
    """«+140», «−140», «+0» (or ``zero`` for 0), right-aligned in ``width`` cells."""
    text = zero if zero is not None and value == 0 else minus(f"{value:+d}")
    return cells.rjust(text, width)
