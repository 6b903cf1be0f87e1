"""Guiñote rules as pure functions: card strength and points, trick winner, arrastre obligations,
cantes and the hand's result. Source: docs/rules/guinote.md (from the Spanish source document)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cardtable.cards import SpanishCard
from cardtable.tricks import following, partner, winning_index

# High to low: As, 3, Rey, Sota, Caballo, 7, 6, 5, 4, 2 (Sota above Caballo: the reverse of Tute).
ORDER = (1, 3, 12, 10, 11, 7, 6, 5, 4, 2)
STRENGTH = {rank: len(ORDER) - i for i, rank in enumerate(ORDER)}
POINTS = {1: 11, 3: 10, 12: 4, 10: 3, 11: 2}
COUNTING_RANKS = frozenset(POINTS)
REY, SOTA, CABALLO = 12, 10, 11
SEVEN = 7
ULTIMAS = 10
WIN_LINE = 100
THIRTY = 30
PHASE1_TRICKS = 4
TRICKS = 10


def strength(card: SpanishCard) -> int:
    return STRENGTH[card.rank]


def points(card: SpanishCard) -> int:
    return POINTS.get(card.rank, 0)


def _card_tables() -> tuple[dict[SpanishCard, int], dict[SpanishCard, int]]:
    from cardtable.cards import spanish_deck

    deck = spanish_deck()
    return {c: STRENGTH[c.rank] for c in deck}, {c: POINTS.get(c.rank, 0) for c in deck}


# Per card of the deck, for the engine's and the bots' inner loops: the same values as strength() and
# points(), read from one dict (a card hashes as its (rank, suit) tuple, so any equal card finds them).
STRENGTH_OF, POINTS_OF = _card_tables()


def suit_of(card: SpanishCard) -> str:
    return card.suit


def sort_key(card: SpanishCard, trump: str | None = None) -> tuple[int, int]:
    """Display order: suits grouped (trumps last), each from weakest to strongest."""
    suits = [s for s in "OCEB" if s != trump] + ([trump] if trump else [])
    return (suits.index(card.suit), strength(card))


_SORT_KEYS: dict[str, dict[SpanishCard, tuple[int, int]]] = {}


def sort_keys(trump: str) -> dict[SpanishCard, tuple[int, int]]:
    """``sort_key(card, trump)`` for every card of the deck (sorting by ``sort_keys(trump).__getitem__``)."""
    keys = _SORT_KEYS.get(trump)
    if keys is None:
        from cardtable.cards import spanish_deck

        keys = _SORT_KEYS[trump] = {card: sort_key(card, trump) for card in spanish_deck()}
    return keys


def winner_index(plays: Sequence[tuple[int, SpanishCard]], trump: str) -> int:
    """Index of the card winning (so far): highest trump, else highest card of the suit led
    (:func:`cardtable.tricks.winning_index` with this game's strengths)."""
    return winning_index(plays, STRENGTH_OF, trump)


def beats(card: SpanishCard, top: SpanishCard, trump: str) -> bool:
    """Would ``card`` beat ``top``, the card currently winning a trick (the suit led being top's
    suit unless top is a trump)?"""
    if card[1] == top[1]:
        return STRENGTH_OF[card] > STRENGTH_OF[top]
    return card[1] == trump


# Per trump, per card of the deck: the cards that would beat it (``beats``), made once.
BEATERS: dict[str, dict[SpanishCard, frozenset[SpanishCard]]] = {
    trump: {top: frozenset(c for c in STRENGTH_OF if beats(c, top, trump)) for top in STRENGTH_OF}
    for trump in "OCEB"}


def arrastre_plays(hand: Collection[SpanishCard], trick: Sequence[tuple[int, SpanishCard]],
                   seat: int, trump: str, top_index: int | None = None) -> list[SpanishCard]:
    """The cards ``seat`` may play in arrastre (tricks 5-10), straight from the rules page: follow suit
    (beating the winning card when it can, unless a trump from another suit wins it), else trump
    (over-trumping a trump that wins it) — but a seat whose partner wins the trick need only follow.
    ``top_index``: ``winner_index(trick, trump)``, when the caller knows it.
    (``beats`` is written out over the strength table: a card beats the top one with a stronger card
    of its suit, or with a trump when the top one is not a trump.)"""
    if not trick:
        return list(hand)
    lead = trick[0][1][1]
    top_seat, top = trick[winner_index(trick, trump) if top_index is None else top_index]
    if top_seat == partner(seat):
        return following(list(hand), lead)
    same = [c for c in hand if c[1] == lead]
    strength = STRENGTH_OF
    top_suit, high = top[1], strength[top]
    if same:
        if top_suit == trump and lead != trump:
            return same
        # lead == top_suit here: the top card is of the suit led (or a trump led).
        higher = [c for c in same if strength[c] > high]
        return higher or same
    if top_suit == trump:
        winners = [c for c in hand if c[1] == trump and strength[c] > high]
    else:
        winners = [c for c in hand if c[1] == trump]      # no card of the suit led (the top's suit)
    return winners or list(hand)


def refusal_reason(card: SpanishCard, hand: Collection[SpanishCard], trick: Sequence[tuple[int, SpanishCard]],
                   seat: int, trump: str) -> tuple[str, str, dict] | None:
    """Why ``card`` is not allowed in arrastre, as (English reason, i18n key, params), or None."""
    if card not in hand:
        return (f"{card} is not in your hand", "gn_not_in_hand", {"card": card.code})
    allowed = arrastre_plays(hand, trick, seat, trump)
    if card in allowed:
        return None
    lead = trick[0][1].suit
    top = trick[winner_index(trick, trump)][1]
    if any(c.suit == lead for c in hand):
        if card.suit != lead:
            return (f"you must follow suit ({lead})", "gn_must_follow", {"suit": lead})
        return (f"you must beat the {top} with a higher {lead}", "gn_must_beat", {"card": top.code, "suit": lead})
    if top.suit == trump:
        return (f"you must over-trump the {top}", "gn_must_overtrump", {"card": top.code})
    return ("you have no card of the suit led: you must trump", "gn_must_trump", {"suit": trump})


def cante_value(suit: str, trump: str) -> int:
    return 40 if suit == trump else 20


def hidden_cante(points: int, after: int) -> bool:
    """Whether a cante sung after ``after`` tricks is a 20 sung in arrastre, whose suit the other pair
    never learns: from the window after trick 4 on, whose draw took the last cards of the stock (the hands
    are final from then on; docs/decisions.md «A 20 after trick 4 is sung in arrastre»)."""
    return points == 20 and after >= PHASE1_TRICKS


def can_sing(hand: Collection[SpanishCard], suit: str) -> bool:
    rey, sota = _COUPLES[suit]
    return rey in hand and sota in hand


_COUPLES = {suit: (SpanishCard(REY, suit), SpanishCard(SOTA, suit)) for suit in "OCEB"}


def exchange_allowed(pinta: SpanishCard | None, any_pinta: bool) -> bool:
    return pinta is not None and pinta.rank != SEVEN and (any_pinta or pinta.rank in COUNTING_RANKS)


def decide_hand(totals: Sequence[int], card_points: Sequence[int], ultimas: int | None,
                thirty_rule: bool) -> int | None:
    """The pair that wins a hand played to the end, or None when nobody passes 100 (vueltas).

    ``totals`` include cantes (and any carry); ``card_points`` include las últimas. With both pairs past
    100, a pair under 30 without cantes loses (when ``thirty_rule``), otherwise las últimas decide.
    """
    over = [pair for pair in (0, 1) if totals[pair] > WIN_LINE]
    if len(over) == 1:
        return over[0]
    if not over:
        return None
    if thirty_rule:
        short = [pair for pair in (0, 1) if card_points[pair] < THIRTY]
        if len(short) == 1:
            return 1 - short[0]
    return ultimas


def hand_reason(record: dict, thirty_includes_ultimas: bool = True, vueltas: bool = False) -> str:
    """Why a hand_end record came out as it did: ``claim_right``, ``claim_wrong``, ``over_100`` (one
    pair past 100), ``thirty`` (both past 100, one under 30 without cantes), ``ultimas`` (both past
    100, las últimas decide) or ``vueltas`` (nobody past 100). The 30 rule is not used in a hand
    de vueltas."""
    if record["claim"] is not None:
        return "claim_right" if record["claim"]["right"] else "claim_wrong"
    if record["winner"] is None:
        return "vueltas"
    totals = record["totals"]
    if sum(1 for t in totals if t > WIN_LINE) < 2:
        return "over_100"
    thirty = list(record["points"])
    if record["ultimas"] is not None and not thirty_includes_ultimas:
        thirty[record["ultimas"]] -= ULTIMAS
    if not vueltas and any(p < THIRTY for p in thirty) and not all(p < THIRTY for p in thirty):
        return "thirty"
    return "ultimas"
