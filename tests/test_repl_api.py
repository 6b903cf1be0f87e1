"""The engine at the Python prompt: ``repr``, ``play`` (read + apply), ``pop`` in place beside
``undone(n)``, ``phase`` on every game, Guandan's bare cards, Gong Zhu's «show nothing» in one call."""

from __future__ import annotations

import pytest

from cardtable import games
from cardtable.engine import IllegalMove, MoveError
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions
from cardtable.games.guinote.state import GuinoteMatch, GuinoteOptions
from cardtable.rng import Rng
from tests.guandan_helpers import C

GAMES = ("gongzhu", "guandan", "guinote")


def _played(game: str, seed: int, count: int):
    match = games.get(game).new_match(seed=seed)
    rng = Rng(seed)
    for _ in range(count):
        moves = match.legal_moves()
        match.apply(moves[rng.below(len(moves))])
    return match


@pytest.mark.parametrize("game", GAMES)
def test_play_reads_the_text_form_and_applies_it(game):
    match, twin = _played(game, 5, 30), _played(game, 5, 30)
    move = twin.legal_moves()[-1]
    twin.apply(move)
    assert match.play(str(move)) == move
    assert match.log == twin.log and match.to_move() == twin.to_move()


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_play_leaves_the_match_as_it_was(game):
    match = _played(game, 6, 12)
    moves, log = list(match.moves), list(match.log)
    with pytest.raises((IllegalMove, MoveError)):
        match.play("no such move")
    assert match.moves == moves and match.log == log


@pytest.mark.parametrize("game", GAMES)
def test_pop_takes_the_last_move_back_in_place_and_undone_makes_a_new_match(game):
    match = _played(game, 7, 40)
    last = match.moves[-1][1]
    back = match.undone(3)
    assert len(back.moves) == 37 and len(match.moves) == 40           # undone leaves the match alone
    assert match.pop() == last
    assert match.moves == back.moves + match.moves[37:39] and len(match.moves) == 39
    assert match.log == _played(game, 7, 39).log
    assert match.undo(2).moves == back.moves                            # the older name of undone


def test_pop_with_no_move_made_raises():
    with pytest.raises(IndexError):
        games.get("guinote").new_match(seed=1).pop()


@pytest.mark.parametrize("game", GAMES)
def test_repr_says_game_seed_hand_seat_to_move_and_moves(game):
    match = _played(game, 8, 10)
    assert repr(match) == (f"<{type(match).__name__} {game} seed=8 hand {match.hand}, "
                           f"seat {match.to_move()} to move, 10 moves>")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_phase_over_at_the_end(game):
    match = games.get(game).new_match(seed=9)
    rng = Rng(9)
    seen = set()
    while not match.is_over():
        seen.add(match.phase)
        moves = match.legal_moves()
        match.apply(moves[rng.below(len(moves))])
    assert match.phase == "over" and "play" in seen
    assert seen <= {"gongzhu": {"show", "play"}, "guandan": {"tribute", "play"},
                    "guinote": {"exchange", "play"}}[game]


def test_guinote_phase_is_exchange_while_the_pair_is_asked_about_the_7():
    for seed in range(1, 40):
        match = GuinoteMatch(GuinoteOptions(), seed)
        while not match.is_over() and match.pending_draw is None:
            match.apply(match.legal_moves()[0])
        if match.pending_draw is not None:
            assert match.phase == "exchange"
            return
    raise AssertionError("no exchange phase in 40 matches")


def _guandan(hands: list[str], level: int = 2) -> GuandanMatch:
    match = GuandanMatch(GuandanOptions(), 1)
    match.hands = [C(h) for h in hands]
    match.level = level
    match._sort()
    match.turn = 0
    return match


def test_guandan_reads_bare_cards_by_their_one_legal_reading():
    match = _guandan(["7C 7D 9S", "8S 8H", "3S", "4S"])
    assert str(match.play("7D 7C")) == "7C 7D as pair 7"
    assert str(match.play("8S 8H")) == "8H 8S as pair 8"


def test_guandan_bare_cards_read_two_legal_ways_are_refused_naming_both():
    match = _guandan(["5S 6S 7S 8S 9S 3D", "4S", "3S", "4D"])
    with pytest.raises(MoveError, match="as straight_flush 9.*as straight 9|as straight 9.*as straight_flush 9"):
        match.play("5S 6S 7S 8S 9S")
    assert not match.moves
    assert str(match.play("5S 6S 7S 8S 9S as straight 9")) == "5S 6S 7S 8S 9S as straight 9"


def test_guandan_bare_cards_with_no_legal_reading_get_the_rules_refusal():
    match = _guandan(["7C 7D 9S", "8S 8H", "3S", "4S"])
    with pytest.raises(IllegalMove, match="not all in your hand"):
        match.play("8S 8H")
    with pytest.raises(MoveError, match="not a Guandan play"):
        match.play("7C 9S")


def test_gongzhu_show_nothing_is_made_for_each_next_seat_with_nothing_to_show():
    match = games.get("gongzhu").new_match(seed=3)        # seats 0, 1 and 2 hold nothing to show
    match.play("show nothing")
    assert [seat for seat, _ in match.moves] == [0, 1, 2] and match.to_move() == 3
    assert match.legal_moves(3) != match.legal_moves(3)[:1]           # seat 3 has a choice: not made
    match.play("show nothing")
    assert match.phase == "play" and len(match.moves) == 4
