"""Guiñote CPU players: they see a GuinoteView only (the partner's hand is hidden too)."""

from __future__ import annotations

from collections.abc import Callable

from cardtable.cards import SpanishCard, spanish_deck
from cardtable.engine import Bot
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import Cante, Claim, Exchange, GuinoteView, KeepSeven, Play, play_of
from cardtable.tricks import partner, team_of

ALL_CARDS = frozenset(spanish_deck())


def _optional_choice(view: GuinoteView) -> Exchange | KeepSeven | Cante | Claim | None:
    """Both levels exchange whenever they may (asked without the 7, they keep: their only move), sing
    every cante (the 40 first) and claim exactly when the pair is past 100."""
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


def _top(view: GuinoteView) -> tuple[int, SpanishCard]:
    return view.trick[rules.winner_index(view.trick, view.trump)]


def _keep_value(card: SpanishCard, view: GuinoteView) -> float:
    """How much a card is worth keeping: its points, its strength, trumps and unsung cante halves."""
    value = rules.points(card) * 1.0 + rules.strength(card) * 0.1
    if card.suit == view.trump:
        value += 6
    if card.rank in (rules.REY, rules.SOTA) and _unsung_pair(view, card.suit):
        value += 12
    return value


def _unsung_pair(view: GuinoteView, suit: str) -> bool:
    sung = {c.suit for c in view.cantes if c.seat == view.seat or c.suit is not None}
    return suit not in sung and rules.can_sing(view.hand, suit)


class EasyBot:
    level = "easy"

    def choose(self, view: GuinoteView):
        optional = _optional_choice(view)
        if optional is not None or view.to_move != view.seat:
            return optional
        cards = [m.card for m in view.legal if isinstance(m, Play)]
        if not view.trick:
            plain = [c for c in cards if c.suit != view.trump] or cards
            return play_of(min(plain, key=lambda c: (rules.points(c), rules.strength(c))))
        top_seat, top = _top(view)
        if top_seat == partner(view.seat):
            plain = [c for c in cards if c.suit != view.trump] or cards
            return play_of(max(plain, key=lambda c: (rules.points(c), -rules.strength(c))))
        winners = [c for c in cards if rules.beats(c, top, view.trump)]
        trick_points = sum(rules.points(c) for _, c in view.trick)
        if winners and (trick_points >= 10 or view.arrastre):
            return play_of(min(winners, key=lambda c: (c.suit == view.trump, rules.points(c), rules.strength(c))))
        return play_of(min(cards, key=lambda c: (rules.points(c), c.suit == view.trump, rules.strength(c))))


class NormalBot:
    """A good club player: counts trumps and points, loads points on the partner's sure tricks, keeps
    Rey+Sota to sing, exchanges the 7, draws trumps when strong, claims exactly when right."""

    level = "normal"

    def choose(self, view: GuinoteView):
        optional = _optional_choice(view)
        if optional is not None or view.to_move != view.seat:
            return optional
        cards = [m.card for m in view.legal if isinstance(m, Play)]
        if len(cards) == 1:
            return play_of(cards[0])
        unseen = self._unseen(view)
        if not view.trick:
            return play_of(self._lead(view, cards, unseen))
        return play_of(self._follow(view, cards, unseen))

    @staticmethod
    def _unseen(view: GuinoteView) -> set[SpanishCard]:
        known = set(view.hand) | view.played
        if view.pinta is not None and view.pinta_taker is None:
            known.add(view.pinta)          # still face up by the stock
        return set(ALL_CARDS) - known

    @staticmethod
    def _beaten_by_unseen(card: SpanishCard, unseen: set[SpanishCard], trump: str) -> bool:
        return any(rules.beats(other, card, trump) for other in unseen)

    def _lead(self, view: GuinoteView, cards: list[SpanishCard], unseen: set[SpanishCard]) -> SpanishCard:
        trump = view.trump
        my_trumps = [c for c in cards if c.suit == trump]
        trumps_out = [c for c in unseen if c.suit == trump]
        if view.arrastre:
            # Draw trumps when strong: a master trump and at least as many trumps as are out.
            masters = [c for c in my_trumps if not self._beaten_by_unseen(c, unseen, trump)]
            if masters and trumps_out and len(my_trumps) >= len(trumps_out):
                return max(masters, key=rules.strength)
            # Cash a master card of a plain suit when trumps are gone.
            if not trumps_out:
                sure = [c for c in cards if not self._beaten_by_unseen(c, unseen, trump)]
                if sure:
                    return max(sure, key=lambda c: (rules.points(c), rules.strength(c)))
        plain = [c for c in cards if c.suit != trump] or cards
        return min(plain, key=lambda c: _keep_value(c, view))

    def _follow(self, view: GuinoteView, cards: list[SpanishCard], unseen: set[SpanishCard]) -> SpanishCard:
        trump = view.trump
        top_seat, top = _top(view)
        last = len(view.trick) == 3
        trick_points = sum(rules.points(c) for _, c in view.trick)
        if top_seat == partner(view.seat):
            safe = last or not self._beaten_by_unseen(top, unseen, trump)
            if safe:
                loads = [c for c in cards if not rules.beats(c, top, trump) or c.suit != trump]
                return max(loads or cards, key=lambda c: (rules.points(c) - (12 if c.rank in (rules.REY, rules.SOTA)
                                                                             and _unsung_pair(view, c.suit) else 0),
                                                          -rules.strength(c)))
            return min(cards, key=lambda c: _keep_value(c, view))
        winners = [c for c in cards if rules.beats(c, top, trump)]
        if winners:
            if last:
                best = min(winners, key=lambda c: _keep_value(c, view))
                gain = trick_points + rules.points(best)
                if gain >= 2 or view.arrastre or rules.points(best) == 0:
                    return best
            else:
                holding = [c for c in winners if not self._beaten_by_unseen(c, unseen, trump)]
                if holding and (trick_points >= 3 or view.arrastre):
                    return min(holding, key=lambda c: _keep_value(c, view))
                if trick_points >= 10:
                    return min(winners, key=lambda c: _keep_value(c, view))
        return min(cards, key=lambda c: _keep_value(c, view))


BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot}
