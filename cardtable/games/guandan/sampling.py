"""Worlds consistent with a Guandan view: other hands honour the counts, the tribute and returned
cards their receivers have not played yet, and the big jokers shown against a tribute."""

from __future__ import annotations

from collections import Counter

from cardtable.cards import BIG_JOKER, Card, guandan_deck
from cardtable.games.guandan.state import GuandanView
from cardtable.rng import Rng
from cardtable.sampling import deal_hidden


def known_holdings(view: GuandanView) -> dict[int, list]:
    """Tribute and return cards received by another seat, and the big jokers a payer showed to refuse the
    tribute (both with one payer, or one each), not played by that seat since."""
    played_by: dict[int, Counter] = {s: Counter() for s in range(4)}
    for seat, cards in view.plays:
        played_by[seat].update(cards)
    known: dict[int, Counter[Card]] = {s: Counter() for s in range(4) if s != view.seat}
    for _, _giver, receiver, card in view.tribute_moves:
        if receiver != view.seat and card is not None:
            known[receiver][card] += 1
    if view.tribute == "anti":
        for holder in view.anti_holders:
            if holder != view.seat:
                known[holder][BIG_JOKER] += 2 // len(view.anti_holders)
    return {s: list((known[s] - played_by[s]).elements()) for s in known}


def sample_hands(view: GuandanView, rng: Rng) -> list[list]:
    others = [s for s in range(4) if s != view.seat]
    unseen = Counter(guandan_deck()) - Counter(view.hand) - Counter(view.played)
    hands = deal_hidden(unseen.elements(), {s: view.counts[s] for s in others}, known_holdings(view),
                        lambda seat, card: True, rng)
    return [list(view.hand) if s == view.seat else hands[s] for s in range(4)]
