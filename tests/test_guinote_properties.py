"""Whole-match properties of Guiñote with hypothesis choosing seeds and legal moves."""

from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import spanish_deck
from cardtable.engine import IllegalMove
from cardtable.games.guinote.state import Play
from cardtable.sim import next_cpu_move

SPEC = games.get("guinote")
DECK = sorted(spanish_deck())


def check_conservation(match):
    cards = [c for h in match.hands for c in h] + list(match.stock) + [c for _, c in match.trick]
    cards += [c for t in match.tricks for _, c in t]
    if match.pinta_taker is None:
        cards.append(match.pinta)
    assert sorted(cards) == DECK


@given(seed=st.integers(0, 2 ** 64 - 1), data=st.data())
def test_random_legal_play_keeps_every_invariant(seed, data):
    match = SPEC.new_match(seed=seed)
    steps = 0
    while not match.is_over() and steps < 600:
        movers = [match.to_move()] + [s for s in match.optional_movers() if s != match.to_move()]
        seat = data.draw(st.sampled_from(movers))
        legal = match.legal_moves(seat)
        assert legal
        move = data.draw(st.sampled_from(legal))
        match.apply(move, seat)
        steps += 1
        if match.hand == 1 or match.trick or match.tricks:
            check_conservation(match)


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_illegal_plays_are_refused_and_change_nothing(seed, data):
    match = SPEC.new_match(seed=seed)
    for _ in range(data.draw(st.integers(0, 45))):
        if match.is_over():
            return
        seat = match.to_move()
        match.apply(data.draw(st.sampled_from([m for m in match.legal_moves(seat) if isinstance(m, Play)])), seat)
    seat = match.to_move()
    legal = set(match.legal_moves(seat))
    for card in DECK:
        for who in range(4):
            move = Play(card)
            if who == seat and move in legal:
                continue
            log = len(match.log)
            try:
                match.apply(move, who)
            except IllegalMove as exc:
                assert exc.reason
            else:
                raise AssertionError(f"{card} accepted for seat {who}")
            assert len(match.log) == log


@given(seed=st.integers(0, 10 ** 6))
def test_whole_bot_matches_and_history_replay(seed):
    import io

    from cardtable.history import HistoryWriter, read_records, replay

    match = SPEC.new_match(seed=seed)
    bots = {0: SPEC.bot("normal"), 1: SPEC.bot("easy"), 2: SPEC.bot("normal"), 3: SPEC.bot("easy")}
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["cpu:normal", "cpu:easy"] * 2, legal=True)
    while not match.is_over():
        seat, move = next_cpu_move(match, lambda s: bots[s])
        assert move in match.legal_moves(seat)
        writer.apply(move, seat)
    records = list(read_records(out.getvalue().splitlines()))
    assert replay(records).log == match.log
    for record in records:
        if record["type"] == "hand_end":
            assert set(record) == {"type", "hand", "points", "cantes", "ultimas", "totals", "winner", "claim",
                                   "score", "cotos"}
        if record["type"] == "deal":
            assert set(record) == {"type", "hand", "hands", "dealer", "mano", "pinta", "stock", "vueltas", "carry"}
    assert set(records[-1]) == {"type", "winner", "cotos", "hands"}
