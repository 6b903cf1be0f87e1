"""Guandan tricks, tribute, levels and Aces: the rules page's scenarios and whole-match properties."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import BIG_JOKER, guandan_deck, parse_card
from cardtable.engine import IllegalMove, MoveError
from cardtable.games.guandan import rules
from cardtable.games.guandan.state import (
    GuandanMatch,
    GuandanOptions,
    Pass,
    Play,
    Return,
    Tribute,
    decode_move,
)
from cardtable.sim import next_cpu_move

SPEC = games.get("guandan")


def C(text):
    return [parse_card(c) for c in text.split()]


def play_of(match, text):
    cards = C(text)
    combo = rules.classify(cards, match.level)[0]
    return Play(tuple(cards), combo.type, combo.key)


def rigged(hands, level=2, **options):
    """A match in its play phase with the given hands (the rest of the deck is irrelevant here)."""
    match = GuandanMatch(GuandanOptions(**options), 1)
    match.hands = [C(h) for h in hands]
    match.level = level
    match._sort()
    match.turn = 0
    return match


# -- tricks
def test_leader_may_not_pass_and_others_may():
    match = rigged(["3S 4S", "5S 6S", "7S 8S", "9S 10S"])
    with pytest.raises(IllegalMove, match="may not pass"):
        match.apply(Pass())
    match.apply(play_of(match, "3S"))
    assert Pass() in match.legal_moves()
    match.apply(Pass())


def test_trick_ends_when_the_turn_returns_to_the_owner():
    match = rigged(["3S 4S", "5S 6S", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "4S"))
    match.apply(play_of(match, "6S"))
    for _ in range(3):
        match.apply(Pass())
    assert match.top is None and match.to_move() == 1


def test_a_player_who_passed_may_play_again_in_the_same_trick():
    match = rigged(["3S 4S KS", "5S 6S", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "3S"))
    match.apply(play_of(match, "6S"))
    match.apply(Pass())            # seat 2
    match.apply(play_of(match, "9S"))
    match.apply(play_of(match, "KS"))   # seat 0 plays again
    assert match.top.seat == 0


def test_scenario_8_partner_leads_after_going_out_unbeaten():
    match = rigged(["3S", "5S 6S", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "3S"))         # seat 0 goes out
    assert match.finish == [0]
    for _ in range(3):
        match.apply(Pass())
    assert match.to_move() == 2                # 接风: the partner leads


def test_scenario_8_normal_lead_when_the_last_play_was_beaten():
    match = rigged(["3S", "5S 6S", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "3S"))
    match.apply(play_of(match, "6S"))
    match.apply(Pass())
    match.apply(Pass())
    assert match.to_move() == 1


def test_out_players_are_skipped():
    match = rigged(["3S", "5S 6S", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "3S"))
    match.apply(play_of(match, "6S"))
    assert match.to_move() == 2
    match.apply(Pass())
    match.apply(Pass())
    assert match.to_move() == 1 and not match.hands[0]


def test_beating_and_refusals():
    match = rigged(["3S 3D 4S", "5S 5D AS", "7S 8S", "9S 10S"])
    match.apply(play_of(match, "3S 3D"))
    with pytest.raises(IllegalMove, match="does not beat"):
        match.apply(play_of(match, "AS"))
    with pytest.raises(IllegalMove, match="not all in your hand"):
        match.apply(play_of(match, "KS KD"))
    with pytest.raises(IllegalMove, match="cannot be read"):
        match.apply(Play(tuple(C("5S 5D")), "pair", 9))
    with pytest.raises(IllegalMove, match="not a valid play"):
        match.apply(Play(tuple(C("5S AS")), "pair", 5))
    match.apply(play_of(match, "5S 5D"))


# -- hand end and levels
def end_with(match, finish):
    match.finish = list(finish[:3]) if len(finish) > 2 else list(finish)
    for seat in range(4):
        match.hands[seat] = [] if seat in match.finish else [parse_card("3S")]
    match._end_hand()
    return next(r for r in reversed(match.log) if r["type"] == "hand_end")


@pytest.mark.parametrize("finish,rise", [([0, 2], 3), ([0, 1, 2], 2), ([0, 1, 3], 1)])
def test_level_rises(finish, rise):
    match = GuandanMatch(GuandanOptions(), 3)
    record = end_with(match, finish)
    assert record["winner_team"] == 0 and record["level_up"] == rise
    assert record["levels"] == [rules.rank_name(2 + rise), "2"]
    assert match.level == 2 + rise and match.declarer == 0


def test_hand_ends_when_first_partner_is_out_or_three_are_out():
    match = GuandanMatch(GuandanOptions(), 3)
    match.finish = [1, 3]
    assert match._hand_over()
    match.finish = [1, 0]
    assert not match._hand_over()
    match.finish = [1, 0, 2]
    assert match._hand_over()


def test_scenario_12_capped_at_a_and_winning_at_own_a():
    match = GuandanMatch(GuandanOptions(), 3)
    match.levels = [12, 2]
    record = end_with(match, [0, 2])
    assert record["levels"][0] == "A" and record["level_up"] == 2 and match.level == 14
    record = end_with(match, [0, 1, 2])                # at own A: 1-3 wins
    assert record["match_won"] and match.is_over()
    assert match.log[-1] == {"type": "match_end", "winner_team": 0, "hands": match.hand}


def test_own_a_one_four_is_a_failure_and_the_source_example():
    match = GuandanMatch(GuandanOptions(), 3)
    match.levels = [12, 5]
    record = end_with(match, [0, 1, 2])               # Q, 1st and partner 3rd: +2 → A
    assert record["levels"][0] == "A"
    record = end_with(match, [0, 1, 3])               # at A: partner last → no pass, a failure
    assert record["level_up"] == 0 and record["a_failures"] == [1, 0] and not record["match_won"]
    assert match.level == 14 and match.declarer == 0
    record = end_with(match, [0, 3, 2])               # 1st and partner 3rd → the match
    assert record["match_won"]


def test_other_team_first_at_our_a_is_a_failure_and_three_strikes_sends_back():
    match = GuandanMatch(GuandanOptions(aces="three_strikes"), 3)
    match.levels, match.a_failures, match.declarer = [14, 5], [2, 0], 0
    record = end_with(match, [1, 3])
    assert record["a_failures"] == [0, 0] and record["levels"] == ["2", "8"]
    match2 = GuandanMatch(GuandanOptions(aces="unlimited"), 3)
    match2.levels, match2.a_failures, match2.declarer = [14, 5], [2, 0], 0
    record = end_with(match2, [1, 3])
    assert record["a_failures"] == [3, 0] and record["levels"] == ["A", "8"]


def test_hands_at_the_other_teams_level_are_no_failures():
    match = GuandanMatch(GuandanOptions(), 3)
    match.levels, match.declarer = [14, 5], 1
    match.level = 5
    record = end_with(match, [1, 0, 2])
    assert record["a_failures"] == [0, 0] and not record["match_won"]


def test_both_at_a_the_previous_winner_plays_its_own_a():
    match = GuandanMatch(GuandanOptions(), 3)
    match.levels, match.declarer = [14, 14], 0
    record = end_with(match, [1, 3])                   # team 1 wins at team 0's A: no match for team 1
    assert not record["match_won"] and record["a_failures"] == [1, 0]
    assert match.declarer == 1 and match.level == 14


# -- tribute
def next_hand_after(finish, seed=5):
    match = GuandanMatch(GuandanOptions(), seed)
    end_with(match, finish)
    return match


def test_single_tribute_after_one_three():
    match = next_hand_after([0, 1, 2])                 # seat 3 last
    assert match.tribute == "single" and match.to_move() == 3
    deal = match.log[-1]
    assert deal["tribute"] == "single" and deal["leader"] == 3
    choice = match.legal_moves()
    best = max(rules.card_value(c, match.level) for c in match.hands[3] if not rules.is_wild(c, match.level))
    assert all(rules.card_value(m.card, match.level) == best for m in choice)
    match.apply(choice[0])
    assert match.to_move() == 0
    returns = match.legal_moves()
    assert all(isinstance(m, Return) for m in returns)
    match.apply(returns[0])
    assert match.phase == "play" and match.to_move() == 3


def test_scenario_9_one_four_partner_pays_and_leads():
    match = next_hand_after([0, 1, 3])                 # seat 2 (A's partner) is last
    assert match.tribute == "single" and match.to_move() == 2
    match.apply(match.legal_moves()[0])
    assert match.to_move() == 0                        # A returns to C
    match.apply(match.legal_moves()[0])
    assert match.to_move() == 2                        # C leads


def test_double_tribute_higher_card_to_first():
    for seed in range(50):
        match = next_hand_after([0, 2], seed=seed)
        if match.tribute == "double":
            break
    values = {p: match.tribute_card_value(p) for p in (1, 3)}
    assert [kind for kind, _ in match.pending] == ["tribute", "tribute", "return", "return"]
    to_first = match.log[-1]["leader"]
    assert values[to_first] >= values[1 if to_first == 3 else 3]
    if values[1] == values[3]:
        assert to_first == 1                            # the payer next after the 1st pays the 1st
    for _ in range(2):
        match.apply(match.legal_moves()[0])
    received = {m[2]: m[1] for m in match.tribute_moves if m[0] == "tribute"}
    assert received[0] == to_first
    for _ in range(2):
        match.apply(match.legal_moves()[0])
    assert match.phase == "play" and match.to_move() == to_first
    assert sum(len(h) for h in match.hands) == 108 and all(len(h) == 27 for h in match.hands)


def test_a_payers_view_says_whom_its_tribute_goes_to():
    """With two payers the receiver depends on both hands: a payer's view says its own only once the
    other payer's card is on the table (the «you pay X» notice reads it); nobody else's view names one."""
    for seed in range(50):
        match = next_hand_after([0, 2], seed=seed)
        if match.tribute == "double":
            break
    assert match.tribute == "double"
    to_first = match.log[-1]["leader"]
    other = 1 if to_first == 3 else 3
    while match.phase == "tribute":
        expected = {to_first: 0, other: 2}
        payer = match.to_move()
        if payer in expected and payer not in match.paid:
            # The one paying now is told only once the other payer's card is on the table.
            later = other if payer == to_first else to_first
            assert match.view(payer).tribute_to == (expected[payer] if later in match.paid else None)
        assert match.view(0).tribute_to is None and match.view(2).tribute_to is None
        match.apply(match.legal_moves()[0])
    assert all(match.view(seat).tribute_to is None for seat in range(4))


def test_anti_tribute_when_payers_hold_both_big_jokers():
    for seed in range(400):
        match = GuandanMatch(GuandanOptions(), seed)
        hands_next = None
        clone = match.clone()
        end_with(clone, [0, 1, 2])
        if clone.tribute == "anti":
            hands_next = clone
            break
    assert hands_next is not None
    assert hands_next.hands[3].count(BIG_JOKER) == 2 and hands_next.anti_holders == (3,)
    assert hands_next.to_move() == 0 and hands_next.phase == "play"


def test_scenario_10_tribute_card_is_forced():
    match = GuandanMatch(GuandanOptions(), 1)
    match.level = 5
    match.hands[3] = C("BJ AS 5S 3D")
    assert match.tribute_choices(3) == [BIG_JOKER]
    match.hands[3] = C("AS 5S 5H 3D")
    assert match.tribute_choices(3) == C("5S")          # a level card, never the wild 5♥
    match.hands[3] = C("AS AD 3D")
    assert set(match.tribute_choices(3)) == set(C("AS AD"))   # equal cards: the payer chooses


def test_scenario_11_return_rules():
    match = GuandanMatch(GuandanOptions(), 1)
    match.level = 8
    match.hands[0] = C("2S 8S 10D JS AS")
    assert match.return_choices(0) == C("2S 10D")
    match.hands[0] = C("JS QD AS 8S 8H SJ")
    assert match.return_choices(0) == C("JS")


def test_illegal_tribute_and_return_moves():
    match = next_hand_after([0, 1, 2])
    with pytest.raises(IllegalMove, match="tribute"):
        match.apply(Pass())
    low = min(match.hands[3], key=lambda c: rules.card_value(c, match.level))
    with pytest.raises(IllegalMove, match="highest"):
        match.apply(Tribute(low))


# -- encodings and properties
def test_move_encodings():
    move = decode_move({"play": ["5S", "6S", "2H", "8S", "9S"], "as": {"type": "straight_flush", "key": "9"}})
    assert move.type == "straight_flush" and move.key == 9 and len(move.cards) == 5
    assert decode_move(move.to_json()) == move
    assert decode_move({"pass": True}) == Pass()
    assert decode_move({"tribute": "AS"}).to_json() == {"tribute": "AS"}
    joker = decode_move({"play": ["SJ", "SJ", "BJ", "BJ"], "as": {"type": "joker_bomb", "key": None}})
    assert joker.key is None
    for bad in ({"play": ["5S"]}, {"play": [], "as": {"type": "single", "key": "5"}}, {"pass": False},
                {"play": ["5S"], "as": {"type": "quad", "key": "5"}}, {"play": ["5S"], "as": {"type": "single", "key": "X"}}):
        with pytest.raises(MoveError):
            decode_move(bad)


@given(seed=st.integers(0, 2 ** 64 - 1), data=st.data())
def test_random_legal_play_keeps_108_cards(seed, data):
    match = SPEC.new_match(seed=seed)
    deck = Counter(guandan_deck())
    for _ in range(data.draw(st.integers(0, 160))):
        if match.is_over():
            break
        move = data.draw(st.sampled_from(match.legal_moves()))
        match.apply(move)
        views = [match.view(s) for s in range(4)]
        assert Counter(c for v in views for c in v.hand) + Counter(views[0].played) == deck
        assert match.hand > 1 or len(match.finish) <= 3


@given(seed=st.integers(0, 10 ** 6), data=st.data())
def test_random_selections_are_accepted_exactly_when_legal(seed, data):
    match = SPEC.new_match(seed=seed)
    for _ in range(data.draw(st.integers(0, 30))):
        match.apply(data.draw(st.sampled_from(match.legal_moves())))
    if match.phase != "play":
        return
    seat = match.to_move()
    hand = match.hands[seat]
    picks = data.draw(st.lists(st.integers(0, len(hand) - 1), min_size=1, max_size=6, unique=True))
    cards = [hand[i] for i in picks]
    top = match.top.combo if match.top else None
    for combo in rules.classify(cards, match.level) or [rules.Combo("single", 3, len(cards))]:
        move = Play(tuple(cards), combo.type, combo.key)
        ok = combo in rules.classify(cards, match.level) and rules.beats(combo, top, match.level)
        assert (match.why_illegal(move) is None) == ok


def test_whole_bot_matches_levels_and_finishing_consistent():
    bot = {0: SPEC.bot("normal"), 1: SPEC.bot("easy"), 2: SPEC.bot("normal"), 3: SPEC.bot("easy")}
    match = SPEC.new_match(seed=11)
    while not match.is_over() and match.hand < 40:
        seat, move = next_cpu_move(match, lambda s: bot[s])
        assert match.why_illegal(move, seat) is None
        match.apply(move, seat)
    for record in (r for r in match.log if r["type"] == "hand_end"):
        assert sorted(record["finish"]) == [0, 1, 2, 3]
        assert record["winner_team"] == record["finish"][0] % 2
        assert 0 <= record["level_up"] <= 3


@pytest.mark.parametrize("finish,holders", [([0, 1, 2], 1), ([0, 2], 2)])
def test_sampled_worlds_keep_the_big_jokers_shown_against_the_tribute(finish, holders):
    """An anti-tribute shows who holds the two big jokers: every world keeps them there until played."""
    from cardtable.games.guandan.sampling import sample_hands
    from cardtable.rng import Rng

    for seed in range(3000):
        match = GuandanMatch(GuandanOptions(), seed)
        end_with(match, finish)
        if match.tribute == "anti" and len(match.anti_holders) == holders:
            break
    else:
        pytest.skip("no such deal in the seeds tried")
    viewer = next(s for s in range(4) if s not in match.anti_holders)
    view = match.view(viewer)
    for rng_seed in range(10):
        hands = sample_hands(view, Rng(rng_seed))
        for holder in match.anti_holders:
            assert hands[holder].count(BIG_JOKER) == match.hands[holder].count(BIG_JOKER) == 2 // holders


# -- the generator's shortcuts (kept counts per seat, straight-flush suit choice)
def _forms(moves):
    return [(m.type, m.key, m.size, m.cards) for m in moves if isinstance(m, Play)]


def _fresh(match, seat):
    top = match.top.form if match.top else None
    return [(kind, key, size, tuple(sorted(build(a, b)))) for kind, key, size, build, a, b in
            rules.play_forms(list(match.hands[seat]), match.level, top, match.options.straight_flush_as_straight)]


@pytest.mark.parametrize("seed", [3, 11])
def test_legal_plays_are_those_of_the_hand_held_now(seed):
    """The counts a seat's hand was read into are kept while the hand is the same (a seat that passed asks
    again): through tributes, returns, worlds with new hands and clones, the plays offered are always
    those a fresh reading of the hand held now gives."""
    from cardtable.rng import Rng

    match = GuandanMatch(GuandanOptions(), seed)
    rng = Rng(seed)
    asked = 0
    while not match.is_over() and match.hand <= 3:
        seat = match.to_move()
        moves = match.legal_moves()
        if not match.pending:
            assert _forms(moves) == _fresh(match, seat)
            asked += 1
            if asked % 7 == 0:          # a world: the other hands dealt again, same sizes
                world = match.redeal_hidden((seat + 1) % 4, rng)
                assert _forms(world.legal_moves()) == _fresh(world, seat)
                twin = match.clone()
                assert _forms(twin.legal_moves()) == _fresh(twin, seat)
        match.apply(moves[rng.below(len(moves))])
    assert asked > 300


def test_straight_flush_suit_needing_fewest_wilds_then_cheapest_cards():
    # Level 10: the wild is 10H. Window 3-7 in spades lacks the 7, in diamonds the 3: one wild each, and
    # the diamonds' natural cards (4-7) are dearer than the spades' (3-6).
    hand = C("3S 4S 5S 6S 4D 5D 6D 7D 10H")
    sf = [form for form in rules.play_forms(hand, 10) if form[0] == "straight_flush" and form[1] == 7]
    assert len(sf) == 1
    cards = sf[0][3](sf[0][4], sf[0][5])
    assert sorted(c for c in cards if c != parse_card("10H")) == sorted(C("3S 4S 5S 6S"))
    # Swapped: now the spades' cards are the dearer ones, so diamonds make it though spades come first.
    hand = C("4S 5S 6S 7S 3D 4D 5D 6D 10H")
    sf = [form for form in rules.play_forms(hand, 10) if form[0] == "straight_flush" and form[1] == 7]
    cards = sf[0][3](sf[0][4], sf[0][5])
    assert sorted(c for c in cards if c != parse_card("10H")) == sorted(C("3D 4D 5D 6D"))
    # Fewer wilds beat cheaper cards: a complete club run wins over spades needing a wild.
    hand = C("3S 4S 5S 6S 3C 4C 5C 6C 7C 10H")
    sf = [form for form in rules.play_forms(hand, 10) if form[0] == "straight_flush" and form[1] == 7]
    assert {c.suit for c in sf[0][3](sf[0][4], sf[0][5])} == {"C"}
    # Equal need and equal cards: the first suit of ♠ ♥ ♦ ♣.
    hand = C("3D 4D 5D 6D 7D 3S 4S 5S 6S 7S")
    sf = [form for form in rules.play_forms(hand, 10) if form[0] == "straight_flush" and form[1] == 7]
    assert {c.suit for c in sf[0][3](sf[0][4], sf[0][5])} == {"S"}
