"""Gong Zhu hints and play checker (see cardtable.hints): the `hard` search's play, explained from the
view (the trick, the suit led, the Pig still out, who takes what), and the plays it rates clearly worse.

The unit is the seat's own expected points for the hand; a play is flagged when it costs more than
:data:`CHECK_THRESHOLD` points on average (and more than 1.5 standard errors of the paired measure).
"""

from __future__ import annotations

from cardtable import hints, search
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.rules import HEART_ACE, PIG, TRANSFORMER
from cardtable.games.gongzhu.search import DEFAULT_BUDGET, HardBot, hand_points, world
from cardtable.games.gongzhu.state import GongZhuView, Play, Show
from cardtable.i18n import t

CHECK_THRESHOLD = 20.0                     # expected points
CHECK_BUDGET = DEFAULT_BUDGET.scaled(0.5)  # the checker runs beside the CPU: half a hard decision
GAIN_MIN = 2.0    # the hint shows its edge over the runner-up from this much (points)

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def explain(view: GongZhuView, move: Play | Show, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` (a play) is good here, from what the view shows (and, where the view says little,
    from the search's ``evaluation``)."""
    if isinstance(move, Show):
        return hints.Reason.of("gz_why_show", cards=move.cards) if move.cards else hints.Reason.of("gz_why_show_none")
    card = move.card
    if len(view.legal) <= 1:
        return hints.Reason.of("gz_why_forced")
    same = [c for c in view.hand if c.suit == card.suit]
    if not view.trick:
        if len(same) == 1:
            return hints.Reason.of("gz_why_lead_void", suit=SUITS[card.suit])
        if all(c.rank >= card.rank for c in same):
            return hints.Reason.of("gz_why_lead_low", suit=SUITS[card.suit])
        return hints.searched(evaluation) or hints.Reason.of("gz_why_lead", card=card)
    lead = view.trick[0][1].suit
    top = view.trick[rules.trick_winner_index(view.trick)][1]
    if card.suit != lead:
        if card == PIG:
            return hints.Reason.of("gz_why_dump_pig", suit=SUITS[lead])
        if card in (HEART_ACE, TRANSFORMER) or rules.heart_value(card) < 0:
            return hints.Reason.of("gz_why_dump", card=card, suit=SUITS[lead])
        return hints.Reason.of("gz_why_discard", card=card, suit=SUITS[lead])
    if len(view.trick) < 3 and all(c.rank >= card.rank for c in same) and card != PIG:
        return hints.Reason.of("gz_why_follow_low", suit=SUITS[lead])
    if card.rank > top.rank:
        if len(view.trick) == 3:
            trick = [c for _, c in view.trick] + [card]
            if not any(rules.is_point_card(c) for c in trick):
                return hints.Reason.of("gz_why_take_clean")
            return hints.Reason.of("gz_why_take_last")
        return hints.Reason.of("gz_why_take", card=card)
    if card == PIG:
        return hints.Reason.of("gz_why_pig_under", top=top)
    higher = [c for c in same if c.rank > top.rank]
    if higher:
        kept = max(higher, key=lambda c: c.rank)
        if lead == "S" and PIG in view.unseen and kept.rank > PIG.rank:
            return hints.Reason.of("gz_why_duck_pig", top=top, card=kept)
        return hints.Reason.of("gz_why_duck", top=top, card=kept)
    return hints.Reason.of("gz_why_under", top=top)


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
