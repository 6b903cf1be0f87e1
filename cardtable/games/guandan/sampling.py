"""Worlds consistent with a Guandan view: other hands honour the counts and the tribute and returned
cards their receivers have not played yet."""

from __future__ import annotations

from collections import Counter

from cardtable.cards import Card, guandan_deck
from cardtable.games.guandan.state import GuandanView
from cardtable.rng import Rng
from cardtable.sampling import deal_hidden


def known_holdings(view: GuandanView) -> dict[int, list]:
    """Tribute and return cards received by another seat and not played by it since."""
    played_by: dict[int, Counter] = {s: Counter() for s in range(4)}
    for seat, cards in view.plays:
        played_by[seat].update(cards)
    known: dict[int, Counter[Card]] = {s: Counter() for s in range(4) if s != view.seat}
    for _, _giver, receiver, card in view.tribute_moves:
        if receiver != view.seat and card is not None:
            known[receiver][card] += 1
    return {s: list((known[s] - played_by[s]).elements()) for s in known}


def sample_hands(view: GuandanView, rng: Rng) -> list[list]:
    others = [s for s in range(4) if s != view.seat]
    unseen = Counter(guandan_deck()) - Counter(view.hand) - Counter(view.played)
    hands = deal_hidden(unseen.elements(), {s: view.counts[s] for s in others}, known_holdings(view),
                        lambda seat, card: True, rng)
    return [list(view.hand) if s == view.seat else hands[s] for s in range(4)]
