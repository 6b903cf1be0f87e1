"""Guiñote's card sets as ints, for the engine's and the bots' hot paths."""

from __future__ import annotations

import operator
from collections.abc import Iterable

from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.moves import _CANTES, _DECK

_SECOND = operator.itemgetter(1)
_COUPLES = tuple((suit, SpanishCard(rules.REY, suit), SpanishCard(rules.SOTA, suit)) for suit in "OCEB")

# A bit per card, for card sets as ints: bit 10 * (the suit's place in "OCEB") + strength - 1, so that
# each suit's cards are ten bits in order of strength (the strongest highest).
SUIT_SHIFT = {suit: 10 * i for i, suit in enumerate("OCEB")}
CARD_BITS = {card: 1 << (SUIT_SHIFT[card.suit] + rules.STRENGTH_OF[card] - 1) for card in _DECK}
_BIT_OF = CARD_BITS.__getitem__
# Each suit's Rey and Sota are the bits 7 and 6 of its lane of ten (strengths 8 and 7): for the bits of a
# hand, ``bits & bits >> 1 & SOTA_BITS`` has a Sota's bit set where the hand holds that suit's Rey and Sota.
SOTA_BITS = sum(CARD_BITS[sota] for _, _, sota in _COUPLES)
assert all(CARD_BITS[rey] == CARD_BITS[sota] << 1 for _, rey, sota in _COUPLES)
# Per suit, every SOTA_BITS bit but its Sota's; per set of those bits (the couples a hand holds), the
# cantes of their suits in the order of "OCEB".
_ALL_BUT_SOTA = {suit: SOTA_BITS & ~CARD_BITS[sota] for suit, _, sota in _COUPLES}
_CANTES_OF_COUPLES = {
    sum(CARD_BITS[sota] for suit, _, sota in _COUPLES if suit in suits): [_CANTES[suit] for suit in suits]
    for suits in ("".join(s for i, s in enumerate("OCEB") if n >> i & 1) for n in range(16))}


def plays_bits(plays: Iterable[tuple[int, SpanishCard]]) -> int:
    """The cards of ``plays`` (``(seat, card)`` pairs) as a set of CARD_BITS (distinct cards: the sum is
    the union)."""
    return sum(map(_BIT_OF, map(_SECOND, plays)))

