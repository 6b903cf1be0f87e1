"""Guiñote hints and play checker (see cardtable.hints): the `hard` search's play, explained from the
view (who is winning the trick, its points, trumps in hand and out), and the plays it rates clearly
worse. Exchanges, cantes and claims are hinted as the `normal` rules choose them (the search keeps them).

The unit is the pair's expected result for the hand (+1 won, −1 lost, plus a small point-margin term);
a player reads it as a chance of winning the hand: a cost of 0.1 is about 5 % less chance. A play is
flagged when it costs more than :data:`CHECK_THRESHOLD` (≈ 7.5 %) and more than 1.5 standard errors.
"""

from __future__ import annotations

from cardtable import hints, search
from cardtable.games.guinote import rules
from cardtable.games.guinote.bots import NormalBot
from cardtable.games.guinote.search import DEFAULT_BUDGET, HardBot, pair_result, world
from cardtable.games.guinote.state import Cante, Claim, Exchange, GuinoteView, KeepSeven, Play
from cardtable.i18n import t
from cardtable.tricks import team_of

CHECK_THRESHOLD = 0.15                     # expected result of the hand (≈ 7.5 % chance of winning it)
CHECK_BUDGET = DEFAULT_BUDGET.scaled(0.5)  # the checker runs beside the CPU: half a hard decision
GAIN_MIN = 0.04    # the hint shows its edge over the runner-up from this much (≈ 2 % chance of winning the hand)

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).


def _unseen(view: GuinoteView) -> set:
    return NormalBot._unseen(view)


def explain(view: GuinoteView, move, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` (a play) is good here, from what the view shows (and, where the view says little,
    from the search's ``evaluation``)."""
    if isinstance(move, Exchange):
        return hints.Reason.of("gn_why_exchange")
    if isinstance(move, KeepSeven):
        return hints.Reason.of("gn_why_keep_seven")
    if isinstance(move, Cante):
        return hints.Reason.of("gn_why_cante", points=40 if move.suit == view.trump else 20)
    if isinstance(move, Claim):
        return hints.Reason.of("gn_why_claim")
    if not isinstance(move, Play):
        return hints.Reason.of("gn_why_forced")
    card, trump = move.card, view.trump
    plays = [m for m in view.legal if isinstance(m, Play)]
    if len(plays) <= 1:
        return hints.Reason.of("gn_why_forced")
    if not view.trick:
        if card.suit == trump:
            big = sorted((c for c in view.hand if c.suit == trump and rules.points(c) >= 4),
                         key=rules.strength, reverse=True)
            if big:
                return hints.Reason.of("gn_why_draw_trumps", cards=tuple(big))
            return hints.Reason.of("gn_why_lead_trump")
        unseen = _unseen(view)
        if not any(c.suit == card.suit and rules.strength(c) > rules.strength(card) for c in unseen):
            return hints.Reason.of("gn_why_lead_master")
        if rules.points(card) == 0:
            return hints.Reason.of("gn_why_lead_low")
        return hints.searched(evaluation) or hints.Reason.of("gn_why_lead", card=card)
    seat, top = view.trick[rules.winner_index(view.trick, trump)]
    points = sum(rules.points(c) for _, c in view.trick) + rules.points(card)
    takes = rules.beats(card, top, trump)
    if team_of(seat) == team_of(view.seat):
        if takes:
            return hints.Reason.of("gn_why_over_partner")
        if rules.points(card) > 0:
            return hints.Reason.of("gn_why_load", points=rules.points(card))
        return hints.Reason.of("gn_why_partner")
    if takes:
        led = view.trick[0][1].suit
        if card.suit == trump and led != trump:
            return hints.Reason.of("gn_why_trump_in", points=points)
        return hints.Reason.of("gn_why_take", points=points) if points else hints.Reason.of("gn_why_take_lead")
    if len(view.trick) == 1:             # the partner plays last
        if rules.points(card) > 0:
            return hints.Reason.of("gn_why_load_last", points=rules.points(card))
        return hints.Reason.of("gn_why_partner_last")
    if any(rules.beats(m.card, top, trump) for m in plays):
        return hints.Reason.of("gn_why_let_go")
    if rules.points(card) == 0:
        return hints.Reason.of("gn_why_lost")
    return hints.Reason.of("gn_why_give", card=card)


ADVICE = hints.GameAdvice(
    bot=HardBot, world=world, policy=NormalBot, value=pair_result,
    moves_left=lambda view: sum(view.counts) + view.stock_count, checked=lambda move: isinstance(move, Play),
    explain=explain, threshold=CHECK_THRESHOLD, gain_min=GAIN_MIN, scale=50.0, digits=0,
    cost_line=lambda move, cost: t("gn_check_cost", move=move, cost=cost),
    gain_line=lambda gain, other: t("gn_hint_gain", gain=gain, other=other))
amount, cost_text, gain_text = ADVICE.amount, ADVICE.cost_text, ADVICE.gain_text   # a chance, in percent


def hint(view: GuinoteView, budget: search.Budget = DEFAULT_BUDGET) -> hints.Hint:
    """What `hard` does here (a play, or `normal`'s exchange/cante/claim), and why."""
    return hints.search_hint(view, ADVICE, budget)


def check(view: GuinoteView, move, budget: search.Budget = CHECK_BUDGET) -> hints.Flag | None:
    """A flag when the play ``move`` is clearly worse than the search's; never for a forced play, nor
    for exchanges, cantes and claims (only plays are checked)."""
    return hints.check_play(view, move, ADVICE, budget)
