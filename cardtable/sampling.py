"""Sampling the hidden cards of a PlayerView: the worlds a search-based CPU plays out.

A world gives every other place (seats, and for Guiñote the stock) a set of cards consistent with
everything the viewer knows: the counts, the cards known to be somewhere (shown cards, the pinta's
taker, tribute cards, cantes) and the suits a seat is known to lack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from cardtable.rng import Rng


class SamplingError(RuntimeError):
    """No world fits the constraints (a bug in the deductions, or a hand-made view)."""


def deal_hidden(pool: Iterable[Any], sizes: Mapping[Any, int], fixed: Mapping[Any, Iterable[Any]],
                allowed: Callable[[Any, Any], bool], rng: Rng, tries: int = 500) -> dict[Any, list[Any]]:
    """Deal ``pool`` (a multiset) to the places in ``sizes``: each place first gets its ``fixed`` cards,
    then random cards it is ``allowed`` to hold. Uses the project's PRNG, so a seed repeats exactly."""
    pool_counts = Counter(pool)
    need = dict(sizes)
    base: dict[Any, list[Any]] = {place: [] for place in sizes}
    for place, cards in fixed.items():
        for card in cards:
            if pool_counts[card] <= 0 or need[place] <= 0:
                raise SamplingError(f"cannot place the known card {card} with {place}")
            pool_counts[card] -= 1
            need[place] -= 1
            base[place].append(card)
    rest = list(pool_counts.elements())
    if len(rest) != sum(need.values()):
        raise SamplingError(f"{len(rest)} hidden cards for {sum(need.values())} places")
    places = list(sizes)
    for _ in range(tries):
        rng.shuffle(rest)
        # The most constrained cards first: those that fewer places may hold.
        order = sorted(rest, key=lambda c: sum(1 for p in places if allowed(p, c)))
        left = dict(need)
        hands = {place: list(cards) for place, cards in base.items()}
        for card in order:
            options = [p for p in places if left[p] > 0 and allowed(p, card)]
            if not options:
                break
            place = options[rng.below(len(options))]
            hands[place].append(card)
            left[place] -= 1
        else:
            return hands
    raise SamplingError("no deal of the hidden cards fits every deduction")
