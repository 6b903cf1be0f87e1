"""The Guandan move generator on hands holding exactly 0, 1 and 2 wilds (random hands drawn from the deck
hardly ever hold both level hearts): its forms against a brute force over every sub-multiset read by the
classifier, leading and answering, and its realisations read as their form, spending the fewest wilds."""

import itertools
from collections import Counter

import pytest

from cardtable.cards import Card, guandan_deck
from cardtable.games.guandan.rules import Form, beats, classify, is_wild, play_forms
from cardtable.rng import Rng


def _hand(rng: Rng, level: int, wilds: int, size: int) -> list[Card]:
    """``size`` cards of the two decks holding exactly ``wilds`` wilds."""
    wild = Card(level, "H")
    rest = [c for c in guandan_deck() if c != wild]
    rng.shuffle(rest)
    return [wild] * wilds + rest[:size - wilds]


def _brute(hand: list[Card], level: int, top, sf_as_straight: bool) -> dict[tuple, int]:
    """Every form some sub-multiset of ``hand`` reads as (beating ``top``), with the fewest wilds it needs."""
    fewest: dict[tuple, int] = {}
    for size in range(1, len(hand) + 1):
        for subset in set(itertools.combinations(sorted(hand), size)):
            wilds = sum(1 for c in subset if is_wild(c, level))
            for combo in classify(list(subset), level, sf_as_straight):
                if beats(combo, top, level):
                    fewest[combo.form] = min(wilds, fewest.get(combo.form, wilds))
    return fewest


def _tops(rng: Rng, level: int) -> list:
    """None (a lead) and a few forms of another hand to answer."""
    forms = [Form(*form[:3]) for form in play_forms(_hand(rng, level, rng.below(3), 14), level)]
    return [None] + [forms[rng.below(len(forms))] for _ in range(3)]


@pytest.mark.parametrize("wilds", [0, 1, 2])
@pytest.mark.parametrize("sf_as_straight", [True, False])
def test_small_hands_forms_and_fewest_wilds_match_brute_force(wilds, sf_as_straight):
    rng = Rng(900 + wilds + 10 * sf_as_straight)
    for _ in range(30):
        level = 2 + rng.below(13)
        hand = _hand(rng, level, wilds, 5 + rng.below(5))
        for top in _tops(rng, level):
            expected = _brute(hand, level, top, sf_as_straight)
            forms = play_forms(hand, level, top, sf_as_straight)
            assert len({f[:3] for f in forms}) == len(forms)            # each form once
            assert {f[:3] for f in forms} == set(expected), (hand, level, top)
            for kind, key, size, build, a, b in forms:
                cards = build(a, b)
                assert sum(1 for c in cards if is_wild(c, level)) == expected[kind, key, size], (hand, kind, key)


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_full_hands_realisations_read_as_their_form(wilds):
    rng = Rng(950 + wilds)
    for _ in range(40):
        level = 2 + rng.below(13)
        hand = _hand(rng, level, wilds, 27)
        for top in _tops(rng, level):
            for sf_as_straight in (True, False):
                for kind, key, size, build, a, b in play_forms(hand, level, top, sf_as_straight):
                    cards = build(a, b)
                    assert len(cards) == size and not Counter(cards) - Counter(hand)
                    readings = classify(cards, level, sf_as_straight)
                    assert (kind, key, size) in {c.form for c in readings}, (cards, kind, key)
                    assert beats(Form(kind, key, size), top, level)
