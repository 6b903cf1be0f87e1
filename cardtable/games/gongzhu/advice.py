"""Gong Zhu hints and play checker (see cardtable.hints): the `hard` search's play, explained from the
view (the trick, the suit led, the Pig still out, who takes what), and the plays it rates clearly worse.

The unit is the seat's own expected points for the hand; a play is flagged when it costs more than
:data:`CHECK_THRESHOLD` points on average (and more than 1.5 standard errors of the paired measure).
"""

from __future__ import annotations

from cardtable import hints, search
from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.rules import GOAT, HEART_ACE, PIG, TRANSFORMER
from cardtable.games.gongzhu.search import DEFAULT_BUDGET, HardBot, hand_points, world
from cardtable.games.gongzhu.state import GongZhuView, Play, Show
from cardtable.i18n import t

CHECK_THRESHOLD = 20.0                     # expected points
CHECK_BUDGET = DEFAULT_BUDGET.scaled(0.5)  # the checker runs beside the CPU: half a hard decision
GAIN_MIN = 2.0    # the hint shows its edge over the runner-up from this much (points)

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def later_seats(view: GongZhuView) -> list[int]:
    """The seats still to play in the current trick after this one."""
    played = {seat for seat, _ in view.trick}
    return [seat for seat in range(4) if seat != view.seat and seat not in played]


def may_beat(view: GongZhuView, card: Card, seats: list[int]) -> bool:
    """Could one of ``seats`` hold a higher card of ``card``'s suit, as far as the view knows (the
    unseen cards, the suits a seat showed it lacks, the shown cards and who showed them)?"""
    if not seats:
        return False
    owner = {c: seat for seat, cards in enumerate(view.shown) for c in cards}
    higher = (other for other in view.unseen if other.suit == card.suit and other.rank > card.rank)
    voids = view.voids()
    return hints.may_be_held(higher, seats, owner, lambda seat, c: c.suit in voids[seat])


def face_points(view: GongZhuView, cards) -> int:
    """The cards' points as they stand (hearts, Pig, Goat, doubled when shown; the Transformer, which
    multiplies a whole hand, is not counted here)."""
    shown = view.all_shown
    total = sum(rules.heart_value(c) for c in cards) * (2 if HEART_ACE in shown else 1)
    if PIG in cards:
        total -= 200 if PIG in shown else 100
    if GOAT in cards:
        total += 200 if GOAT in shown else 100
    return total


# Why to show nothing: what showing the card held would risk, the most costly first.
_KEEP_HIDDEN = ((PIG, "gz_why_show_none_pig"), (TRANSFORMER, "gz_why_show_none_transformer"),
                (HEART_ACE, "gz_why_show_none_heart_ace"), (GOAT, "gz_why_show_none_goat"))


def _why_show(cards, view: GongZhuView | None = None) -> hints.Reason:
    """What showing ``cards`` does: each counts double for whoever takes it, and the shown ♥A doubles
    every heart (the rules page's effects, in a line). Showing nothing says what showing the card held
    would risk (it doubles against you too: you may take the card yourself)."""
    Reason = hints.Reason
    if not cards:
        held = {card for move in (view.legal if view is not None else ()) if isinstance(move, Show)
                for card in move.cards}
        return next((Reason.of(key) for card, key in _KEEP_HIDDEN if card in held), Reason.of("gz_why_show_none"))
    if rules.HEART_ACE in cards:
        if len(cards) == 1:
            return Reason.of("gz_why_show_hearts", cards=cards)
        return Reason.of("gz_why_show_hearts_too", cards=cards)
    if len(cards) == 1:
        return Reason.of("gz_why_show_one", cards=cards)
    return Reason.of("gz_why_show", cards=cards)


def explain(view: GongZhuView, move: Play | Show, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` is good here, in what the view shows at this point: a trick is said to be taken
    only when nobody after this seat can beat the card (it plays last, or no higher card of the suit
    can come), points are the cards' own and signed, and a claim about later players says «may»."""
    Reason = hints.Reason
    if isinstance(move, Show):
        return _why_show(move.cards, view)
    card = move.card
    if len(view.legal) <= 1:
        return Reason.of("gz_why_forced")
    suit = SUITS[card.suit]
    same = [c for c in view.hand if c.suit == card.suit]
    if not view.trick:
        master = not may_beat(view, card, later_seats(view))
        # The Pig and the Goat go to the trick's taker: who may take them is the point.
        if card == PIG:
            return Reason.of("gz_why_lead_pig_back") if master else Reason.of("gz_why_lead_pig", suit=suit)
        if card == GOAT:
            return Reason.of("gz_why_lead_goat_back") if master else Reason.of("gz_why_lead_goat", suit=suit)
        if master:
            return Reason.of("gz_why_lead_master", card=card, suit=suit)
        if len(same) == 1:
            return Reason.of("gz_why_lead_void", suit=suit)
        if all(c.rank >= card.rank for c in same):
            return Reason.of("gz_why_lead_low", suit=suit)
        return hints.searched(evaluation) or Reason.of("gz_why_lead", card=card)
    lead = view.trick[0][1].suit
    top = view.trick[rules.trick_winner_index(view.trick)][1]
    if card.suit != lead:
        if card == PIG:
            return Reason.of("gz_why_dump_pig", suit=SUITS[lead])
        if card == GOAT:
            return Reason.of("gz_why_dump_goat", suit=SUITS[lead])
        if card in (HEART_ACE, TRANSFORMER) or rules.heart_value(card) < 0:
            return Reason.of("gz_why_dump", card=card, suit=SUITS[lead])
        return Reason.of("gz_why_discard", card=card, suit=SUITS[lead])
    if card.rank < top.rank:
        if card == PIG:
            return Reason.of("gz_why_pig_under", top=top)
        higher = [c for c in same if c.rank > top.rank]
        if higher:
            kept = max(higher, key=lambda c: c.rank)
            if lead == "S" and PIG in view.unseen and kept.rank > PIG.rank:
                return Reason.of("gz_why_duck_pig", top=top, card=kept)
            return Reason.of("gz_why_duck", top=top, card=kept)
        return Reason.of("gz_why_under", top=top)
    # Over the card on top.
    playable = [m.card for m in view.legal if isinstance(m, Play)]
    must = all(c.rank > top.rank for c in playable)
    if len(view.trick) == 3:                     # the last card of the trick: it takes it
        trick = [c for _, c in view.trick] + [card]
        points = face_points(view, trick)
        if not any(rules.is_point_card(c) for c in trick):
            return Reason.of("gz_why_take_clean")
        if TRANSFORMER in trick:
            if points:
                return Reason.of("gz_why_take_transformer_with", points=hints.signed(points))
            return Reason.of("gz_why_take_transformer")
        if points > 0:
            return Reason.of("gz_why_take_plus", points=hints.signed(points))
        if must:
            if card.rank == max(c.rank for c in playable):
                return Reason.of("gz_why_must_take_high", points=hints.signed(points), suit=suit)
            return Reason.of("gz_why_must_take", points=hints.signed(points))
        if not points:
            return Reason.of("gz_why_take_zero")
        if evaluation is not None and evaluation.move == move and len(evaluation.scores) > 1:
            return Reason.of("gz_why_take_cost", points=hints.signed(points))
        return Reason.of("gz_why_take_minus", points=hints.signed(points))
    if not may_beat(view, card, later_seats(view)):
        return Reason.of("gz_why_take_sure", suit=suit)
    if must and card.rank == min(c.rank for c in playable):
        return Reason.of("gz_why_over_low", top=top, suit=suit)
    return Reason.of("gz_why_over", top=top, suit=suit)


ADVICE = hints.GameAdvice(
    bot=HardBot, world=world, policy=NormalBot, value=hand_points, moves_left=lambda view: sum(view.counts),
    checked=lambda move: isinstance(move, Play), explain=explain, threshold=CHECK_THRESHOLD,
    gain_min=GAIN_MIN, scale=1.0, digits=0, cost_line=lambda move, cost: t("gz_check_cost", move=move, cost=cost),
    gain_line=lambda gain, other: t("gz_hint_gain", gain=gain, other=other))
amount, cost_text, gain_text = ADVICE.amount, ADVICE.cost_text, ADVICE.gain_text


def hint(view: GongZhuView, budget: search.Budget = DEFAULT_BUDGET) -> hints.Hint:
    """What `hard` plays here, and why."""
    return hints.search_hint(view, ADVICE, budget)


def check(view: GongZhuView, move, budget: search.Budget = CHECK_BUDGET) -> hints.Flag | None:
    """A flag when ``move`` (the seat's real play, legal in ``view``) is clearly worse than the search's
    choice; never for a forced move or in the showing phase (a Show is not checked)."""
    return hints.check_play(view, move, ADVICE, budget)
