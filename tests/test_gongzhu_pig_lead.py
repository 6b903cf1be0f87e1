"""Gong Zhu hard never leads the Pig into a trick it wins back itself (issue 31, item 14: West held ♠7 ♠9
♠Q, led the ♠Q at trick 1 and ate its own Pig, −100): such a lead must beat the rule's choice by
``PIG_LEAD_CONFIDENCE`` standard errors over the sampled worlds."""

import pytest

from cardtable.cards import Card, parse_card
from cardtable.games.gongzhu import search as gz_search
from cardtable.games.gongzhu.rules import PIG
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions

ALL = [Card(rank, suit) for suit in "SHDC" for rank in range(2, 15)]


def C(text):
    return [parse_card(code) for code in text.split()]


def first_lead(hand, seat=3, seed=4):
    """Trick 1 of the second hand, ``seat`` (West) to lead with ``hand``; the other cards dealt in order
    to the other seats (no void is known to anyone)."""
    match = GongZhuMatch(GongZhuOptions(showing=False), seed)
    match.hand = 2
    match.must_lead_2c = False
    mine = C(hand)
    rest = [c for c in ALL if c not in mine]
    others = [s for s in range(4) if s != seat]
    match.hands = [sorted(mine) if s == seat else sorted(rest[13 * others.index(s):13 * others.index(s) + 13])
                   for s in range(4)]
    match.leader = seat
    match._public = None
    match._next = match._seat_to_move()
    return match.view(seat)


@pytest.mark.parametrize("hand", ["2C 2D 3H 4C 6D 6H 7S 9D 9S 10D QS KC AC",
                                  "2H 5C 5D 5H 7D 7S 8C 8H 9S 10C QD QS AC"])
def test_hard_does_not_lead_the_pig_holding_seven_nine_queen(hand):
    view = first_lead(hand)
    assert view.to_move == view.seat and not view.trick
    assert [c.code for c in view.hand if c.suit == "S"] == ["7S", "9S", "QS"]
    move = gz_search.HardBot().choose(view)
    assert move.card != PIG
