"""Cards, decks and the hand-history card notation.

French cards (Guandan, Gong Zhu) are written rank then suit: ``10H``, ``QS``, ``2C``; jokers ``SJ`` and
``BJ``. Spanish cards (Guiñote) are ``1O``, ``12E``, ``10C`` (10 Sota, 11 Caballo, 12 Rey). Cards are
small immutable tuples; every card value exists once per deck kind, so they are cheap to hash and copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from cardtable.rng import Rng


class CardError(ValueError):
    """A card code that is not in the notation."""


# ---------------------------------------------------------------- French cards
FRENCH_SUITS = ("S", "H", "D", "C")
FRENCH_RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
                     11: "J", 12: "Q", 13: "K", 14: "A"}
SMALL_JOKER_RANK = 15
BIG_JOKER_RANK = 16
JOKER_SUIT = "*"


class Card(NamedTuple):
    """A French card. ``rank`` is 2..14 (A = 14); jokers have rank 15 (SJ) or 16 (BJ) and suit ``*``."""

    rank: int
    suit: str

    @property
    def code(self) -> str:
        code = _FRENCH_CODES.get(self)
        if code is not None:
            return code
        if self.rank == SMALL_JOKER_RANK:
            return "SJ"
        if self.rank == BIG_JOKER_RANK:
            return "BJ"
        return FRENCH_RANK_NAMES[self.rank] + self.suit

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


_FRENCH_CODES: dict[tuple, str] = {}
SMALL_JOKER = Card(SMALL_JOKER_RANK, JOKER_SUIT)
BIG_JOKER = Card(BIG_JOKER_RANK, JOKER_SUIT)

_FRENCH_BY_CODE: dict[str, Card] = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}
for _rank, _name in FRENCH_RANK_NAMES.items():
    for _suit in FRENCH_SUITS:
        _FRENCH_BY_CODE[_name + _suit] = Card(_rank, _suit)
FRENCH_RANK_BY_NAME = {name: rank for rank, name in FRENCH_RANK_NAMES.items()}
_FRENCH_CODES.update({card: code for code, card in _FRENCH_BY_CODE.items()})   # histories write many codes
_FRENCH_DECK = tuple(Card(rank, suit) for suit in FRENCH_SUITS for rank in range(2, 15))


def parse_card(code: str) -> Card:
    """Parse a French card code such as ``10H``, ``QS`` or ``BJ``."""
    card = _FRENCH_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise CardError(
            f"bad card code {code!r}: expected a rank (2-10, J, Q, K, A) then a suit (S, H, D, C), "
            "or SJ / BJ for the jokers")
    return card


def parse_cards(codes: Iterable[str]) -> list[Card]:
    return [parse_card(code) for code in codes]


def french_deck() -> list[Card]:
    """The 52-card deck, in a fixed order (suit by suit, 2 up to A)."""
    return list(_FRENCH_DECK)


def guandan_deck() -> list[Card]:
    """Two French decks plus two small and two big jokers: 108 cards."""
    return french_deck() * 2 + [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]


# ---------------------------------------------------------------- Spanish cards
SPANISH_SUITS = ("O", "C", "E", "B")
SPANISH_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)


class SpanishCard(NamedTuple):
    """A card of the 40-card Spanish deck: rank 1-7, 10 (Sota), 11 (Caballo), 12 (Rey)."""

    rank: int
    suit: str

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"SpanishCard({self.code})"


_SPANISH_BY_CODE = {f"{rank}{suit}": SpanishCard(rank, suit)
                    for suit in SPANISH_SUITS for rank in SPANISH_RANKS}


def parse_spanish_card(code: str) -> SpanishCard:
    """Parse a Spanish card code such as ``1O``, ``12E`` or ``10C``."""
    card = _SPANISH_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise CardError(
            f"bad Spanish card code {code!r}: expected a rank (1-7, 10, 11, 12) then a suit "
            "(O oros, C copas, E espadas, B bastos)")
    return card


def spanish_deck() -> list[SpanishCard]:
    """The 40-card Spanish deck, in a fixed order."""
    return [SpanishCard(rank, suit) for suit in SPANISH_SUITS for rank in SPANISH_RANKS]


# ---------------------------------------------------------------- dealing
def shuffled(cards: Iterable, rng: Rng) -> list:
    """A shuffled copy of ``cards`` (the project's own Fisher–Yates)."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def codes(cards: Iterable) -> list[str]:
    return [card.code for card in cards]
