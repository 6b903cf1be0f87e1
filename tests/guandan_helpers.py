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
