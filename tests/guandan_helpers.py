"""Guandan positions written by hand in tests: cards from text, a play from its cards."""

from cardtable.cards import parse_card
from cardtable.games.guandan import rules
from cardtable.games.guandan.state import Play


def C(text):
    return [parse_card(c) for c in text.split()]


def play_of(match, text):
    """The play of these cards at the match's level (its first reading)."""
    cards = C(text)
    combo = rules.classify(cards, match.level)[0]
    return Play(tuple(cards), combo.type, combo.key)


def rigged(hands, level=2, turn=0):
    """A match in its play phase with the given hands (the rest of the deck is irrelevant here)."""
    from cardtable.games.guandan.state import GuandanMatch, GuandanOptions

    match = GuandanMatch(GuandanOptions(), 1)
    match.hands = [C(h) for h in hands]
    match.level = level
    match._sort()
    match.turn = turn
    return match
