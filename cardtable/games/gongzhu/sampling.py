"""Worlds consistent with a Gong Zhu view: other hands honour counts, shown cards, voids and, in the
first hand before the first lead, the ♣2 with the seat that must lead it."""

from __future__ import annotations

from collections import Counter

from cardtable.cards import french_deck
from cardtable.games.gongzhu.rules import TWO_OF_CLUBS
from cardtable.games.gongzhu.state import GongZhuView
from cardtable.rng import Rng
from cardtable.sampling import deal_hidden


def sample_hands(view: GongZhuView, rng: Rng) -> list[list]:
    """Every seat's hand in one world: the viewer's own, and a consistent guess for the others."""
    others = [s for s in range(4) if s != view.seat]
    unseen = Counter(french_deck()) - Counter(view.hand) - Counter(view.played)
    played = view.played
    fixed = {s: [c for c in view.shown[s] if c not in played] for s in others}
    if view.hand_number == 1 and view.leader in fixed and TWO_OF_CLUBS not in played:
        fixed[view.leader].append(TWO_OF_CLUBS)      # the first lead of the match is the ♣2
    voids = view.voids()
    hands = deal_hidden(unseen.elements(), {s: view.counts[s] for s in others}, fixed,
                        lambda seat, card: card.suit not in voids[seat], rng)
    return [list(view.hand) if s == view.seat else hands[s] for s in range(4)]
