"""Seats, partners and the trick-taking helpers the games share.

Seats are 0..3 in order of play: seat ``(s + 1) % 4`` plays after seat ``s``. Partners sit opposite.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

SEATS = (0, 1, 2, 3)

C = TypeVar("C")


def next_seat(seat: int, step: int = 1) -> int:
    return (seat + step) % 4


def partner(seat: int) -> int:
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    """Team (or pair) 0 is seats 0 and 2; team 1 is seats 1 and 3."""
    return seat % 2


def team_seats(team: int) -> tuple[int, int]:
    return (team, team + 2)


def seats_from(first: int) -> list[int]:
    """The four seats in play order starting with ``first``."""
    return [(first + i) % 4 for i in range(4)]


def following(hand: Sequence[C], lead_suit: Hashable | None, suit_of: Callable[[C], Hashable]) -> list[C]:
    """The cards of ``hand`` that may be played when following suit is compulsory."""
    if lead_suit is None:
        return list(hand)
    same = [card for card in hand if suit_of(card) == lead_suit]
    return same if same else list(hand)


def trick_winner(plays: Sequence[tuple[int, C]], suit_of: Callable[[C], Hashable],
                 strength: Callable[[C], int], trump: Hashable | None = None) -> int:
    """The seat that wins a trick of ``(seat, card)`` plays, the first being the lead.

    The highest trump wins if any trump was played, otherwise the highest card of the led suit.
    """
    return plays[winning_index(plays, suit_of, strength, trump)][0]


def winning_index(plays: Sequence[tuple[int, C]], suit_of: Callable[[C], Hashable],
                  strength: Callable[[C], int], trump: Hashable | None = None) -> int:
    """Index in ``plays`` of the card currently winning (works on an incomplete trick too)."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    best = 0
    for i in range(1, len(plays)):
        card, top = plays[i][1], plays[best][1]
        card_suit, top_suit = suit_of(card), suit_of(top)
        if card_suit == top_suit:
            if strength(card) > strength(top):
                best = i
        elif trump is not None and card_suit == trump:
            best = i
        # A card of another suit (neither the top's suit nor trump) never wins.
    return best
