"""Guandan's `normal` player: its hand plan (the fewest groups to go out), its card memory (a card seen
played is no longer out) and its partner play (never over a winning partner unless that takes it out;
feeding a partner short of cards; leading around an opponent about to go out)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import guandan_deck
from cardtable.games.guandan import rules
from cardtable.games.guandan.bots import NormalBot, plan, plan_cost, unseen_by_value
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions, Pass
from tests.guandan_helpers import C, play_of


def rigged(hands, level=2, turn=0):
    """A match in its play phase with the given hands (the rest of the deck is irrelevant here)."""
    match = GuandanMatch(GuandanOptions(), 1)
    match.hands = [C(h) for h in hands]
    match.level = level
    match._sort()
    match.turn = turn
    return match


def groups_of(text, level=2):
    return sorted((kind, sorted(c.code for c in cards)) for kind, cards in plan(C(text), level))


# ---------------------------------------------------------------- the hand plan
def test_the_plan_takes_the_tube_that_leaves_fewer_groups_than_the_straight():
    # 5 66 77 88 9: the straight 5-9 leaves the singles 6 7 8 (four plays); the tube 66-77-88 leaves
    # the singles 5 and 9 (three plays).
    hand = "5S 6H 6D 7S 7C 8D 8H 9S"
    assert plan_cost(tuple(sorted(C(hand))), 2) == 3
    assert ("tube", ["6D", "6H", "7C", "7S", "8D", "8H"]) in groups_of(hand)


def test_a_known_hand_goes_out_in_three_leads():
    # a straight 3-7, the full house QQQ+99 and the single K
    hand = "3S 4H 5D 6C 7S 9S 9H QS QH QD KC"
    assert groups_of(hand) == sorted([("straight", ["3S", "4H", "5D", "6C", "7S"]),
                                      ("full_house", ["9H", "9S", "QD", "QH", "QS"]),
                                      ("single", ["KC"])])
    assert plan_cost(tuple(sorted(C(hand))), 2) == 3


def test_bombs_and_the_joker_bomb_stay_whole():
    hand = "SJ SJ BJ BJ 8S 8H 8D 8C 4S 5S"
    kinds = groups_of(hand)
    assert ("joker_bomb", ["BJ", "BJ", "SJ", "SJ"]) in kinds
    assert ("bomb", ["8C", "8D", "8H", "8S"]) in kinds
    assert plan_cost(tuple(sorted(C(hand))), 2) == 2           # the singles 4 and 5; bombs apart


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 27), level=st.integers(2, 14))
def test_the_plan_splits_any_hand_into_plays(seed, size, level):
    from cardtable.rng import Rng

    deck = list(guandan_deck())
    Rng(seed).shuffle(deck)
    hand = deck[:size]
    groups = plan(hand, level)
    assert Counter(c for _, cards in groups for c in cards) == Counter(hand)
    for _, cards in groups:
        assert rules.classify(cards, level), cards


def plain_sequences(counts, level):
    """The plan's sequence search as first written (all() over each window, rules.value per rank), to
    hold the faster one to it."""
    from cardtable.games.guandan.bots import _WINDOWS

    def leftover(counts):
        singles = pairs = triples = low = spare = 0
        for rank in rules.RANKS:
            n = counts[rank]
            if n == 1:
                singles += 1
                low += rules.value(rank, level) <= 10
            elif n == 2:
                pairs += 1
                spare += rules.value(rank, level) < 14
            elif n >= 3:
                triples += 1
        return singles + pairs + triples - min(triples, spare), low

    def best(first):
        result = (leftover(counts), ())
        for index in range(first, len(_WINDOWS)):
            _, width, ranks = _WINDOWS[index]
            if all(counts[r] >= width for r in ranks):
                for r in ranks:
                    counts[r] -= width
                (g, lo), chosen = best(index)
                for r in ranks:
                    counts[r] += width
                if (g + 1, lo) < result[0]:
                    result = ((g + 1, lo), (index, *chosen))
        return result

    return best(0)


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(0, 3), min_size=13, max_size=13), level=st.integers(2, 14))
def test_the_sequence_search_is_the_plain_one(counts, level):
    from cardtable.games.guandan.bots import _sequences

    by_rank = [0, 0] + counts
    assert _sequences(list(by_rank), level) == plain_sequences(list(by_rank), level)


# ---------------------------------------------------------------- card memory
HANDS = ["BJ 3S 4S", "BJ 5S 6S 7S 8S 9S 10C", "SJ 3D 9H", "10S JS QS KS AS 2D"]


def test_a_card_seen_played_is_no_longer_out():
    match = rigged(HANDS)
    small_joker = rules.Combo("single", 15, 1)
    view = match.view(2)
    assert unseen_by_value(view)[17] == 2                  # both big jokers may be out
    assert not NormalBot._boss(small_joker, view)
    for seat, move in [(0, "BJ"), (1, None), (2, None), (3, None), (0, "3S"), (1, "BJ")]:
        match.apply(play_of(match, move) if move else Pass(), seat)
    view = match.view(2)
    assert unseen_by_value(view)[17] == 0                  # seen played: not out any more
    assert NormalBot._boss(small_joker, view)              # nothing out beats the small joker now


def test_with_every_big_joker_seen_it_leads_its_sure_small_joker_before_its_last_card():
    fresh = rigged(["SJ 3D", *HANDS[1:2], "4S 5D 6C", HANDS[3]], turn=0)
    assert NormalBot().choose(fresh.view(0)) == play_of(fresh, "3D")   # the big jokers may be out
    match = rigged(HANDS)
    for seat, move in [(0, "BJ"), (1, None), (2, None), (3, None), (0, "3S"), (1, "BJ"), (2, None), (3, None),
                       (0, None), (1, "5S"), (2, "9H"), (3, None), (0, None), (1, None)]:
        match.apply(play_of(match, move) if move else Pass(), seat)
    view = match.view(2)
    assert view.top is None and sorted(c.code for c in view.hand) == ["3D", "SJ"]
    assert NormalBot().choose(view) == play_of(match, "SJ")


# ---------------------------------------------------------------- the partner
def test_it_does_not_overtake_its_partners_winning_single_unless_that_takes_it_out():
    match = rigged(["9S 3C 4C", "5D 6D 7D 8D", "AS 2D 4H 6S", "3H 5H 7H 8H"], level=5)
    match.apply(play_of(match, "9S"), 0)
    match.apply(Pass(), 1)
    view = match.view(2)
    assert play_of(match, "AS") in view.legal                   # the Ace could beat the 9
    assert NormalBot().choose(view) == Pass()               # the Ace would only beat the partner
    match.hands[2] = C("AS")
    assert NormalBot().choose(match.view(2)) == play_of(match, "AS")   # ... unless it goes out on it


def test_it_feeds_a_pair_to_a_partner_holding_two_cards():
    hands = ["3S 9D 9H", "5D 6D 7D 8D", "JC JD", "3H 5H 7H 8H"]
    assert NormalBot().choose(rigged(hands).view(0)) == play_of(rigged(hands), "9D 9H")
    hands[2] = "JC JD QS KS AC 6C"                           # a partner with many cards: the low single
    assert NormalBot().choose(rigged(hands).view(0)) == play_of(rigged(hands), "3S")


def test_it_leads_around_an_opponent_holding_one_card():
    hands = ["3S 8D 8H", "5D", "JC JD QS KS AC 6C", "3H 5H 7H 8H"]
    assert NormalBot().choose(rigged(hands).view(0)) == play_of(rigged(hands), "8D 8H")


def test_it_takes_over_an_opponent_about_to_go_out():
    # The opponent leads a 10 keeping two cards; the partner has passed: the Ace goes on it.
    match = rigged(["AS 7H 8H 6D 2H", "10S 4D 5D", "JS QD 2C 3C", "3S 4S 5C 6C 9D"], level=9, turn=1)
    match.apply(play_of(match, "10S"), 1)
    match.apply(Pass(), 2)
    match.apply(Pass(), 3)
    assert NormalBot().choose(match.view(0)) == play_of(match, "AS")
