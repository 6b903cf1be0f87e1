from cardtable.cards import parse_card
from cardtable.tricks import following, next_seat, partner, seats_from, team_of, team_seats, trick_winner


def cards(*codes):
    return [parse_card(c) for c in codes]


def test_seats_and_partners():
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert team_seats(1) == (1, 3)
    assert seats_from(3) == [3, 0, 1, 2]


def test_following_suit():
    hand = cards("2S", "9H", "KH")
    assert following(hand, "H") == cards("9H", "KH")
    assert following(hand, "D") == hand
    assert following(hand, None) == hand


def test_trick_winner_without_and_with_trumps():
    plays = list(zip([2, 3, 0, 1], cards("5S", "AH", "9S", "KS")))
    rank = {card: card.rank for card in cards("5S", "AH", "9S", "KS", "2H", "3H", "AS")}
    assert trick_winner(plays, rank) == 1          # K♠ is the highest spade; A♥ is a discard
    assert trick_winner(plays, rank, trump="H") == 3  # the only trump wins
    plays = list(zip([0, 1, 2, 3], cards("5S", "2H", "3H", "AS")))
    assert trick_winner(plays, rank, trump="H") == 2  # higher trump
