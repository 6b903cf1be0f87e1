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


def explain(view: GuandanView, move) -> hints.Reason:
    """Why ``move`` is good here, from what the view shows."""
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


def hint(view: GuandanView, budget: search.Budget = DEFAULT_BUDGET) -> hints.Hint:
    """What `hard` does here, and why."""
    evaluation = HardBot(budget).evaluate(view)
    other, gain = hints.runner_up(evaluation)
    return hints.Hint(evaluation.move, explain(view, evaluation.move), gain, other, evaluation)


def check(view: GuandanView, move, budget: search.Budget = CHECK_BUDGET) -> hints.Flag | None:
    """A flag when ``move`` (legal in ``view``) is clearly worse than the search's choice; never for a
    forced move (the tribute is always forced)."""
    if len(view.legal) <= 1 or isinstance(move, Tribute):
        return None
    better = HardBot(budget).evaluate(view).move
    if better == move:
        return None
    policy = NormalBot()
    paired = search.compare(view, better, move, world, lambda _seat: policy, pair_levels, budget, sum(view.counts))
    return hints.flag_of(view.hand_number, move, better, paired, CHECK_THRESHOLD)


def amount(value: float) -> str:
    """Expected levels as the hint and the checker write them."""
    return f"{abs(value):.1f}"


def cost_text(move: str, cost: float) -> str:
    """The checker's line: the better play (already written by the table) and the expected cost."""
    return t("gd_check_cost", move=move, cost=amount(cost))


def gain_text(gain: float, other: str) -> str:
    """The hint's statistics: its expected edge over the runner-up ``other`` (written by the table)."""
    return t("gd_hint_gain", gain=amount(gain), other=other)
