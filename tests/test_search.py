"""The search levels (hard/expert): fair (a function of the PlayerView only), deterministic, legal, and
their worlds consistent with the view. Small budgets keep these quick."""

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games, search, sim
from cardtable.games.gongzhu import rules as gz_rules
from cardtable.games.gongzhu import search as gz_search
from cardtable.games.guandan import search as gd_search
from cardtable.games.guandan.state import Pass, Return
from cardtable.games.guinote import search as gn_search
from cardtable.games.guinote.state import Exchange
from cardtable.games.guinote.state import Play as GuinotePlay
from cardtable.rng import Rng

SMALL = search.Budget(moves=240, min_playouts=4)
GONGZHU = games.get("gongzhu")
GUINOTE = games.get("guinote")
GUANDAN = games.get("guandan")


def same_view(world_view, view):
    """Equal in every field but the per-decision seed (a world has no match seed of its own)."""
    skip = {"bot_seed", "decision"}
    return all(getattr(world_view, f.name) == getattr(view, f.name)
               for f in dataclasses.fields(view) if f.name not in skip)


def advance(spec, seed, steps):
    """A match after ``steps`` moves of `normal` bots (optional moves included)."""
    match = spec.new_match(seed=seed)
    bot = spec.bot("normal")
    for _ in range(steps):
        if match.is_over():
            break
        seat, move = sim.next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    return match


# ---------------------------------------------------------------- Gong Zhu
@settings(max_examples=12)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(4, 50), rng_seed=st.integers(0, 2 ** 32))
def test_gongzhu_world_shows_the_same_view(seed, steps, rng_seed):
    match = advance(GONGZHU, seed, steps)
    seat = match.to_move()
    view = match.view(seat)
    if view.phase != "play":
        return
    world = gz_search.world(view, Rng(rng_seed))
    assert same_view(world.view(seat), view)


@settings(max_examples=8)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(4, 50))
def test_gongzhu_hard_decision_depends_only_on_the_view(seed, steps):
    """Deal the cards hidden from the bot differently (each other seat keeps its count, its shown cards
    and its voids: cards of one suit move between two seats that both hold that suit): same view, same
    bot seed, so the same decision."""
    match = advance(GONGZHU, seed, steps)
    seat = match.to_move()
    view = match.view(seat)
    bot = gz_search.HardBot(SMALL)
    first = bot.choose(view)
    assert first in view.legal
    other = match.clone()
    others = [s for s in range(4) if s != seat]
    shown = {c for cards in other.shown for c in (cards or ())}
    swapped = False
    for a in others:
        for b in others:
            if a < b:
                for card_a in list(other.hands[a]):
                    mate = next((c for c in other.hands[b] if c.suit == card_a.suit and c not in shown
                                 and card_a not in shown), None)
                    if mate is not None:
                        other.hands[a].remove(card_a)
                        other.hands[b].remove(mate)
                        other.hands[a].append(mate)
                        other.hands[b].append(card_a)
                        swapped = True
                        break
    for hand in other.hands:
        hand.sort(key=gz_rules.sort_key)
    assert other.view(seat) == view
    if swapped:
        assert [sorted(h) for h in other.hands] != [sorted(h) for h in match.hands]
    assert gz_search.HardBot(SMALL).choose(other.view(seat)) == first


def test_gongzhu_hard_repeats_its_decision_for_the_same_seed():
    match = advance(GONGZHU, 7, 9)
    view = match.view(match.to_move())
    first = gz_search.HardBot(SMALL).evaluate(view)
    second = gz_search.HardBot(SMALL).evaluate(view)
    assert first == second
    assert first.playouts > 0 and len(view.legal) > 1


def test_gongzhu_hard_plays_a_whole_hand_legally():
    match = GONGZHU.new_match(seed=3)
    bots = [gz_search.HardBot(SMALL), GONGZHU.bot("normal"), GONGZHU.bot("easy"), GONGZHU.bot("normal")]
    while match.hand == 1:
        seat = match.to_move()
        move = bots[seat].choose(match.view(seat))
        assert move in match.legal_moves()
        match.apply(move)
    assert match.results


# ---------------------------------------------------------------- Guiñote
@settings(max_examples=12)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 60), rng_seed=st.integers(0, 2 ** 32))
def test_guinote_world_shows_the_same_view(seed, steps, rng_seed):
    match = advance(GUINOTE, seed, steps)
    if match.is_over():
        return
    for seat in [match.to_move()] + match.optional_movers():
        view = match.view(seat)
        world = gn_search.world(view, Rng(rng_seed))
        assert same_view(world.view(seat), view)


def guinote_exchange_decisions(seeds, hands=1):
    """Matches of `normal` bots stopped while a seat of the pair that won the trick is asked about the
    exchange of the 7 of trumps (the draw waiting), one per seed when the first hands have one."""
    bot = GUINOTE.bot("normal")
    for seed in seeds:
        match = GUINOTE.new_match(seed=seed)
        while not match.is_over() and match.hand <= hands:
            if match.view(0).deciding is not None:
                yield match
                break
            seat, move = sim.next_cpu_move(match, lambda _: bot)
            match.apply(move, seat)


def test_guinote_worlds_show_the_same_view_while_the_seven_is_decided():
    """During the exchange phase (before the draw) a world keeps the pending draw and the seat asked:
    every seat's world shows its view, the seat asked holds the 7 in its own worlds exactly when it
    does, and the world plays on through every decision open there: the partner asked next after the
    trick winner keeps, else the draw."""
    positions = list(guinote_exchange_decisions(range(12), hands=2))
    assert len(positions) >= 5
    for n, match in enumerate(positions):
        deciding = match.view(0).deciding
        seven = next(m.card for m in match.legal_moves(deciding))
        winner = match.winners[-1]
        for seat in range(4):
            view = match.view(seat)
            for rng_seed in range(3):
                world = gn_search.world(view, Rng(rng_seed * 7 + n))
                assert same_view(world.view(seat), view), (n, seat)
                if seat == deciding:
                    assert (seven in world.hands[deciding]) == (seven in match.hands[deciding])
                for move in world.legal_moves(deciding):
                    after = world.clone()
                    after.apply(move, deciding)
                    if deciding == winner and not isinstance(move, Exchange):
                        assert after.view(seat).deciding == (winner + 2) % 4
                        assert after.view(seat).stock_count == view.stock_count
                    else:
                        assert after.view(seat).deciding is None
                        assert after.view(seat).stock_count == view.stock_count - 4


def test_guinote_worlds_do_not_learn_who_holds_the_seven_from_the_question():
    """Being asked about the exchange shows nothing: from a seat that does not see the 7 of trumps,
    the sampled worlds put it in the asked seat's hand in some worlds and elsewhere (the other hands,
    the stock) in others."""
    positions = list(guinote_exchange_decisions(range(12), hands=2))
    checked = 0
    for n, match in enumerate(positions):
        deciding = match.view(0).deciding
        seven = next(m.card for m in match.legal_moves(deciding))
        for seat in range(4):
            if seat == deciding or seven in match.hands[seat]:
                continue
            view = match.view(seat)
            where = set()
            for rng_seed in range(60):
                world = gn_search.world(view, Rng(rng_seed * 11 + n))
                where.add(next((s for s in range(4) if seven in world.hands[s]), "stock"))
            assert deciding in where and len(where) >= 2, (n, seat, where)
            checked += 1
    assert checked >= 10


def test_guinote_hard_decides_the_exchange_legally():
    """hard/expert at the exchange decision: a legal move (the `normal` rule, nothing to search)."""
    for match in guinote_exchange_decisions(range(6)):
        seat = match.view(0).deciding
        view = match.view(seat)
        move = gn_search.HardBot(SMALL).choose(view)
        assert move in view.legal and move in match.legal_moves(seat)
        assert move == GUINOTE.bot("normal").choose(view)


@settings(max_examples=8)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 45))
def test_guinote_hard_decision_depends_only_on_the_view(seed, steps):
    """Shuffle the hidden cards (the other hands and the stock) among those places: same view, same
    bot seed, so the same decision."""
    match = advance(GUINOTE, seed, steps)
    if match.is_over():
        return
    seat = match.to_move()
    view = match.view(seat)
    first = gn_search.HardBot(SMALL).choose(view)
    assert first is None or first in view.legal
    other = match.clone()
    hidden = [s for s in range(4) if s != seat]
    pool = [c for s in hidden for c in other.hands[s]] + list(other.stock)
    pool.reverse()
    for s in hidden:
        n = len(other.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    other.stock = pool
    other._sort_hands()
    assert other.view(seat) == view
    assert gn_search.HardBot(SMALL).choose(other.view(seat)) == first


def test_guinote_hard_repeats_its_decision_for_the_same_seed():
    match = advance(GUINOTE, 11, 6)
    view = match.view(match.to_move())
    assert sum(isinstance(m, GuinotePlay) for m in view.legal) > 1
    first = gn_search.HardBot(SMALL).evaluate(view)
    assert first == gn_search.HardBot(SMALL).evaluate(view)
    assert first.playouts > 0


def test_guinote_hard_plays_a_whole_hand_legally():
    match = GUINOTE.new_match(seed=5)
    hard = gn_search.HardBot(SMALL)
    normal = GUINOTE.bot("normal")
    bots = [hard, normal, hard, normal]
    while match.hand == 1:
        seat, move = sim.next_cpu_move(match, lambda s: bots[s])
        assert move in match.legal_moves(seat)
        match.apply(move, seat)
    assert match.results


# ---------------------------------------------------------------- Guandan
def guandan_positions(seed, hands=2):
    """(match, seat) at every play or return decision of the first hands of a `normal` match."""
    match = GUANDAN.new_match(seed=seed)
    bot = GUANDAN.bot("normal")
    while not match.is_over() and match.hand <= hands:
        seat = match.to_move()
        view = match.view(seat)
        if view.phase == "play" or any(isinstance(m, Return) for m in view.legal):
            yield match, seat
        match.apply(bot.choose(view), seat)


def test_guandan_worlds_show_the_same_view():
    for index, (match, seat) in enumerate(guandan_positions(4)):
        view = match.view(seat)
        world = gd_search.world(view, Rng(index))
        assert same_view(world.view(seat), view)
        if view.top is not None:   # those who passed since the top play are the ones the world skips
            assert world.passed == match.passed


@settings(max_examples=5)
@given(seed=st.integers(0, 10 ** 6), skip=st.integers(0, 150))
def test_guandan_hard_decision_depends_only_on_the_view(seed, skip):
    positions = guandan_positions(seed)
    for _ in range(skip):
        if next(positions, None) is None:
            return
    found = next(positions, None)
    if found is None:
        return
    match, seat = found
    view = match.view(seat)
    first = gd_search.HardBot(SMALL).choose(view)
    # Legal by the rules: Guandan's legal list holds one play per form, and a bot may pick other cards of
    # the same form (7C7H7S+JDJS for the listed 7C7H7S+10C10S): membership in the list is not the test.
    assert match.why_illegal(first, seat) is None
    other = match.clone()
    hidden = [s for s in range(4) if s != seat]
    pool = [c for s in hidden for c in other.hands[s]]
    pool.reverse()
    for s in hidden:
        n = len(other.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    other._sort()
    assert other.view(seat) == view
    assert gd_search.HardBot(SMALL).choose(other.view(seat)) == first


def test_guandan_hard_repeats_its_decision_and_weighs_a_short_list():
    for match, seat in guandan_positions(9, hands=1):
        view = match.view(seat)
        preferred = GUANDAN.bot("normal").choose(view)
        moves = gd_search.candidates(view, preferred)
        if len(moves) > 2 and view.top is not None:
            break
    assert moves[0] == preferred and Pass() in moves
    assert all(m in view.legal for m in moves) and len(moves) <= gd_search.MAX_CANDIDATES
    first = gd_search.HardBot(SMALL).evaluate(view)
    assert first == gd_search.HardBot(SMALL).evaluate(view)
    assert first.move in moves and first.playouts > 0


# ---------------------------------------------------------------- the core
def test_search_keeps_the_preferred_move_on_a_tie_and_counts_its_budget():
    match = advance(GONGZHU, 2, 5)
    view = match.view(match.to_move())
    budget = search.Budget(moves=0, min_playouts=60)

    def flat(record, world, seat):
        return 0.0

    preferred = view.legal[-1]
    result = search.choose(view, list(view.legal), gz_search.world, lambda _: GONGZHU.bot("easy"), flat,
                           budget, sum(view.counts), preferred=preferred)
    assert result.move == preferred
    assert len(view.legal) > 1
    assert 0 < result.playouts <= 60
    assert result.cost_of(preferred) == 0.0


def test_levels_are_registered():
    for spec in (GONGZHU, GUINOTE, GUANDAN):
        assert {"easy", "normal", "hard", "expert"} <= set(spec.bots)
        assert spec.bot("expert").budget.moves == 4 * spec.bot("hard").budget.moves


def test_sim_stops_each_match_after_the_hands_asked_and_pairs_the_deals():
    result = sim.run(GUINOTE, GUINOTE.options_type(), 2, 1, ["normal", "easy", "normal", "easy"],
                     rotate=True, hands=2)
    assert result.matches == 4
    assert result.hands == 8
    assert result.paired is not None and result.paired_levels == ("normal", "easy")
    assert result.paired.n >= 2
    assert sum(s.n for s in result.decided_by_level.values()) <= 2 * result.hands


# ---------------------------------------------------------------- the endgames (issue 35)
def _late(spec, seed, cards, applies):
    """A `normal` match stopped at the first decision of its first hand where ``applies(view)`` and the
    four hands hold ``cards`` cards or fewer (None if there is none)."""
    match = spec.new_match(seed=seed)
    bot = spec.bot("normal")
    while not match.is_over() and match.hand == 1:
        view = match.view(match.to_move())
        if applies(view) and sum(view.counts) <= cards and not match.optional_movers():
            return match
        seat, move = sim.next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    return None


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10 ** 6), cards=st.sampled_from([8, 12, 16]))
def test_guinote_endgame_decision_depends_only_on_the_view(seed, cards):
    """In arrastre, solved per world: the hidden cards dealt otherwise among the other seats give the
    same view, so the same decision."""
    from cardtable.games.guinote import endgame

    match = _late(GUINOTE, seed, cards, endgame.applies)
    if match is None:
        return
    seat = match.to_move()
    view = match.view(seat)
    first = gn_search.HardBot().evaluate(view)
    other = match.clone()
    hidden = [s for s in range(4) if s != seat]
    pool = [c for s in hidden for c in other.hands[s]][::-1]
    for s in hidden:
        n = len(other.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    other._sort_hands()
    assert other.view(seat) == view
    assert gn_search.HardBot().evaluate(other.view(seat)) == first


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10 ** 6), cards=st.sampled_from([6, 9, 12]))
def test_gongzhu_endgame_decision_depends_only_on_the_view(seed, cards):
    """In the last tricks, solved per world: cards of one suit swapped between two other seats that both
    hold it (voids and shown cards kept) give the same view, so the same decision."""
    from cardtable.games.gongzhu import endgame

    match = _late(GONGZHU, seed, cards, endgame.applies)
    if match is None:
        return
    seat = match.to_move()
    view = match.view(seat)
    first = gz_search.HardBot().evaluate(view)
    hands = [list(h) for h in match.hands]
    shown = {c for cards_ in match.shown for c in (cards_ or ())}
    others = [s for s in range(4) if s != seat]
    for a in others:
        for b in others:
            card_a = next((c for c in hands[a] if c not in shown and a < b), None)
            mate = card_a and next((c for c in hands[b] if c.suit == card_a.suit and c not in shown), None)
            if card_a is not None and mate is not None:
                hands[a][hands[a].index(card_a)], hands[b][hands[b].index(mate)] = mate, card_a
    other = match.clone()
    other.hands = [sorted(h, key=gz_rules.sort_key) for h in hands]
    assert other.view(seat) == view
    assert gz_search.HardBot().evaluate(other.view(seat)) == first
