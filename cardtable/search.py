"""Determinized search for the `hard` and `expert` CPU levels (perfect-information Monte Carlo).

A decision is taken from a PlayerView only. The search samples *worlds* (complete matches consistent with
the view: the hidden cards dealt by the game's sampler, every public fact kept), plays each candidate move
in each world and finishes the hand with a fast rollout policy (the game's `normal` bot for every seat),
then keeps the candidate with the best average return for the deciding seat (per player in Gong Zhu, per
pair in the partnership games).

Why flat PIMC rather than IS-MCTS: in these games the value of a move is mostly decided by who holds the
hidden cards, which the worlds average over, and a rollout of the rest of the hand by a good rule-based
policy is a strong evaluator; with a budget of a few hundred playouts per decision (pure Python) IS-MCTS
would spend them on a shallow tree of weak statistics. Flat PIMC with *common random numbers* (every
candidate is tried in the same worlds) and successive halving (the budget goes to the close candidates)
gets more decision quality from the same number of playouts, and it is trivially deterministic.

Deterministic by construction: the budget is a number of playouts (never seconds) and every random choice
comes from the project's PRNG seeded with the view's ``bot_seed``; the same game number and the same moves
give the same decision on any machine. Fair by construction: nothing here receives the true state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.engine import Match
from cardtable.rng import Rng, mix


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much a decision may search, counted in moves played in rollouts (so a decision early in a
    hand, whose rollouts are long, gets fewer playouts than one near its end, and each costs about the
    same time): ``moves // moves_left`` playouts in all, at least ``min_playouts``, spread over the
    candidates."""

    moves: int
    min_playouts: int = 8

    def scaled(self, factor: float) -> Budget:
        return Budget(max(1, int(self.moves * factor)), max(1, int(self.min_playouts * factor)))

    def playouts(self, moves_left: int) -> int:
        return max(self.min_playouts, self.moves // max(1, moves_left))


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The search's verdict: the chosen move, the mean return of every candidate over the worlds it was
    tried in (best first; candidates dropped early were tried in fewer), and the playouts spent."""

    move: Any
    scores: tuple[tuple[Any, float], ...]
    playouts: int

    def cost_of(self, move: Any) -> float | None:
        """Expected loss of ``move`` against the chosen one (None if it was not a candidate)."""
        table = dict(self.scores)
        if move not in table:
            return None
        return table[self.move] - table[move]


def play_out(match: Match, policy: Callable[[int], Any], max_moves: int = 10_000) -> dict | None:
    """Play ``match`` on with ``policy(seat)`` bots until the current hand ends; return that hand's
    ``hand_end`` record (None if the match was already over).

    The bots choose from their view's ``legal`` moves, so the rollout applies them through the engine's
    ``_apply`` without checking them again or keeping the move list (a world is thrown away after)."""
    start = len(match.events)
    hand = match.hand
    for _ in range(max_moves):
        seat = match.to_move()
        if seat is None or match.hand != hand:
            break
        moved = False
        for other in match.optional_movers():
            if other != seat:
                move = policy(other).choose(match.view(other))
                if move is not None:
                    match._apply(move, other)
                    moved = True
                    break
        if moved:
            continue
        forced = match.automatic_move(seat)     # e.g. Guiñote's keep of a seat without the 7: no view needed
        match._apply(forced if forced is not None else policy(seat).choose(match.view(seat)), seat)
    for record in match.events[start:]:
        if record.get("type") == "hand_end":
            return record
    return None


def _clearly_better(better: list[float], other: list[float], z: float) -> bool:
    """Is the mean of ``better`` − ``other`` (paired by world; both were played in the same worlds, in
    the same order) more than ``z`` standard errors above zero?"""
    if z <= 0:
        return True
    diffs = [a - b for a, b in zip(better, other, strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * (variance / n) ** 0.5


def compare(view: Any, better: Any, other: Any, world: Callable[[Any, Rng], Match],
            policy: Callable[[int], Any], value: Callable[[dict, Any, int], float], budget: Budget,
            moves_left: int) -> tuple[float, float]:
    """How much ``better`` beats ``other`` for ``view.seat``: (mean, standard error) of their paired
    difference in return, both played in the same worlds (the play checker's measure of a mistake).
    Deterministic like :func:`choose` (its own stream from the view's seed)."""
    rng = Rng(mix(view.bot_seed, 0xC4EC))
    worlds = max(2, budget.playouts(moves_left) // 2)
    diffs = []
    for _ in range(worlds):
        base = world(view, rng)
        pair = []
        for move in (better, other):
            match = base.clone()
            match.apply(move, view.seat)
            record = play_out(match, policy)
            pair.append(value(record, match, view.seat) if record is not None else 0.0)
        diffs.append(pair[0] - pair[1])
    mean = sum(diffs) / len(diffs)
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, (variance / len(diffs)) ** 0.5


def choose(view: Any, candidates: Sequence[Any], world: Callable[[Any, Rng], Match],
           policy: Callable[[int], Any], value: Callable[[dict, Any, int], float], budget: Budget,
           moves_left: int, preferred: Any = None, tie: float = 0.0,
           confidence: float | Callable[[Any], float] = 0.0) -> Evaluation:
    """Pick the candidate with the best mean return for ``view.seat``.

    ``world(view, rng)`` builds one determinized match consistent with the view; ``value(record, match,
    seat)`` rates the finished hand for the seat; ``moves_left`` (about how many moves remain in the hand)
    turns the budget into playouts. ``preferred`` (the rollout policy's own choice) is kept
    unless another candidate beats it by more than ``tie`` and, with ``confidence`` z > 0, by more than z
    standard errors of their paired difference over the worlds both were played in: noise alone never
    changes a good rule's move. ``confidence`` may be a function of the move (a move the rules distrust
    needs more proof).
    """
    candidates = list(dict.fromkeys(candidates))
    if preferred is not None and preferred in candidates:
        candidates.remove(preferred)
        candidates.insert(0, preferred)
    if len(candidates) == 1:
        return Evaluation(candidates[0], ((candidates[0], 0.0),), 0)
    rng = Rng(mix(view.bot_seed, 0x5EA7C4))
    totals = {move: 0.0 for move in candidates}
    counts = {move: 0 for move in candidates}
    results: dict[Any, list[float]] = {move: [] for move in candidates}   # per world, in world order
    alive = list(candidates)
    rounds = max(1, (len(alive) - 1).bit_length())
    spent = 0
    playouts = budget.playouts(moves_left)
    for round_index in range(rounds):
        left = playouts - spent
        per_round = left // (rounds - round_index)
        worlds = max(1, per_round // len(alive))
        for _ in range(worlds):
            base = world(view, rng)
            for move in alive:
                match = base.clone()
                match.apply(move, view.seat)
                record = play_out(match, policy)
                result = value(record, match, view.seat) if record is not None else 0.0
                totals[move] += result
                counts[move] += 1
                results[move].append(result)
                spent += 1
        if len(alive) > 2 and round_index < rounds - 1:
            ranked = sorted(alive, key=lambda m: -totals[m] / counts[m])
            keep = max(2, (len(alive) + 1) // 2)
            survivors = set(ranked[:keep])
            if preferred in alive:
                survivors.add(preferred)
            alive = [m for m in alive if m in survivors]
    means = {m: totals[m] / counts[m] for m in candidates}
    best = max(alive, key=lambda m: means[m])     # first of the best on ties: candidate order
    z = confidence(best) if callable(confidence) else confidence
    if preferred in alive and best != preferred and (
            means[best] - means[preferred] <= tie
            or not _clearly_better(results[best], results[preferred], z)):
        best = preferred
    scores = tuple(sorted(means.items(), key=lambda item: -item[1]))
    return Evaluation(best, scores, spent)
