"""Padding by terminal cells, not by characters: a CJK character is two cells wide, so ``str.ljust`` and
``f"{x:<8}"`` misalign columns as soon as a label is in Chinese."""

from __future__ import annotations

from rich.cells import cell_len


def ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def center(text: str, width: int) -> str:
    """As ``str.center`` (which puts an odd space left when the width is odd), counting cells."""
    spare = max(0, width - cell_len(text))
    left = spare // 2 + (spare & width & 1)
    return " " * left + text + " " * (spare - left)
