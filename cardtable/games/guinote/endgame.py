"""Guiñote's endgame: in arrastre, each sampled world is solved exactly instead of rolled out.

Once the stock is gone every hand is final, so a world (every hand known) is a two-pair game of perfect
information. :func:`Solver.search` plays it to the end of the hand with alpha-beta over the deciding
pair's result, on the scale of the search's rating (``search.pair_result``): the hand won or lost
(±1, 0 when it goes de vueltas) and the margin of the totals (a point weighs :data:`MARGIN` of a
hand), carry, card points, las diez de últimas and every cante included: those already sung, and
those the pair that wins a trick sings in its window (every couple it holds and has not sung, the 40
first; one per seat with «one cante per player»), as the `normal` rule does. In a hand de vueltas the
hand ends as the engine ends it: a pair past 100 claims in its window (the `normal` rule: exactly when
past 100), or, with ``vueltas_end = "auto"``, is declared the winner at once.

Values are integers (points of margin, a hand worth :data:`HAND` of them) so the transposition table
and the cut-offs are exact. The search counts its nodes; past its budget it gives up (:class:`TooDeep`)
and the caller rolls out as before, so a decision's cost stays bounded and deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable import search
from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import GuinoteMatch, GuinoteOptions, GuinoteView, Play
from cardtable.rng import Rng, mix
from cardtable.tricks import team_of

HAND = 250                  # a hand won is worth this many points of margin (search.MARGIN_WEIGHT = 1/250)
MARGIN = 1 / HAND
CARDS_AT = 16               # solve when the four hands hold this many cards or fewer (arrastre: ≤ 24)
# Nodes a decision may search (over all its worlds) per rollout move of its budget: 4 × 7,000 for hard, about
# 0.3 s of CPU here (≈ 12 µs a node); 16 cards left take ~2,200 nodes a world on average, 12 cards ~300.
NODES_PER_MOVE = 4
WORLDS = 24                 # worlds a decision solves (fewer if the nodes run out: then it rolls out)
EXACT, LOWER, UPPER = 0, 1, 2
INFINITE = 10 ** 6

_COUPLES = tuple((suit, SpanishCard(rules.REY, suit), SpanishCard(rules.SOTA, suit)) for suit in "OCEB")


class TooDeep(Exception):
    """The node budget ran out: the position is too large to solve in time."""


def applies(view: GuinoteView) -> bool:
    """Is this an arrastre play, every legal move a play, with few enough cards left to solve?"""
    return (view.arrastre and view.deciding is None and not view.over and bool(view.legal)
            and all(type(m) is Play for m in view.legal) and sum(view.counts) <= CARDS_AT)


class Solver:
    """Alpha-beta over one world's hands in arrastre (a fresh solver per world: its table is that
    world's). ``team``: the pair whose result is maximized."""

    def __init__(self, options: GuinoteOptions, trump: str, team: int, vueltas: bool,
                 carry: tuple[int, int], nodes: list[int]) -> None:
        self.options = options
        self.trump = trump
        self.team = team
        self.vueltas = vueltas
        self.carry = carry
        self.nodes = nodes          # [nodes left], shared by the decision's worlds
        self.table: dict[tuple, tuple[int, int]] = {}

    # -- the value of a finished hand
    def value(self, totals: tuple[int, int], winner: int | None) -> int:
        us, them = totals[self.team], totals[1 - self.team]
        outcome = 0 if winner is None else (HAND if winner == self.team else -HAND)
        return outcome + us - them

    def totals(self, points: tuple[int, int], cantes: tuple[int, int]) -> tuple[int, int]:
        return (self.carry[0] + points[0] + cantes[0], self.carry[1] + points[1] + cantes[1])

    def final(self, points: tuple[int, int], cantes: tuple[int, int], last: int) -> int:
        """The value of the hand played to its tenth trick, won by ``last`` (las últimas counted)."""
        totals = self.totals(points, cantes)
        thirty = list(points)
        if not self.options.thirty_includes_ultimas:
            thirty[last] -= rules.ULTIMAS
        return self.value(totals, rules.decide_hand(totals, thirty, last, thirty_rule=not self.vueltas))

    def vueltas_end(self, points: tuple[int, int], cantes: tuple[int, int], pair: int | None) -> int | None:
        """In a hand de vueltas, the value if the hand ends now: ``pair``'s claim (claim mode, in its
        window) or any pair past 100 (auto mode); None if it goes on."""
        if not self.vueltas:
            return None
        totals = self.totals(points, cantes)
        if self.options.vueltas_end == "auto":
            over = [p for p in (0, 1) if totals[p] > rules.WIN_LINE]
            return self.value(totals, over[0]) if over else None
        if pair is not None and totals[pair] > rules.WIN_LINE:
            return self.value(totals, pair)
        return None

    def sing(self, hands: tuple, pair: int, sung: frozenset[str], cantes: tuple[int, int],
             singers: frozenset[int] = frozenset()) -> tuple[frozenset[str], tuple[int, int]]:
        """The window of ``pair`` after it won a trick: each of its seats sings the couples it holds
        that were not sung (the 40 first; only one per seat with «one cante per player», none for a
        seat in ``singers``, who sang in this window already)."""
        one_each = self.options.cantes_per_win == "one_per_player"
        gained = 0
        for seat in (pair, pair + 2):
            if one_each and seat in singers:
                continue
            hand = hands[seat]
            found = [suit for suit, rey, sota in _COUPLES if suit not in sung and rey in hand and sota in hand]
            found.sort(key=lambda suit: suit != self.trump)       # the 40 first
            for suit in found[:1] if one_each else found:
                sung = sung | {suit}
                gained += rules.cante_value(suit, self.trump)
        if not gained:
            return sung, cantes
        return sung, ((cantes[0] + gained, cantes[1]) if pair == 0 else (cantes[0], cantes[1] + gained))

    # -- the search
    def after_play(self, hands: tuple, trick: tuple, seat: int, card: SpanishCard, points: tuple[int, int],
                   cantes: tuple[int, int], sung: frozenset[str], alpha: int, beta: int) -> int:
        """The value once ``seat`` has played ``card`` to ``trick``."""
        left = tuple(c for c in hands[seat] if c != card)
        hands = hands[:seat] + (left,) + hands[seat + 1:]
        trick = trick + ((seat, card),)
        if len(trick) < 4:
            return self.search(hands, trick, trick[0][0], points, cantes, sung, alpha, beta)
        winner = trick[rules.winner_index(trick, self.trump)][0]
        pair = winner % 2
        won = sum(rules.POINTS_OF[c] for _, c in trick)
        if not hands[0]:                                  # the tenth trick: las diez de últimas
            won += rules.ULTIMAS
        points = (points[0] + won, points[1]) if pair == 0 else (points[0], points[1] + won)
        if not hands[0]:
            return self.final(points, cantes, pair)
        ended = self.vueltas_end(points, cantes, None)
        if ended is not None:
            return ended
        sung, cantes = self.sing(hands, pair, sung, cantes)
        ended = self.vueltas_end(points, cantes, pair)
        if ended is not None:
            return ended
        return self.search(hands, (), winner, points, cantes, sung, alpha, beta)

    def search(self, hands: tuple, trick: tuple, leader: int, points: tuple[int, int],
               cantes: tuple[int, int], sung: frozenset[str], alpha: int, beta: int) -> int:
        self.nodes[0] -= 1
        if self.nodes[0] < 0:
            raise TooDeep
        key = (hands, trick, leader, points, cantes, sung)
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
        seat = (trick[-1][0] + 1) % 4 if trick else leader
        maximizing = team_of(seat) == self.team
        best = -INFINITE if maximizing else INFINITE
        for card in self.moves(hands, trick, seat):
            value = self.after_play(hands, trick, seat, card, points, cantes, sung, alpha, beta)
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

    def moves(self, hands: tuple, trick: tuple, seat: int) -> list[SpanishCard]:
        """The cards ``seat`` may play (the arrastre obligations), one of each set of equivalent cards
        (:meth:`distinct`), the likeliest best first: the ones that win the trick, richest first, then
        the others, cheapest first."""
        cards = rules.arrastre_plays(hands[seat], trick, seat, self.trump)
        if len(cards) <= 1:
            return cards
        cards = self.distinct(cards, hands, trick, seat)
        if not trick:
            return sorted(cards, key=lambda c: -rules.STRENGTH_OF[c] - (20 if c[1] == self.trump else 0))
        top = trick[rules.winner_index(trick, self.trump)][1]
        beaters = rules.BEATERS[self.trump][top]
        return sorted(cards, key=lambda c: (c not in beaters, -rules.POINTS_OF[c] if c in beaters
                                            else rules.POINTS_OF[c]))

    @staticmethod
    def distinct(cards: list[SpanishCard], hands: tuple, trick: tuple, seat: int) -> list[SpanishCard]:
        """``cards`` without those equivalent to a weaker one kept: of the same suit and points, with no
        card still in play (another hand's, or on the table) between them in strength. Which of them is
        played changes nothing: every trick is won by the same seat with the same points."""
        strength = rules.STRENGTH_OF
        others = [c for s, hand in enumerate(hands) if s != seat for c in hand] + [c for _, c in trick]
        kept: list[SpanishCard] = []
        for card in sorted(cards, key=lambda c: (c[1], strength[c])):
            last = kept[-1] if kept else None
            if (last is not None and last[1] == card[1] and rules.POINTS_OF[last] == rules.POINTS_OF[card]
                    and not any(c[1] == card[1] and strength[last] < strength[c] < strength[card] for c in others)):
                continue
            kept.append(card)
        return kept


def state_of(match: GuinoteMatch) -> dict[str, Any]:
    """A world's position as the solver reads it (the window of a pair still open is sung out first)."""
    hands = tuple(tuple(h) for h in match.hands)
    trick = tuple(match.trick)
    cantes = (sum(p for s, _, p, _ in match.cantes if s % 2 == 0), sum(p for s, _, p, _ in match.cantes if s % 2 == 1))
    sung = frozenset(suit for _, suit, _, _ in match.cantes)
    leader = trick[0][0] if trick else match.leader
    return {"hands": hands, "trick": trick, "leader": leader, "points": tuple(match.card_points),
            "cantes": cantes, "sung": sung, "window": match.window_pair,
            "singers": frozenset(match.window_singers)}


def solve_move(solver: Solver, state: dict[str, Any], seat: int, card: SpanishCard) -> int:
    """The exact value of ``seat`` playing ``card`` in the position ``state`` (:func:`state_of`)."""
    sung, cantes = state["sung"], state["cantes"]
    if state["window"] is not None:       # the partner of the seat to move may still sing in its window
        sung, cantes = solver.sing(state["hands"], state["window"], sung, cantes, state["singers"] | {seat})
        ended = solver.vueltas_end(state["points"], cantes, state["window"])
        if ended is not None:
            return ended
    return solver.after_play(state["hands"], state["trick"], seat, card, state["points"], cantes, sung,
                             -INFINITE, INFINITE)


def evaluate(view: GuinoteView, world: Callable[[GuinoteView, Rng], GuinoteMatch], preferred: Any = None,
             tie: float = 0.0, nodes: int = 7000 * NODES_PER_MOVE, worlds: int = WORLDS,
             used: list[int] | None = None) -> search.Evaluation | None:
    """Every legal play's mean exact value over sampled worlds (the best first, on the scale of
    ``search.pair_result``), or None when the position is too large to solve within ``nodes`` (then
    the caller rolls out; ``used`` is given the nodes spent, so its rollouts can be cut by as much).
    ``preferred`` (the rule's choice) is kept unless a play beats it by more
    than ``tie``."""
    moves = list(view.legal)
    if preferred in moves:
        moves.remove(preferred)
        moves.insert(0, preferred)
    if len(moves) == 1:
        return search.Evaluation(moves[0], ((moves[0], 0.0),), 0)
    rng = Rng(mix(view.bot_seed, 0xA77A57E))
    totals = dict.fromkeys(moves, 0)
    solved = 0
    spare = nodes
    lost = 0                # the nodes of a world given up
    for _ in range(worlds):
        left = [min(spare, nodes // 4)]     # a world may take a quarter of the nodes (see guandan.endgame)
        start = left[0]
        match = world(view, rng)
        solver = Solver(view.options, view.trump, team_of(view.seat), match.vueltas,
                        (match.carry[0], match.carry[1]), left)
        state = state_of(match)
        try:
            values = [solve_move(solver, state, view.seat, move.card) for move in moves]
        except TooDeep:
            lost = start
            break
        spare -= start - left[0]
        for move, value in zip(moves, values, strict=True):
            totals[move] += value
        solved += 1
    if used is not None:
        used.append(nodes - spare + lost)
    if solved < 4:          # too few worlds to trust: roll out instead
        return None
    means = {move: totals[move] * MARGIN / solved for move in moves}
    best = max(moves, key=lambda m: means[m])        # the first of the best: the preferred move first
    if preferred in means and means[best] - means[preferred] <= tie:
        best = preferred
    scores = tuple(sorted(means.items(), key=lambda item: -item[1]))
    return search.Evaluation(best, scores, solved * len(moves))
