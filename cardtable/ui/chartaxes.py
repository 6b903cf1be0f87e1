"""The charts' axes: whole numbers at round steps (1, 2 or 5 times a power of ten), written with the UI's
minus sign. plotext's own y ticks divide the range evenly («300.0, 143.3, −170.0», «3.00, 2.50») and write
an ASCII «-»."""

from __future__ import annotations

import math
from collections.abc import Iterable

from cardtable.ui.numbers import minus


def hand_ticks(count: int, most: int = 8) -> list[int]:
    """Whole hand numbers for a chart's x axis: all of them when few, else about ``most`` spread out."""
    if count <= most:
        return list(range(1, count + 1))
    step = -(-count // most)
    ticks = list(range(1, count + 1, step))
    return ticks if ticks[-1] == count else [*ticks, count]


def round_step(span: float, most: int) -> int:
    """The smallest whole step of 1, 2 or 5 times a power of ten that covers ``span`` in ``most`` - 1 steps."""
    raw = max(span / max(most - 1, 1), 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw - 1e-9:
            return int(factor * power)
    return int(10 * power)          # (not reached)


def value_ticks(values: Iterable[float], most: int = 5) -> list[int]:
    """Whole numbers at a round step from at or below the lowest value to at or above the highest, at
    most ``most`` of them (one more when the range straddles the step awkwardly)."""
    values = list(values)
    if not values:
        return [0]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    step = round_step(high - low, most)
    start = math.floor(low / step) * step
    ticks = [start]
    while ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def tick_labels(ticks: Iterable[int], style: str) -> list[str]:
    """The ticks as the UI writes numbers: «−100» (the ASCII card style: «-100»)."""
    return [minus(str(tick), style) for tick in ticks]


def set_axes(plt, count: int, values: Iterable[float], ascii_only: bool) -> None:
    """The x axis at whole hand numbers, the y axis at whole round values, on a plotext figure."""
    xs = hand_ticks(count)
    plt.xticks(xs, [str(x) for x in xs])
    ys = value_ticks(values)
    plt.yticks(ys, tick_labels(ys, "ascii" if ascii_only else "unicode"))
