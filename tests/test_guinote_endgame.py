"""Guiñote's exact endgame (issue 35): in arrastre with few cards left the hard level solves each sampled
world with alpha-beta over the pair's result (las diez de últimas, the cantes sung and still to sing, a
hand de vueltas's claim) instead of rolling out."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games, search, sim
from cardtable.games.guinote import bots, endgame
from cardtable.games.guinote import search as gn_search
from cardtable.games.guinote.state import GuinoteOptions, Play
from cardtable.tricks import team_of

GUINOTE = games.get("guinote")
NORMAL = GUINOTE.bot("normal")


def arrastre_position(seed, cards, options=None, hand=1):
    """A match of `normal` bots stopped at the first play of hand ``hand`` in arrastre with ``cards``
    cards or fewer in the four hands and a choice to make (None if the hand ends first)."""
    match = GUINOTE.new_match(seed=seed, options=options) if options else GUINOTE.new_match(seed=seed)
    while not match.is_over() and match.hand <= hand:
        seat = match.to_move()
        view = match.view(seat)
        if (match.hand == hand and endgame.applies(view) and sum(view.counts) <= cards
                and len(view.legal) > 1 and not match.optional_movers()):
            return match
        mover, move = sim.next_cpu_move(match, lambda _: NORMAL)
        match.apply(move, mover)
    return None


def settle(match):
    """Play the optional moves (cantes, claims) as `normal` does: the solver's model of a window."""
    while not match.is_over():
        movers = [s for s in match.optional_movers()]
        moved = False
        for seat in movers:
            move = bots._optional_choice(match.view(seat))
            if move is not None:
                match.apply(move, seat)
                moved = True
                break
        if not moved:
            return


def outcome_value(record, team):
    """A finished hand on the solver's integer scale (search.pair_result × 250)."""
    winner = record["winner"]
    totals = record["totals"]
    outcome = 0 if winner is None else (endgame.HAND if winner == team else -endgame.HAND)
    return outcome + totals[team] - totals[1 - team]


def brute(match, team):
    """Plain minimax through the engine itself (no pruning, no table, windows sung as `normal` sings):
    the reference the solver must agree with."""
    seat = match.to_move()
    values = []
    for move in match.legal_moves(seat):
        if type(move) is not Play:
            continue
        child = match.clone()
        child.apply(move, seat)
        settle(child)
        if child.hand != match.hand or child.is_over():
            record = next(r for r in reversed(child.events) if r.get("type") == "hand_end")
            values.append(outcome_value(record, team))
        else:
            values.append(brute(child, team))
    return max(values) if team_of(seat) == team else min(values)


def exact(match, seat, card):
    solver = endgame.Solver(match.options, match.trump, team_of(seat), match.vueltas, tuple(match.carry),
                            [10 ** 8])
    return endgame.solve_move(solver, endgame.state_of(match), seat, card)


def every_deal(match, seat):
    """Every deal of the cards hidden from ``seat`` consistent with its view (counts, the cards known
    held, what its plays in arrastre showed a seat lacks): the matches, once each."""
    from itertools import permutations

    from cardtable.games.guinote import sampling

    view = match.view(seat)
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in match.hands[s]]
    excluded, known = sampling.arrastre_exclusions(view), sampling.known_holdings(view)
    for order in sorted(set(permutations(pool))):
        world, at = match.clone(), 0
        for s in others:
            hand = list(order[at:at + len(match.hands[s])])
            at += len(hand)
            world.hands[s] = hand
        if any(c in excluded[s] for s in others for c in world.hands[s]) or any(
                c not in world.hands[s] for s in others for c in known[s]):
            continue
        world._sort_hands()
        assert world.view(seat) == view
        yield world


def test_hard_leads_the_trump_rey_where_every_deal_says_so():
    """Seed 104, two tricks left: South-East (seat 3, trumps Oros) holds 10♣ (Bastos Sota) and the Rey
    of trumps. Over the 72 deals its view allows, leading the Rey is worth +45.6 points of margin a
    deal on average, the Sota +10.0; `normal`, and the search that rolls out with it, lead the Sota.
    The endgame solves each world and leads the Rey."""
    match = arrastre_position(104, 8)
    seat = match.to_move()
    view = match.view(seat)
    rey, sota = (next(m for m in view.legal if m.card.code == code) for code in ("12O", "10B"))
    assert set(view.legal) == {rey, sota} and NORMAL.choose(view) == sota
    deals = list(every_deal(match, seat))
    assert len(deals) == 72
    gain = sum(exact(w, seat, rey.card) - exact(w, seat, sota.card) for w in deals) / len(deals)
    assert gain > 30
    rollout = search.choose(view, list(view.legal), gn_search.world, lambda _s: NORMAL, gn_search.pair_result,
                            gn_search.DEFAULT_BUDGET, sum(view.counts), preferred=sota, tie=0.01)
    assert rollout.move == sota
    evaluation = gn_search.HardBot().evaluate(view)
    assert evaluation.move == rey and evaluation.cost_of(sota) > 0
    assert {m for m, _ in evaluation.scores} == set(view.legal)


def test_a_large_position_rolls_out_as_before():
    match = GUINOTE.new_match(seed=104)
    while not match.view(match.to_move()).arrastre:
        mover, move = sim.next_cpu_move(match, lambda _: NORMAL)
        match.apply(move, mover)
    view = match.view(match.to_move())
    assert sum(view.counts) == 24 and not endgame.applies(view)
    assert not endgame.applies(GUINOTE.new_match(seed=3).view(0))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10 ** 6), cards=st.sampled_from([4, 8, 12]),
       options=st.sampled_from([GuinoteOptions(), GuinoteOptions(cantes_per_win="one_per_player"),
                                GuinoteOptions(thirty_includes_ultimas=False)]))
def test_the_solver_agrees_with_plain_minimax_through_the_engine(seed, cards, options):
    match = arrastre_position(seed, cards, options)
    if match is None:
        return
    seat = match.to_move()
    team = team_of(seat)
    for move in match.legal_moves(seat):
        child = match.clone()
        child.apply(move, seat)
        settle(child)
        if child.hand != match.hand or child.is_over():
            record = next(r for r in reversed(child.events) if r.get("type") == "hand_end")
            reference = outcome_value(record, team)
        else:
            reference = brute(child, team)
        assert exact(match, seat, move.card) == reference


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10 ** 6), cards=st.sampled_from([4, 8]), vueltas_end=st.sampled_from(["claim", "auto"]),
       carry=st.tuples(st.integers(0, 50), st.integers(0, 50)))
def test_the_solver_agrees_with_minimax_in_hands_de_vueltas(seed, cards, vueltas_end, carry):
    """A hand de vueltas ends when a pair past 100 claims in its window (or at once with «auto»): a
    late position made a hand de vueltas, with a carry from the hand before."""
    match = arrastre_position(seed, cards, GuinoteOptions(vueltas_end=vueltas_end))
    if match is None:
        return
    match.vueltas, match.carry = True, carry
    if any(match._total(pair) > 100 for pair in (0, 1)):
        return                               # (it would have ended already)
    seat = match.to_move()
    for move in match.legal_moves(seat):
        child = match.clone()
        child.apply(move, seat)
        settle(child)
        if child.hand != match.hand or child.is_over():
            record = next(r for r in reversed(child.events) if r.get("type") == "hand_end")
            reference = outcome_value(record, team_of(seat))
        else:
            reference = brute(child, team_of(seat))
        assert exact(match, seat, move.card) == reference


def test_an_endgame_decision_depends_only_on_the_view():
    """Deal the hidden cards otherwise (any deal the view allows): the same move and the same values;
    and the same again for the same seed."""
    match = arrastre_position(104, 8)
    seat = match.to_move()
    view = match.view(seat)
    first = gn_search.HardBot().evaluate(view)
    assert first.playouts > 0
    others = [w for w in every_deal(match, seat) if w.hands != match.hands]
    assert others
    for world in others[:: max(1, len(others) // 6)]:
        assert gn_search.HardBot().evaluate(world.view(seat)) == first
    assert gn_search.HardBot().evaluate(view) == first


def test_a_position_past_the_node_budget_rolls_out_with_the_time_left():
    """16 cards left and a budget too small to solve them: the solver gives up, and the rollouts get
    only what it left of the decision's budget (deterministically)."""
    from cardtable.games.guinote.search import HardBot

    small = search.Budget(moves=240, min_playouts=8)
    match = arrastre_position(104, 16)
    view = match.view(match.to_move())
    assert sum(view.counts) == 16
    nodes = small.moves * endgame.NODES_PER_MOVE
    used: list[int] = []
    assert endgame.evaluate(view, gn_search.world, None, 0.01, nodes, used=used) is None
    assert 0 < used[0] <= nodes
    evaluation = HardBot(small).evaluate(view)
    full = search.choose(view, list(view.legal), gn_search.world, lambda _s: NORMAL, gn_search.pair_result,
                         small, sum(view.counts) + view.stock_count, preferred=NORMAL.choose(view), tie=0.01)
    assert evaluation.move in view.legal and 0 < evaluation.playouts < full.playouts
    assert HardBot(small).evaluate(view) == evaluation
