"""Guandan's rollout policy (`normal`) and the search's short list after the issue-35 play test: stop a
1-2 (an opponent out first, its partner owning the table), keep bombs for when they decide, never bomb a
partner, no early bomb on an opening straight or a single."""

from collections import Counter

import pytest

from cardtable import search
from cardtable.cards import guandan_deck
from cardtable.games.guandan import rules
from cardtable.games.guandan import search as gd_search
from cardtable.games.guandan.bots import NormalBot, readable_plan, stopping_a_1_2
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions, Pass, Play
from tests.guandan_helpers import C, play_of

SMALL = search.Budget(moves=240, min_playouts=4)


def plan_of(view):
    return list(readable_plan(view.hand, view.level, view.options.straight_flush_as_straight))


def opening(lead):
    """Seed 99's deal: the human leads ``lead`` at trick 1; Right (seat 1) holds 4♦4♦4♣4♣ and the wild
    2♥, 27 cards."""
    match = GuandanMatch(GuandanOptions(), 99)
    match.apply(play_of(match, lead), 0)
    return match


@pytest.mark.parametrize("lead", ["10H JS QS KS AS", "7S"])
def test_no_early_bomb_on_an_opening_play(lead):
    view = opening(lead).view(1)
    assert any(isinstance(m, Play) and m.type in rules.BOMB_TYPES for m in view.legal)
    assert not NormalBot().bomb_decides(view, plan_of(view))
    moves = gd_search.candidates(view, NormalBot().choose(view))
    assert not any(isinstance(m, Play) and m.is_bomb for m in moves)
    move = gd_search.HardBot(SMALL).choose(view)
    assert not (isinstance(move, Play) and move.is_bomb)


def race_position():
    """Right (seat 1) went out first; Left (seat 3), with 15 cards, leads a single 9; the normal seat 0
    holds nothing above the 9 but an Ace (a control card it would keep against an owner of 15 cards)."""
    match = GuandanMatch(GuandanOptions(), 1)
    match.hands = [C("3S 3H 4C 4H 5D 6C 8S 8H AH"), [], C("4S 4H 5S 6D 7C 8C 10S JD QS KC"),
                   C("9S 3D 4D 5C 6S 7D 8D 10D JH QH KH KD QD 10C 7H")]
    rest = Counter(guandan_deck()) - Counter(c for h in match.hands for c in h)
    match.played = sorted(rest.elements())
    match.plays = [(1, tuple(match.played))]
    match.finish = [1]
    match._sort()
    match.leader = match.turn = 3
    match.apply(play_of(match, "9S"), 3)
    return match


def test_normal_stops_a_1_2_with_its_control_card():
    view = race_position().view(0)
    assert stopping_a_1_2(view)
    assert NormalBot().choose(view) == play_of(view, "AH")


def test_no_race_without_an_opponent_out_first():
    match = race_position()
    match.finish = []
    assert not stopping_a_1_2(match.view(0))


def test_never_a_bomb_over_a_partner():
    match = GuandanMatch(GuandanOptions(), 99)
    match.apply(play_of(match, "7S"), 0)
    match.apply(Pass(), 1)
    view = match.view(2)              # Partner: 9♣9♣9♦9♠ is a bomb it holds
    assert not NormalBot().bomb_decides(view, plan_of(view))
    assert not any(isinstance(m, Play) and m.is_bomb for m in gd_search.candidates(view, Pass()))


def test_a_1_2_is_fought_with_straights():
    """The play test's passive partner: Right out first, Left leads the straight A–5; the seat holding the
    straights 8–Q and 10–A answers with the lower one (normal, and hard keeps it)."""
    match = GuandanMatch(GuandanOptions(), 1)
    match.level = 7
    match.hands = [C("8S 9H 10D JC QS 10H JS QD KC AH 3C 3D"), [], C("4S 4H 5S 6D 7C 8C 9S 10S JD"),
                   C("AS 2D 3H 4C 5D 9D 10C JH QH KS 6S 6H")]
    rest = Counter(guandan_deck()) - Counter(c for h in match.hands for c in h)
    match.played = sorted(rest.elements())
    match.plays = [(1, tuple(match.played))]
    match.finish = [1]
    match._sort()
    match.leader = match.turn = 3
    lead = next(c for c in rules.classify(C("AS 2D 3H 4C 5D"), 7) if c.type == "straight")
    match.apply(Play(tuple(C("AS 2D 3H 4C 5D")), lead.type, lead.key), 3)
    view = match.view(0)
    for bot in (NormalBot(), gd_search.HardBot(SMALL)):
        move = bot.choose(view)
        assert isinstance(move, Play) and (move.type, move.key) == ("straight", 12)
