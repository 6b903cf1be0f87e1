"""Guandan hints and play checker (see cardtable.hints): the `hard` search's move, explained from the
view (the partner winning, the hand plan of :func:`decompose`, going out, bombs), and the moves it rates
clearly worse.

The unit is the pair's expected levels for the deal (+3/+2/+1 by the finish, the same negative for the
other pair); a move is flagged when it costs more than :data:`CHECK_THRESHOLD` levels on average (and
more than 1.5 standard errors). The search weighs a short list of moves, so the checker compares the
real move with the search's choice directly, in the same sampled worlds.
"""

from __future__ import annotations

from cardtable import hints, search
from cardtable.games.guandan import rules
from cardtable.games.guandan.bots import NormalBot, decompose
from cardtable.games.guandan.search import DEFAULT_BUDGET, HardBot, pair_levels, world
from cardtable.games.guandan.state import GuandanView, Pass, Play, Return, Tribute
from cardtable.i18n import t
from cardtable.tricks import team_of

CHECK_THRESHOLD = 0.5                      # expected levels
CHECK_BUDGET = DEFAULT_BUDGET              # a Guandan decision is cheap: the checker affords a full one
GAIN_MIN = 0.1    # the hint shows its edge over the runner-up from this much (levels)

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).


def explain(view: GuandanView, move, evaluation: search.Evaluation | None = None) -> hints.Reason:
    """Why ``move`` is good here, from what the view shows (the search's ``evaluation`` adds nothing
    here: the hand plan says more)."""
    if len(view.legal) <= 1:
        return hints.Reason.of("gd_why_forced")
    if isinstance(move, Tribute):
        return hints.Reason.of("gd_why_tribute")
    plan = decompose(list(view.hand), view.level)
    if isinstance(move, Return):
        grouped = {c for _, cards in plan if len(cards) > 1 for c in cards}
        return hints.Reason.of("gd_why_return" if move.card in grouped else "gd_why_return_free")
    if isinstance(move, Pass):
        if view.top is not None and team_of(view.top.seat) == team_of(view.seat):
            return hints.Reason.of("gd_why_pass_partner")
        return hints.Reason.of("gd_why_pass")
    if move.size == len(view.hand):
        return hints.Reason.of("gd_why_out")
    if move.type in rules.BOMB_TYPES and view.top is not None:
        return hints.Reason.of("gd_why_bomb")
    if view.top is None:
        if any(sorted(map(str, cards)) == sorted(map(str, move.cards)) for _, cards in plan):
            return hints.Reason.of("gd_why_lead_plan", n=len(plan))
        return hints.Reason.of("gd_why_lead")
    plays = [m for m in view.legal if isinstance(m, Play) and m.type not in rules.BOMB_TYPES]
    if plays and min(rules.strength(p, view.level) for p in plays) == rules.strength(move, view.level):
        return hints.Reason.of("gd_why_cheapest")
    return hints.Reason.of("gd_why_beat")


ADVICE = hints.GameAdvice(
    bot=HardBot, world=world, policy=NormalBot, value=pair_levels, moves_left=lambda view: sum(view.counts),
    checked=lambda move: not isinstance(move, Tribute), explain=explain, threshold=CHECK_THRESHOLD,
    gain_min=GAIN_MIN, scale=1.0, digits=1, cost_line=lambda move, cost: t("gd_check_cost", move=move, cost=cost),
    gain_line=lambda gain, other: t("gd_hint_gain", gain=gain, other=other))
amount, cost_text, gain_text = ADVICE.amount, ADVICE.cost_text, ADVICE.gain_text


def hint(view: GuandanView, budget: search.Budget = DEFAULT_BUDGET) -> hints.Hint:
    """What `hard` does here, and why."""
    return hints.search_hint(view, ADVICE, budget)


def check(view: GuandanView, move, budget: search.Budget = CHECK_BUDGET) -> hints.Flag | None:
    """A flag when ``move`` (legal in ``view``) is clearly worse than the search's choice; never for a
    forced move (the tribute is always forced, and never checked)."""
    return hints.check_play(view, move, ADVICE, budget)
