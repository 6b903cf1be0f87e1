"""Gong Zhu rules, from docs/rules/gongzhu.md and the source document."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import french_deck, parse_card
from cardtable.engine import IllegalMove
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.rules import PlayContext, legal_plays, score_hand, score_taken
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions, Play, Show, decode_move


def C(text):
    return [parse_card(code) for code in text.split()]


def hand_score(taken, shown="", swap=True, alone=True, all_hearts_elsewhere=False):
    return score_taken(C(taken), C(shown), swap, alone, all_hearts_elsewhere).hand


ALL_H = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


# -- Scenario 1: the source's example
def test_source_example_hand():
    lines = score_hand([C("5H 6H JH JD"), C("QS KH AH 2H"), C("10C 3H"), C("4H 7H 8H 9H 10H QH")], [],
                       swap=True, zero_hearts_alone=True)
    assert [line.hand for line in lines] == [60, -190, 50, -70]
    assert (lines[0].hearts, lines[0].goat, lines[0].base) == (-40, 100, 60)
    assert (lines[1].hearts, lines[1].pig) == (-90, -100)
    assert lines[2].transformer == "alone"


# -- Scenario 2: the Transformer
def test_transformer_doubles_and_alone():
    assert hand_score("10C KH 7H") == -100
    assert hand_score("10C") == 50
    assert hand_score("10C", shown="10C") == 100
    assert hand_score("10C 2H") == 50                      # house rule: ♥2-4 do not break "alone"
    assert hand_score("10C 2H 3H 4H") == 50
    assert hand_score("10C 2H", alone=False) == 0          # "standard": any heart breaks alone (x2 of 0)
    assert score_taken(C("10C 2H"), [], True, False, False).transformer == "x2"


# -- Scenario 3
def test_transformer_with_pig_and_goat():
    assert hand_score("10C QS JD") == 0
    assert hand_score("10C QS", shown="10C QS") == -800
    assert score_taken(C("10C QS"), C("10C QS"), True, True, False).transformer == "x4"


# -- Scenario 4: all hearts and the swap
def test_all_hearts():
    assert hand_score(ALL_H) == 200
    assert hand_score(ALL_H, shown="AH") == 400
    assert hand_score(ALL_H + " QS", all_hearts_elsewhere=True) == 300
    assert hand_score(ALL_H + " QS", swap=False, all_hearts_elsewhere=True) == 100


def test_swap_applies_to_whoever_takes_pig_and_goat():
    lines = score_hand([C(ALL_H), C("QS"), C("JD"), C("10C")], [], swap=True, zero_hearts_alone=True)
    assert [line.hand for line in lines] == [200, 100, -100, 50]
    lines = score_hand([C(ALL_H), C("QS"), C("JD"), C("10C")], [], swap=False, zero_hearts_alone=True)
    assert [line.hand for line in lines] == [200, -100, 100, 50]
    lines = score_hand([C(ALL_H), C("QS"), C("JD"), C("")], C("QS"), swap=True, zero_hearts_alone=True)
    assert lines[1].hand == 200                          # shown Pig doubled, and swapped


# -- Scenario 5: transformer with all hearts, grand slam
def test_grand_slam_and_all_hearts_with_transformer():
    assert hand_score(ALL_H + " 10C") == 400
    assert hand_score(ALL_H + " 10C QS JD") == 800
    assert hand_score(ALL_H + " 10C QS JD", swap=False) == 800
    assert hand_score(ALL_H + " 10C QS JD", shown="JD") == 1000
    assert hand_score(ALL_H + " 10C QS JD", shown="QS JD 10C AH") == 3200
    assert score_taken(C(ALL_H + " 10C QS JD"), [], True, True, True).grand_slam


def test_shown_cards_double_for_the_taker():
    assert hand_score("QS", shown="QS") == -200
    assert hand_score("JD", shown="JD") == 200
    assert hand_score("KH 5H", shown="AH") == -100
    assert hand_score("AH", shown="AH") == -100


def test_hearts_values():
    assert sum(rules.heart_value(c) for c in C(ALL_H)) == -200
    assert [rules.heart_value(c) for c in C("2H 4H 5H 10H JH QH KH AH 5S")] == [0, 0, -10, -10, -20, -30,
                                                                                 -40, -50, 0]


# -- Scenario 6: the shown-card restriction
def ctx(trick="", seats=None, led="", shown="", first=False):
    cards = C(trick)
    seats = seats or list(range(len(cards)))
    return PlayContext(tuple(zip(seats, cards)), frozenset(led), frozenset(C(shown)), first)


def test_shown_pig_may_not_be_played_on_the_first_spade_trick():
    assert legal_plays(C("QS 5S 2H"), ctx("9S", shown="QS")) == C("5S")
    assert legal_plays(C("QS 5S 2H"), ctx("9S", shown="QS", led="S")) == C("QS 5S")   # second spade trick
    assert legal_plays(C("QS 2H"), ctx("9S", shown="QS")) == C("QS")                  # singleton
    assert legal_plays(C("QS 5S 2H"), ctx("9D", shown="QS")) == C("QS 5S 2H")         # discard allowed
    assert legal_plays(C("QS 5S 2H"), ctx("", shown="QS")) == C("5S 2H")              # no lead either
    assert legal_plays(C("QS 5S 2H"), ctx("", shown="QS", led="S")) == C("QS 5S 2H")
    assert legal_plays(C("QS 5S 2H"), ctx("9S")) == C("QS 5S")                        # not shown


def test_first_lead_must_be_two_of_clubs():
    assert legal_plays(C("2C 5C AH"), ctx("", first=True)) == C("2C")


def test_follow_suit_and_refusal_reasons():
    assert legal_plays(C("2H 9S KS"), ctx("5S")) == C("9S KS")
    reason = rules.refusal(parse_card("2H"), C("2H 9S KS"), ctx("5S"))
    assert reason[1] == "must_follow"
    assert rules.refusal(parse_card("AS"), C("2H"), ctx("5S"))[1] == "gz_not_in_hand"


def _refused_by_the_rules_text(card, hand, ctx):
    """The rule as docs/rules/gongzhu.md states it, card by card: the reason key, or None if allowed."""
    lead = ctx.trick[0][1].suit if ctx.trick else card.suit
    if not ctx.trick and ctx.must_lead_two_of_clubs and card != rules.TWO_OF_CLUBS:
        return "gz_lead_2c"
    if card.suit != lead and any(c.suit == lead for c in hand):
        return "must_follow"
    if (card in ctx.shown and card.suit == lead and lead not in ctx.suits_led
            and sum(1 for c in hand if c.suit == card.suit) > 1):
        return "gz_shown_first_round"
    return None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_legal_plays_and_refusals_follow_the_rule_card_by_card(data):
    """The legal set (worked out for the whole hand at once) is the cards the rule allows one by one, in
    the hand's order, and every other card is refused for the clause that refuses it."""
    deck = list(french_deck())
    suits = data.draw(st.sets(st.sampled_from("SHDC"), min_size=1))     # few suits: singletons, voids
    hand = data.draw(st.lists(st.sampled_from([c for c in deck if c.suit in suits or c in rules.SHOWABLE]),
                              min_size=1, max_size=13, unique=True))
    rest = [c for c in deck if c not in hand]
    trick = data.draw(st.lists(st.sampled_from(rest), max_size=3, unique=True))
    showable = [c for c in rules.SHOWABLE if c in hand]
    shown = data.draw(st.sets(st.sampled_from(showable))) if showable else set()
    led = data.draw(st.sets(st.sampled_from("SHDC")))
    first = not trick and data.draw(st.booleans())
    context = PlayContext(tuple(enumerate(trick)), frozenset(led), frozenset(shown), first)
    expected = [c for c in hand if _refused_by_the_rules_text(c, hand, context) is None]
    assert legal_plays(hand, context) == expected
    for card in hand:
        why = rules.refusal(card, hand, context)
        assert (why and why[1]) == _refused_by_the_rules_text(card, hand, context)


def test_trick_winner_is_highest_of_led_suit():
    plays = tuple(zip([1, 2, 3, 0], C("5S AH 9S KS")))
    assert plays[rules.trick_winner_index(plays)][0] == 0


# -- the match
def test_first_hand_led_by_two_of_clubs_holder_after_showing():
    match = GongZhuMatch(GongZhuOptions(), 5)
    assert match.phase == "show" and match.to_move() == 0
    for seat in range(4):
        assert match.to_move() == seat
        match.apply(Show(()))
    holder = next(s for s in range(4) if parse_card("2C") in match.hands[s])
    assert match.to_move() == holder
    assert match.legal_moves() == [Play(parse_card("2C"))]


def test_show_choices_are_hidden_until_all_have_chosen():
    match = GongZhuMatch(GongZhuOptions(), 5)
    showable = rules.showable_in(match.hands[0])
    match.apply(Show(tuple(showable)))
    assert match.view(1).shown == ((),) * 4
    assert match.view(0).my_show == tuple(showable)
    for _ in range(3):
        match.apply(Show(()))
    assert match.view(1).shown[0] == tuple(showable)


def test_show_legal_list_is_every_subset():
    match = GongZhuMatch(GongZhuOptions(), 5)
    held = rules.showable_in(match.hands[0])
    assert len(match.legal_moves()) == 2 ** len(held)
    with pytest.raises(IllegalMove):
        match.apply(Play(match.hands[0][0]))


def test_showing_off_skips_the_phase():
    match = GongZhuMatch(GongZhuOptions(showing=False), 5)
    assert match.phase == "play"
    assert match.legal_moves() == [Play(parse_card("2C"))]


def test_showing_a_card_not_held_is_illegal():
    match = GongZhuMatch(GongZhuOptions(), 5)
    missing = next(c for c in rules.SHOWABLE if c not in match.hands[0])
    with pytest.raises(IllegalMove, match="not in your hand"):
        match.apply(Show((missing,)))


def test_later_hands_are_led_by_the_pig_taker():
    from cardtable import games

    spec = games.get("gongzhu")
    match = spec.new_match(seed=8)
    bot = spec.bot("easy")
    while match.hand == 1:
        match.apply(bot.choose(match.view(match.to_move())))
    end = next(r for r in match.log if r["type"] == "hand_end")
    pig_taker = next(s for s in range(4) if "QS" in end["taken"][s])
    deal2 = [r for r in match.log if r["type"] == "deal"][1]
    assert deal2["leader"] == pig_taker
    while match.phase == "show":
        match.apply(Show(()))
    assert match.to_move() == pig_taker
    assert len(match.legal_moves()) == 13   # any card


def test_match_ends_at_target_with_winner_and_pig():
    from cardtable import games

    spec = games.get("gongzhu")
    match = spec.new_match(seed=2)
    bot = spec.bot("normal")
    while not match.is_over():
        match.apply(bot.choose(match.view(match.to_move())))
    end = match.log[-1]
    assert end["type"] == "match_end"
    assert any(abs(t) >= 500 for t in match.totals) or match.hand == 30
    assert end["winners"] == [s for s in range(4) if match.totals[s] == max(match.totals)]
    assert end["pig"] == [s for s in range(4) if match.totals[s] == min(match.totals)]
    assert match.legal_moves() == [] and match.to_move() is None


def test_max_hands_cap_ends_the_match():
    from cardtable import games

    spec = games.get("gongzhu")
    match = spec.new_match(GongZhuOptions(max_hands=1), 2)
    bot = spec.bot("easy")
    while not match.is_over():
        match.apply(bot.choose(match.view(match.to_move())))
    assert match.hand == 1 and match.log[-1]["hands"] == 1


@pytest.mark.parametrize("data", [{"play": "1H"}, {"show": ["2C"]}, {"show": ["QS", "QS"]}, {"pass": True},
                                  {"play": "QS", "x": 1}, "QS", None])
def test_bad_move_encodings(data):
    from cardtable.engine import MoveError

    with pytest.raises(MoveError):
        decode_move(data)


def test_move_encodings_round_trip():
    assert decode_move({"play": "QS"}) == Play(parse_card("QS"))
    assert decode_move({"show": ["AH", "QS"]}) == Show((parse_card("QS"), parse_card("AH")))
    assert Show(()).to_json() == {"show": []}
