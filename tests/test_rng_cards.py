import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    CardError,
    codes,
    french_deck,
    guandan_deck,
    parse_card,
    parse_spanish_card,
    spanish_deck,
)
from cardtable.rng import MAX_SEED, Rng, mix, splitmix64


def test_splitmix64_reference_vector():
    # The published first output of splitmix64 seeded with 0.
    assert splitmix64(0)[0] == 0xE220A8397B1DCDAF


def test_xoshiro256starstar_reference_vector():
    # The reference implementation's output for the state {1, 2, 3, 4}.
    rng = Rng(0)
    rng._s = [1, 2, 3, 4]
    assert [rng.next64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_pinned_seed_outputs():
    rng = Rng(42)
    assert [rng.next64() for _ in range(3)] == [1546998764402558742, 6990951692964543102,
                                               12544586762248559009]
    assert mix(1, 2, 3) == 5455741758780916807


def test_pinned_shuffles_deal_the_same_everywhere():
    deck = french_deck()
    Rng(1).shuffle(deck)
    assert codes(deck[:13]) == ['AH', '8S', 'QS', '7D', '6S', 'QC', '3C', '7S', '6D', 'KS', '5S', '9D', '3H']
    deck = spanish_deck()
    Rng(7).shuffle(deck)
    assert codes(deck[:10]) == ['6C', '5E', '11E', '4C', '2C', '4B', '10E', '6B', '7C', '3C']
    deck = guandan_deck()
    Rng(2026).shuffle(deck)
    assert codes(deck[:12]) == ['6S', '10H', '3S', '9D', '4H', 'KD', '8D', '2H', '9S', '10D', '8C', 'AS']


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, 1.5, "3", True, None])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(ValueError):
        Rng(bad)


@given(st.integers(0, MAX_SEED), st.integers(1, 60))
def test_below_is_in_range_and_shuffle_is_a_permutation(seed, n):
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))
    items = list(range(n))
    rng.shuffle(items)
    assert sorted(items) == list(range(n))
    assert 0.0 <= rng.random() < 1.0


@given(st.integers(0, MAX_SEED), st.integers(1, 300),
       st.sampled_from([1, 2, 3, 7, 40, 108, 256, 257, 1000, 2**32 + 1, 2**63 + 5]))
def test_inline_below_and_shuffle_are_next64_with_textbook_rejection(seed, n, bound):
    """below() and shuffle() run the generator inline and read a table of rejection limits: they give
    what next64() and the textbook rejection give (a bound past 2^63 rejects about half the draws)."""
    fast, plain = Rng(seed), Rng(seed)

    def plain_below(k):
        limit = 2**64 - 2**64 % k
        while True:
            x = plain.next64()
            if x < limit:
                return x % k

    assert [fast.below(bound) for _ in range(6)] == [plain_below(bound) for _ in range(6)]
    items, expected = list(range(n)), list(range(n))
    fast.shuffle(items)
    for i in range(n - 1, 0, -1):
        j = plain_below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert fast.next64() == plain.next64()


def test_below_is_roughly_uniform():
    rng = Rng(5)
    counts = [0] * 6
    for _ in range(60000):
        counts[rng.below(6)] += 1
    assert all(9000 < c < 11000 for c in counts)


def test_clone_continues_identically():
    rng = Rng(9)
    rng.next64()
    twin = rng.clone()
    assert [rng.next64() for _ in range(5)] == [twin.next64() for _ in range(5)]


def test_decks_have_the_right_cards():
    assert len(french_deck()) == 52 and len(set(french_deck())) == 52
    deck = guandan_deck()
    assert len(deck) == 108 and deck.count(SMALL_JOKER) == 2 and deck.count(BIG_JOKER) == 2
    assert all(deck.count(card) == 2 for card in french_deck())
    assert len(spanish_deck()) == 40 and len(set(spanish_deck())) == 40


@pytest.mark.parametrize("code", ["10H", "QS", "2C", "AD", "SJ", "BJ", "JH"])
def test_french_notation_round_trips(code):
    assert parse_card(code).code == code
    assert str(parse_card(code)) == code


@pytest.mark.parametrize("code", ["1O", "12E", "10C", "7B", "11O"])
def test_spanish_notation_round_trips(code):
    assert parse_spanish_card(code).code == code


@pytest.mark.parametrize("bad", ["1H", "11S", "T H", "", "10", "H10", "qs", "XJ", None, 5])
def test_bad_french_codes_raise_a_clear_error(bad):
    with pytest.raises(CardError, match="bad card code"):
        parse_card(bad)


@pytest.mark.parametrize("bad", ["8O", "9C", "13E", "1S", "0B", "10"])
def test_bad_spanish_codes_raise_a_clear_error(bad):
    with pytest.raises(CardError, match="Spanish"):
        parse_spanish_card(bad)


def test_every_card_round_trips():
    for card in guandan_deck():
        assert parse_card(card.code) is card or parse_card(card.code) == card
    for card in spanish_deck():
        assert parse_spanish_card(card.code) == card
    assert Card(14, "S").code == "AS"
