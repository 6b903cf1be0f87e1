"""The lit columns: `usable_cards` is exactly the set of cards that belong to some legal play beating the
table, checked against a brute force over every sub-multiset of hands rich in wilds, same-suit runs
(straights and straight flushes with wilds in them) and pairs."""

import itertools
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import Card, guandan_deck, parse_card
from cardtable.games.guandan.rules import beats, classify, generate, usable_cards


def C(text):
    return [parse_card(c) for c in text.split()]


def brute_usable(hand, level, top, sf_as_straight=True):
    usable = set()
    for size in range(1, len(hand) + 1):
        for subset in set(itertools.combinations(sorted(hand), size)):
            if set(subset) <= usable:
                continue
            if any(beats(c, top, level) for c in classify(list(subset), level, sf_as_straight)):
                usable.update(subset)
    return usable


# Plays to answer: one of each type, low and high keys, and bombs of every rung below the joker bomb.
TOP_HANDS = ["3S 3D 5C 6D 7S 8S 9S 9D 9C KS KD KC AS BJ", "QS QD QC KS KD KC 4S 4D 5S 5D 6S 6D",
             "8C 8D 8S 8H 8C 6H 7H 9H 10H JH 5S 5D 5C 5H 5S"]


def tops_at(level):
    combos = {o.combo for text in TOP_HANDS for o in generate(C(text), level)}
    return sorted(combos, key=lambda c: (c.type, c.key or 0, c.size))


@st.composite
def wild_hands(draw):
    """A level, zero to two wilds, most of a same-suit run (gaps for the wilds to fill) and a few more
    cards (pairs likely, jokers possible): at most 11 cards, at most two copies of any card."""
    level = draw(st.integers(2, 14))
    wilds = [Card(level, "H")] * draw(st.integers(0, 2))
    suit = draw(st.sampled_from("SHDC"))
    start = draw(st.integers(1, 10))
    run = [14 if p == 1 else p for p in range(start, start + 5)]
    kept = draw(st.lists(st.sampled_from(run), min_size=2, max_size=5, unique=True))
    naturals = [Card(r, suit) for r in kept if not (r == level and suit == "H")]
    if draw(st.booleans()):                   # a second run in another suit over the same ranks
        other = draw(st.sampled_from([s for s in "SHDC" if s != suit]))
        again = draw(st.lists(st.sampled_from(run), min_size=2, max_size=5, unique=True))
        naturals += [Card(r, other) for r in again if not (r == level and other == "H")]
    extra = draw(st.lists(st.sampled_from(guandan_deck()), max_size=4))
    copies = draw(st.lists(st.sampled_from(naturals), max_size=2)) if naturals else []
    hand = (wilds + naturals + extra + copies)[:11]
    counts = Counter(hand)
    hand = [c for c, n in counts.items() for _ in range(min(n, 2))]
    return hand, level


@given(wild_hands(), st.data())
def test_lit_cards_are_exactly_those_of_some_beating_play_with_wilds(args, data):
    hand, level = args
    top = data.draw(st.sampled_from(tops_at(level)))
    sf_as_straight = data.draw(st.booleans())
    assert usable_cards(hand, level, top, sf_as_straight) == brute_usable(hand, level, top, sf_as_straight)


def test_issue_8_jack_of_hearts_in_a_wild_straight_flush_is_lit():
    # Level 3, partner's plate Q-K on the table; 7♥ 8♥ J♥ + the two wild 3♥ make a straight flush 7-J.
    # A spade run that needs fewer wilds gives the generator's straight flush of the same form.
    level = 3
    top = next(c for c in classify(C("QS QD QC KS KD KC"), level) if c.type == "plate")
    hand = C("7H 8H JH 3H 3H 7S 8S 9S JS 5D 6C")
    assert Card(11, "H") in usable_cards(hand, level, top)
    assert usable_cards(hand, level, top) == brute_usable(hand, level, top)


def test_a_straight_flush_in_a_second_suit_is_lit():
    # The generator realises one straight flush per form (♠ here, no wild needed); the ♥ run with the
    # wild as its 9 is a straight flush of the same form, and its cards must be lit too.
    level = 2
    top = classify(C("4S 4D 4C 4H"), level)[0]
    hand = C("5S 6S 7S 8S 9S 5H 6H 7H 8H 2H")
    assert usable_cards(hand, level, top) == brute_usable(hand, level, top) == set(hand)
