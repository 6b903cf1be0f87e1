"""Guiñote: being asked about the exchange of the 7 of trumps shows nothing (issue 9's fairness gap).

After each of tricks 1-4 the pair that won it is asked, the trick winner first and then its partner,
whenever an onlooker could not rule the exchange out (see ``GuinoteMatch.exchange_possible``): whether
the phase happens and who is asked never depend on where the 7 is. A seat without the 7 can only keep
(the table makes that move for it); the holder exchanges or keeps. Two true states that differ only in
where the 7 is give the same views to every seat that does not see it, all through the phase."""

from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.sampling import known_holdings
from cardtable.games.guinote.state import Exchange, GuinoteMatch, KeepSeven, Play
from cardtable.history import HistoryWriter, read_records, replay
from cardtable.sim import next_cpu_move

SPEC = games.get("guinote")
STOCK = "stock"


def seven_of(match):
    return SpanishCard(rules.SEVEN, match.trump)


def where_is(match, card):
    return next((s for s in range(4) if card in match.hands[s]), STOCK if card in match.stock else None)


def swapped(match, card, place, other):
    """A copy of ``match`` in which ``card`` and ``other`` (in ``place``: a seat or the stock) trade
    places: another deal that the table cannot tell apart from this one."""
    twin = match.clone()
    here = where_is(twin, card)
    for spot, old, new in ((here, card, other), (place, other, card)):
        cards = twin.stock if spot == STOCK else twin.hands[spot]
        cards[cards.index(old)] = new
    twin._sort_hands()
    return twin


def public_phase_expected(match):
    """Whether an exchange phase must follow the trick just completed, from public facts only (seat 0's
    view; any seat's would do)."""
    view = match.view(0)
    seven = seven_of(match)
    return (len(view.tricks) <= rules.PHASE1_TRICKS and view.exchange is None and view.pinta_taker is None
            and rules.exchange_allowed(view.pinta, view.options.exchange_any_pinta) and seven not in view.played)


def keep_through_the_phase(*matches):
    """Every seat asked keeps (the holder by choice, the others by their only move), in all ``matches``
    in step; yields before each decision and once after the draw."""
    while matches[0].pending_draw is not None:
        yield
        asked = matches[0].exchange_seat
        for match in matches:
            assert match.exchange_seat == asked
            match.apply(KeepSeven(seven_of(match)), asked)
    yield


def to_phase(seed, holder_is_winner=True):
    """A hand-1 match of `normal` bots stopped as an exchange phase opens (the trick winner asked) with
    the winner holding the 7 (or not, with ``holder_is_winner=False``, the 7 in the other pair's hands
    or the stock)."""
    bot = SPEC.bot("normal")
    match = SPEC.new_match(seed=seed)
    while match.hand == 1 and not match.is_over():
        if match.pending_draw is not None:
            winner = match.winners[-1]
            if match.exchange_seat == winner and (seven_of(match) in match.hands[winner]) == holder_is_winner:
                return match
            if holder_is_winner is False and where_is(match, seven_of(match)) not in (winner, (winner + 2) % 4):
                return match
        seat, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    return None


def first(finder, seeds=range(200)):
    for seed in seeds:
        match = finder(seed)
        if match is not None:
            return match
    raise AssertionError("no such state in 200 seeds")


# -- the rules of the phase
def test_the_pair_is_asked_in_order_and_only_the_holder_may_exchange():
    match = first(to_phase)
    winner, partner = match.winners[-1], (match.winners[-1] + 2) % 4
    seven = seven_of(match)
    # The partner holds the 7: the winner is asked first all the same and can only keep.
    twin = swapped(match, seven, partner, match.hands[partner][0])
    assert twin.to_move() == winner and twin.legal_moves(winner) == [KeepSeven(seven)]
    assert twin.automatic_move(winner) == KeepSeven(seven)
    refusal = twin.why_illegal(Exchange(seven), winner)
    assert refusal is not None and refusal.key == "gn_no_seven"
    twin.apply(KeepSeven(seven), winner)
    assert twin.to_move() == partner and twin.pending_draw is not None
    assert set(twin.legal_moves(partner)) == {Exchange(seven), KeepSeven(seven)}
    assert twin.automatic_move(partner) is None            # a real choice: nobody makes it for the holder
    pinta = twin.pinta
    twin.apply(Exchange(seven), partner)
    assert twin.exchange == (partner, pinta) and twin.pending_draw is None and twin.to_move() == winner
    # The winner holds it and exchanges: the phase ends there, the partner is not asked.
    match.apply(Exchange(seven), winner)
    assert match.pending_draw is None and match.to_move() == winner and match.moves[-1] == (winner, Exchange(seven))


def test_a_pair_without_the_seven_is_asked_too_and_the_table_keeps_for_it():
    """The 7 in the other pair's hands or in the stock: the phase happens all the same; both seats'
    only move is to keep, and ``next_auto_move`` makes it even for a person (no bot)."""
    from cardtable.engine import next_auto_move

    match = first(lambda seed: to_phase(seed, holder_is_winner=False))
    winner, partner = match.winners[-1], (match.winners[-1] + 2) % 4
    seven, log = seven_of(match), len(match.log)
    for asked in (winner, partner):
        assert match.to_move() == asked and match.view(asked).deciding == asked
        assert match.legal_moves(asked) == [KeepSeven(seven)]
        assert next_auto_move(match, lambda _: None) == (asked, KeepSeven(seven))
        match.apply(KeepSeven(seven), asked)
    assert match.pending_draw is None and match.to_move() == winner
    assert len(match.log) == log                           # keeps are silent in the history


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_whether_the_phase_happens_depends_on_public_facts_only(seed, data):
    """After every trick: an exchange phase (the trick winner asked) exactly when the public facts allow
    an exchange (tricks 1-4, not yet exchanged, an exchangeable pinta, the 7 not played), wherever the
    7 is."""
    match = SPEC.new_match(seed=seed)
    phases = 0
    while not match.is_over() and match.hand == 1:
        seat = match.to_move()
        legal = [m for m in match.legal_moves(seat) if isinstance(m, Play)] or match.legal_moves(seat)
        tricks = len(match.tricks)
        match.apply(data.draw(st.sampled_from(legal)), seat)
        if len(match.tricks) > tricks and match.hand == 1 and not match.is_over():
            expected = public_phase_expected(match)
            assert (match.pending_draw is not None) is expected
            if expected:
                phases += 1
                assert match.exchange_seat == match.winners[-1] == match.to_move()


# -- nothing shows where the 7 is
def test_opponents_cannot_tell_which_seat_of_the_pair_holds_the_seven_or_whether_it_is_in_the_stock():
    """Three true states at the opening of a phase: the trick winner holds the 7 (A), its partner does
    (B), the 7 lies in the stock where the winner draws it (C). Everybody keeps. The opponents see the
    same in all three at every step of the phase and after the draw; the partner sees the same in A and
    C; the history's lines and the summary are the same."""
    a = first(to_phase)
    winner, partner = a.winners[-1], (a.winners[-1] + 2) % 4
    seven = seven_of(a)
    b = swapped(a, seven, partner, a.hands[partner][-1])
    c = swapped(a, seven, STOCK, a.stock[0])             # the winner draws stock[0]
    logs = [len(m.log) for m in (a, b, c)]
    opponents = ((winner + 1) % 4, (winner + 3) % 4)
    steps = 0
    for _ in keep_through_the_phase(a, b, c):
        steps += 1
        for seat in opponents:
            assert a.view(seat) == b.view(seat) == c.view(seat)
        assert a.view(partner) == c.view(partner)
        assert a.to_move() == b.to_move() == c.to_move()
        assert a.optional_movers() == b.optional_movers() == c.optional_movers()
        assert a.summary() == b.summary() == c.summary()
        assert a.log[logs[0]:] == b.log[logs[1]:] == c.log[logs[2]:]
    assert steps == 3                                     # winner asked, partner asked, after the draw
    assert a.hands == c.hands and seven in a.hands[winner] and seven in b.hands[partner]
    # The holder's own choice was a real one in A and B, the keep of the seat without the 7 forced.
    assert [m for _, m in a.moves[-2:]] == [KeepSeven(seven)] * 2 == [m for _, m in b.moves[-2:]]


def _hidden_swap(match, viewer, data):
    """Swap the 7 with a card ``viewer`` cannot see and does not know about (in another seat's hand or
    the stock): another true state for it. None when the viewer holds the 7 or it is not hidden."""
    seven = seven_of(match)
    if where_is(match, seven) in (viewer, None):
        return None
    known = {c for cards in known_holdings(match.view(viewer)).values() for c in cards}
    places = [(s, c) for s in range(4) if s != viewer for c in match.hands[s] if c not in known and c != seven]
    places += [(STOCK, c) for c in match.stock if c != seven]
    place, card = data.draw(st.sampled_from(places))
    return swapped(match, seven, place, card)


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_views_of_seats_without_the_seven_never_depend_on_where_it_is(seed, data):
    """Random games of random legal moves: before a trick's last card, move the 7 to another place the
    viewer cannot see; play that card in both. Whether a phase follows, who is asked, and every view
    of the viewer (its bots' choices with it) stay the same until the draw, everybody keeping."""
    match = SPEC.new_match(seed=seed)
    while not match.is_over() and match.hand == 1 and len(match.tricks) < rules.PHASE1_TRICKS:
        seat = match.to_move()
        legal = match.legal_moves(seat)
        if len(match.trick) == 3 and data.draw(st.booleans()):
            break
        choices = [m for m in legal if isinstance(m, Play)] or legal
        match.apply(data.draw(st.sampled_from(choices)), seat)
    if len(match.trick) != 3 or match.hand != 1:
        return
    last = match.to_move()
    card = data.draw(st.sampled_from(sorted(match.hands[last], key=str)))
    if card == seven_of(match):
        return
    viewer = data.draw(st.sampled_from([s for s in range(4) if seven_of(match) not in match.hands[s]]))
    twin = _hidden_swap(match, viewer, data)
    if twin is None or card not in twin.hands[last]:
        return
    assert twin.view(viewer) == match.view(viewer)
    for m in (match, twin):
        m.apply(Play(card), last)
    assert twin.pending_draw == match.pending_draw and twin.exchange_seat == match.exchange_seat
    normal = SPEC.bot("normal")
    for _ in keep_through_the_phase(match, twin):
        if match.pending_draw is None:
            break                                   # drawn: the viewer may draw another card now
        assert twin.view(viewer) == match.view(viewer)
        assert twin.to_move() == match.to_move()
        if match.to_move() == viewer:
            assert normal.choose(twin.view(viewer)) == normal.choose(match.view(viewer)) == KeepSeven(seven_of(match))


def test_an_onlookers_sampled_worlds_do_not_put_the_seven_with_the_seat_asked():
    """``known_holdings`` (what a seat knows others hold) no longer lists the 7 for the seat asked."""
    match = first(lambda seed: to_phase(seed, holder_is_winner=False))
    seven = seven_of(match)
    for seat in range(4):
        assert all(seven not in cards for cards in known_holdings(match.view(seat)).values())


# -- histories and saves
@given(seed=st.integers(0, 10 ** 6))
def test_normal_matches_write_no_keep_and_replay_exactly(seed):
    """A whole hand of `normal` bots written with the legal lists: keeps (by either seat) have no line,
    and the history and the move list both replay to the same log."""
    import io

    match = SPEC.new_match(seed=seed)
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["cpu:normal"] * 4, legal=True)
    bot = SPEC.bot("normal")
    while not match.is_over() and match.hand == 1:
        seat, move = next_cpu_move(match, lambda _: bot)
        writer.apply(move, seat)
    records = list(read_records(out.getvalue().splitlines()))
    assert not any("keep" in r["move"] for r in records if r["type"] == "move")
    assert replay(records).log == match.log
    assert GuinoteMatch.replay(match.options, match.seed, match.moves).log == match.log


def _holder_only(match):
    """The move list as the previous version wrote it: only the pair's holder of the 7 was asked, so
    there is no keep by a seat without the 7."""
    replayed = GuinoteMatch(match.options, match.seed)
    old = []
    for seat, move in match.moves:
        if not (isinstance(move, KeepSeven) and move.card not in replayed.hands[seat]):
            old.append((seat, move))
        replayed.apply(move, seat)
    return old


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_move_lists_of_the_holder_only_phase_still_replay(seed, data):
    """Saves made while only the holder was asked replay to the same moves (the keeps of the seats
    without the 7 supplied) and the same history; a list cut anywhere (mid-phase included) loads and
    plays on."""
    match = SPEC.new_match(seed=seed)
    bot = SPEC.bot(data.draw(st.sampled_from(["easy", "normal"])))
    while not match.is_over() and match.hand <= 2:
        seat = match.to_move()
        legal = match.legal_moves(seat)
        if any(isinstance(m, Exchange) for m in legal) and data.draw(st.booleans()):
            move = KeepSeven(seven_of(match))        # the holder declines now and then
        else:
            seat, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    old = _holder_only(match)
    again = GuinoteMatch.replay(match.options, match.seed, old)
    assert again.moves == match.moves and again.log == match.log
    cut = data.draw(st.integers(0, len(old)))
    resumed = GuinoteMatch.replay(match.options, match.seed, old[:cut])
    for _ in range(60):
        if resumed.is_over():
            break
        seat, move = next_cpu_move(resumed, lambda _: bot)
        resumed.apply(move, seat)


def test_a_holder_only_save_cut_as_a_phase_opens_loads_in_the_phase():
    """A previous-version save ending right after a trick its rules gave no phase (the pair had no 7)
    loads with the phase open: the trick winner asked, nobody drawn; it plays on to the same hand."""
    match = first(lambda seed: to_phase(seed, holder_is_winner=False))
    old = _holder_only(match)
    assert old == match.moves or len(old) < len(match.moves)
    loaded = GuinoteMatch.replay(match.options, match.seed, old)
    assert loaded.pending_draw == match.pending_draw and loaded.exchange_seat == match.winners[-1]
    assert loaded.hands == match.hands and loaded.stock == match.stock
    bot = SPEC.bot("normal")
    for m in (match, loaded):
        while not m.is_over() and m.hand == 1:
            m.apply(*reversed(next_cpu_move(m, lambda _: bot)))
    assert loaded.log == match.log and loaded.moves == match.moves
    assert len(_holder_only(match)) < len(match.moves)     # the old list lacked the keeps
