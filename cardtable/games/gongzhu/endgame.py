"""Gong Zhu's last tricks: with few cards left, each sampled world is solved exactly instead of rolled out.

A world (every hand known) is then a four-player game of perfect information in which each player
scores for themself, so it is solved by *max-n*: at every turn the seat to play takes the card that
gives it the most points for the hand (the engine's own scoring of the taken cards: the Pig, the Goat,
the hearts, the Transformer, the shown cards' doubling and the all-hearts swing), a tie broken against
the other seats (the fewest points for them together), with a transposition table. Cards that make no
difference (of one suit and one value, no card still in play between them) are tried once.

The search counts its nodes; past its budget it gives up (:class:`TooDeep`) and the caller rolls out
as before, so a decision's cost stays bounded and deterministic. :func:`evaluate` averages the exact
value of every legal card for the deciding seat over the same worlds (common random numbers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable import search
from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions, GongZhuView, Play
from cardtable.rng import Rng, mix

# Solve when the four hands hold this many cards or fewer (the last 3 tricks): a world takes ~700 nodes on
# average at 12 cards, ~13,000 at 16 (max-n prunes nothing but what the table and the equal cards save).
CARDS_AT = 12
# Nodes a decision may search (over all its worlds) per rollout move of its budget: 4 × 6,000 for hard,
# about 0.25 s of CPU here (≈ 10 µs a node).
NODES_PER_MOVE = 4
WORLDS = 24                 # worlds a decision solves (fewer if the nodes run out: then it rolls out)
_SPECIAL = (rules.PIG, rules.GOAT, rules.TRANSFORMER)


class TooDeep(Exception):
    """The node budget ran out: the position is too large to solve in time."""


def applies(view: GongZhuView) -> bool:
    """Is this a play with few enough cards left to solve?"""
    return view.phase == "play" and len(view.legal) > 1 and sum(view.counts) <= CARDS_AT


def _kind(card: Card) -> Any:
    """Cards of one kind score alike: the special cards each their own, a heart by its value, any other
    card nothing."""
    if card in _SPECIAL or card == rules.HEART_ACE:
        return card
    return rules.heart_value(card) if card[1] == "H" else None


class Solver:
    """Max-n over one world's hands (a fresh solver per world: its tables are that world's)."""

    def __init__(self, options: GongZhuOptions, shown: tuple[tuple[Card, ...], ...], nodes: list[int]) -> None:
        self.options = options
        self.shown = shown
        self.shown_all = [card for cards in shown for card in cards]
        self.nodes = nodes             # [nodes left], shared by the decision's worlds
        self.table: dict[tuple, tuple[int, ...]] = {}
        self.scores: dict[tuple, tuple[int, ...]] = {}

    def score(self, taken: tuple[frozenset[Card], ...]) -> tuple[int, ...]:
        """Each seat's points for the hand with these piles (the engine's scoring)."""
        found = self.scores.get(taken)
        if found is None:
            lines = self.options.score_hand([list(pile) for pile in taken], self.shown_all)
            found = self.scores[taken] = tuple(line.hand for line in lines)
        return found

    def after_play(self, hands: tuple, trick: tuple, seat: int, card: Card, taken: tuple,
                   suits_led: frozenset[str]) -> tuple[int, ...]:
        """Every seat's points once ``seat`` has played ``card`` to ``trick`` and the hand is played out."""
        left = tuple(c for c in hands[seat] if c != card)
        hands = hands[:seat] + (left,) + hands[seat + 1:]
        trick = trick + ((seat, card),)
        if len(trick) < 4:
            return self.search(hands, trick, trick[0][0], taken, suits_led)
        winner = trick[rules.trick_winner_index(trick)][0]
        points = [c for _, c in trick if c in rules.POINT_CARDS]
        if points:
            taken = taken[:winner] + (taken[winner] | frozenset(points),) + taken[winner + 1:]
        suits_led = suits_led | {trick[0][1][1]}
        if not hands[0]:
            return self.score(taken)
        return self.search(hands, (), winner, taken, suits_led)

    def search(self, hands: tuple, trick: tuple, leader: int, taken: tuple,
               suits_led: frozenset[str]) -> tuple[int, ...]:
        self.nodes[0] -= 1
        if self.nodes[0] < 0:
            raise TooDeep
        key = (hands, trick, leader, taken, suits_led)
        stored = self.table.get(key)
        if stored is not None:
            return stored
        seat = (trick[-1][0] + 1) % 4 if trick else leader
        best: tuple[int, ...] | None = None
        best_key = (0, 0)
        for card in self.moves(hands, trick, seat, suits_led):
            values = self.after_play(hands, trick, seat, card, taken, suits_led)
            rank = (values[seat], values[seat] - sum(values))       # own points, then the others' fewest
            if best is None or rank > best_key:
                best, best_key = values, rank
        assert best is not None
        self.table[key] = best
        return best

    def moves(self, hands: tuple, trick: tuple, seat: int, suits_led: frozenset[str]) -> list[Card]:
        """The cards ``seat`` may play, one of each set of equivalent ones (:meth:`distinct`)."""
        cards = rules.legal_cards(list(hands[seat]), trick, suits_led, self.shown[seat], False)
        return cards if len(cards) <= 1 else self.distinct(cards, hands, trick, seat)

    @staticmethod
    def distinct(cards: list[Card], hands: tuple, trick: tuple, seat: int) -> list[Card]:
        """``cards`` without those equivalent to a lower one kept: of the same suit and kind
        (:func:`_kind`), with no card still in play (another hand's, or on the table) between them in
        rank. Which of them is played changes nothing: every trick is won by the same seat and takes
        cards that score the same."""
        others = [c for s, hand in enumerate(hands) if s != seat for c in hand] + [c for _, c in trick]
        kept: list[Card] = []
        for card in sorted(cards, key=lambda c: (c[1], c[0])):
            last = kept[-1] if kept else None
            if (last is not None and last[1] == card[1] and _kind(last) == _kind(card)
                    and not any(c[1] == card[1] and last[0] < c[0] < card[0] for c in others)):
                continue
            kept.append(card)
        return kept


def solve_move(solver: Solver, match: GongZhuMatch, seat: int, card: Card) -> tuple[int, ...]:
    """Every seat's points when ``seat`` plays ``card`` in the (fully known) ``match`` and all play on
    exactly."""
    hands = tuple(tuple(h) for h in match.hands)
    taken = tuple(frozenset(pile) for pile in match.taken)
    return solver.after_play(hands, tuple(match.trick), seat, card, taken, frozenset(match.suits_led))


def evaluate(view: GongZhuView, world: Callable[[GongZhuView, Rng], GongZhuMatch], preferred: Any = None,
             tie: float = 0.0, nodes: int = 6000 * NODES_PER_MOVE, worlds: int = WORLDS,
             used: list[int] | None = None) -> search.Evaluation | None:
    """Every legal card's mean exact points for the seat over sampled worlds (the best first), or None
    when the position is too large to solve within ``nodes`` (then the caller rolls out; ``used`` is
    given the nodes spent, so its rollouts can be cut by as much). ``preferred`` (the rule's choice) is kept unless a card beats it by more than ``tie`` points."""
    moves = [m for m in view.legal if isinstance(m, Play)]
    if len(moves) != len(view.legal) or not moves:
        return None
    if preferred in moves:
        moves.remove(preferred)
        moves.insert(0, preferred)
    if len(moves) == 1:
        return search.Evaluation(moves[0], ((moves[0], 0.0),), 0)
    rng = Rng(mix(view.bot_seed, 0x6E7D6A3))
    totals = dict.fromkeys(moves, 0)
    solved = 0
    spare = nodes
    lost = 0                # the nodes of a world given up
    for _ in range(worlds):
        left = [min(spare, nodes // 4)]     # a world may take a quarter of the nodes (see guandan.endgame)
        start = left[0]
        match = world(view, rng)
        solver = Solver(view.options, view.shown, left)
        try:
            values = [solve_move(solver, match, view.seat, move.card)[view.seat] for move in moves]
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
    means = {move: totals[move] / solved for move in moves}
    best = max(moves, key=lambda m: means[m])        # the first of the best: the preferred move first
    if preferred in means and means[best] - means[preferred] <= tie:
        best = preferred
    scores = tuple(sorted(means.items(), key=lambda item: -item[1]))
    return search.Evaluation(best, scores, solved * len(moves))
