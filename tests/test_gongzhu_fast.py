"""Gong Zhu's fast paths agree with its checked paths, dealt hands (sorted) and sampled worlds (hands in
any order) alike.

- The legal list the match keeps by suit (``_Split``: whole-hand lists joined from the suits when a
  hand's suits lie together) is what the plain rule gives for the hand as a list, in its order.
- A move applied on the trusted path (the very object of the legal list) leaves the same state as the
  same move applied on the checked path (an equal object, validated in full), split by suit included.
- The scoring's card lookups give the same lines as the card-by-card rule for every pile.
"""

from __future__ import annotations

import pytest

from cardtable import games
from cardtable.cards import french_deck
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuMatch, Play, _Split, decode_move
from cardtable.rng import Rng

SPEC = games.get("gongzhu")


def _state(match: GongZhuMatch) -> tuple:
    return (match.to_move(), [list(h) for h in match.hands], list(match.trick), list(match.tricks),
            [list(p) for p in match.taken], list(match.totals), set(match.suits_led), match.hand,
            [r for r in match.events])


def _split_content(split: _Split) -> dict:
    """Suit -> its cards (a suit played out may stay as an empty group)."""
    return {suit: tuple(play.card for play in plays) for suit, plays in split.items() if suit != rules.ANY and plays}


def _unsorted(match: GongZhuMatch, rng: Rng) -> None:
    """Give every seat its hand in a random order, as a sampled world has it."""
    hands = [list(h) for h in match.hands]
    for hand in hands:
        rng.shuffle(hand)
    match.hands = hands


@pytest.mark.parametrize("unsorted", [False, True])
def test_trusted_and_checked_paths_leave_the_same_state(unsorted):
    visited = 0
    for seed in range(1, 41):
        rng = Rng(seed * 31 + unsorted)
        fast = SPEC.new_match(seed=seed)
        if unsorted:
            _unsorted(fast, rng)
        checked = fast.clone()
        hand = fast.hand
        while fast.to_move() is not None:
            if fast.hand != hand:          # a new deal: sort it differently again
                hand = fast.hand
                if unsorted:
                    _unsorted(fast, rng)
                    checked.hands = [list(h) for h in fast.hands]
            seat = fast.to_move()
            legal = fast.legal_moves()
            if isinstance(legal[0], Play):
                context = fast._context(seat)
                assert [move.card for move in legal] == rules.legal_plays(fast.hands[seat], context)
                assert fast.view(seat).legal == tuple(legal)
            move = legal[rng.below(len(legal))]
            assert fast.why_illegal(move) is None
            fast.apply(move)
            twin = decode_move(move.to_json())
            assert twin is not move or not isinstance(move, Play)
            checked.apply(twin, seat)
            assert _state(fast) == _state(checked)
            for s in range(4):
                split = fast._split[s]
                if split is not None:
                    assert _split_content(split) == _split_content(_Split(fast.hands[s]))
            visited += 1
    assert visited >= 3000


def test_whole_hand_of_a_split_is_the_hand_in_its_order():
    rng = Rng(4)
    deck = french_deck()
    for size in (1, 5, 13):
        for _ in range(200):
            rng.shuffle(deck)
            hand = deck[:size]
            if rng.below(2):
                hand = sorted(hand, key=rules.sort_key)
            split = _Split(hand)
            assert [play.card for play in split[rules.ANY]] == hand
            # remove a card as the match does: the whole hand follows
            card = hand[rng.below(size)]
            hand.remove(card)
            split.play(card)
            assert [play.card for play in split[rules.ANY]] == hand


def _plain_lines(taken, shown, swap, alone, someone_all, all_value):
    """The hearts line card by card (HEART_VALUES by rank), the rest from score_taken itself."""
    lines = rules.score_taken(taken, shown, swap, alone, someone_all, all_value)
    hearts = [c for c in taken if c.suit == "H"]
    if len(hearts) < 13:
        mult = 2 if rules.HEART_ACE in shown else 1
        assert lines.hearts == sum(rules.HEART_VALUES[c.rank] for c in hearts) * mult
    return lines


def test_scoring_lookups_read_every_pile_as_the_card_rule():
    rng = Rng(9)
    points = sorted(rules.POINT_CARDS, key=rules.sort_key)
    for _ in range(2000):
        pile = [c for c in points if rng.below(2)]
        shown = [c for c in rules.SHOWABLE if rng.below(3) == 0]
        swap, alone = bool(rng.below(2)), bool(rng.below(2))
        lines = _plain_lines(pile, shown, swap, alone, False, 200)
        heart_count = sum(1 for c in pile if c.suit == "H")
        assert lines.all_hearts == (heart_count == 13 and lines.transformer != "alone")
    piles = [list(rules.ALL_HEARTS) + [rules.PIG], [rules.GOAT], [rules.TRANSFORMER], []]
    all_lines = rules.score_hand(piles, [], True, True)
    assert all_lines[0].all_hearts and all_lines[0].pig == 100       # the swap: someone took every heart
