"""Guandan combinations: the classifier against the rules page's scenarios, and the move generator
against a brute-force enumeration of every sub-multiset of small hands."""

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import guandan_deck, parse_card
from cardtable.games.guandan.rules import Combo, Option, beats, classify, describe, generate, value


def C(text):
    return [parse_card(c) for c in text.split()]


def readings(text, level, sf_as_straight=True):
    return {(c.type, c.key_name()) for c in classify(C(text), level, sf_as_straight)}


def one(text, level):
    combos = classify(C(text), level)
    assert len(combos) == 1, combos
    return combos[0]


# -- Scenario 1: the level order
def test_level_order_of_singles():
    assert beats(one("7S", 7), one("AS", 7), 7)
    assert beats(one("SJ", 7), one("7S", 7), 7)
    assert beats(one("BJ", 7), one("SJ", 7), 7)
    assert not beats(one("7H", 7), one("7C", 7), 7)           # a lone wild ties a level card
    assert not beats(one("7C", 7), one("7H", 7), 7)
    assert [value(r, 7) for r in (2, 6, 8, 14, 7)] == [2, 6, 8, 14, 15]


# -- Scenario 2: jokers
def test_joker_pairs_and_bomb():
    assert readings("SJ BJ", 2) == set()
    assert readings("SJ 2H", 2) == set()
    assert readings("SJ SJ", 2) == {("pair", "SJ")}
    assert readings("BJ BJ", 2) == {("pair", "BJ")}
    assert readings("SJ SJ BJ BJ", 2) == {("joker_bomb", None)}


# -- Scenario 3: straights
def test_straights_are_exactly_five_natural_positions():
    assert readings("3S 4D 5C 6H 7S", 5) == {("straight", "7")}
    assert readings("JS QD KC AH 2S", 5) == set()             # no wrap-around
    assert readings("2S 3D 4C 5H 6S", 5) == {("straight", "6")}
    assert readings("2S 3D 4C 5H 6S 7C", 5) == set()           # six cards is no straight
    assert readings("AS 2D 3C 4H 5S", 9) == {("straight", "5")}
    assert readings("10S JD QC KH AS", 9) == {("straight", "A")}


# -- Scenario 4
def test_wild_makes_straight_or_straight_flush():
    assert readings("5S 6S 8S 9S 2H", 2) == {("straight", "9"), ("straight_flush", "9")}
    assert readings("5S 6S 8S 9S 2H", 2, sf_as_straight=False) == {("straight_flush", "9")}
    five_bomb = one("3S 3D 3C 3H 3S", 2)
    sf = next(c for c in classify(C("5S 6S 8S 9S 2H"), 2) if c.type == "straight_flush")
    straight = next(c for c in classify(C("5S 6S 8S 9S 2H"), 2) if c.type == "straight")
    assert beats(sf, five_bomb, 2) and not beats(straight, five_bomb, 2)
    assert [str(c) for c in sf.wilds_as] == ["7S"]


# -- Scenario 5
def test_tubes_and_plate_all_offered():
    assert readings("4S 4D 5S 5D 2H 2H", 2) == {("tube", "6"), ("tube", "5"), ("plate", "5")}


# -- Scenario 6 and the fine points
def test_bomb_or_full_house_with_two_wilds():
    assert readings("9S 9C 9D 2H 2H", 2) == {("bomb", "9"), ("full_house", "9")}
    assert readings("7S 7D 7C 7H 7H", 7) == {("bomb", "7"), ("full_house", "7")}
    assert readings("3S 3D 2H SJ SJ", 2) == {("full_house", "3")}
    assert readings("3S 3D 3C SJ 2H", 2) == set()
    assert readings("AS AD 2C 2D 3S 3D", 9) == {("tube", "3")}
    assert readings("AS AD AC 2C 2D 2S", 9) == {("plate", "2")}
    assert readings("QS QD KC KD AS AD", 9) == {("tube", "A")}
    assert readings("KS KD KC AS AD AC", 9) == {("plate", "A")}


# -- Scenario 7: the bomb ladder
def test_bomb_ladder():
    five_twos = one("2S 2D 2C 2S 2D", 9)
    four_aces = one("AS AD AC AS", 9)
    assert beats(five_twos, four_aces, 9)
    sf_top = next(c for c in classify(C("10S JS QS KS AS"), 9) if c.type == "straight_flush")
    six_threes = one("3S 3D 3C 3S 3D 3C", 9)
    assert beats(six_threes, sf_top, 9) and not beats(sf_top, six_threes, 9)
    sf_spades = next(c for c in classify(C("5S 6S 7S 8S 9S"), 2) if c.type == "straight_flush")
    sf_hearts = next(c for c in classify(C("5H 6H 7H 8H 9H"), 2) if c.type == "straight_flush")
    assert not beats(sf_spades, sf_hearts, 2) and not beats(sf_hearts, sf_spades, 2)
    joker = one("SJ SJ BJ BJ", 2)
    ten_bomb = Combo("bomb", 14, 10)
    assert beats(joker, ten_bomb, 2) and not beats(ten_bomb, joker, 2)
    assert beats(one("4S 4D 4C 4H", 9), one("AS", 9), 9)            # any bomb beats any non-bomb


def test_non_bombs_need_same_type_and_size():
    pair = one("9S 9D", 2)
    assert not beats(one("KS", 2), pair, 2)
    assert beats(one("KS KD", 2), pair, 2)
    assert not beats(one("9C 9H", 2), pair, 2)
    assert not beats(one("9S 9D", 2), one("9C 9H", 2), 2)             # equal never beats equal


def test_describe():
    assert describe(one("9S 9D", 2)) == "Pair of 9s"
    assert describe(next(iter(classify(C("5S 6D 7C 8S 9S"), 2)))) == "Straight 5-9"
    assert describe(one("7S 7D 7C 7S", 2)) == "Bomb of four 7s"


# -- the generator against brute force
def forms_of(options: list[Option]) -> set[tuple]:
    return {o.combo.form for o in options}


def brute_forms(hand, level, top=None):
    forms = set()
    for size in range(1, len(hand) + 1):
        for subset in set(itertools.combinations(sorted(hand), size)):
            for combo in classify(list(subset), level):
                if beats(combo, top, level):
                    forms.add(combo.form)
    return forms


HANDS = [
    ("4S 4D 5S 5D 2H 2H 6C", 2),
    ("9S 9C 9D 2H 2H SJ SJ", 2),
    ("AS 2D 3C 4H 5S 5D 7H", 7),
    ("10S JS QS KS AS 9H 9H", 9),
    ("SJ SJ BJ BJ 3S 3D 3C", 5),
    ("7S 7D 7C 7H 7H 8S 8D", 7),
    ("KS KD KC AS AD AC 2H", 2),
    ("3S 4S 5S 6S 2S 2H AS", 2),
]


@pytest.mark.parametrize("text,level", HANDS)
def test_generator_matches_brute_force_on_chosen_hands(text, level):
    hand = C(text)
    options = generate(hand, level)
    assert forms_of(options) == brute_forms(hand, level)
    for option in options:                      # every realisation really reads as its form
        assert Counter(option.cards) <= Counter(hand)
        assert option.combo.form in {c.form for c in classify(list(option.cards), level)}


small_hands = st.tuples(st.lists(st.sampled_from(guandan_deck()), min_size=1, max_size=8),
                        st.integers(2, 14))


@given(small_hands)
def test_generator_matches_brute_force_on_random_hands(args):
    hand, level = args
    counts = Counter(hand)
    if any(n > 2 for n in counts.values()):
        return                                  # two decks: at most two copies of a card
    options = generate(hand, level)
    assert forms_of(options) == brute_forms(hand, level)
    for option in options:
        assert Counter(option.cards) <= counts
        assert option.combo.form in {c.form for c in classify(list(option.cards), level)}


@given(small_hands, st.data())
def test_generator_answers_match_brute_force(args, data):
    hand, level = args
    if any(n > 2 for n in Counter(hand).values()):
        return
    tops = [o.combo for o in generate(C("3S 3D 5C 6D 7S 8S 9S 9D 9C KS KD KC AS BJ"), level)]
    top = data.draw(st.sampled_from(tops))
    assert forms_of(generate(hand, level, top)) == brute_forms(hand, level, top)


@given(small_hands, st.data())
def test_usable_cards_are_exactly_those_in_some_beating_play(args, data):
    from cardtable.games.guandan.rules import usable_cards

    hand, level = args
    if any(n > 2 for n in Counter(hand).values()):
        return
    tops = [o.combo for o in generate(C("3S 3D 5C 6D 7S 8S 9S 9D 9C KS KD KC AS BJ"), level)]
    top = data.draw(st.sampled_from(tops))
    expected = set()
    for size in range(1, len(hand) + 1):
        for subset in set(itertools.combinations(sorted(hand), size)):
            if any(beats(c, top, level) for c in classify(list(subset), level)):
                expected.update(subset)
    assert usable_cards(hand, level, top) == expected
