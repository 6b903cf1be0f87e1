"""Guandan's endgame: with few cards left, each sampled world is solved exactly instead of rolled out.

A world (every hand known) is a two-team game of perfect information; :func:`solve` searches it to the
end of the deal with alpha-beta over the deciding pair's result (the levels the deal moves: +3/+2/+1
for the pair whose player went out first, the same negative for the other pair) and a transposition
table. A seat plays one realisation per form, as the engine offers them (the fewest wilds, then the
cheapest cards). The search counts its nodes: past ``nodes`` it gives up (:class:`TooDeep`), and the
caller rolls out as before, so a decision's cost stays bounded and deterministic.

So a seat that can go out and stop a 1-2 does, and the race to go out second is played exactly, by
construction: no rollout policy's habit decides it. :func:`evaluate` averages the exact values of every
legal move over the same worlds (common random numbers, as :func:`cardtable.search.choose`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable import search
from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.state import GuandanMatch, GuandanView, Pass, Play
from cardtable.rng import Rng, mix
from cardtable.tricks import partner, team_of

RISE = (0, 3, 2, 1)          # the first finisher's partner's place (0-based) -> the levels the deal moves
HIDDEN_AT = 10               # solve when the other hands hold this many cards or fewer in all ...
OWN_AT = 10                  # ... and this seat holds this many or fewer
NODES_PER_MOVE = 20          # nodes a decision may search (over all its worlds) per rollout move of its budget
NODES = 2800 * NODES_PER_MOVE  # ... the hard level's: past them it rolls out instead
WORLDS = 24                  # worlds a decision solves (fewer if the nodes run out first: then it rolls out)
EXACT, LOWER, UPPER = 0, 1, 2                   # what a stored value is: exact, at least, at most


class TooDeep(Exception):
    """The node budget ran out: the position is too large to solve in time."""


def applies(view: GuandanView) -> bool:
    """Is this a play-phase decision small enough to solve?"""
    hidden = sum(n for seat, n in enumerate(view.counts) if seat != view.seat)
    return view.phase == "play" and hidden <= HIDDEN_AT and len(view.hand) <= OWN_AT


class Solver:
    """Alpha-beta over one world's hands (a fresh solver per world: its table is that world's)."""

    def __init__(self, level: int, sf_as_straight: bool, team: int, nodes: list[int], forms: dict) -> None:
        self.level = level
        self.sf = sf_as_straight
        self.team = team
        self.nodes = nodes             # [nodes left], shared by the decision's worlds
        self.table: dict[tuple, tuple[int, int]] = {}    # position -> (value, EXACT, LOWER or UPPER bound)
        self.forms: dict[tuple, list[tuple[rules.Form, tuple[Card, ...]]]] = forms

    def plays(self, hand: tuple[Card, ...], top: rules.Form | None) -> list[tuple[rules.Form, tuple[Card, ...]]]:
        """Every form ``hand`` can play over ``top`` (None: leading), each with its cards; those that
        empty the hand first, then the longer ones, bombs last."""
        key = (hand, top)
        found = self.forms.get(key)
        if found is None:
            found = []
            for kind, rank, size, build, a, b in rules.play_forms(hand, self.level, top, self.sf):
                found.append((rules.Form(kind, rank, size), tuple(build(a, b))))
            n = len(hand)
            found.sort(key=lambda p: (p[0].size != n, p[0].is_bomb, -p[0].size))
            self.forms[key] = found
        return found

    def value(self, finish: tuple[int, ...]) -> int:
        first = finish[0]
        mate = partner(first)
        rise = RISE[finish.index(mate)] if mate in finish else 1
        return rise if team_of(first) == self.team else -rise

    def after_play(self, hands: tuple, seat: int, form: rules.Form, cards: tuple[Card, ...], finish: tuple,
                   alpha: int, beta: int) -> int:
        """The value once ``seat`` has played ``cards`` as ``form`` (a new top: nobody has passed it)."""
        left = list(hands[seat])
        for card in cards:
            left.remove(card)
        hands = hands[:seat] + (tuple(left),) + hands[seat + 1:]
        if not left:
            finish = finish + (seat,)
            if len(finish) >= 3 or partner(finish[0]) in finish:
                return self.value(finish)
        return self.search(hands, self.next_seat(hands, seat), (form, seat), frozenset(), finish, alpha, beta)

    def after_pass(self, hands: tuple, seat: int, top: tuple[rules.Form, int], passed: frozenset, finish: tuple,
                   alpha: int, beta: int) -> int:
        passed = passed | {seat}
        owner = top[1]
        if all(s == owner or s in passed or not hands[s] for s in range(4)):
            leader = owner if hands[owner] else partner(owner)      # 接风
            return self.search(hands, leader, None, frozenset(), finish, alpha, beta)
        return self.search(hands, self.next_seat(hands, seat), top, passed, finish, alpha, beta)

    @staticmethod
    def next_seat(hands: tuple, seat: int) -> int:
        nxt = (seat + 1) % 4
        while not hands[nxt]:
            nxt = (nxt + 1) % 4
        return nxt

    def search(self, hands: tuple, turn: int, top: tuple[rules.Form, int] | None, passed: frozenset,
               finish: tuple, alpha: int, beta: int) -> int:
        self.nodes[0] -= 1
        if self.nodes[0] < 0:
            raise TooDeep
        key = (hands, turn, top, passed, finish)
        stored = self.table.get(key)
        if stored is not None:
            value, bound = stored
            if bound == EXACT:
                return value
            if bound == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        start_alpha, start_beta = alpha, beta
        maximizing = team_of(turn) == self.team
        best = -4 if maximizing else 4
        hand = hands[turn]
        moves: list[Any] = list(self.plays(hand, None if top is None else top[0]))
        if top is not None:
            # Over a partner's play, passing first (it is usually right, and it cuts the search early).
            if team_of(top[1]) == team_of(turn):
                moves.insert(0, None)
            else:
                moves.append(None)
        for move in moves:
            if move is None:
                assert top is not None
                value = self.after_pass(hands, turn, top, passed, finish, alpha, beta)
            else:
                value = self.after_play(hands, turn, move[0], move[1], finish, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        self.table[key] = (best, LOWER if best >= start_beta else UPPER if best <= start_alpha else EXACT)
        return best


def _top_form(match: GuandanMatch) -> rules.Form | None:
    top = match.top
    return None if top is None else rules.Form(top.form.type, top.form.key, top.form.size)


def evaluate(view: GuandanView, world: Callable[[GuandanView, Rng], GuandanMatch], preferred: Any = None,
             tie: float = 0.0, nodes: int = NODES, worlds: int = WORLDS) -> search.Evaluation | None:
    """Every legal move's mean exact value over sampled worlds (the best first), or None when the
    position is too large to solve within ``nodes`` (then the caller rolls out). ``preferred`` (the
    rule's choice) is kept unless a move beats it by more than ``tie`` levels."""
    moves = [m for m in view.legal if isinstance(m, (Play, Pass))]
    if len(moves) != len(view.legal) or not moves:
        return None
    if preferred in moves:
        moves.remove(preferred)
        moves.insert(0, preferred)
    if len(moves) == 1:
        return search.Evaluation(moves[0], ((moves[0], 0.0),), 0)
    rng = Rng(mix(view.bot_seed, 0xE7D6A3E))
    totals = dict.fromkeys(moves, 0.0)
    forms: dict = {}
    solved = 0
    # A world may take a quarter of the nodes (so a position too large is given up cheaply, and at least
    # four worlds are solved when they all fit); the decision stops when its nodes are spent.
    spare = nodes
    for _ in range(worlds):
        left = [min(spare, nodes // 4)]
        start = left[0]
        match = world(view, rng)
        solver = Solver(view.level, view.options.straight_flush_as_straight, team_of(view.seat), left, forms)
        top = _top_form(match)
        try:
            values = [_root(solver, match, view.seat, move, top) for move in moves]
        except TooDeep:
            break
        spare -= start - left[0]
        for move, value in zip(moves, values, strict=True):
            totals[move] += value
        solved += 1
    if solved < 4:          # too few worlds to trust: roll out instead
        return None
    means = {move: totals[move] / solved for move in moves}
    best = max(moves, key=lambda m: means[m])        # the first of the best: the preferred move first
    if preferred in means and means[best] - means[preferred] <= tie:
        best = preferred
    scores = tuple(sorted(means.items(), key=lambda item: -item[1]))
    return search.Evaluation(best, scores, solved * len(moves))


def _root(solver: Solver, match: GuandanMatch, seat: int, move: Any, top: rules.Form | None) -> int:
    hands = tuple(tuple(sorted(h)) for h in match.hands)
    finish = tuple(match.finish)
    if isinstance(move, Pass):
        assert match.top is not None and top is not None
        return solver.after_pass(hands, seat, (top, match.top.seat), frozenset(match.passed), finish, -4, 4)
    form = rules.Form(move.type, move.key, move.size)
    return solver.after_play(hands, seat, form, tuple(move.cards), finish, -4, 4)
