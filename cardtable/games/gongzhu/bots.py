"""Gong Zhu CPU players. They see a GongZhuView only and use no randomness, so a game number played the
same way repeats exactly (the source requires it)."""

from __future__ import annotations

import operator
from collections.abc import Callable

from cardtable.cards import Card, french_deck
from cardtable.engine import Bot
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.rules import GOAT, HEART_ACE, PIG, SORT_ORDER, TRANSFORMER
from cardtable.games.gongzhu.state import SHOW_NOTHING, GongZhuView, Play, Show, play_of

ACE_SPADES = Card(14, "S")
KING_SPADES = Card(13, "S")
# The easy bot's sort keys per card, made once, as ints ordered as the tuples its rules compare: leading,
# (a heart or the Pig, rank, display order); shedding, (not the Pig, rank); discarding, _discard_priority.
_LEAD_KEY = {c: ((c[1] == "H" or c == PIG) * 16 + c.rank) * 64 + SORT_ORDER[c] for c in french_deck()}
_SHED_KEY = {c: (c != PIG) * 16 + c.rank for c in french_deck()}
_CARD_OF = operator.attrgetter("card")      # a Play's card


class EasyBot:
    """Sensible and simple: shows nothing, ducks when it can, dumps the Pig and high hearts when void,
    otherwise leads its lowest card."""

    level = "easy"

    def choose(self, view: GongZhuView) -> Show | Play:
        if view.phase == "show":
            return _offered(view, SHOW_NOTHING)
        cards = list(map(_CARD_OF, view.legal))
        trick = view.trick
        if not trick:
            # The lowest card that is neither a heart nor the Pig (else the lowest), ties in display order.
            return play_of(min(cards, key=_LEAD_KEY.__getitem__))
        lead = trick[0][1][1]
        if cards[0][1] != lead:
            return play_of(max(cards, key=_DISCARD_KEY.__getitem__))
        # Every card is of the suit led, as the card on top is: they compare by rank.
        top = trick[rules.trick_winner_index(trick)][1]
        under = [c for c in cards if c < top]
        if under:
            return play_of(max(under))
        last = len(trick) == 3
        points = rules.POINT_CARDS
        if last and not any(c in points for _, c in trick):
            return play_of(max(cards, key=_SHED_KEY.__getitem__))
        return play_of(min(cards))


class NormalBot:
    """Plays like a good club player: exact scoring when last to a trick, ducking under the Pig, dumping
    the Pig and high hearts when void, taking the Goat when safe, avoiding the Transformer while carrying
    negatives, blocking an all-hearts run, and showing cards when it pays."""

    level = "normal"

    def choose(self, view: GongZhuView) -> Show | Play:
        if view.phase == "show":
            return _offered(view, Show(self._show(view)))
        cards = list(map(_CARD_OF, view.legal))
        if len(cards) == 1:
            return play_of(cards[0])
        if not view.trick:
            return play_of(min(cards, key=self._lead_costs(view, cards).__getitem__))
        lead = view.trick[0][1].suit
        if cards[0].suit != lead:
            return play_of(self._discard(view, cards))
        return play_of(self._follow(view, cards))

    # -- showing
    def _show(self, view: GongZhuView) -> tuple[Card, ...]:
        hand = view.hand
        by_suit = {s: [c for c in hand if c.suit == s] for s in "SHDC"}
        chosen = []
        spades = by_suit["S"]
        if PIG in hand and (len(spades) >= 6 or (len(spades) >= 5 and ACE_SPADES not in hand
                                                  and KING_SPADES not in hand)):
            chosen.append(PIG)
        diamonds = by_suit["D"]
        if GOAT in hand and len(diamonds) >= 4 and any(c.rank > 11 for c in diamonds):
            chosen.append(GOAT)
        clubs_low = [c for c in by_suit["C"] if c.rank < 10]
        high_hearts = [c for c in by_suit["H"] if c.rank >= 11]
        if TRANSFORMER in hand and len(clubs_low) >= 4 and not high_hearts:
            chosen.append(TRANSFORMER)
        if HEART_ACE in hand and len(by_suit["H"]) >= 9:
            chosen.append(HEART_ACE)
        return tuple(c for c in view.options.showable_cards if c in chosen)

    # -- helpers
    @staticmethod
    def _unseen(view: GongZhuView) -> frozenset[Card]:
        return view.unseen

    @staticmethod
    def _my_score(view: GongZhuView, extra: tuple[Card, ...] = ()) -> int:
        pile = list(view.taken[view.seat]) + [c for c in extra if rules.is_point_card(c)]
        return view.options.score_taken(pile, view.all_shown).hand

    @staticmethod
    def _hearts_runner(view: GongZhuView) -> int | None:
        """A player (not us) who has taken every heart played so far, with at least six of them."""
        holders = [s for s in range(4) if any(c.suit == "H" for c in view.taken[s])]
        if len(holders) != 1 or holders[0] == view.seat:
            return None
        runner = holders[0]
        hearts = sum(1 for c in view.taken[runner] if c.suit == "H")
        return runner if hearts >= 6 else None

    # -- leading
    def _lead_costs(self, view: GongZhuView, cards: list[Card]) -> dict[Card, float]:
        """The cost of leading each of ``cards`` (the lowest is led). What does not depend on the card is
        worked out once per decision."""
        unseen = self._unseen(view)
        top_out = {"S": 0, "H": 0, "D": 0, "C": 0}         # the highest unseen rank of each suit
        for rank, suit in unseen:
            top_out[suit] = max(top_out[suit], rank)
        suits = [c.suit for c in view.hand]
        held = {suit: suits.count(suit) for suit in "SHDC"}
        sure_bonus = 16 if TRANSFORMER in view.taken[view.seat] else 8
        pig_out = PIG in unseen
        pig_held = PIG in view.hand
        goat_out = GOAT in unseen
        transformer_out = TRANSFORMER in unseen
        runner = self._hearts_runner(view)
        now = self._my_score(view)
        costs = {}
        for card in cards:
            suit = card.suit
            sure = top_out[suit] < card.rank                 # no unseen card of its suit is higher
            cost = card.rank * 0.5 + held[suit] * 0.8
            if sure:
                # We would win it: whatever others discard lands on us (doubled once we hold the ♣10).
                cost += sure_bonus
            if suit == "S":
                if card == PIG:
                    cost += 40
                elif pig_held:
                    cost += 8
                elif pig_out:
                    cost += 20 if card.rank > 12 else -6   # low spades flush the Pig; A/K may catch it
            if suit == "H":
                cost += 3 - rules.heart_value(card) / 5
                if runner is not None and sure:
                    cost -= 25   # take a heart to break the run
            if suit == "D" and goat_out and sure and now >= -50:
                cost -= 4        # a sure diamond winner may collect the Goat
            if card == TRANSFORMER and now < 0:
                cost += 10
            if sure and card in rules.POINT_CARDS:
                # A sure winner takes this card at least: count what it does to our hand (the source's
                # mistake one: a sure ♣10 on top of the Pig or hearts doubles them).
                cost -= (self._my_score(view, (card,)) - now) / 3
            if suit == "C" and card.rank > 10 and transformer_out and now < 0:
                cost += 10       # a club above the ♣10 invites it under ours
            if card == GOAT:
                cost += 12 if sure else 40   # led under a higher diamond it is a gift
            costs[card] = cost
        return costs

    # -- following suit
    def _follow(self, view: GongZhuView, cards: list[Card]) -> Card:
        top = _winning_card(view)
        trick_cards = tuple(c for _, c in view.trick)
        last = len(view.trick) == 3
        if last:
            now = self._my_score(view)

            def outcome(card: Card) -> tuple[int, int]:
                wins = card.rank > top.rank
                gain = self._my_score(view, trick_cards + (card,)) - now if wins else 0
                # Equal gains: shed the highest card (never the Pig or the Goat by choice).
                return (gain, card.rank if card not in (PIG, GOAT) else -1)

            return max(cards, key=outcome)
        runner = self._hearts_runner(view)
        if runner is not None and top.suit == "H":
            winners = [c for c in cards if c.rank > top.rank]
            if winners:
                return max(winners, key=lambda c: c.rank)
        unseen = self._unseen(view)
        danger = any(rules.is_point_card(c) and c != GOAT for c in trick_cards)
        under = [c for c in cards if c.rank < top.rank]
        if top.suit == "D" and GOAT in trick_cards and not danger:
            # The Goat is on the table: take it with a diamond nobody can beat (mistake two: dodging
            # everything and giving the only card that scores away).
            sure = [c for c in cards if c.rank > top.rank
                    and not any(u.suit == "D" and u.rank > c.rank for u in unseen)]
            if sure:
                return min(sure, key=lambda c: c.rank)
            if not under:
                return max(cards, key=lambda c: c.rank)
        if under:
            if PIG in under and top.rank > PIG.rank:
                return PIG                      # someone above the Queen: the Pig goes to them
            # Duck with the highest card, but never hand over the Pig or the Goat by choice.
            return max(under, key=lambda c: (c not in (PIG, GOAT), c.rank))
        # We are above the trick so far. Keep the Goat unless nobody can beat it.
        goat_sure = GOAT in cards and not any(u.suit == "D" and u.rank > GOAT.rank for u in unseen)
        keep = [c for c in cards if c != PIG and (c != GOAT or goat_sure)] or cards
        carrying = ((self._my_score(view) < 0 and TRANSFORMER in unseen)
                    or TRANSFORMER in view.taken[view.seat])     # every point from now on doubles
        if danger or carrying or (top.suit == "S" and PIG in unseen):
            # Lowest, so that a later player may still overtake (and, carrying negatives, so that a
            # discarded ♣10 lands on someone else: the source's mistake one).
            return min(keep, key=lambda c: c.rank)
        return max(keep, key=lambda c: c.rank)

    # -- discarding
    def _discard(self, view: GongZhuView, cards: list[Card]) -> Card:
        top_seat = view.trick[rules.trick_winner_index(view.trick)][0]
        runner = self._hearts_runner(view)
        unseen = self._unseen(view)
        winner_pile = list(view.taken[top_seat]) + [c for _, c in view.trick if rules.is_point_card(c)]
        winner_score = view.options.score_taken(winner_pile, view.all_shown).base

        def priority(card: Card) -> float:
            if card == PIG:
                return 1000
            if card.suit == "H":
                if runner is not None and top_seat == runner:
                    return -50 + card.rank        # do not feed the run
                return 100 - rules.heart_value(card) * 2 + card.rank
            if card.suit == "S" and card.rank > 12 and PIG in unseen:
                return 90 + card.rank
            if card == TRANSFORMER:
                return 95 if winner_score < 0 else -80
            if card == GOAT:
                return -100
            return card.rank + 3 * (4 - held[card.suit])

        suits = [c.suit for c in view.hand]
        held = {suit: suits.count(suit) for suit in "SHDC"}
        return max(cards, key=priority)


def _offered(view: GongZhuView, move: Show) -> Show:
    """The very object the view's legal list holds for ``move`` (so that applying it takes the trusted
    path), else ``move`` itself."""
    for candidate in view.legal:
        if candidate is move or candidate == move:
            return candidate
    return move


def _winning_card(view: GongZhuView) -> Card:
    return view.trick[rules.trick_winner_index(view.trick)][1]


def _discard_priority(card: Card) -> tuple[int, int]:
    """The easy bot's discard, highest first: the Pig, then hearts, then any card but the Goat, high first."""
    if card == PIG:
        return (3, 0)
    if card.suit == "H":
        return (2, card.rank)
    return (1 if card != GOAT else 0, card.rank)


_DISCARD_KEY = {c: _discard_priority(c)[0] * 16 + c.rank for c in french_deck()}   # the same order, as ints


BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot}
