"""Guandan hints and play checker (see cardtable.hints): the `hard` search's move, explained from the
view (the partner winning, the hand plan of :func:`decompose`, going out, bombs), and the moves it rates
clearly worse; and the table's plain advice without a search: the readings of a selection, the cards
that can answer the table, and the order of the h key's hints.

The unit is the pair's expected levels for the deal (+3/+2/+1 by the finish, the same negative for the
other pair); a move is flagged when it costs more than :data:`CHECK_THRESHOLD` levels on average (and
more than 1.5 standard errors). The search weighs a short list of moves, so the checker compares the
real move with the search's choice directly, in the same sampled worlds.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from cardtable import hints, search
from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.bots import NormalBot, decompose, recommended_return
from cardtable.games.guandan.bots import over_partner as over_partner_top
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.search import DEFAULT_BUDGET, HardBot, pair_levels, world
from cardtable.games.guandan.state import GuandanView, Pass, Play, Return, Tribute
from cardtable.i18n import t
from cardtable.tricks import partner, team_of

CHECK_THRESHOLD = 0.5                      # expected levels
CHECK_BUDGET = DEFAULT_BUDGET              # a Guandan decision is cheap: the checker affords a full one
GAIN_MIN = 0.1    # the hint shows its edge over the runner-up from this much (levels)

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).


def unbeatable(view: GuandanView, move: Play) -> bool:
    """Can nobody else answer ``move``? True when the cards this seat has not seen hold no play that
    beats it and fits in the hand of a seat still playing (whoever holds them, partner included)."""
    most = max((n for seat, n in enumerate(view.counts) if seat != view.seat), default=0)
    if most == 0:
        return True
    unseen = list((rules.guandan_deck_counts() - Counter(view.hand) - Counter(view.played)).elements())
    form = rules.Form(move.type, move.key, move.size)
    answers = rules.play_forms(unseen, view.level, form, view.options.straight_flush_as_straight)
    return not any(size <= most for _, _, size, *_ in answers)


def whole_groups(plan: list[tuple[str, list]], cards) -> bool:
    """Are ``cards`` some whole groups of the hand plan (none of its groups split)?"""
    left = Counter(cards)
    for _, group in plan:
        need = Counter(group)
        if need <= left:
            left -= need
    return not left


def low_lead_for_partner(view: GuandanView, move: Play) -> bool:
    """A low single or pair led while the partner, still playing, holds few cards: the source's tip."""
    left = view.counts[(view.seat + 2) % 4]
    return (0 < left <= 5 and move.type in ("single", "pair") and move.key is not None
            and rules.value(move.key, view.level) < rules.value(10, view.level))


def explain(view: GuandanView, move, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` is good here, in what the view shows at this point: the lead is said to come back
    only when no unseen cards can answer the play, beating the partner's play is always named, and a
    lead that splits a group of the hand plan is not said to keep it (such a lead is the one the search
    rated best; ``evaluation`` is not named in the reason)."""
    Reason = hints.Reason
    if len(view.legal) <= 1:
        if isinstance(move, Pass):
            return Reason.of("gd_why_forced_pass")
        return Reason.of("gd_why_forced")
    if isinstance(move, Tribute):
        return Reason.of("gd_why_tribute")
    plan = decompose(list(view.hand), view.level)
    if isinstance(move, Return):
        grouped = {c for _, cards in plan if len(cards) > 1 for c in cards}
        return Reason.of("gd_why_return" if move.card in grouped else "gd_why_return_free")
    partner_top = view.top is not None and team_of(view.top.seat) == team_of(view.seat)
    if isinstance(move, Pass):
        if partner_top:
            return Reason.of("gd_why_pass_partner")
        plays = [m for m in view.legal if isinstance(m, Play)]
        if plays and all(m.type in rules.BOMB_TYPES for m in plays):
            return Reason.of("gd_why_pass_bombs")
        return Reason.of("gd_why_pass")
    if move.size == len(view.hand):
        return Reason.of("gd_why_out")
    sure = unbeatable(view, move)
    if partner_top:
        return Reason.of("gd_why_over_partner_sure" if sure else "gd_why_over_partner")
    if move.type in rules.BOMB_TYPES and view.top is not None:
        return Reason.of("gd_why_bomb_sure" if sure else "gd_why_bomb")
    if view.top is None:
        if sure:
            return Reason.of("gd_why_lead_sure")
        if low_lead_for_partner(view, move):
            return Reason.of("gd_why_lead_low")
        if any(sorted(map(str, cards)) == sorted(map(str, move.cards)) for _, cards in plan):
            return Reason.of("gd_why_lead_plan", n=len(plan))
        if whole_groups(plan, move.cards):
            return Reason.of("gd_why_lead")
        # (not the search's «best of n plays over m sampled deals»: players read that as jargon)
        return Reason.of("gd_why_lead_other")
    if sure:
        return Reason.of("gd_why_beat_sure")
    plays = [m for m in view.legal if isinstance(m, Play) and m.type not in rules.BOMB_TYPES]
    if plays and min(rules.strength(p, view.level) for p in plays) == rules.strength(move, view.level):
        return Reason.of("gd_why_cheapest")
    return Reason.of("gd_why_beat")


# A hint follows the partner rule the CPU partner follows: it never suggests beating the partner's play
# (the search's own choice is the next hint, :func:`hint` with ``over_partner``).
ADVICE = hints.GameAdvice(
    bot=lambda budget: HardBot(budget, spare_partner=True), world=world, policy=NormalBot, value=pair_levels, moves_left=lambda view: sum(view.counts),
    checked=lambda move: not isinstance(move, Tribute), explain=explain, threshold=CHECK_THRESHOLD,
    gain_min=GAIN_MIN, scale=1.0, digits=1, cost_line=lambda move, cost: t("gd_check_cost", move=move, cost=cost),
    gain_line=lambda gain, other: t("gd_hint_gain", gain=gain, other=other))
amount, cost_text, gain_text = ADVICE.amount, ADVICE.cost_text, ADVICE.gain_text


def hint(view: GuandanView, budget: search.Budget = DEFAULT_BUDGET, over_partner: bool = False) -> hints.Hint:
    """What `hard` does here, and why: over the partner's play a pass (the partner rule), unless the
    player asked for the next hint (``over_partner``), which is the search's own choice."""
    if over_partner:
        return hints.search_hint(view, dataclasses.replace(ADVICE, bot=HardBot), budget)
    found = hints.search_hint(view, ADVICE, budget)
    return dataclasses.replace(found, spared_partner=over_partner_top(view) and len(view.legal) > 1)


def check(view: GuandanView, move, budget: search.Budget = CHECK_BUDGET) -> hints.Flag | None:
    """A flag when ``move`` (legal in ``view``) is clearly worse than the search's choice; never for a
    forced move (the tribute is always forced, and never checked)."""
    return hints.check_play(view, move, ADVICE, budget)


# ---------------------------------------------------------------- the table's plain advice (no search)
def readings(cards: Sequence[Card], view: GuandanView) -> list[Combo]:
    """Every reading of the selected ``cards`` at the view's level, strongest first (none: not a play)."""
    if not cards:
        return []
    return rules.classify(cards, view.level, view.options.straight_flush_as_straight)


def beating_readings(cards: Sequence[Card], view: GuandanView) -> list[Combo]:
    """The readings of ``cards`` that beat the play on the table (any reading when leading)."""
    top = view.top.combo if view.top else None
    return [c for c in readings(cards, view) if rules.beats(c, top, view.level)]


def answering_cards(view: GuandanView) -> set[Card] | None:
    """When the view's seat must answer a play, the cards of its hand in some play that beats it (the
    columns the table lights); None when it is not answering (leading, not its turn, not the play)."""
    if view.to_move != view.seat or view.top is None or view.phase != "play":
        return None
    return rules.usable_cards(view.hand, view.level, view.top.combo, view.options.straight_flush_as_straight)


def play_combo(move: Play, view: GuandanView) -> Combo:
    """The reading of the cards of ``move`` (a legal play) that the move makes."""
    return next(c for c in readings(move.cards, view) if c.type == move.type and c.key == move.key)


def hint_cost(move: Play, view: GuandanView) -> tuple:
    """How dear a play is to give up, for the hints' order: non-bombs before bombs (and lower bombs first),
    then fewer wilds, lower, fewer cards, and the order of the combination types."""
    combo = play_combo(move, view)
    wilds = sum(1 for c in move.cards if rules.is_wild(c, view.level))
    return (combo.is_bomb, rules.rung(combo) if combo.is_bomb else 0, wilds, rules.strength(combo, view.level),
            len(move.cards), rules.TYPES.index(combo.type))


class HintStep(NamedTuple):
    """One press of the h key: the play to select (None: select nothing) and why it comes here —
    ``"tribute"``, ``"return"`` (``card`` is the one card), ``"out"`` (it takes the last cards),
    ``"partner"`` (pass: the partner is winning), ``"over_partner"`` (it beats the partner's play) or
    ``"play"`` (the next cheapest)."""
    kind: str
    play: Play | None = None
    card: Card | None = None

    @property
    def cards(self) -> list[Card]:
        if self.card is not None:
            return [self.card]
        return list(self.play.cards) if self.play is not None else []


def hint_order(view: GuandanView) -> list[HintStep]:
    """The hints for this turn, in the order the h key proposes them.

    Tribute: the card to pay; return: the recommended card. Otherwise the legal plays from the cheapest
    to the dearest (:func:`hint_cost`). When the partner is winning the trick, the first hint is to pass —
    unless a play takes the last cards — and the plays that beat the partner's come after it. Empty when
    no play is legal."""
    legal = list(view.legal)
    if view.phase == "tribute" and legal:
        if isinstance(legal[0], Tribute):
            return [HintStep("tribute", card=legal[0].card)]
        return [HintStep("return", card=recommended_return(view).card)]
    plays = sorted((m for m in legal if isinstance(m, Play)), key=lambda move: hint_cost(move, view))
    partner_winning = view.top is not None and view.top.seat == partner(view.seat)
    if not (partner_winning and plays):     # (no play beats it: no list, «No play beats the table: pass»)
        return [HintStep("play", p) for p in plays]
    out = [p for p in plays if len(p.cards) == len(view.hand)]
    return ([HintStep("out", p) for p in out] + [HintStep("partner")]
            + [HintStep("over_partner", p) for p in plays if p not in out])
