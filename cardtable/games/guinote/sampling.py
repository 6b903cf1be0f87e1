"""Worlds consistent with a Guiñote view: other hands and the stock honour the counts, the pinta's
taker, the exchanged pinta, the cantes whose suit is known, and the cards a seat's plays in arrastre
show it lacks (the suit it failed to follow, the higher cards and trumps it did not play when the
rules would have made it)."""

from __future__ import annotations

from collections import Counter

from cardtable.cards import SpanishCard, spanish_deck
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import GuinoteView
from cardtable.rng import Rng
from cardtable.sampling import deal_hidden

STOCK = "stock"


def known_holdings(view: GuinoteView) -> dict[int, list[SpanishCard]]:
    """Cards the viewer knows another seat still holds."""
    played = view.played
    known: dict[int, set[SpanishCard]] = {s: set() for s in range(4) if s != view.seat}
    if view.pinta_taker is not None and view.pinta_taker != view.seat:
        known[view.pinta_taker].add(view.pinta)
    if view.exchange is not None and view.exchange[0] != view.seat:
        known[view.exchange[0]].add(view.exchange[1])
    # Being asked about the exchange of the 7 (view.deciding) shows nothing: both seats of the pair
    # are asked whether they hold the 7 or not, so the 7 stays among the unseen cards.
    for cante in view.cantes:
        if cante.seat != view.seat and cante.suit is not None:
            known[cante.seat].update({SpanishCard(rules.REY, cante.suit), SpanishCard(rules.SOTA, cante.suit)})
    return {s: [c for c in cards if c not in played] for s, cards in known.items()}


def _arrastre_tricks(view: GuinoteView) -> list:
    """The tricks of the arrastre so far, the one being played included."""
    return list(view.tricks[rules.PHASE1_TRICKS:]) + ([view.trick] if view.arrastre and view.trick else [])


def arrastre_exclusions(view: GuinoteView) -> dict[int, set[SpanishCard]]:
    """The cards each seat cannot hold, from what it played in arrastre against the obligations of the
    rules page. A seat that did not follow cannot hold the suit led. Against an opponent's winning card
    a seat must beat it if it can: one that followed without beating it holds no higher card of the suit
    (unless a trump of another suit won the trick, when any card of the suit led will do), and one that
    neither followed nor beat it holds no trump that would have (none at all when the winning card was
    not a trump). No card is drawn in arrastre, so what a seat lacked then it lacks now."""
    trump = view.trump
    deck = spanish_deck()
    excluded: dict[int, set[SpanishCard]] = {s: set() for s in range(4)}
    for trick in _arrastre_tricks(view):
        lead = trick[0][1].suit
        for i in range(1, len(trick)):
            seat, card = trick[i]
            top_seat, top = trick[:i][rules.winner_index(trick[:i], trump)]
            lacks = excluded[seat]
            if card.suit != lead:
                lacks.update(c for c in deck if c.suit == lead)
            if top_seat == (seat + 2) % 4 or rules.beats(card, top, trump):
                continue
            if card.suit == lead:
                if top.suit == trump and lead != trump:
                    continue
                lacks.update(c for c in deck if c.suit == lead and rules.beats(c, top, trump))
            else:
                lacks.update(c for c in deck if rules.beats(c, top, trump))
    return excluded


def sample_world(view: GuinoteView, rng: Rng) -> tuple[list[list[SpanishCard]], list[SpanishCard]]:
    """(every seat's hand, the stock in a possible draw order) in one world consistent with the view."""
    others = [s for s in range(4) if s != view.seat]
    on_table = {view.pinta} if view.pinta_taker is None else set()
    unseen = Counter(spanish_deck()) - Counter(view.hand) - Counter(view.played) - Counter(on_table)
    sizes: dict = {s: view.counts[s] for s in others}
    sizes[STOCK] = view.stock_count - len(on_table)
    excluded = arrastre_exclusions(view)
    hands = deal_hidden(unseen.elements(), sizes, known_holdings(view),
                        lambda place, card: place == STOCK or card not in excluded[place], rng)
    return [list(view.hand) if s == view.seat else hands[s] for s in range(4)], hands[STOCK]
