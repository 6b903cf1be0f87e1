"""Gong Zhu (拱猪) rules as pure functions: card values, legality, trick winner and the seven lines.

Source: docs/rules/gongzhu.md (from the Spanish source document).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from cardtable.cards import Card, french_deck, parse_card
from cardtable.tricks import winning_index

T = TypeVar("T")

PIG = parse_card("QS")
GOAT = parse_card("JD")
TRANSFORMER = parse_card("10C")
HEART_ACE = parse_card("AH")
TWO_OF_CLUBS = parse_card("2C")
SHOWABLE = (PIG, GOAT, TRANSFORMER, HEART_ACE)
# The house variant «only the Pig and the Transformer may be shown» (option showable=pig_transformer).
SHOWABLE_SETS = {"all": SHOWABLE, "pig_transformer": (PIG, TRANSFORMER)}
ALL_HEARTS = tuple(Card(rank, "H") for rank in range(2, 15))
POINT_CARDS = frozenset(ALL_HEARTS + (PIG, GOAT, TRANSFORMER))

HEART_VALUES = {2: 0, 3: 0, 4: 0, 5: -10, 6: -10, 7: -10, 8: -10, 9: -10, 10: -10,
                11: -20, 12: -30, 13: -40, 14: -50}


# Each heart's value, by card (also the test «is it a heart» of the scoring, one lookup per card).
_HEART_POINTS = {card: HEART_VALUES[card.rank] for card in ALL_HEARTS}


def heart_value(card: Card) -> int:
    return HEART_VALUES[card.rank] if card.suit == "H" else 0


def is_point_card(card: Card) -> bool:
    return card in POINT_CARDS


def suit_of(card: Card) -> str:
    return card.suit


def strength(card: Card) -> int:
    return card.rank


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: ♠ ♥ ♣ ♦ (alternating colours), low to high."""
    return ("SHCD".index(card.suit), card.rank)


SORT_KEYS = {card: sort_key(card) for card in french_deck()}
# The same order as one int per card (the fastest sort key: sorted(cards, key=SORT_ORDER.__getitem__)).
SORT_ORDER = {card: index for index, card in enumerate(sorted(french_deck(), key=sort_key))}


_RANK_OF = {card: card.rank for card in french_deck()}


def trick_winner_index(plays: Sequence[tuple[int, Card]]) -> int:
    """Index in ``plays`` of the card winning the trick so far: the highest card of the suit led (Gong
    Zhu has no trumps; :func:`cardtable.tricks.winning_index`, which works on an incomplete trick too)."""
    return winning_index(plays, _RANK_OF)


# ---------------------------------------------------------------- legality
class PlayContext(NamedTuple):
    """What legality depends on, all of it known to the seat to play."""

    trick: tuple[tuple[int, Card], ...]
    suits_led: frozenset[str]       # suits led in the hand's earlier tricks (not the current one)
    shown: frozenset[Card]          # the cards this seat has shown
    must_lead_two_of_clubs: bool


def refusal(card: Card, hand: Collection[Card], ctx: PlayContext) -> tuple[str, str, dict] | None:
    """Why ``card`` may not be played now, as (English reason, i18n key, params); None if legal. What is
    legal is decided by :func:`legal_cards` alone; this only says which of its clauses refused."""
    if card not in hand:
        return (f"{card} is not in your hand", "gz_not_in_hand", {"card": card.code})
    if card in legal_plays(hand, ctx):
        return None
    if not ctx.trick:
        if ctx.must_lead_two_of_clubs and card != TWO_OF_CLUBS:
            return ("the first trick of the match must be led with the 2 of clubs", "gz_lead_2c", {})
        lead_suit = card.suit
    else:
        lead_suit = ctx.trick[0][1].suit
        if card.suit != lead_suit:
            return (f"you must follow suit ({lead_suit})", "must_follow", {"suit": lead_suit})
    reason = (f"{card} was shown: it may not be played on the first {lead_suit} trick while you hold "
              "another card of that suit")
    return (reason, "gz_shown_first_round", {"card": card.code, "suit": lead_suit})


def legal_plays(hand: Iterable[Card], ctx: PlayContext) -> list[Card]:
    """The cards of ``hand`` that may be played now, in the hand's order."""
    return legal_cards(list(hand), ctx.trick, ctx.suits_led, ctx.shown, ctx.must_lead_two_of_clubs)


def legal_cards(hand: list[Card], trick: Sequence[tuple[int, Card]], suits_led: Collection[str],
                shown: Collection[Card] | None, must_lead_two_of_clubs: bool) -> list[Card]:
    """Of ``hand`` (in its order), the cards that may be played to ``trick``: :func:`legal_split` on the
    hand split by suit."""
    return list(legal_split(split_by_suit(hand), trick, suits_led, shown, must_lead_two_of_clubs))


ANY = ""
"""The key of the whole hand in a hand split by suit (see :func:`legal_split`)."""


def split_by_suit(hand: Sequence[Card]) -> dict[str, Sequence[Card]]:
    """``hand`` as :func:`legal_split` reads it: each suit's cards in hand order, the whole hand under
    :data:`ANY`."""
    split: dict[str, Sequence[Card]] = {ANY: hand}
    for card in hand:
        group = split.get(card[1])
        if group is None:
            split[card[1]] = [card]
        else:
            group.append(card)     # type: ignore[attr-defined]
    return split


def legal_split(hand: Mapping[str, Sequence[T]], trick: Sequence[tuple[int, Card]], suits_led: Collection[str],
                shown: Collection[Card] | None, must_lead_two_of_clubs: bool,
                card_of: Callable[[T], Card] | None = None) -> Sequence[T]:
    """The rule of play, the one place it is written (validation, the UI and the bots all come here).

    Of ``hand``, the cards that may be played to ``trick`` (the cards played so far, ``(seat, card)``,
    the lead first): follow the suit led when you can; the first trick of the match is led with the ♣2;
    a card the player has shown (``shown``) may not be played on the first trick of its suit
    (``suits_led``: suits led in the hand's earlier tricks) while the hand holds another card of that
    suit.

    ``hand`` is the hand split by suit (:func:`split_by_suit`): suit → its cards in hand order, and
    :data:`ANY` → the whole hand, read only when no suit restricts the play (so a mapping may fill it
    in when first asked). Its items are cards, or anything that stands for one when ``card_of`` gives
    the card (the match keeps each hand as its Plays). The answer is in hand order; it may be one of
    ``hand``'s own sequences."""
    lead = ""
    items: Sequence[T]
    if trick:
        lead = trick[0][1][1]
        items = hand.get(lead) or hand[ANY]
    elif must_lead_two_of_clubs:
        items = [item for item in hand.get("C", ()) if (card_of(item) if card_of else item) == TWO_OF_CLUBS]
    else:
        items = hand[ANY]
    if shown:
        for card in shown:
            suit = card[1]
            if (not trick or suit == lead) and suit not in suits_led and len(hand.get(suit, ())) > 1:
                items = [item for item in items if (card_of(item) if card_of else item) != card]
    return items


def showable_in(hand: Iterable[Card], allowed: Sequence[Card] = SHOWABLE) -> list[Card]:
    """The cards of ``hand`` that may be shown, in the panel's order (``allowed``: the option's set)."""
    hand = set(hand)
    return [card for card in allowed if card in hand]


# ---------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Lines:
    """The seven lines of one player's hand (total is filled in by the match)."""

    hearts: int
    pig: int
    goat: int
    base: int
    transformer: str   # "none" | "alone" | "x2" | "x4"
    hand: int
    all_hearts: bool = False
    grand_slam: bool = False

    def to_json(self, total: int) -> dict:
        return {"hearts": self.hearts, "pig": self.pig, "goat": self.goat, "base": self.base,
                "transformer": self.transformer, "hand": self.hand, "total": total}


def score_taken(taken: Collection[Card], shown: Collection[Card], swap: bool, zero_hearts_alone: bool,
                someone_took_all_hearts: bool, all_hearts_value: int = 200) -> Lines:
    """Score the point cards one player took in a hand.

    ``shown`` is every card shown by anyone this hand (effects follow the card, not the shower);
    ``someone_took_all_hearts`` switches the Pig–Goat swap on when the option is on;
    ``all_hearts_value`` is the hearts line of whoever takes all thirteen before the ♥A doubles it:
    200 (every heart turned positive, the default) or 400 (the house variant).
    """
    h_mult = 2 if HEART_ACE in shown else 1
    p_mult = 2 if PIG in shown else 1
    g_mult = 2 if GOAT in shown else 1
    t_mult = 4 if TRANSFORMER in shown else 2
    hearts = list(filter(_HEART_POINTS.__contains__, taken))
    all_hearts = len(hearts) == 13
    has_pig, has_goat, has_transformer = PIG in taken, GOAT in taken, TRANSFORMER in taken

    if all_hearts and has_pig and has_goat and has_transformer:
        hearts_line, pig_line, goat_line = all_hearts_value * h_mult, 100 * p_mult, 100 * g_mult
        base = hearts_line + pig_line + goat_line
        return Lines(hearts_line, pig_line, goat_line, base, f"x{t_mult}", base * t_mult,
                     all_hearts=True, grand_slam=True)

    hearts_line = (all_hearts_value if all_hearts else sum(map(_HEART_POINTS.__getitem__, hearts))) * h_mult
    swapped = swap and someone_took_all_hearts
    pig_line = (100 if swapped else -100) * p_mult if has_pig else 0
    goat_line = (-100 if swapped else 100) * g_mult if has_goat else 0
    base = hearts_line + pig_line + goat_line
    if not has_transformer:
        return _lines(hearts_line, pig_line, goat_line, base, "none", base, all_hearts)
    if zero_hearts_alone:
        others = has_pig or has_goat or any(map(_HEART_POINTS.__getitem__, hearts))
    else:
        others = has_pig or has_goat or bool(hearts)
    if not others:
        return _lines(hearts_line, pig_line, goat_line, base, "alone", 50 * (t_mult // 2), False)
    return _lines(hearts_line, pig_line, goat_line, base, f"x{t_mult}", base * t_mult, all_hearts)


def _lines(hearts: int, pig: int, goat: int, base: int, transformer: str, hand: int, all_hearts: bool) -> Lines:
    """``Lines(...)`` (not a grand slam) without the frozen dataclass's ``__init__``: a hand scores four."""
    lines = _new(Lines)
    _setattr(lines, "__dict__", {"hearts": hearts, "pig": pig, "goat": goat, "base": base,
                                 "transformer": transformer, "hand": hand, "all_hearts": all_hearts,
                                 "grand_slam": False})
    return lines


_new = object.__new__
_setattr = object.__setattr__


def score_hand(taken: Sequence[Collection[Card]], shown: Collection[Card], swap: bool,
               zero_hearts_alone: bool, all_hearts_value: int = 200) -> list[Lines]:
    """Score all four players' taken cards."""
    all_hearts = False
    for pile in taken:       # (fewer than 13 cards cannot hold every heart)
        if len(pile) >= 13 and len(list(filter(_HEART_POINTS.__contains__, pile))) == 13:
            all_hearts = True
    return [score_taken(pile, shown, swap, zero_hearts_alone, all_hearts, all_hearts_value) for pile in taken]


def show_effect(card: Card) -> tuple[str, str]:
    """The before → after effect of showing ``card`` (for the showing panel), as short strings."""
    return {
        PIG: ("−100", "−200"),
        GOAT: ("+100", "+200"),
        TRANSFORMER: ("×2", "×4"),
        HEART_ACE: ("−200", "−400"),
    }[card]
