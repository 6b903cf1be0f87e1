"""The hint (the `normal` CPU for your seat) never walks into the mistakes the source lists.

Source, «Errores típicos al empezar con el Gong Zhu»:
1. taking the Transformer after loading negative points — «si ya tienes el Cerdo o corazones altos, deja
   el ♣10 para otro»;
2. dodging hearts so hard that you give away the Goat, the only card that scores;
3. showing a card and forgetting the restriction on the first trick of its suit;
4. not counting the hearts and noticing too late that someone is taking them all;
5. forgetting that from the second hand whoever took the Pig leads (an engine rule: see
   test_gongzhu_rules.test_later_hands_are_led_by_the_pig_taker; the hint is only offered on your turn).
"""

import dataclasses

from cardtable import games
from cardtable.cards import Card, parse_card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions, Play, Show

SPEC = games.get("gongzhu")
ALL = [Card(rank, suit) for suit in "SHDC" for rank in range(2, 15)]


def C(text):
    return [parse_card(code) for code in text.split()]


def view_for(hand, trick=(), played="", taken=None, seat=0):
    """A mid-hand view of ``seat``: ``trick`` as (seat, code) pairs in play order, ``played`` the cards
    of earlier tricks (dealt into tricks led and followed in suit, so no seat looks void), ``taken`` the
    point cards each seat has taken."""
    hand = C(hand)
    trick = tuple((s, parse_card(code)) for s, code in trick)
    earlier = C(played)
    tricks = []
    for start in range(0, len(earlier), 4):
        chunk = earlier[start:start + 4]
        tricks.append(tuple(((seat + 1 + i) % 4, card) for i, card in enumerate(chunk)))
    taken = taken or {}
    piles = tuple(tuple(C(taken.get(s, ""))) for s in range(4))
    lead = trick[0][1].suit if trick else None
    legal_cards = rules.legal_plays(hand, rules.PlayContext(trick, frozenset(), frozenset(), False))
    counts = tuple(len(hand) if s == seat else len(hand) - (1 if any(p == s for p, _ in trick) else 0)
                   for s in range(4))
    assert lead is None or trick[-1][0] == (seat - 1) % 4
    # Start from a real view (whatever bookkeeping fields it carries) and put the position in.
    base = GongZhuMatch(GongZhuOptions(showing=False), 0).view(seat)
    return dataclasses.replace(
        base, seat=seat, hand_number=1, phase="play", to_move=seat, hand=tuple(hand), counts=counts,
        shown=((),) * 4, my_show=(), leader=trick[0][0] if trick else seat, trick=trick,
        tricks=tuple(tricks), winners=tuple(1 for _ in tricks), taken=piles, totals=(0, 0, 0, 0),
        suits_led=frozenset(t[0][1].suit for t in tricks), legal=tuple(Play(c) for c in legal_cards))


def hint(view) -> Card:
    return NormalBot().choose(view).card


# ---------------------------------------------------------------- mistake one: the ♣10 on top of negatives
def test_carrying_hearts_do_not_lead_a_sure_transformer():
    # You took −110 in hearts; every club above the ten is gone, so ♣10 led is a sure winner and would
    # double them. Lead the Pig instead: the ♠A and ♠K are still out to take it («deja el ♣10 para otro»).
    view = view_for("QS 10C", played="JC QC KC AC 2D 3D 4D 5D", taken={0: "10H 8H 7H 5H 6H 3H 9H QH 2H"})
    assert hint(view) == parse_card("QS")


def test_carrying_hearts_go_over_low_so_the_transformer_can_land_elsewhere():
    # You hold ♥K taken; West led ♦2 and you must go over it. The ♣10 is still out: play the low diamond,
    # so that a later diamond may overtake and a discarded ♣10 lands on someone else.
    view = view_for("5D KD 4S", trick=[(3, "2D")], taken={0: "KH"})
    assert hint(view) == parse_card("5D")


def test_carrying_negatives_do_not_lead_a_club_over_the_transformer():
    # A ♣K led while the ♣10 is out invites it under your King.
    view = view_for("KC 8H 9H", taken={0: "QH JH"})
    assert hint(view) != parse_card("KC")


def test_holding_the_transformer_go_over_low():
    # The source's strategy: once you have the Transformer, avoid every other point — it all doubles.
    view = view_for("5D KD 4S", trick=[(3, "2D")], taken={0: "10C"})
    assert hint(view) == parse_card("5D")


def test_last_to_play_never_takes_the_transformer_on_top_of_negatives():
    view = view_for("9C QC", trick=[(1, "8C"), (2, "10C"), (3, "3C")], taken={0: "QS"})
    assert hint(view) == parse_card("9C")


# ---------------------------------------------------------------- mistake two: giving the Goat away
def test_do_not_duck_with_the_goat_under_a_higher_diamond():
    view = view_for("JD 3D 5S", trick=[(3, "QD")])
    assert hint(view) == parse_card("3D")


def test_last_to_play_sheds_another_card_than_the_goat():
    # ♥Q makes the trick bad to take: duck, but with the ♦9, keeping the Goat.
    view = view_for("9D JD", trick=[(1, "4D"), (2, "KD"), (3, "QH")])
    assert hint(view) == parse_card("9D")


def test_going_over_keep_the_goat_while_a_higher_diamond_is_out():
    view = view_for("8D 10D JD", trick=[(2, "6D"), (3, "5D")])
    assert hint(view) != parse_card("JD")


def test_take_the_goat_on_the_table_with_a_sure_diamond():
    # West led the Goat, nothing bad on it: the ♦A takes it for sure, even though you are not last.
    view = view_for("AD 3D 5S", trick=[(3, "JD")])
    assert hint(view) == parse_card("AD")


def test_last_to_play_takes_the_goat_over_a_small_heart():
    view = view_for("KD 3D", trick=[(1, "JD"), (2, "QD"), (3, "5H")])
    assert hint(view) == parse_card("KD")            # +100 −10


# ---------------------------------------------------------------- mistake three: the shown-card restriction
def test_hint_respects_the_shown_card_restriction():
    """Whatever you showed, the hint is a legal card, including on the first trick of a shown suit."""
    bot = NormalBot()
    checked = 0
    for seed in range(30):
        match = GongZhuMatch(GongZhuOptions(max_hands=1), seed)
        showable = rules.showable_in(match.hands[0])
        if not showable:
            continue
        match.apply(Show(tuple(showable)))        # show everything you can
        while not match.is_over():
            seat = match.to_move()
            move = bot.choose(match.view(seat))
            if seat == 0:
                assert match.why_illegal(move) is None
                if isinstance(move, Play) and move.card in match.shown[0] and match.trick:
                    lead = match.trick[0][1].suit
                    assert not (lead == move.card.suit and lead not in match.suits_led
                                and sum(c.suit == lead for c in match.hands[0]) > 1)
                checked += 1
            match.apply(move)
    assert checked > 50


# ---------------------------------------------------------------- mistake four: someone is taking all hearts
def test_break_a_hearts_run():
    # West has taken every heart so far (eight of them): when West leads a heart, go over it.
    view = view_for("9H 2H 3S", trick=[(3, "7H")], played="2S 3C 4C 5C", taken={3: "AH KH QH JH 10H 8H 6H 5H"})
    assert hint(view) == parse_card("9H")


def test_do_not_feed_a_hearts_run_when_void():
    view = view_for("QH 3D 9C", trick=[(3, "5S")], taken={3: "AH KH JH 10H 8H 6H"})
    assert hint(view) != parse_card("QH")


# ---------------------------------------------------------------- the same, over whole hands
def _scan(seeds):
    """Play bot-only hands and collect the source's mistakes one and two where the seat had a choice: a
    sure ♣10 led while carrying negatives, and the Goat played to a trick someone else takes (leads are
    judged by the position tests above: a led Goat may be the lesser evil at the end of a hand)."""
    bot = NormalBot()
    found = []
    for seed in seeds:
        match = GongZhuMatch(GongZhuOptions(max_hands=1), seed)
        pending = []
        while not match.is_over():
            seat = match.to_move()
            view = match.view(seat)
            move = bot.choose(view)
            if isinstance(move, Play):
                score = view.options.score_taken(view.taken[seat], view.all_shown).hand
                legal = [m.card for m in view.legal]
                unseen = set(ALL) - set(view.hand) - view.played
                sure_ten = (move.card == rules.TRANSFORMER and not view.trick
                            and not any(c.suit == "C" and c.rank > 10 for c in unseen))
                if sure_ten and score < 0 and len(legal) > 1:
                    found.append(("led a sure ♣10 carrying negatives", seed, len(match.moves)))
                pending.append((seat, move.card, len(legal)))
                full = list(view.trick) + [(seat, move.card)]
                if len(full) == 4:
                    winner = full[rules.trick_winner_index(full)][0]
                    for s, card, n in pending:
                        if card == rules.GOAT and winner != s and n > 1 and card != full[0][1]:
                            found.append(("gave the Goat away", seed, len(match.moves)))
                    pending = []
            match.apply(move)
    return found


def test_whole_hands_show_neither_mistake():
    assert _scan(range(40)) == []
