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
from cardtable.games.guinote.sampling import arrastre_exclusions, known_holdings
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


def later_seats(view: GuinoteView) -> list[int]:
    """The seats still to play in the current trick after this one."""
    played = {seat for seat, _ in view.trick}
    return [seat for seat in range(4) if seat != view.seat and seat not in played]


def may_beat(view: GuinoteView, card, seats: list[int]) -> bool:
    """Could one of ``seats`` hold a card that beats ``card`` (the card winning the trick), as far as
    the view knows: the unseen cards (the pinta face up by the stock is nobody's), the cards a seat is
    known to hold (the pinta's taker, the exchange, sung cantes) and the cards its arrastre plays show
    it lacks."""
    if not seats:
        return False
    owner = {c: seat for seat, cards in known_holdings(view).items() for c in cards}
    better = (other for other in _unseen(view) if rules.beats(other, card, view.trump))
    excluded = arrastre_exclusions(view)
    return hints.may_be_held(better, seats, owner, lambda seat, c: c in excluded[seat])


def explain(view: GuinoteView, move, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` is good here, in what the view shows at this point: a trick is said to be taken only
    when nobody after this seat can beat the card, a partner winning the trick is always named, points
    are those on the table (never «takes 0 points»), and what later players do is only «may»."""
    Reason = hints.Reason
    trump = view.trump
    if isinstance(move, Exchange):
        if rules.points(view.pinta) > 0:
            return Reason.of("gn_why_exchange")
        return Reason.of("gn_why_exchange_plain")
    if isinstance(move, KeepSeven):
        if move.card in view.hand:
            return Reason.of("gn_why_keep_seven")
        return Reason.of("gn_why_no_seven")
    if isinstance(move, Cante):
        return Reason.of("gn_why_cante", points=40 if move.suit == trump else 20)
    if isinstance(move, Claim):
        total = view.total(team_of(view.seat))
        if total > rules.WIN_LINE:
            return Reason.of("gn_why_claim", points=total)
        return Reason.of("gn_why_claim_short", points=total)
    if not isinstance(move, Play):
        return Reason.of("gn_why_forced")
    card = move.card
    plays = [m for m in view.legal if isinstance(m, Play)]
    if len(plays) <= 1:
        return Reason.of("gn_why_forced")
    after = later_seats(view)
    opponents = [seat for seat in after if team_of(seat) != team_of(view.seat)]
    if not view.trick:
        if card.suit == trump:
            big = sorted((c for c in view.hand if c.suit == trump and rules.points(c) >= 4),
                         key=rules.strength, reverse=True)
            if big and view.arrastre:          # the hint names the card led: the others first, two at most
                return Reason.of("gn_why_draw_trumps", cards=tuple([c for c in big if c != card][:2] or [card]))
            if not may_beat(view, card, after):
                return Reason.of("gn_why_lead_sure")
            return Reason.of("gn_why_lead_trump")
        if not may_beat(view, card, after):
            return Reason.of("gn_why_lead_sure")
        unseen = _unseen(view)
        if not any(c.suit == card.suit and rules.strength(c) > rules.strength(card) for c in unseen):
            return Reason.of("gn_why_lead_master")
        if rules.points(card) == 0:
            return Reason.of("gn_why_lead_low")
        return hints.searched(evaluation) or Reason.of("gn_why_lead", card=card)
    seat, top = view.top          # type: ignore[misc]  # (not None: a trick is being played)
    points = sum(rules.points(c) for _, c in view.trick) + rules.points(card)
    takes = rules.beats(card, top, trump)
    if team_of(seat) == team_of(view.seat):          # the partner is winning the trick
        safe = not may_beat(view, top, opponents)
        if takes:
            if not may_beat(view, card, opponents):
                if safe:
                    return Reason.of("gn_why_over_partner_lead")
                return Reason.of("gn_why_over_partner_safe")
            return Reason.of("gn_why_over_partner")
        if rules.points(card) > 0:
            if safe:
                return Reason.of("gn_why_load_safe", points=rules.points(card))
            return Reason.of("gn_why_load", points=rules.points(card))
        if not any(c != card and (rules.points(c) > 0 or c.suit == trump) for c in view.hand):
            return Reason.of("gn_why_partner_plain_safe" if safe else "gn_why_partner_plain")
        return Reason.of("gn_why_partner_safe" if safe else "gn_why_partner")
    if takes:
        led = view.trick[0][1].suit
        if card.suit == trump and top.suit != trump:
            how = Reason.of("gn_how_trump_in")
        elif card.suit == trump and led != trump:
            how = Reason.of("gn_how_overtrump")
        else:
            how = Reason.of("gn_how_over")
        if not after:                                # the last card of the trick: it takes it
            if points:
                return Reason.of("gn_why_takes", how=how, points=points)
            return Reason.of("gn_why_takes_lead", how=how)
        if not may_beat(view, card, after):
            return Reason.of("gn_why_sure", how=how)
        if not may_beat(view, card, opponents):
            return Reason.of("gn_why_pair_sure", how=how)
        return Reason.of("gn_why_open", how=how)
    if len(view.trick) == 1:             # the partner plays last
        if rules.points(card) > 0:
            return Reason.of("gn_why_load_last", points=rules.points(card))
        return Reason.of("gn_why_partner_last")
    # The partner has played and an opponent wins: the trick is the other pair's.
    if any(rules.beats(m.card, top, trump) for m in plays):
        return Reason.of("gn_why_let_go", points=points) if points else Reason.of("gn_why_let_go_empty")
    if rules.points(card) == 0:
        return Reason.of("gn_why_lost")
    return Reason.of("gn_why_give", card=card)


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
