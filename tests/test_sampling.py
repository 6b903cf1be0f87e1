"""Sampling worlds from a view: consistent with every deduction, and deterministic from the seed."""

from collections import Counter
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import french_deck, guandan_deck, parse_card, parse_spanish_card, spanish_deck
from cardtable.games.gongzhu.sampling import sample_hands as gongzhu_sample
from cardtable.games.guandan.sampling import known_holdings as guandan_known
from cardtable.games.guandan.sampling import sample_hands as guandan_sample
from cardtable.games.guinote.sampling import arrastre_exclusions, known_holdings, sample_world
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
    for seat, cards in arrastre_exclusions(view).items():     # the suits not followed among them
        if seat != view.seat:
            assert not cards & set(hands[seat])


@given(st.integers(0, 10 ** 6), st.integers(20, 60), st.sampled_from(["easy", "normal"]))
def test_guinote_exclusions_never_exclude_a_card_the_seat_holds(seed, steps, level):
    """Sound deductions: what the arrastre plays say a seat lacks, it truly lacks (from any viewer)."""
    match = advance(games.get("guinote"), seed, steps, level)
    if match.is_over():
        return
    view = match.view(match.to_move())
    for seat, cards in arrastre_exclusions(view).items():
        assert not cards & set(match.hands[seat]), (seat, cards & set(match.hands[seat]))


def _arrastre_view(*tricks, trump="O"):
    """A view with four phase-one tricks (which show nothing) and then the arrastre tricks given, the
    last one being played: each trick "seat:card ..."."""
    def parse(text):
        return tuple((int(play[0]), parse_spanish_card(play[2:])) for play in text.split())
    phase1 = tuple(parse("0:4C 1:5C 2:6C 3:2B") for _ in range(4))
    *done, current = [parse(text) for text in tricks]
    return SimpleNamespace(tricks=phase1 + tuple(done), trick=current, arrastre=True, trump=trump)


def cards(text):
    return {parse_spanish_card(code) for code in text.split()}


def test_guinote_exclusions_follow_the_obligations_of_the_rules_page():
    # Seat 1 follows the opponent's Rey de espadas low: no As or 3 of espadas. Seat 2's partner wins:
    # no deduction. Seat 3, void, does not trump the Rey: no espadas and no trumps at all.
    view = _arrastre_view("0:12E 1:5E 2:4E 3:2B")
    lacks = arrastre_exclusions(view)
    assert lacks[1] == cards("1E 3E")
    assert lacks[2] == set()
    assert lacks[3] == {c for c in spanish_deck() if c.suit in "EO"}
    assert lacks[0] == set()


def test_guinote_exclusions_when_a_trump_wins_or_is_over_trumped():
    # Trick 1: seat 1 trumps the 7 of espadas; seat 2 follows under that trump (any espada will do);
    # seat 3's partner wins, so its club says only that it has no espadas. Trick 2: seat 2 trumps
    # (no bastos); seat 3, void, does not over-trump the 4 of oros: no trump above it (the 2 it may hold).
    view = _arrastre_view("0:7E 1:2O 2:6E 3:1C", "1:7B 2:4O 3:5C")
    lacks = arrastre_exclusions(view)
    suit = {s: {c for c in spanish_deck() if c.suit == s} for s in "OCEB"}
    assert lacks[1] == suit["E"]
    assert lacks[2] == suit["B"]
    assert lacks[3] == suit["E"] | suit["B"] | cards("1O 3O 12O 10O 11O 7O 6O 5O")


def test_guinote_phase_one_shows_nothing():
    view = _arrastre_view("0:12E 1:5E 2:4E 3:2B")
    view.tricks, view.trick, view.arrastre = view.tricks[:3], view.trick, False
    assert all(not cards for cards in arrastre_exclusions(view).values())


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
