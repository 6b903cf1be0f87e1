"""Taking moves back: never across a hand end, a card arriving in your hand or a revealing move."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.sim import next_cpu_move
from cardtable.undo import _plain, take_back, undo_floor, undo_target

GAMES = ["gongzhu", "guinote", "guandan"]


def _play(game, seed, steps):
    spec = games.get(game)
    match = spec.new_match(spec.options_type(), seed)
    bot = spec.bot("easy")
    for _ in range(steps):
        if match.to_move() is None:
            break
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    return match


def _history(match, seat):
    """(hand of seat, number of events, plain?) after each move of a replay."""
    replay = type(match).new(match.options, match.seed)
    out = []
    for mover, move in match.moves:
        replay.apply(move, mover)
        out.append((Counter(replay.view(seat).hand), len(replay.events), _plain(move)))
    return out


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 160))
def test_take_back_is_exact_and_never_crosses_a_reveal(game, seed, steps):
    match = _play(game, seed, steps)
    keep = undo_target(match, 0)
    back = take_back(match, 0)
    if keep is None:
        assert back is None
        return
    assert match.moves[keep][0] == 0                              # your own move is the one taken back
    assert all(seat != 0 for seat, _ in match.moves[keep + 1:])    # and only the moves after it
    assert back.moves == match.moves[:keep]
    # The position is the one the match had then: playing the same moves again gives the same match.
    for seat, move in match.moves[keep:]:
        back.apply(move, seat)
    assert back.log == match.log
    # Nothing in between showed seat 0 anything hidden.
    history = _history(match, 0)
    before = history[keep - 1] if keep else (Counter(type(match).new(match.options, match.seed).view(0).hand),
                                             len(type(match).new(match.options, match.seed).events), True)
    for hand, events, plain in history[keep:]:
        assert plain and events == before[1] and not (hand - before[0])
        before = (hand, events, plain)


@pytest.mark.parametrize("game", GAMES)
def test_repeated_take_backs_stop_at_the_floor(game):
    match = _play(game, 77, 120)
    floor = undo_floor(match, 0)
    steps = 0
    while (back := take_back(match, 0)) is not None:
        assert len(back.moves) >= floor and len(back.moves) < len(match.moves)
        match = back
        steps += 1
    assert undo_target(match, 0) is None
    assert all(seat != 0 for seat, _ in match.moves[floor:])


def test_gongzhu_showing_cannot_be_taken_back():
    spec = games.get("gongzhu")
    match = spec.new_match(spec.options_type(), 5)
    bot = spec.bot("easy")
    while match.phase != "play":
        match.apply(bot.choose(match.view(match.to_move())))
    assert undo_target(match, 0) is None                # only the showing so far
    assert undo_floor(match, 0) == len(match.moves)


def test_guandan_tribute_is_a_floor():
    spec = games.get("guandan")
    bot = spec.bot("easy")
    for seed in range(1, 60):
        match = spec.new_match(spec.options_type(), seed)
        while match.hand < 2 and match.to_move() is not None:
            match.apply(bot.choose(match.view(match.to_move())))
        deal = match.events[-1]
        if deal.get("type") != "deal" or deal.get("tribute") in (None, "none", "anti"):
            continue
        start = len(match.moves)
        while match.to_move() is not None and (len(match.moves) == start
                                               or "play" not in match.moves[-1][1].to_json()):
            match.apply(bot.choose(match.view(match.to_move())))
        kinds = [next(iter(m.to_json())) for _, m in match.moves[start:]]
        last_reveal = start + max(i for i, k in enumerate(kinds) if k in ("tribute", "return"))
        assert undo_floor(match, 0) >= last_reveal + 1
        return
    raise AssertionError("no tribute in the second deal of 59 seeds")


def test_guinote_draw_is_a_floor():
    spec = games.get("guinote")
    match = spec.new_match(spec.options_type(), 9)
    bot = spec.bot("easy")
    # Play until seat 0 has drawn a card (its hand grew back after a trick).
    sizes = [len(match.view(0).hand)]
    while match.to_move() is not None:
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
        sizes.append(len(match.view(0).hand))
        if sizes[-1] > sizes[-2]:
            break
    drawn_at = len(match.moves)
    assert undo_floor(match, 0) >= drawn_at
    assert undo_target(match, 0) is None or undo_target(match, 0) >= drawn_at


def test_guinote_exchange_decision_is_a_floor_for_everyone():
    """Deciding on the exchange of the 7 (exchange or keep, before the draw) is never taken back, by
    any seat: the holder's choice is not a plain play, and the draw follows the pair's decisions."""
    from cardtable.games.guinote.state import Exchange, KeepSeven

    spec = games.get("guinote")
    for seed in range(40):
        match = spec.new_match(spec.options_type(), seed)
        while match.to_move() is not None and match.hand == 1:
            seat = match.to_move()
            legal = match.legal_moves(seat)
            if any(isinstance(m, KeepSeven) for m in legal):
                match.apply(next(m for m in legal if isinstance(m, KeepSeven)), seat)
                kept_at = len(match.moves)
                assert not _plain(match.moves[-1][1])
                for viewer in range(4):
                    assert undo_floor(match, viewer) >= kept_at
                assert take_back(match, seat) is None
                return
            match.apply(next(m for m in legal if not isinstance(m, Exchange)), seat)
    raise AssertionError("no exchange decision in the first hand of 40 seeds")
