"""Whole-match properties of Gong Zhu, with hypothesis choosing seeds and (legal) moves."""

import io

from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import french_deck
from cardtable.engine import IllegalMove
from cardtable.games.gongzhu import rules
from cardtable.history import HistoryWriter, read_records, replay, split_matches

SPEC = games.get("gongzhu")


def check_conservation(match):
    """Read through the views only: the four hands, the trick and the tricks are the whole deck."""
    views = [match.view(s) for s in range(4)]
    in_hands = [c for v in views for c in v.hand]
    in_trick = [c for _, c in views[0].trick]
    played = [c for t in views[0].tricks for _, c in t]
    assert sorted(in_hands + in_trick + played) == sorted(french_deck())
    point_taken = sorted(c for pile in views[0].taken for c in pile)
    assert point_taken == sorted(c for c in played if rules.is_point_card(c))


@given(seed=st.integers(0, 2 ** 64 - 1), choices=st.data())
def test_random_legal_play_keeps_every_invariant(seed, choices):
    match = SPEC.new_match(seed=seed)
    steps = 0
    while not match.is_over() and steps < 400:
        legal = match.legal_moves()
        assert legal
        move = choices.draw(st.sampled_from(legal))
        match.apply(move)
        steps += 1
        if match.phase == "play":
            check_conservation(match)


@given(seed=st.integers(0, 10 ** 6))
def test_whole_bot_matches_add_up(seed):
    match = SPEC.new_match(seed=seed)
    bots = [SPEC.bot("normal"), SPEC.bot("easy"), SPEC.bot("normal"), SPEC.bot("easy")]
    while not match.is_over():
        seat = match.to_move()
        move = bots[seat].choose(match.view(seat))
        assert move in match.legal_moves()
        match.apply(move)
    totals = [0, 0, 0, 0]
    for record in (r for r in match.log if r["type"] == "hand_end"):
        assert sorted(c for pile in record["taken"] for c in pile) == sorted(
            c.code for c in rules.POINT_CARDS)
        for seat, line in enumerate(record["lines"]):
            if line["transformer"] in ("none",):
                assert line["hand"] == line["base"] == line["hearts"] + line["pig"] + line["goat"]
            elif line["transformer"] == "alone":
                assert line["hand"] in (50, 100)
            else:
                assert line["hand"] == line["base"] * int(line["transformer"][1])
            totals[seat] += line["hand"]
            assert line["total"] == totals[seat]
    assert match.log[-1]["totals"] == totals


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_illegal_moves_are_refused(seed, data):
    match = SPEC.new_match(seed=seed)
    for _ in range(data.draw(st.integers(0, 60))):
        if match.is_over():       # a wild random hand can reach ±500 at once
            return
        match.apply(data.draw(st.sampled_from(match.legal_moves())))
    if match.is_over():
        return
    seat = match.to_move()
    legal = match.legal_moves()
    from cardtable.games.gongzhu.state import Play

    for card in french_deck():
        move = Play(card)
        if move in legal:
            continue
        before = len(match.moves)
        try:
            match.apply(move)
        except IllegalMove as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{card} accepted for seat {seat}")
        assert len(match.moves) == before


def test_history_follows_the_format_and_replays():
    out = io.StringIO()
    for seed in (1, 2):
        match = SPEC.new_match(seed=seed)
        bots = [SPEC.bot("easy")] * 4
        writer = HistoryWriter(out, match, ["cpu:easy"] * 4, legal=True)
        while not match.is_over():
            writer.apply(bots[0].choose(match.view(match.to_move())))
    records = list(read_records(out.getvalue().splitlines()))
    matches = list(split_matches(records))
    assert len(matches) == 2
    for recs in matches:
        head = recs[0]
        assert head["format"] == "cardtable-history" and head["version"] == 1 and head["game"] == "gongzhu"
        assert set(head["options"]) == {"target", "swap", "showing", "transformer_zero_hearts", "max_hands",
                                        "all_hearts", "showable"}
        deal = recs[1]
        assert deal["type"] == "deal" and deal["hand"] == 1 and len(deal["hands"]) == 4
        assert all(len(h) == 13 for h in deal["hands"]) and "leader" in deal
        shows = recs[2:6]
        assert [r["seat"] for r in shows] == [0, 1, 2, 3] and all("show" in r["move"] for r in shows)
        assert all("legal" in r for r in recs if r["type"] == "move")
        ends = [r for r in recs if r["type"] == "hand_end"]
        assert all(set(r) == {"type", "hand", "taken", "shown", "lines"} for r in ends)
        assert set(ends[0]["lines"][0]) == {"hearts", "pig", "goat", "base", "transformer", "hand", "total"}
        assert recs[-1]["type"] == "match_end" and set(recs[-1]) == {"type", "hands", "totals", "winners", "pig"}
        final = replay(recs)
        assert final.is_over()
