"""Whole-match properties of Guiñote with hypothesis choosing seeds and legal moves."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import spanish_deck
from cardtable.engine import IllegalMove
from cardtable.games.guinote.state import Cante, Claim, Exchange, KeepSeven, Play
from cardtable.sim import next_cpu_move

SPEC = games.get("guinote")
DECK = sorted(spanish_deck())


def check_conservation(match):
    cards = [c for h in match.hands for c in h] + list(match.stock) + [c for _, c in match.trick]
    cards += [c for t in match.tricks for _, c in t]
    if match.pinta_taker is None:
        cards.append(match.pinta)
    assert sorted(cards) == DECK


def plays_or_decision(match, seat):
    """The card plays open to ``seat``, or (before a draw) the exchange decision of the holder of the 7."""
    legal = match.legal_moves(seat)
    return [m for m in legal if isinstance(m, Play)] or [m for m in legal if isinstance(m, Exchange | KeepSeven)]


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
        match.apply(data.draw(st.sampled_from(plays_or_decision(match, seat))), seat)
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



@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_bot_decision_depends_only_on_its_view(seed, data):
    match = SPEC.new_match(seed=seed)
    for _ in range(data.draw(st.integers(0, 35))):
        if match.is_over():
            return
        seat = match.to_move()
        match.apply(data.draw(st.sampled_from(plays_or_decision(match, seat))), seat)
    seat = match.to_move()
    view = match.view(seat)
    other = match.clone()
    # Shuffle every card this seat cannot see (other hands and the stock) among those places.
    hidden_places = [s for s in range(4) if s != seat]
    pool = [c for s in hidden_places for c in other.hands[s]] + list(other.stock)
    pool.reverse()
    for s in hidden_places:
        n = len(other.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    other.stock = pool
    other._sort_hands()
    assert other.view(seat) == view
    for level in ("easy", "normal"):
        assert SPEC.bot(level).choose(other.view(seat)) == SPEC.bot(level).choose(view)


def random_match(seed, data, limit=600):
    """A match played by random legal moves of any seat that may move (exchanges, declines, cantes and
    claims included), written as a history with the legal lists; returns (match, history records)."""
    import io

    from cardtable.history import HistoryWriter, read_records

    match = SPEC.new_match(seed=seed)
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["human"] + ["cpu:normal"] * 3, legal=True)
    steps = 0
    while not match.is_over() and steps < limit:
        movers = [match.to_move()] + [s for s in match.optional_movers() if s != match.to_move()]
        seat = data.draw(st.sampled_from(movers))
        writer.apply(data.draw(st.sampled_from(match.legal_moves(seat))), seat)
        steps += 1
    return match, list(read_records(out.getvalue().splitlines()))


@settings(max_examples=max(1, settings.default.max_examples * 5 // 8))   # whole matches: lighter
@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_exchange_comes_before_the_draw_and_the_history_keeps_the_order(seed, data):
    """After a trick: the exchange (by the pair's holder of the 7, holding it before the draw), then the
    draw, then cantes and claims, then the lead. A declined exchange writes no line and the history
    still replays."""
    from cardtable.history import replay

    match, records = random_match(seed, data, limit=250)
    assert replay(records).log == match.log
    replayed = SPEC.match_type.replay(match.options, match.seed, match.moves)
    assert replayed.log == match.log
    # Walk the history: between two plays, no exchange after a cante or claim.
    since_trick: list[dict] = []
    plays = 0
    for record in records:
        if record["type"] == "deal":
            plays, since_trick = 0, []
        if record["type"] != "move":
            continue
        move = record["move"]
        if "play" in move:
            plays += 1
            since_trick = []
            continue
        if "exchange" in move:
            assert plays % 4 == 0 and 0 < plays <= 16, "an exchange only right after one of tricks 1-4"
            assert not since_trick, f"exchange after {since_trick}"
            assert record["legal"] == [{"exchange": move["exchange"]}]
        since_trick.append(move)


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_the_exchange_decision_cannot_see_the_cards_to_draw(seed, data):
    """While the pair that won the trick decides on the exchange, nobody has drawn: every seat's view
    (and the bots' choices) is the same whatever order the stock is in. The seat asked may exchange
    exactly when it holds the 7; it may always keep."""
    match = SPEC.new_match(seed=seed)
    while not match.is_over() and match.pending_draw is None and len(match.tricks) < 4 and match.hand == 1:
        seat = match.to_move()
        legal = match.legal_moves(seat)
        choices = [m for m in legal if isinstance(m, Play)] or legal
        match.apply(data.draw(st.sampled_from(choices)), seat)
    if match.pending_draw is None:
        return
    seat = match.exchange_seat
    assert match.to_move() == seat and match.optional_movers() == []
    seven = SPEC.match_type.decode_move({"keep": f"7{match.trump}"}).card
    assert set(match.legal_moves(seat)) == ({Exchange(seven), KeepSeven(seven)} if seven in match.hands[seat]
                                            else {KeepSeven(seven)})
    assert all(len(h) == 5 for h in match.hands)
    assert not any(isinstance(m, Cante | Claim | Play) for s in range(4) for m in match.legal_moves(s))
    twin = match.clone()
    twin.stock = list(reversed(twin.stock))
    for s in range(4):
        assert twin.view(s) == match.view(s)
    for level in ("easy", "normal"):
        assert SPEC.bot(level).choose(twin.view(seat)) == SPEC.bot(level).choose(match.view(seat))


@settings(max_examples=max(1, settings.default.max_examples * 5 // 8))   # whole matches: lighter
@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_move_lists_of_version_0_1_still_replay(seed, data):
    """Saves of cardtable 0.1 have no declines and may hold the exchange after the window's cantes:
    they replay to the same match."""
    match, _ = random_match(seed, data, limit=200)
    old: list = []
    held = None     # an exchange the old order makes later in its window
    for seat, move in match.moves:
        if isinstance(move, KeepSeven):
            continue
        if isinstance(move, Exchange):
            held = (seat, move)
            continue
        if held is not None and (isinstance(move, Play | Claim) or move_needs(held, seat, move)
                                 or data.draw(st.booleans())):
            old.append(held)
            held = None
        old.append((seat, move))
    if held is not None:
        old.append(held)
    assert SPEC.match_type.replay(match.options, match.seed, old).log == match.log


def move_needs(exchange, seat, move):
    """An old-order exchange still had to come before a cante by the exchanger (it may sing with the
    pinta)."""
    return isinstance(move, Cante) and seat == exchange[0]
