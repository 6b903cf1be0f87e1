"""Guandan's exact endgame (issue 35): with few cards left the hard level solves each sampled world with
alpha-beta over the pair's result instead of rolling out, so a seat that can go out and stop a 1-2 does
(the K♣ last-card pass of the play test: hand 7, seed 1234, level 9), by construction."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import guandan_deck
from cardtable.games.guandan import endgame
from cardtable.games.guandan import search as gd_search
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions, Pass
from cardtable.rng import Rng
from cardtable.tricks import partner, team_of
from tests.guandan_helpers import C, play_of


def late_position(hands, level=2, leader=0):
    """A match in its play phase with these four hands and every other card already played."""
    match = GuandanMatch(GuandanOptions(), 1)
    match.level = level
    match.hands = [C(h) for h in hands]
    rest = Counter(guandan_deck()) - Counter(c for h in match.hands for c in h)
    match.played = sorted(rest.elements())
    match.plays = [(0, tuple(match.played))]
    match._sort()
    match.leader = match.turn = leader
    return match


def last_card_position():
    """Right goes out 1st with the single 10♠; Partner holds only K♣; the human cannot beat the 10♠ and
    Left would lead 44, 66 and the 8♠ to go out 2nd (a 1-2, −3) if Partner passed."""
    match = late_position(["3H 4D 5C 6S 7D", "10S", "KC", "4S 4H 6D 6C 8S"], level=9, leader=1)
    match.apply(play_of(match, "10S"), 1)
    assert match.finish == [1] and match.to_move() == 2
    return match


def exact(match, seat, move):
    """The solver's value of ``move`` in this (fully known) match for ``seat``'s pair."""
    solver = endgame.Solver(match.level, True, team_of(seat), [10 ** 7], {})
    return endgame._root(solver, match, seat, move, endgame._top_form(match))


def test_the_solver_sees_the_1_2_that_passing_allows():
    match = last_card_position()
    assert exact(match, 2, Pass()) == -3
    assert exact(match, 2, play_of(match, "KC")) in (-1, -2)


def test_hard_goes_out_with_its_last_card_to_stop_a_1_2():
    view = last_card_position().view(2)
    assert endgame.applies(view)
    evaluation = gd_search.HardBot().evaluate(view)
    assert evaluation.move == play_of(view, "KC")
    assert {move for move, _ in evaluation.scores} == set(view.legal) and evaluation.playouts > 0
    assert evaluation.cost_of(Pass()) > 0


def test_a_large_position_rolls_out_as_before():
    view = GuandanMatch(GuandanOptions(), 3).view(0)
    assert not endgame.applies(view)


def brute(match, team):
    """Plain minimax through the engine itself (no pruning, no table): the reference the solver must
    agree with, rules of passing, 接风 and the end of the deal included."""
    seat = match.to_move()
    values = []
    for move in match.legal_moves(seat):
        child = match.clone()
        child.apply(move, seat)
        if child.hand != match.hand:
            finish = next(r for r in reversed(child.events) if r.get("type") == "hand_end")["finish"]
            first = finish[0]
            rise = {1: 3, 2: 2, 3: 1}[finish.index(partner(first))]
            values.append(rise if team_of(first) == team else -rise)
        else:
            values.append(brute(child, team))
    return max(values) if team_of(seat) == team else min(values)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), out=st.booleans())
def test_the_solver_agrees_with_plain_minimax_on_small_deals(seed, out):
    deck = list(guandan_deck())
    Rng(seed).shuffle(deck)
    sizes = [2, 2, 2, 3] if not out else [2, 0, 3, 2]
    hands, at = [], 0
    for n in sizes:
        hands.append(" ".join(c.code for c in deck[at:at + n]))
        at += n
    match = late_position(hands, level=2 + seed % 13, leader=0)
    if out:
        match.finish = [1]
    seat = match.to_move()
    team = team_of(seat)
    solver = endgame.Solver(match.level, True, team, [10 ** 7], {})
    hands_t = tuple(tuple(sorted(h)) for h in match.hands)
    assert solver.search(hands_t, seat, None, frozenset(), tuple(match.finish), -4, 4) == brute(match, team)


def test_an_endgame_decision_depends_only_on_the_view():
    """Deal the cards hidden from the seat differently (each seat keeps its count): the same move and
    the same values; and the same again for the same seed."""
    match = last_card_position()
    view = match.view(2)
    other = match.clone()
    pool = other.hands[0] + other.hands[3]
    pool.reverse()
    other.hands[0], other.hands[3] = pool[:5], pool[5:]
    other._sort()
    assert other.view(2) == view and other.hands[0] != match.hands[0]
    first = gd_search.HardBot().evaluate(view)
    assert gd_search.HardBot().evaluate(other.view(2)) == first == gd_search.HardBot().evaluate(view)
