"""Guandan's plain advice at the table (games/guandan/advice.py, no search): a selection's readings, the
cards that can answer the table, and the order of the h key's hints."""

from cardtable.games.guandan import advice
from cardtable.games.guandan.state import Pass
from tests.guandan_helpers import C, play_of, rigged

HANDS = ["9S 3C 4C", "5D 6D 7D 8D", "AS 2D 4H 6S", "3H 5H 7H 8H"]


def answering_partners_nine(hand="AS 2D 4H 6S"):
    """Seat 2's view after its partner led the 9 of spades and seat 1 passed (level 5)."""
    match = rigged([HANDS[0], HANDS[1], hand, HANDS[3]], level=5)
    match.apply(play_of(match, "9S"), 0)
    match.apply(Pass(), 1)
    return match, match.view(2)


def test_the_readings_of_a_selection_and_those_that_beat_the_table():
    match = rigged(HANDS, level=5)
    view = match.view(0)
    assert advice.readings([], view) == []
    assert advice.readings(C("3C 9S"), view) == []                        # not a play
    assert [c.type for c in advice.readings(C("3C"), view)] == ["single"]
    assert advice.beating_readings(C("3C"), view) == advice.readings(C("3C"), view)   # leading: anything
    _, answering = answering_partners_nine()
    assert advice.readings(C("2D"), answering) and advice.beating_readings(C("2D"), answering) == []
    assert [c.key for c in advice.beating_readings(C("AS"), answering)] == [14]


def test_the_answering_cards_are_those_of_a_play_beating_the_table_and_none_when_not_answering():
    match, view = answering_partners_nine()
    assert advice.answering_cards(view) == set(C("AS"))
    assert advice.answering_cards(match.view(3)) is None                  # not its turn
    assert advice.answering_cards(rigged(HANDS).view(0)) is None          # leading


def test_leading_hints_go_from_the_cheapest_play_to_the_bombs():
    match = rigged(["3S 3D 3C 3H 9S 9D KC", *HANDS[1:]], level=5)
    view = match.view(0)
    order = advice.hint_order(view)
    assert {step.kind for step in order} == {"play"}
    assert {step.play for step in order} == {m for m in view.legal if not isinstance(m, Pass)}
    costs = [advice.hint_cost(step.play, view) for step in order]
    assert costs == sorted(costs)
    assert advice.play_combo(order[0].play, view).type == "single" and order[0].cards[0].rank == 3
    bombs = [i for i, step in enumerate(order) if advice.play_combo(step.play, view).is_bomb]
    assert bombs and all(i > j for i in bombs for j, step in enumerate(order)
                         if not advice.play_combo(step.play, view).is_bomb)


def test_over_a_winning_partner_the_first_hint_passes_unless_a_play_goes_out():
    _, view = answering_partners_nine()
    assert [(step.kind, step.cards) for step in advice.hint_order(view)] == [
        ("partner", []), ("over_partner", C("AS"))]
    _, view = answering_partners_nine("AS")
    assert [(step.kind, step.cards) for step in advice.hint_order(view)] == [("out", C("AS")), ("partner", [])]


def test_with_no_play_that_beats_the_table_there_is_no_hint():
    _, view = answering_partners_nine("2D 4H 6S")
    assert advice.hint_order(view) == []


def test_a_play_combo_is_the_reading_the_move_makes():
    match = rigged(["3S 3D 3C 3H 9S 9D KC", *HANDS[1:]], level=5)
    move = play_of(match, "9S 9D")
    combo = advice.play_combo(move, match.view(0))
    assert (combo.type, combo.key) == (move.type, move.key) == ("pair", 9)
