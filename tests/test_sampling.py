"""Sampling worlds from a view: consistent with every deduction, and deterministic from the seed."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import french_deck, guandan_deck, parse_card, spanish_deck
from cardtable.games.gongzhu.sampling import sample_hands as gongzhu_sample
from cardtable.games.guandan.sampling import known_holdings as guandan_known
from cardtable.games.guandan.sampling import sample_hands as guandan_sample
from cardtable.games.guinote.sampling import arrastre_voids, known_holdings, sample_world
from cardtable.rng import Rng
from cardtable.sim import next_cpu_move


def advance(spec, seed, steps, level="easy"):
    match = spec.new_match(seed=seed)
    bot = spec.bot(level)
    for _ in range(steps):
        if match.is_over():
            break
        seat, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    return match


@given(st.integers(0, 10 ** 6), st.integers(0, 55), st.integers(0, 2 ** 32))
def test_gongzhu_worlds(seed, steps, rng_seed):
    match = advance(games.get("gongzhu"), seed, steps)
    if match.is_over():
        return
    view = match.view(match.to_move())
    hands = gongzhu_sample(view, Rng(rng_seed))
    assert hands[view.seat] == list(view.hand)
    assert [len(h) for h in hands] == list(view.counts)
    assert Counter(c for h in hands for c in h) + Counter(view.played) == Counter(french_deck())
    voids = view.voids()
    for seat in range(4):
        if seat != view.seat:
            assert not any(c.suit in voids[seat] for c in hands[seat])
            assert all(c in hands[seat] for c in view.shown[seat] if c not in view.played)
    if view.hand_number == 1 and parse_card("2C") not in view.played:
        assert parse_card("2C") in hands[view.leader]     # the first lead of the match is the ♣2
    assert gongzhu_sample(view, Rng(rng_seed)) == hands


@given(st.integers(0, 10 ** 6), st.integers(0, 45), st.integers(0, 2 ** 32))
def test_guinote_worlds(seed, steps, rng_seed):
    match = advance(games.get("guinote"), seed, steps, "normal")
    if match.is_over():
        return
    view = match.view(match.to_move())
    hands, stock = sample_world(view, Rng(rng_seed))
    assert hands[view.seat] == list(view.hand)
    assert [len(h) for h in hands] == list(view.counts)
    table = [view.pinta] if view.pinta_taker is None else []
    assert len(stock) + len(table) == view.stock_count
    assert Counter(c for h in hands for c in h) + Counter(stock) + Counter(view.played) + Counter(table) \
        == Counter(spanish_deck())
    for seat, cards in known_holdings(view).items():
        assert all(c in hands[seat] for c in cards)
    for seat, suits in arrastre_voids(view).items():
        if seat != view.seat:
            assert not any(c.suit in suits for c in hands[seat])


@given(st.integers(0, 10 ** 6), st.integers(0, 300), st.integers(0, 2 ** 32))
def test_guandan_worlds(seed, steps, rng_seed):
    match = advance(games.get("guandan"), seed, steps)
    if match.is_over():
        return
    view = match.view(match.to_move())
    hands = guandan_sample(view, Rng(rng_seed))
    assert hands[view.seat] == list(view.hand)
    assert [len(h) for h in hands] == list(view.counts)
    assert Counter(c for h in hands for c in h) + Counter(view.played) == Counter(guandan_deck())
    for seat, cards in guandan_known(view).items():
        assert not Counter(cards) - Counter(hands[seat])
