"""The hand review model (cardtable.review): built by replaying a finished hand, checked against the
engine — every card is accounted for and the last step's score is the hand_end record's."""

import io
import json
import random
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.games.guandan.state import Return, Tribute
from cardtable.games.guinote.state import Exchange
from cardtable.history import HistoryWriter, read_records
from cardtable.review import NotReviewable, finished_hands, review, review_history
from cardtable.tricks import partner


def play_randomly(match, rnd: random.Random, hands: int):
    """Random legal moves (optional ones too: Guiñote's exchange, cantes, claims) until ``hands`` hands
    have ended or the match is over."""
    while len(finished_hands(match)) < hands and not match.is_over():
        seat = match.to_move()
        choices = [(seat, move) for move in match.legal_moves(seat)]
        for other in match.optional_movers():
            if other != seat:
                choices += [(other, move) for move in match.legal_moves(other)]
        other, move = rnd.choice(choices)
        match.apply(move, other)
    return match


def codes(cards):
    return Counter(card.code for card in cards)


def everything(hands):
    return Counter(card.code for hand in hands for card in hand)


def check_hand(match, record):
    rv = review(match, record["hand"])
    steps = rv.steps
    deal = rv.deal
    assert rv.end == record
    assert steps[0].number == 0 and [s.number for s in steps] == list(range(len(steps)))
    assert [codes(h) for h in steps[0].hands] == [Counter(h) for h in deal["hands"]]   # as dealt
    for step in steps[1:]:
        # the trick's cards come from the hands as they were at its start, each played by its seat
        for seat, what in step.plays:
            cards = [what] if hasattr(what, "rank") else list(getattr(what, "cards", ()))
            assert not codes(cards) - codes(step.hands[seat])
        assert step.leader == step.plays[0][0]
    for before, after in pairwise(steps[1:]):
        # the next trick starts from these hands less what was played, plus what was drawn
        expected = [codes(h) for h in before.hands]
        for seat, what in before.plays:
            expected[seat] -= codes([what] if hasattr(what, "rank") else list(getattr(what, "cards", ())))
        for seat, card in before.draws:
            expected[seat][card.code] += 1
        exchanges = [(seat, move) for seat, move in before.after if isinstance(move, Exchange)]
        if exchanges:
            # the 7 of trumps leaves the exchanger's hand for the pinta (or for the hand that drew it)
            (seat, move), = exchanges
            assert after.hands[seat].count(move.card) == 0 and expected[seat][move.card.code] == 1
            now = sum((codes(h) for h in after.hands), Counter())
            was = sum(expected, Counter())
            assert (was - now).total() <= 1 and (now - was).total() <= 1
            assert not (was - now) or was - now == Counter([move.card.code])
        else:
            assert [codes(h) for h in after.hands] == expected
    return rv


def check_gongzhu(match, record, rv):
    steps = rv.steps
    assert len(steps) == 14
    played = Counter(card.code for step in steps[1:] for card in step.cards_played)
    assert played == everything(steps[0].hands)               # all 52, once each
    assert len(played) == 52 and set(played.values()) == {1}
    for before, after in pairwise(steps[1:]):
        assert after.leader == before.winner
    last = steps[-1].score
    assert last["hand"] == [line["hand"] for line in record["lines"]]
    assert [sorted(pile) for pile in last["taken"]] == [sorted(pile) for pile in record["taken"]]
    shown = {seat: sorted(c.code for c in cards) for seat, cards in steps[0].plays}
    assert [shown.get(seat, []) for seat in range(4)] == [sorted(cards) for cards in record["shown"]]


def check_guinote(match, record, rv):
    steps = rv.steps
    for before, after in pairwise(steps[1:]):
        assert after.leader == before.winner
    tricks = steps[1:]
    played = Counter(card.code for step in tricks for card in step.cards_played)
    assert set(played.values()) <= {1}
    if record["ultimas"] is not None:                      # played to the end: all 40 cards, once each
        assert len(tricks) == 10 and len(played) == 40
        assert tricks[-1].gained[record["ultimas"]] >= 10
    for step in tricks:                     # after tricks 1-4 everyone draws, the winner first
        if step is tricks[-1] and not step.after:
            assert step.draws == ()         # the hand ended with this trick: nothing more was drawn
        elif step.number <= 4:
            assert [seat for seat, _ in step.draws] == [(step.winner + i) % 4 for i in range(4)]
        else:
            assert step.draws == ()
    last = steps[-1].score
    assert last["points"] == record["points"]
    assert last["cantes"] == record["cantes"]
    assert last["totals"] == record["totals"]
    assert sum(sum(step.gained) for step in tricks) == sum(record["points"])


def check_guandan(match, record, rv):
    steps = rv.steps
    assert all(isinstance(move, (Tribute, Return)) for _, move in steps[0].plays)
    assert len(steps[0].plays) == {"none": 0, "anti": 0, "single": 2, "double": 4}[rv.deal["tribute"]]
    # each tribute or returned card goes from its mover to the seat named in draws
    assert len(steps[0].draws) == len(steps[0].plays)
    expected = [codes(h) for h in steps[0].hands]
    for (seat, move), (taker, card) in zip(steps[0].plays, steps[0].draws):
        assert card == move.card and taker != seat
        expected[seat][card.code] -= 1
        expected[taker][card.code] += 1
    if len(steps) > 1:
        assert [codes(h) for h in steps[1].hands] == expected
    # the cards dealt = the cards played + the cards left in hands at the end
    left = [codes(h) for h in steps[-1].hands]
    for seat, what in steps[-1].plays:
        left[seat] -= codes(getattr(what, "cards", ()))
    played = Counter(card.code for step in steps[1:] for card in step.cards_played)
    assert played + sum(left, Counter()) == everything(steps[0].hands)
    out = set()
    for before, after in pairwise(steps[1:]):
        out = set(before.score["finish"])
        winner = before.winner
        assert winner is not None
        assert after.leader == (winner if winner not in out else partner(winner))
    assert steps[-1].winner is None and steps[-1].score["finish"] == record["finish"]
    last_seat, last_move = steps[-1].plays[-1]
    assert last_move.to_json() != {"pass": True}       # the hand ends when a play takes a seat out
    assert last_seat in record["finish"][:3]


CHECKS = {"gongzhu": check_gongzhu, "guinote": check_guinote, "guandan": check_guandan}


@pytest.mark.parametrize("game", list(CHECKS))
@given(seed=st.integers(0, 10**9), choice_seed=st.integers(0, 2**32))
def test_random_hands_are_reviewed_whole(game, seed, choice_seed):
    spec = games.get(game)
    match = play_randomly(spec.new_match(spec.options_type(), seed), random.Random(choice_seed), 2)
    records = finished_hands(match)
    assert records
    for record in records:
        rv = check_hand(match, record)
        CHECKS[game](match, record, rv)


@pytest.mark.parametrize("game", list(CHECKS))
def test_cpu_hands_are_reviewed_whole(game):
    spec = games.get(game)
    match = spec.new_match(spec.options_type(), 31)
    bot = spec.bot("normal")
    from cardtable.engine import next_auto_move
    while len(finished_hands(match)) < 3 and not match.is_over():
        seat, move = next_auto_move(match, lambda _: bot)
        match.apply(move, seat)
    for record in finished_hands(match):
        CHECKS[game](match, record, check_hand(match, record))


def test_review_leaves_the_match_alone_and_refuses_an_unfinished_hand():
    spec = games.get("gongzhu")
    match = play_randomly(spec.new_match(spec.options_type(), 5), random.Random(1), 1)
    moves, log = list(match.moves), list(match.log)
    review(match, 1)
    assert match.moves == moves and match.log == log
    with pytest.raises(NotReviewable):
        review(match, 2)                 # dealt, not finished
    with pytest.raises(NotReviewable):
        review(match, 9)                 # never dealt


def test_a_history_file_is_reviewed_like_the_match():
    spec = games.get("guinote")
    match = spec.new_match(spec.options_type(), 77)
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    rnd = random.Random(3)
    while len(finished_hands(match)) < 2 and not match.is_over():
        seat = match.to_move()
        writer.apply(rnd.choice(match.legal_moves(seat)), seat)
    records = list(read_records(out.getvalue().splitlines()))
    assert review_history(records, 2) == review(match, 2)
    assert json.loads(out.getvalue().splitlines()[0])["game"] == "guinote"


def test_gongzhu_step_contents_for_a_known_deal():
    spec = games.get("gongzhu")
    match = play_randomly(spec.new_match(spec.options_type(), 2024), random.Random(0), 1)
    rv = review(match, 1)
    first = rv.steps[1]
    # the first trick is led with the ♣2 by its holder
    assert first.plays[0][1].code == "2C"
    assert any(c.code == "2C" for c in rv.steps[0].hands[first.leader])
    # each trick's taker gains exactly the point cards of the trick
    for before, step in pairwise(rv.steps):
        for seat in range(4):
            grew = Counter(step.score["taken"][seat]) - Counter(before.score["taken"][seat])
            assert grew == (Counter(c.code for c in step.gained) if seat == step.winner else Counter())


@pytest.mark.parametrize("keep", [True, False])
def test_guinote_review_draws_after_the_exchange_decision(keep):
    """The exchange of the 7 comes before the draw: the trick's step still lists the four draws (made
    once the pair decided: the holder of the 7 exchanging or keeping, a partner without the 7 keeping),
    an exchange among the moves after it, a declined one (silent) not."""
    from cardtable.engine import next_auto_move
    from cardtable.games.guinote.state import KeepSeven

    spec = games.get("guinote")
    bot = spec.bot("normal")
    for seed in range(40):
        match = spec.new_match(spec.options_type(), seed)
        decided = None
        while not finished_hands(match):
            asked = match.view(0).deciding
            if asked is not None and decided is None and any(isinstance(m, Exchange) for m in match.legal_moves(asked)):
                seat = asked
                kind = KeepSeven if keep else Exchange
                move = next(m for m in match.legal_moves(seat) if isinstance(m, kind))
                decided = (len(match.view(0).tricks), seat, move)
                match.apply(move, seat)
                continue
            seat, move = next_auto_move(match, lambda _: bot)
            match.apply(move, seat)
        if decided is None or match.hand != 2:
            continue
        number, seat, move = decided
        step = review(match, 1).steps[number]
        assert [s for s, _ in step.draws] == [(step.winner + i) % 4 for i in range(4)]
        assert ((seat, move) in step.after) is (not keep)
        assert not any(isinstance(m, KeepSeven) for _, m in step.after)
        if not keep and number == 4:
            assert step.draws[-1][1] == move.card         # the last drawer takes the 7
        return
    raise AssertionError("no exchange decision in the first hand of 40 seeds")
