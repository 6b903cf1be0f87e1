"""Guandan (掼蛋) card order: rank names, values at a level (the level rank and the jokers high, the
level's heart wild) and hand sorting.

Source: docs/rules/guandan.md (from the Spanish source document).
"""

from __future__ import annotations

from collections import Counter

from cardtable.cards import (
    BIG_JOKER_RANK,
    FRENCH_RANK_NAMES,
    SMALL_JOKER_RANK,
    Card,
    guandan_deck,
)

ACE = 14
RANKS = tuple(range(2, 15))
_DECK_COUNTS = Counter(guandan_deck())
TYPES = ("single", "pair", "triple", "full_house", "straight", "tube", "plate", "bomb", "straight_flush",
         "joker_bomb")
SEQUENCE_TYPES = frozenset({"straight", "tube", "plate", "straight_flush"})
BOMB_TYPES = frozenset({"bomb", "straight_flush", "joker_bomb"})



def rank_name(rank: int) -> str:
    if rank == SMALL_JOKER_RANK:
        return "SJ"
    if rank == BIG_JOKER_RANK:
        return "BJ"
    return FRENCH_RANK_NAMES[rank]


def rank_from_name(name: str) -> int:
    if name == "SJ":
        return SMALL_JOKER_RANK
    if name == "BJ":
        return BIG_JOKER_RANK
    for rank, text in FRENCH_RANK_NAMES.items():
        if text == name:
            return rank
    raise ValueError(f"not a Guandan rank: {name!r}")


def guandan_deck_counts() -> Counter:
    """The 108-card deck as a multiset (cached: the bots count cards on every decision)."""
    return _DECK_COUNTS


def is_wild(card: Card, level: int) -> bool:
    return card.rank == level and card.suit == "H"


def value(rank: int, level: int) -> int:
    """Order of singles, pairs, triples, full houses and bombs: 2..A, then the level rank, SJ, BJ."""
    if rank == SMALL_JOKER_RANK:
        return 16
    if rank == BIG_JOKER_RANK:
        return 17
    return 15 if rank == level else rank


def card_value(card: Card, level: int) -> int:
    return value(card.rank, level)


def hand_sort_key(card: Card, level: int) -> tuple[int, int]:
    return (card_value(card, level), "SHDC".index(card.suit) if not card.is_joker else 0)


_SORT_KEYS: dict[int, dict[Card, tuple[int, int]]] = {}


def sort_keys(level: int) -> dict[Card, tuple[int, int]]:
    """``hand_sort_key`` of every card at ``level``, as a table (sorting a hand by ``keys.__getitem__``)."""
    keys = _SORT_KEYS.get(level)
    if keys is None:
        keys = _SORT_KEYS[level] = {card: hand_sort_key(card, level) for card in _DECK_COUNTS}
    return keys

