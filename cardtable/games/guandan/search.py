"""Guandan `hard`/`expert`: determinized search over worlds sampled from the view (cardtable.search).

A partnership game rated per pair: a finished deal is worth the levels it moves (+3/+2/+1 for the pair
whose player went out first, the same negative for the other pair). A Guandan turn can offer hundreds of
plays, so the search weighs a short list: the `normal` plan's choice, passing, the groups of its hand
plan that are legal now, and the cheapest plain play and bomb. Over a partner's winning play the
`normal` rule (pass) stands unless the search rates a beating play clearly better (by
:data:`PARTNER_TIE` levels and :data:`PARTNER_CONFIDENCE` standard errors); the CPU partner of a human
(made with ``spare_partner``) never beats the human's play at all. Returns of the
tribute are searched too; the tribute itself is forced (the highest card).
"""

from __future__ import annotations

from cardtable import search
from cardtable.games.guandan import endgame, rules
from cardtable.games.guandan.bots import NormalBot, over_partner, readable_plan
from cardtable.games.guandan.state import GuandanMatch, GuandanView, Pass, Play, Return
from cardtable.rng import Rng

# 2,800 rollout moves, at least 32 playouts: early in a deal (108 cards out) 700 moves gave 8 playouts over
# up to 7 candidates, too few to move off the normal plan (hard vs normal 52.5 % ± 6.3 % of 240 duplicate
# deals); at 2,800 it is 60.0 % ± 6.2 % on the same deals, p95 ~0.31 s CPU a decision.
DEFAULT_BUDGET = search.Budget(moves=2800, min_playouts=32)
MAX_CANDIDATES = 7
POLICY = NormalBot()
PARTNER_TIE = 0.25       # levels a beating play must gain over passing on a partner's winning play
CONFIDENCE = 1.5         # standard errors by which a move must beat the plan's (few playouts, ±3 swings)
PARTNER_CONFIDENCE = 2.5  # ... and a play over a CPU partner's winning play (a strong preference)


def world(view: GuandanView, rng: Rng) -> GuandanMatch:
    """A match consistent with ``view`` (play phase, or the returns of the tribute)."""
    return GuandanMatch.from_view(view, rng)


def pair_levels(record: dict, match: GuandanMatch, seat: int) -> float:
    """The levels the played-out deal moves for ``seat``'s pair: the world's ``returns()`` (a world
    starts with no finished hand, so they are this deal's alone)."""
    return match.returns()[seat]


def candidates(view: GuandanView, preferred) -> list:
    """The short list the search weighs (the preferred move first)."""
    if any(isinstance(m, Return) for m in view.legal):
        return list(dict.fromkeys([preferred] + [m for m in view.legal if isinstance(m, Return)]))
    plays = [m for m in view.legal if isinstance(m, Play)]
    legal = set(view.legal)
    out = [preferred]
    if Pass() in legal:
        out.append(Pass())
    groups = readable_plan(view.hand, view.level, view.options.straight_flush_as_straight)
    # Bombs only where they decide (the normal rule: never on a partner, never early on an opening play),
    # or to go out at once: the rollouts see the trick a bomb wins, not what it would have won later.
    bombing = view.top is None and len(groups) <= 2 or POLICY.bomb_decides(view, list(groups))
    for _, cards in groups:
        for reading in rules.classify(cards, view.level, view.options.straight_flush_as_straight):
            move = Play.of(cards, reading)
            if move in legal and (bombing or not reading.is_bomb or move.size == len(view.hand)):
                out.append(move)
    plain = [p for p in plays if p.type not in rules.BOMB_TYPES]
    bombs = [p for p in plays if p.type in rules.BOMB_TYPES and (bombing or p.size == len(view.hand))]
    if plain:
        out.append(min(plain, key=lambda p: (rules.strength(p, view.level), p.size)))
    if bombs:
        out.append(min(bombs, key=lambda p: (rules.rung(p), rules.strength(p, view.level))))
    return list(dict.fromkeys(out))[:MAX_CANDIDATES]


class HardBot:
    """Searches plays and returns over sampled worlds with `normal` rollouts for all four seats."""

    level = "hard"

    def __init__(self, budget: search.Budget = DEFAULT_BUDGET, spare_partner: bool = False) -> None:
        self.budget = budget
        self.spare_partner = spare_partner      # True: never beat the partner's plays (see bots)
        self.policy = NormalBot()

    def evaluate(self, view: GuandanView) -> search.Evaluation:
        if self.spare_partner and over_partner(view):
            return search.Evaluation(Pass(), ((Pass(), 0.0),), 0)
        preferred = self.policy.choose(view)
        if view.phase == "tribute" and not isinstance(preferred, Return):
            return search.Evaluation(preferred, ((preferred, 0.0),), 0)
        partner_top = over_partner(view)
        if endgame.applies(view):       # few cards left: every legal move, each world solved exactly
            solved = endgame.evaluate(view, world, preferred, PARTNER_TIE if partner_top else 0.0,
                                      self.budget.moves * endgame.NODES_PER_MOVE)
            if solved is not None:
                return solved
        moves = candidates(view, preferred)
        if len(moves) <= 1:
            return search.Evaluation(preferred, ((preferred, 0.0),), 0)
        return search.choose(view, moves, world, lambda _seat: self.policy, pair_levels, self.budget,
                             sum(view.counts), preferred=preferred, tie=PARTNER_TIE if partner_top else 0.05,
                             confidence=PARTNER_CONFIDENCE if partner_top else CONFIDENCE)

    def choose(self, view: GuandanView):
        return self.evaluate(view).move


class ExpertBot(HardBot):
    level = "expert"

    def __init__(self, spare_partner: bool = False) -> None:
        super().__init__(DEFAULT_BUDGET.scaled(4), spare_partner)
