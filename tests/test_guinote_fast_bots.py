"""Guiñote's fast paths give what the plain rule gives: the trick winner written out over the card
tables against ``tricks.winning_index``; the arrastre obligations and the cante/claim options against
the rule as first written; the views' played cards (a cell shared by the views until the next trick
ends) against the tricks; and the easy and normal bots (per-card key tables, the unseen cards read as
card bits) against a plain transcription of their policies, over states reached by random legal
play (hypothesis draws the deal and the moves)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import spanish_deck
from cardtable.games.guinote import rules
from cardtable.games.guinote.bots import EasyBot, NormalBot, Unseen, _optional_choice
from cardtable.games.guinote.state import CARD_BITS, Cante, Claim, GuinoteMatch, GuinoteOptions, Play
from cardtable.rng import Rng
from cardtable.tricks import partner, team_of

DECK = spanish_deck()


# ---------------------------------------------------------------- the plain policies
def plain_beats(card, top, trump):
    if card.suit == top.suit:
        return rules.strength(card) > rules.strength(top)
    return card.suit == trump


def plain_keep_value(card, view):
    value = rules.points(card) * 1.0 + rules.strength(card) * 0.1
    if card.suit == view.trump:
        value += 6
    if card.rank in (rules.REY, rules.SOTA) and plain_unsung(view, card.suit):
        value += 12
    return value


def plain_unsung(view, suit):
    sung = {c.suit for c in view.cantes if c.seat == view.seat or c.suit is not None}
    return suit not in sung and rules.can_sing(view.hand, suit)


def plain_winning_index(plays, trump):
    """The trick rule as the rules page says it: the strongest trump played, else the strongest card of
    the suit led."""
    trumps = [i for i, (_, card) in enumerate(plays) if card.suit == trump]
    led = [i for i, (_, card) in enumerate(plays) if card.suit == plays[0][1].suit]
    return max(trumps or led, key=lambda i: rules.strength(plays[i][1]))


def plain_top(view):
    return view.trick[plain_winning_index(view.trick, view.trump)]


def plain_easy(view):
    optional = _optional_choice(view)
    if optional is not None or view.to_move != view.seat:
        return optional
    cards = [m.card for m in view.legal if isinstance(m, Play)]
    if not view.trick:
        plain = [c for c in cards if c.suit != view.trump] or cards
        return Play(min(plain, key=lambda c: (rules.points(c), rules.strength(c))))
    top_seat, top = plain_top(view)
    if top_seat == partner(view.seat):
        plain = [c for c in cards if c.suit != view.trump] or cards
        return Play(max(plain, key=lambda c: (rules.points(c), -rules.strength(c))))
    winners = [c for c in cards if plain_beats(c, top, view.trump)]
    trick_points = sum(rules.points(c) for _, c in view.trick)
    if winners and (trick_points >= 10 or view.arrastre):
        return Play(min(winners, key=lambda c: (c.suit == view.trump, rules.points(c), rules.strength(c))))
    return Play(min(cards, key=lambda c: (rules.points(c), c.suit == view.trump, rules.strength(c))))


def plain_played(view):
    return frozenset(c for t in view.tricks for _, c in t) | {c for _, c in view.trick}


def plain_unseen(view):
    known = set(view.hand) | plain_played(view)
    if view.pinta is not None and view.pinta_taker is None:
        known.add(view.pinta)
    return set(DECK) - known


def beaten_by_unseen(card, unseen, trump):
    return any(plain_beats(other, card, trump) for other in unseen)


def plain_normal(view):
    optional = _optional_choice(view)
    if optional is not None or view.to_move != view.seat:
        return optional
    cards = [m.card for m in view.legal if isinstance(m, Play)]
    if len(cards) == 1:
        return Play(cards[0])
    unseen = plain_unseen(view)
    trump = view.trump
    if not view.trick:
        my_trumps = [c for c in cards if c.suit == trump]
        trumps_out = [c for c in unseen if c.suit == trump]
        if view.arrastre:
            masters = [c for c in my_trumps if not beaten_by_unseen(c, unseen, trump)]
            if masters and trumps_out and len(my_trumps) >= len(trumps_out):
                return Play(max(masters, key=rules.strength))
            if not trumps_out:
                sure = [c for c in cards if not beaten_by_unseen(c, unseen, trump)]
                if sure:
                    return Play(max(sure, key=lambda c: (rules.points(c), rules.strength(c))))
        plain = [c for c in cards if c.suit != trump] or cards
        return Play(min(plain, key=lambda c: plain_keep_value(c, view)))
    top_seat, top = plain_top(view)
    last = len(view.trick) == 3
    trick_points = sum(rules.points(c) for _, c in view.trick)
    if top_seat == partner(view.seat):
        if last or not beaten_by_unseen(top, unseen, trump):
            loads = [c for c in cards if not plain_beats(c, top, trump) or c.suit != trump]
            return Play(max(loads or cards, key=lambda c: (rules.points(c) - (
                12 if c.rank in (rules.REY, rules.SOTA) and plain_unsung(view, c.suit) else 0), -rules.strength(c))))
        return Play(min(cards, key=lambda c: plain_keep_value(c, view)))
    winners = [c for c in cards if plain_beats(c, top, trump)]
    if winners:
        if last:
            best = min(winners, key=lambda c: plain_keep_value(c, view))
            if trick_points + rules.points(best) >= 2 or view.arrastre or rules.points(best) == 0:
                return Play(best)
        else:
            holding = [c for c in winners if not beaten_by_unseen(c, unseen, trump)]
            if holding and (trick_points >= 3 or view.arrastre):
                return Play(min(holding, key=lambda c: plain_keep_value(c, view)))
            if trick_points >= 10:
                return Play(min(winners, key=lambda c: plain_keep_value(c, view)))
    return Play(min(cards, key=lambda c: plain_keep_value(c, view)))


def plain_arrastre_plays(hand, trick, seat, trump):
    hand = list(hand)
    if not trick:
        return hand
    lead = trick[0][1].suit
    top_seat, top = trick[plain_winning_index(trick, trump)]
    same = [c for c in hand if c.suit == lead]
    if top_seat == partner(seat):
        return same or hand
    if same:
        if top.suit == trump and lead != trump:
            return same
        return [c for c in same if plain_beats(c, top, trump)] or same
    return [c for c in hand if plain_beats(c, top, trump)] or hand


def plain_optional(match, seat):
    if match.window_pair is None or team_of(seat) != match.window_pair:
        return []
    moves = []
    if not (match.options.cantes_per_win == "one_per_player" and seat in match.window_singers):
        sung = {suit for _, suit, _, _ in match.cantes}
        moves.extend(Cante(s) for s in "OCEB" if s not in sung and rules.can_sing(match.hands[seat], s))
    if match.vueltas and match.options.vueltas_end == "claim":
        moves.append(Claim())
    return moves


# ---------------------------------------------------------------- the checks
OPTIONS = [GuinoteOptions(), GuinoteOptions(cantes_per_win="one_per_player", vueltas_end="auto",
                                            exchange_any_pinta=True)]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS), moves=st.integers(60, 400))
def test_fast_bots_and_rules_agree_with_the_plain_ones(seed, options, moves):
    """Every state of a random match (optional moves taken at random too): both bots choose what
    the plain policy chooses for every seat, the optional moves are the plain rule's, Unseen reads
    as the unseen set."""
    match = GuinoteMatch(options, seed)
    rng = Rng(seed)
    easy, normal = EasyBot(), NormalBot()
    kept = []      # views of earlier states: their played cards stay theirs (the views share cells)
    for _ in range(moves):
        seat = match.to_move()
        if seat is None:
            break
        for other in range(4):
            assert list(match._optional(other)) == plain_optional(match, other)
            assert (rules.arrastre_plays(match.hands[other], match.trick, other, match.trump)
                    == plain_arrastre_plays(match.hands[other], match.trick, other, match.trump))
            view = match.view(other)
            if rng.below(8) == 0:
                kept.append(view)
            else:
                assert view.played == plain_played(view)
                assert view.finished_bits() == bits_of(view.finished_cards())
            assert easy.choose(view) == plain_easy(view)
            assert normal.choose(view) == plain_normal(view)
            unseen, tops = plain_unseen(view), Unseen(view)
            assert tops.trumps == sum(1 for c in unseen if c.suit == view.trump)
            for card in DECK:
                assert tops.beaten(card) == beaten_by_unseen(card, unseen, view.trump)
        movers = match.optional_movers()
        if movers and rng.below(2):
            seat = movers[rng.below(len(movers))]
        legal = match.legal_moves(seat)
        match.apply(legal[rng.below(len(legal))], seat)
    for view in kept:
        assert view.played == plain_played(view)
        assert view.finished_cards() == frozenset(c for t in view.tricks for _, c in t)
        assert view.finished_bits() == bits_of(view.finished_cards())


def bits_of(cards):
    """The card set as CARD_BITS, one card at a time."""
    return sum(CARD_BITS[card] for card in cards)


def test_card_bits_are_one_bit_per_card_each_suit_in_order_of_strength():
    assert sorted(CARD_BITS.values()) == [1 << i for i in range(40)]
    for card in DECK:
        for other in DECK:
            if other.suit == card.suit:
                assert (CARD_BITS[other] > CARD_BITS[card]) == (rules.strength(other) > rules.strength(card))


@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=4, unique=True),
       trump=st.sampled_from("OCEB"))
def test_trick_winner_is_the_shared_rule(cards, trump):
    plays = [(seat, card) for seat, card in enumerate(cards)]
    assert rules.winner_index(plays, trump) == plain_winning_index(plays, trump)
    top = plays[rules.winner_index(plays, trump)][1]
    for card in DECK:
        assert rules.beats(card, top, trump) == plain_beats(card, top, trump)
        assert rules.STRENGTH_OF[card] == rules.strength(card) and rules.POINTS_OF[card] == rules.points(card)


def test_the_plain_policies_are_exercised():
    """The seeded loop above meets leads, follows, partner tops, arrastre, cantes and claims."""
    seen = set()
    match = GuinoteMatch(GuinoteOptions(), 3)
    rng = Rng(3)
    while match.to_move() is not None and match.hand < 4:
        seat = match.to_move()
        view = match.view(seat)
        if any(isinstance(m, Cante) for m in view.legal):
            seen.add("cante")
        if any(isinstance(m, Claim) for m in view.legal):
            seen.add("claim")
        if view.arrastre and view.trick:
            seen.add("arrastre follow")
        if view.trick and plain_top(view)[0] == partner(seat):
            seen.add("partner on top")
        assert NormalBot().choose(view) == plain_normal(view)
        movers = match.optional_movers()
        if movers and rng.below(2):
            seat = movers[0]
        legal = match.legal_moves(seat)
        match.apply(legal[rng.below(len(legal))], seat)
    assert {"cante", "arrastre follow", "partner on top"} <= seen


def test_the_fused_step_plays_what_next_auto_move_and_apply_play():
    """``play_auto_move`` (one call on its common path) finds and applies the moves of
    ``next_auto_move`` followed by ``apply``, whole matches long, at both levels and both option sets."""
    from cardtable.engine import next_auto_move

    for options in OPTIONS:
        for level, bot in (("easy", EasyBot()), ("normal", NormalBot())):
            for seed in range(6):
                fused, plain = GuinoteMatch(options, seed), GuinoteMatch(options, seed)
                bot_for = dict.fromkeys(range(4), bot).get
                while (step := fused.play_auto_move(bot_for)) is not None:
                    assert next_auto_move(plain, bot_for) == step, (level, seed, len(plain.moves))
                    plain.apply(step[1], step[0])
                assert plain.to_move() is None and fused.moves == plain.moves and fused.log == plain.log


def test_the_fused_step_stops_for_a_person_where_next_auto_move_does():
    """With a person at seat 0 (no bot), ``play_auto_move`` answers None exactly when ``next_auto_move``
    does (the person to move, after the CPUs' optional cantes and claims), and otherwise the same move;
    the person's moves are made by a normal bot through ``apply``. Whole matches, both option sets."""
    from cardtable.engine import next_auto_move

    person = NormalBot()
    for options in OPTIONS:
        for seed in range(6):
            fused, plain = GuinoteMatch(options, seed), GuinoteMatch(options, seed)
            bot_for = {1: EasyBot(), 2: NormalBot(), 3: EasyBot()}.get
            stops = 0
            while not plain.finished:
                expected = next_auto_move(plain, bot_for)
                assert fused.play_auto_move(bot_for) == expected, (seed, len(plain.moves))
                if expected is None:
                    stops += 1
                    seat = plain.to_move()
                    move = person.choose(plain.view(seat))
                    plain.apply(move, seat)
                    fused.apply(move, seat)
                else:
                    plain.apply(expected[1], expected[0])
            assert stops > 0 and fused.moves == plain.moves and fused.log == plain.log


def test_the_fused_step_checks_a_play_that_is_not_one_of_the_offered_objects():
    """A bot's play equal to an offered one, but another object, is applied through the full check and
    gives the same match; a play the view does not offer is refused and changes nothing."""
    from cardtable.engine import IllegalMove

    class Copying:
        """The normal bot's choice, each play made anew (equal, not identical)."""

        def __init__(self) -> None:
            self.inner = NormalBot()

        def choose(self, view):
            move = self.inner.choose(view)
            return Play(move.card) if isinstance(move, Play) else move

    class Stubborn:
        """Plays a card of the hand that is not offered, when there is one."""

        def choose(self, view):
            offered = {m.card for m in view.legal if isinstance(m, Play)}
            refused = [c for c in view.hand if c not in offered]
            return Play(refused[0]) if refused and view.to_move == view.seat else NormalBot().choose(view)

    copying, canonical = GuinoteMatch(GuinoteOptions(), 3), GuinoteMatch(GuinoteOptions(), 3)
    bot, normal = Copying(), NormalBot()
    while copying.play_auto_move(lambda _: bot) is not None:
        canonical.play_auto_move(lambda _: normal)
    assert copying.moves == canonical.moves and copying.log == canonical.log
    refused = 0
    stubborn = Stubborn()
    for seed in range(4):
        match = GuinoteMatch(GuinoteOptions(), seed)
        while not match.finished:
            before = (list(match.moves), [list(h) for h in match.hands], match.trick)
            try:
                match.play_auto_move(lambda _: stubborn)
            except IllegalMove:
                refused += 1
                assert (match.moves, match.hands, match.trick) == before
                match.play_auto_move(lambda _: normal)
    assert refused > 0


def test_a_views_lazy_values_are_its_fields_in_order():
    """The match builds a view's ``_lazy`` as a plain tuple in the order of ``LazyValues``' fields: each
    value must be what the match says of that field, for every seat of every state of a few matches."""
    from cardtable.games.guinote.view import LazyValues

    for seed in (1, 2, 3):
        match = GuinoteMatch(GuinoteOptions(vueltas_end="auto" if seed == 3 else "claim"), seed)
        rng = Rng(seed)
        while not match.is_over():
            for seat in range(4):
                lazy = match.view(seat).__dict__["_lazy"]
                expected = LazyValues(
                    options=match.options, hand_number=match.hand, dealer=match.dealer, mano=match.mano,
                    stock_count=len(match.stock) + (match.pinta_taker is None), exchange=match.exchange,
                    counts=tuple(len(hand) for hand in match.hands), winners=match.winners,
                    card_points=match.card_points, window_pair=match.window_pair,
                    deciding=match.exchange_seat if match.pending_draw is not None else None,
                    vueltas=match.vueltas, carry=match.carry, score=match.score, cotos=match.cotos,
                    over=match.finished, decision=(match._bot_key(), len(match.moves), seat))
                assert lazy == tuple(expected)
            moves = match.legal_moves()
            match.apply(moves[rng.below(len(moves))])
