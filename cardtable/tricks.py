"""Seats, partners and the trick-taking helpers the games share.

Seats are 0..3 in order of play: seat ``(s + 1) % 4`` plays after seat ``s``. Partners sit opposite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

SEATS = (0, 1, 2, 3)

C = TypeVar("C", bound=tuple[int, str])     # a card: (rank, suit), as Card and SpanishCard are


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


def following(hand: Sequence[C], lead_suit: str | None) -> list[C]:
    """The cards of ``hand`` that may be played when following suit is compulsory: those of
    ``lead_suit`` if any (a card's suit is ``card[1]``: cardtable's cards are ``(rank, suit)``), else
    the whole hand (also when leading, ``lead_suit`` None)."""
    if lead_suit is None:
        return list(hand)
    same = [card for card in hand if card[1] == lead_suit]
    return same or list(hand)


def trick_winner(plays: Sequence[tuple[int, C]], strength: Mapping[C, int], trump: str | None = None) -> int:
    """The seat that wins a trick of ``(seat, card)`` plays, the first being the lead: the highest trump
    if any trump was played, otherwise the highest card of the led suit (``strength``: each card's
    order within its suit)."""
    return plays[winning_index(plays, strength, trump)][0]


def winning_index(plays: Sequence[tuple[int, C]], strength: Mapping[C, int], trump: str | None = None) -> int:
    """Index in ``plays`` of the card currently winning (works on an incomplete trick too). The one
    trick winner of the games: a card of another suit than the winning one's wins only as the first
    trump."""
    count = len(plays)
    if count == 1:
        return 0
    if not count:
        raise ValueError("an empty trick has no winner")
    best = 0
    top = plays[0][1]
    for i in range(1, count):
        card = plays[i][1]
        if card[1] == top[1]:
            if strength[card] > strength[top]:
                best, top = i, card
        elif card[1] == trump:
            best, top = i, card
    return best
