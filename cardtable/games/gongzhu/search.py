"""Gong Zhu `hard`/`expert`: determinized search over worlds sampled from the view (cardtable.search).

Each player scores for themself, so a move is rated by the seat's own points for the hand, the
Transformer, the shown cards' doubling and the all-hearts swing included (the engine scores the finished
rollout exactly as it scores a real hand). In the last tricks each world is solved exactly instead
(cardtable.games.gongzhu.endgame).
"""

from __future__ import annotations

from cardtable import search
from cardtable.games.gongzhu import endgame
from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.rules import PIG
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuView, Play, Show
from cardtable.rng import Rng

DEFAULT_BUDGET = search.Budget(moves=6000, min_playouts=12)
# Leading the Pig wins it back unless a higher spade must fall on it: the few worlds where one does make a
# lucky average with few playouts (issue 31: West led ♠Q from ♠7 ♠9 ♠Q and ate it). Such a lead must beat
# the rule's choice by this many standard errors.
PIG_LEAD_CONFIDENCE = 2.0


def world(view: GongZhuView, rng: Rng) -> GongZhuMatch:
    """A match in the play phase consistent with ``view``: its hidden hands drawn by the sampler."""
    return GongZhuMatch.from_view(view, rng)


def hand_points(record: dict, match: GongZhuMatch, seat: int) -> float:
    return float(record["lines"][seat]["hand"])


class HardBot:
    """Searches each play over sampled worlds with `normal` rollouts; shows as `normal` does (the
    other seats' choices are hidden while showing, so there is nothing to sample yet)."""

    level = "hard"

    def __init__(self, budget: search.Budget = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.policy = NormalBot()

    def evaluate(self, view: GongZhuView) -> search.Evaluation:
        preferred = self.policy.choose(view)
        if view.phase == "show" or len(view.legal) <= 1:
            return search.Evaluation(preferred, ((preferred, 0.0),), 0)
        budget = self.budget
        if endgame.applies(view):       # the last tricks: every card, each world solved exactly
            used: list[int] = []
            nodes = self.budget.moves * endgame.NODES_PER_MOVE
            solved = endgame.evaluate(view, world, preferred, 1.0, nodes, used=used)
            if solved is not None:
                return solved
            # Too large: the rollouts get what the solver left of the decision's time (at least a quarter).
            budget = self.budget.scaled(max(0.25, 1 - sum(used) / nodes))
        pig_lead = not view.trick and any(m.card == PIG for m in view.legal)
        return search.choose(view, list(view.legal), world, lambda _seat: self.policy, hand_points,
                             budget, sum(view.counts), preferred=preferred, tie=1.0,
                             confidence=lambda move: PIG_LEAD_CONFIDENCE if pig_lead and move.card == PIG else 0.0)

    def choose(self, view: GongZhuView) -> Show | Play:
        return self.evaluate(view).move


class ExpertBot(HardBot):
    level = "expert"

    def __init__(self) -> None:
        super().__init__(DEFAULT_BUDGET.scaled(4))
