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
from cardtable.games.guinote.sampling import sample_world
from cardtable.games.guinote.state import GuinoteMatch, GuinoteView, Play
from cardtable.rng import Rng
from cardtable.tricks import team_of

DEFAULT_BUDGET = search.Budget(moves=7000, min_playouts=16)
MARGIN_WEIGHT = 0.004     # 100 points of margin weigh less than half a hand


def world(view: GuinoteView, rng: Rng) -> GuinoteMatch:
    """A match consistent with ``view``: the other hands and the stock's order drawn by the sampler."""
    hands, stock = sample_world(view, rng)
    # A real match first (so every field the engine keeps exists), then this view's state over it.
    match = GuinoteMatch(view.options, 0)
    match.hand = view.hand_number
    match.score = view.score
    match.cotos = view.cotos
    match.finished = view.over
    match.results = []
    match.dealer = view.dealer
    match.mano = view.mano
    match.hands = [list(h) for h in hands]
    match.pinta = view.pinta
    match.trump = view.trump
    match.stock = list(stock)
    match.pinta_taker = view.pinta_taker
    match.exchange = view.exchange
    assert view.to_move is not None          # a world is built for a seat deciding
    if view.trick:
        match.leader = view.trick[0][0]
    elif view.deciding is not None:         # the exchange phase: the trick winner leads after the draw
        match.leader = view.winners[-1]
    else:
        match.leader = view.to_move
    match.trick = tuple(view.trick)
    match.tricks = tuple(view.tricks)
    match.winners = tuple(view.winners)
    match.card_points = view.card_points
    match.cantes = tuple(_cantes(view))
    match.window_pair = view.window_pair
    match.window_singers = {seat for seat, _, _, after in match.cantes
                            if view.window_pair is not None and after == len(view.tricks)
                            and team_of(seat) == view.window_pair}
    # The exchange of the 7 is a phase of its own before the draw: the seat asked (public: the trick
    # winner, then its partner, holder of the 7 or not) and the draw that waits for it, of the trick
    # just won. Whether the seat asked holds the 7 is the sampler's draw, like any hidden card.
    match.exchange_seat = view.deciding
    match.pending_draw = (view.winners[-1], len(view.tricks)) if view.deciding is not None else None
    match.vueltas = view.vueltas
    match.carry = tuple(view.carry)
    match._sort_hands()
    return match


def _cantes(view: GuinoteView) -> list[tuple[int, str, int, int]]:
    """The cantes as the engine keeps them. A 20 sung by the other pair in arrastre is public only as
    «20»: it gets a plain suit nobody has sung (which suit it was changes nothing but which suits remain
    to sing, and the sampler cannot know it either)."""
    known = {c.suit for c in view.cantes if c.suit is not None}
    out = []
    for cante in view.cantes:
        suit = cante.suit
        if suit is None:
            suit = next(s for s in "OCEB" if s != view.trump and s not in known)
            known.add(suit)
        out.append((cante.seat, suit, cante.points, cante.trick))
    return out


def pair_result(record: dict, match: GuinoteMatch, seat: int) -> float:
    pair = team_of(seat)
    winner = record["winner"]
    outcome = 0.0 if winner is None else (1.0 if winner == pair else -1.0)
    totals = record["totals"]
    return outcome + MARGIN_WEIGHT * (totals[pair] - totals[1 - pair])


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
