"""Guiñote `hard`/`expert`: determinized search over worlds sampled from the view (cardtable.search).

A partnership game: a play is rated for the pair — winning the hand counts most (the measure is hands
won), the margin in points breaks ties between moves that win (or lose) equally often. Exchanges,
cantes and claims stay with the `normal` rules (always exchange, sing the 40 first, claim exactly when
past 100), which are already right: the exchange decision (before the draw, `Exchange` or `KeepSeven`)
is not searched, since exchanging a 7 for a counting pinta never loses anything the search could see.
In arrastre with few cards left each world is solved exactly instead (cardtable.games.guinote.endgame).
"""

from __future__ import annotations

from cardtable import search
from cardtable.games.guinote import endgame
from cardtable.games.guinote.bots import NormalBot
from cardtable.games.guinote.state import GuinoteMatch, GuinoteView, Play
from cardtable.rng import Rng
from cardtable.tricks import team_of

DEFAULT_BUDGET = search.Budget(moves=7000, min_playouts=16)
MARGIN_WEIGHT = 0.004     # 100 points of margin weigh less than half a hand


def world(view: GuinoteView, rng: Rng) -> GuinoteMatch:
    """A match consistent with ``view``: the other hands and the stock's order drawn by the sampler."""
    return GuinoteMatch.from_view(view, rng)


def pair_result(record: dict, match: GuinoteMatch, seat: int) -> float:
    """The world's ``returns()`` (+1, -1, or 0 for a hand that goes de vueltas: a world starts with no
    finished hand, so they are this hand's alone), and a little for the margin of the totals."""
    pair = team_of(seat)
    totals = record["totals"]
    return match.returns()[seat] + MARGIN_WEIGHT * (totals[pair] - totals[1 - pair])


class HardBot:
    """Searches each play over sampled worlds with `normal` rollouts for all four seats."""

    level = "hard"

    def __init__(self, budget: search.Budget = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.policy = NormalBot()

    def evaluate(self, view: GuinoteView) -> search.Evaluation:
        preferred = self.policy.choose(view)
        plays = [m for m in view.legal if isinstance(m, Play)]
        if not isinstance(preferred, Play) or len(plays) <= 1:
            return search.Evaluation(preferred, ((preferred, 0.0),), 0)
        budget = self.budget
        if endgame.applies(view):       # arrastre with few cards left: every play, each world solved exactly
            used: list[int] = []
            nodes = self.budget.moves * endgame.NODES_PER_MOVE
            solved = endgame.evaluate(view, world, preferred, 0.01, nodes, used=used)
            if solved is not None:
                return solved
            # Too large: the rollouts get what the solver left of the decision's time (at least a quarter).
            budget = self.budget.scaled(max(0.25, 1 - sum(used) / nodes))
        return search.choose(view, plays, world, lambda _seat: self.policy, pair_result, budget,
                             sum(view.counts) + view.stock_count, preferred=preferred, tie=0.01)

    def choose(self, view: GuinoteView):
        return self.evaluate(view).move


class ExpertBot(HardBot):
    level = "expert"

    def __init__(self) -> None:
        super().__init__(DEFAULT_BUDGET.scaled(4))
