"""Guiñote CPU players: they see a GuinoteView only (the partner's hand is hidden too)."""

from __future__ import annotations

import operator
from collections.abc import Callable

from cardtable.cards import SpanishCard, spanish_deck
from cardtable.engine import Bot
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import (
    _PLAYS,
    CARD_BITS,
    SOTA_BITS,
    Cante,
    Claim,
    Exchange,
    GuinoteView,
    KeepSeven,
    Play,
    plays_bits,
)
from cardtable.tricks import team_of

_DECK = tuple(spanish_deck())
_PLAY_OF = _PLAYS.__getitem__        # play_of, without the call
_CARD_OF = operator.attrgetter("card")

# The bots' sort keys per card (and per trump where the key asks about trumps), made once: the very
# tuples the key lambdas below build, so min/max pick the same card.
_LOW = {c: (rules.points(c), rules.strength(c)) for c in _DECK}               # cheapest first
_LOAD = {c: (rules.points(c), -rules.strength(c)) for c in _DECK}             # most points, weakest
_BY_TRUMP = {
    trump: ({c: (c.suit == trump, rules.points(c), rules.strength(c)) for c in _DECK},   # cheapest winner
            {c: (rules.points(c), c.suit == trump, rules.strength(c)) for c in _DECK},   # cheapest card
            {c: rules.points(c) * 1.0 + rules.strength(c) * 0.1 + (6 if c.suit == trump else 0)
             for c in _DECK},                                                          # keep value, no cante
            # (the plain cards first) _LOW and _LOAD, so that min / max over every card pick what they
            # pick over the plain cards, or over all when there are none: the first of the best
            {c: (c.suit == trump,) + _LOW[c] for c in _DECK},
            {c: (c.suit != trump,) + _LOAD[c] for c in _DECK})
    for trump in "OCEB"}


def _optional_choice(view: GuinoteView) -> Exchange | KeepSeven | Cante | Claim | None:
    """Both levels exchange whenever they may (asked without the 7, they keep: their only move), sing
    every cante (the 40 first) and claim exactly when the pair is past 100."""
    for move in view.legal:
        if type(move) is not Play:
            break
    else:
        return None                       # plays only (the common case)
    options = [m for m in view.legal if not isinstance(m, Play)]
    for move in options:
        if isinstance(move, Exchange):
            return move
    for move in options:
        if isinstance(move, KeepSeven):
            return move
    cantes = [m for m in options if isinstance(m, Cante)]
    if cantes:
        return max(cantes, key=lambda m: rules.cante_value(m.suit, view.trump))
    if any(isinstance(m, Claim) for m in options) and view.total(team_of(view.seat)) > rules.WIN_LINE:
        return Claim()
    return None


def _unsung_suits(view: GuinoteView, hand_bits: int) -> int:
    """The suits of the cantes the seat could still sing: it holds their Rey and Sota and has not seen
    them sung (by itself, or by a seat whose cante it saw), a bit per suit of "OCEB"; ``hand_bits``: the
    view's hand as CARD_BITS."""
    couples = hand_bits & hand_bits >> 1 & SOTA_BITS          # (see state.SOTA_BITS)
    if not couples:
        return 0
    suits = 0
    sung: set[str | None] | None = None
    for bit, sota, suit in _COUPLE_BITS:
        if couples & sota:
            if sung is None:
                seat = view.seat
                sung = {c.suit for c in view.cantes if c.seat == seat or c.suit is not None}
            if suit not in sung:
                suits |= bit
    return suits


# Per suit of "OCEB": its bit in _unsung_suits' answer, the bit of its Sota, the suit.
_COUPLE_BITS = tuple((1 << i, CARD_BITS[SpanishCard(rules.SOTA, suit)], suit) for i, suit in enumerate("OCEB"))
_SUIT_BIT = {suit: 1 << i for i, suit in enumerate("OCEB")}
_KEEP_TABLES: dict[tuple[str, int], dict[SpanishCard, float]] = {}
_LOAD_TABLES: dict[int, dict[SpanishCard, tuple[int, int]]] = {}


def _is_half(card: SpanishCard, suits: int) -> bool:
    """Is ``card`` the Rey or the Sota of one of ``suits`` (a bit per suit)?"""
    return (card[0] == rules.REY or card[0] == rules.SOTA) and bool(suits & _SUIT_BIT[card[1]])


def _keep_table(trump: str, suits: int) -> dict[SpanishCard, float]:
    """How much each card is worth keeping, with ``trump`` and the cantes still to sing in ``suits``
    (:func:`_unsung_suits`): its points, a tenth of its strength, 6 more for a trump and 12 more for a
    Rey or Sota of those suits; made once."""
    table = _KEEP_TABLES.get((trump, suits))
    if table is None:
        base = _BY_TRUMP[trump][2]
        table = _KEEP_TABLES[trump, suits] = {c: base[c] + 12 if _is_half(c, suits) else base[c] for c in _DECK}
    return table


def _load_table(suits: int) -> dict[SpanishCard, tuple[int, int]]:
    """Per card, the key of the card to load on a partner's sure trick (the most points, an unsung cante
    half counting 12 fewer, then the weakest), with the unsung halves of ``suits``; made once."""
    table = _LOAD_TABLES.get(suits)
    if table is None:
        table = _LOAD_TABLES[suits] = {
            c: (rules.points(c) - (12 if _is_half(c, suits) else 0), -rules.strength(c)) for c in _DECK}
    return table


def _winners(cards: list[SpanishCard], top: SpanishCard, trump: str) -> list[SpanishCard]:
    """The cards of ``cards`` that beat ``top`` (``rules.beats``), in their order."""
    beaters = rules.BEATERS[trump][top]
    return [c for c in cards if c in beaters]


class _Player:
    """What both levels do first: an optional move (exchange, keep, cante, claim) when they want one,
    else a card, chosen by :meth:`_play` from the cards of the plays offered."""

    def choose(self, view: GuinoteView):
        legal = view.legal
        # The legal list holds the plays first (see GuinoteMatch._legal): when its last move is a play, it
        # holds plays only (the common case).
        if legal and type(legal[-1]) is Play:
            cards = list(map(_CARD_OF, legal))
        else:
            optional = _optional_choice(view)
            if optional is not None or view.to_move != view.seat:
                return optional
            cards = [m.card for m in legal if isinstance(m, Play)]
        return self._play(view, cards)

    def _play(self, view: GuinoteView, cards: list[SpanishCard]) -> Play:
        raise NotImplementedError


class EasyBot(_Player):
    level = "easy"

    def _play(self, view: GuinoteView, cards: list[SpanishCard]) -> Play:
        trump = view.trump
        trick = view.trick
        keys = _BY_TRUMP[trump]
        if not trick:              # the cheapest plain card (_LOW), or the cheapest trump
            return _PLAY_OF(min(cards, key=keys[3].__getitem__))
        top_seat, top = view.top          # type: ignore[misc]  # (not None: a trick is being played)
        if top_seat == (view.seat + 2) % 4:               # the partner's card is on top: load (_LOAD)
            return _PLAY_OF(max(cards, key=keys[4].__getitem__))
        points = rules.POINTS_OF
        trick_points = 0
        for _, card in trick:
            trick_points += points[card]
        if trick_points >= 10 or len(view.tricks) >= rules.PHASE1_TRICKS:
            winners = _winners(cards, top, trump)
            if winners:
                return _PLAY_OF(min(winners, key=keys[0].__getitem__))
        return _PLAY_OF(min(cards, key=keys[1].__getitem__))


class NormalBot(_Player):
    """A good club player: counts trumps and points, loads points on the partner's sure tricks, keeps
    Rey+Sota to sing, exchanges the 7, draws trumps when strong, claims exactly when right."""

    level = "normal"

    def _play(self, view: GuinoteView, cards: list[SpanishCard]) -> Play:
        if len(cards) == 1:
            return _PLAY_OF(cards[0])
        if not view.trick:
            return _PLAY_OF(self._lead(view, cards))
        return _PLAY_OF(self._follow(view, cards))

    @staticmethod
    def _unseen(view: GuinoteView) -> set[SpanishCard]:
        """The cards the seat has not seen, as a set (the hints' reasons ask; the bot reads
        :class:`Unseen`)."""
        known = set(view.hand) | view.played
        if view.pinta is not None and view.pinta_taker is None:
            known.add(view.pinta)          # still face up by the stock
        return set(_DECK) - known

    def _lead(self, view: GuinoteView, cards: list[SpanishCard]) -> SpanishCard:
        trump = view.trump
        hand_bits = hand_bits_of(view.hand)
        if len(view.tricks) >= rules.PHASE1_TRICKS:      # arrastre
            unseen = Unseen(view, hand_bits)
            trumps_out = unseen.trumps
            # Draw trumps when strong: a master trump and at least as many trumps as are out.
            if trumps_out:
                my_trumps = [c for c in cards if c[1] == trump]
                masters = unseen.unbeaten(my_trumps)
                if masters and len(my_trumps) >= trumps_out:
                    return max(masters, key=rules.STRENGTH_OF.__getitem__)
            else:
                # Cash a master card of a plain suit when trumps are gone.
                sure = unseen.unbeaten(cards)
                if sure:
                    return max(sure, key=_LOW.__getitem__)
        plain = [c for c in cards if c[1] != trump] or cards
        return min(plain, key=_keep_table(trump, _unsung_suits(view, hand_bits)).__getitem__)

    def _follow(self, view: GuinoteView, cards: list[SpanishCard]) -> SpanishCard:
        trump = view.trump
        trick = view.trick
        top_seat, top = view.top          # type: ignore[misc]  # (not None: a trick is being played)
        last = len(trick) == 3
        points = rules.POINTS_OF
        trick_points = 0
        for _, card in trick:
            trick_points += points[card]
        hand_bits = hand_bits_of(view.hand)
        suits = _unsung_suits(view, hand_bits)
        keep_value = _keep_table(trump, suits).__getitem__
        if top_seat == (view.seat + 2) % 4:       # partner(seat)
            if last or not Unseen(view, hand_bits).beaten(top):
                # Load it, but not with a trump that beats the partner's card.
                beaters = rules.BEATERS[trump][top]
                loads = [c for c in cards if c[1] != trump or c not in beaters]
                return max(loads or cards, key=_load_table(suits).__getitem__)
            return min(cards, key=keep_value)
        winners = _winners(cards, top, trump)
        if winners:
            if last:
                best = min(winners, key=keep_value)
                gain = trick_points + points[best]
                if gain >= 2 or len(view.tricks) >= rules.PHASE1_TRICKS or points[best] == 0:
                    return best
            else:
                holding = Unseen(view, hand_bits).unbeaten(winners)
                if holding and (trick_points >= 3 or len(view.tricks) >= rules.PHASE1_TRICKS):
                    return min(holding, key=keep_value)
                if trick_points >= 10:
                    return min(winners, key=keep_value)
        return min(cards, key=keep_value)


# Per card, the bits (state.CARD_BITS) of the stronger cards of its suit; per suit, the bits of its cards.
_STRONGER_BITS = {c: sum(CARD_BITS[o] for o in _DECK if o.suit == c.suit and rules.strength(o) > rules.strength(c))
                  for c in _DECK}
_SUIT_BITS = {suit: sum(CARD_BITS[c] for c in _DECK if c.suit == suit) for suit in "OCEB"}


class Unseen:
    """What the seat has not seen (neither in its hand, nor played, nor the pinta still face up), as
    the normal bot asks about it: whether an unseen card beats a given one, and how many trumps are
    unseen. The cards are held as bits (state.CARD_BITS)."""

    __slots__ = ("bits", "trump", "trump_bits")

    def __init__(self, view: GuinoteView, hand_bits: int | None = None) -> None:
        """``hand_bits``: ``hand_bits_of(view.hand)``, when the caller has it."""
        if hand_bits is None:
            hand_bits = hand_bits_of(view.hand)
        # (Distinct cards have distinct bits: their sum is their union.)
        known = view.finished_bits() + hand_bits + plays_bits(view.trick)
        if view.pinta is not None and view.pinta_taker is None:
            known |= CARD_BITS[view.pinta]          # still face up by the stock
        self.bits = _ALL_BITS & ~known
        self.trump = view.trump
        self.trump_bits = self.bits & _SUIT_BITS[view.trump]

    @property
    def trumps(self) -> int:
        """How many trumps are unseen."""
        return self.trump_bits.bit_count()

    def beaten(self, card: SpanishCard) -> bool:
        """Does some unseen card beat ``card`` (``rules.beats``): a stronger one of its suit, or any
        trump when ``card`` is not one?"""
        return bool(self.bits & _STRONGER_BITS[card]) or (card[1] != self.trump and self.trump_bits != 0)

    def unbeaten(self, cards: list[SpanishCard]) -> list[SpanishCard]:
        """The cards of ``cards`` that no unseen card beats (``not beaten``), in their order: with trumps
        unseen only a trump can be one."""
        bits, stronger = self.bits, _STRONGER_BITS
        if self.trump_bits:
            trump = self.trump
            return [c for c in cards if c[1] == trump and not bits & stronger[c]]
        return [c for c in cards if not bits & stronger[c]]


def hand_bits_of(hand: tuple[SpanishCard, ...]) -> int:
    """A hand as CARD_BITS (distinct cards: the sum is the union)."""
    return sum(map(_BIT_OF, hand))


_ALL_BITS = sum(_SUIT_BITS.values())
_BIT_OF = CARD_BITS.__getitem__


BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot}
