"""Headless matches between CPU players: the engine of ``cardtable sim`` (and of the bench)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import io
import math
import os
import time
from collections.abc import Callable
from typing import Any, TextIO

from cardtable.engine import Bot, Match, Options, next_auto_move
from cardtable.games import GameSpec
from cardtable.history import HistoryWriter


def parse_players(spec: GameSpec, text: str) -> list[str]:
    """``easy`` (all four), or four comma-separated levels such as ``normal,easy,easy,easy``."""
    levels = [part.strip() for part in text.split(",")]
    if len(levels) == 1:
        levels = levels * 4
    if len(levels) != 4:
        raise ValueError("--players takes one level or four, comma-separated (seat 0 first)")
    for level in levels:
        if level not in spec.bots:
            raise ValueError(f"unknown CPU level {level!r}; levels for {spec.name}: {', '.join(spec.bots)}")
    return levels


@dataclasses.dataclass
class LevelStats:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def ci95(self) -> float:
        if self.n < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        return 1.96 * math.sqrt(variance / self.n)


@dataclasses.dataclass
class SimResult:
    matches: int = 0
    hands: int = 0
    moves: int = 0
    seconds: float = 0.0
    by_level: dict[str, LevelStats] = dataclasses.field(default_factory=dict)
    wins_by_level: dict[str, int] = dataclasses.field(default_factory=dict)
    # Partnership games: the share of *decided* hands (a Guiñote hand de vueltas is not decided).
    decided_by_level: dict[str, LevelStats] = dataclasses.field(default_factory=dict)
    # Duplicate deals (two levels, --rotate): per (match, hand) the first level's mean result minus the
    # second's over every seating of that same deal; its mean and CI are the arena's paired figure.
    paired: LevelStats | None = None
    paired_levels: tuple[str, str] | None = None


# The name the tests and older callers use for the one "who moves next" function of the core.
next_cpu_move = next_auto_move


def rotations(spec: GameSpec, players: list[str], rotate: bool) -> list[list[str]]:
    """The seatings each deal is played under: with --rotate every distinct rotation (or both pair
    orders). A seating met twice (``hard,normal,hard,normal`` turned by two seats is itself) is played
    once: the same deal under the same seating plays out the same, so a second copy would only cost time
    and count one result twice."""
    if not rotate:
        return [players]
    count = 2 if spec.partnerships else 4
    seatings = [players[-r:] + players[:-r] if r else list(players) for r in range(count)]
    return [list(seating) for seating in dict.fromkeys(map(tuple, seatings))]


@dataclasses.dataclass
class MatchOutcome:
    """One match under one seating, as ``run`` adds it up: kept apart so that matches played in other
    processes are added in the same order as when played one after another."""

    hands: int = 0
    moves: int = 0
    scores: list[tuple[str, float]] = dataclasses.field(default_factory=list)   # (level, value) in order
    by_hand: list[tuple[int, str, float, bool]] = dataclasses.field(default_factory=list)  # (hand, level, value, decided)
    wins: list[str] = dataclasses.field(default_factory=list)
    history: str | None = None


def play_match(spec: GameSpec, options: Options, seed: int, seating: list[str], bots: dict[str, Bot],
               history: TextIO | None, legal: bool, hands: int | None = None) -> MatchOutcome:
    """Play one CPU-only match (its first ``hands`` hands if given), writing its history to ``history``
    if given."""
    match = spec.new_match(options, seed)
    labels = [f"cpu:{level}" for level in seating]
    writer = HistoryWriter(history, match, labels, legal) if history is not None else None
    outcome = MatchOutcome()
    seen = moves = 0
    bot_for = {s: bots[level] for s, level in enumerate(seating)}.get
    play = match.play_auto_move if writer is None else functools.partial(_written_step, match, writer)
    # Every seat is a CPU: there is a next move until the match is over.
    while (step := play(bot_for)) is not None:
        moves += 1
        if hands is not None and len(match.events) != seen:
            seen = len(match.events)
            if sum(1 for record in match.events if record["type"] == "hand_end") >= hands:
                break
    assert step is not None or match.to_move() is None      # (every seat is a CPU)
    outcome.moves = moves
    for record in match.events:
        if record["type"] == "hand_end":
            outcome.hands += 1
            scores = spec.hand_scores(record)
            decided = spec.partnerships and any(scores)   # a Guiñote hand de vueltas is not decided
            for s, value in enumerate(scores):
                if spec.partnerships and s >= 2:
                    continue     # partners share the result: count each team once per hand
                outcome.scores.append((seating[s], value))
                outcome.by_hand.append((record["hand"], seating[s], value, decided))
    for s in match.outcome().winners:
        if spec.partnerships and s >= 2:
            continue     # a team wins once
        outcome.wins.append(seating[s])
    return outcome


def _written_step(match: Match, writer: HistoryWriter,
                  bot_for: Callable[[int], Bot | None]) -> tuple[int, Any] | None:
    """``match.play_auto_move``, the move applied through the history writer."""
    step = next_auto_move(match, bot_for)
    if step is not None:
        writer.apply(step[1], step[0])
    return step


def _add(result: SimResult, outcome: MatchOutcome, history: TextIO | None) -> None:
    result.hands += outcome.hands
    result.moves += outcome.moves
    for level, value in outcome.scores:
        result.by_level.setdefault(level, LevelStats()).add(value)
    for level in outcome.wins:
        result.wins_by_level[level] = result.wins_by_level.get(level, 0) + 1
    for _, level, value, decided in outcome.by_hand:
        if decided:
            result.decided_by_level.setdefault(level, LevelStats()).add(value)
    result.matches += 1
    if history is not None and outcome.history is not None:
        history.write(outcome.history)


def _pair(result: SimResult, outcomes: list[MatchOutcome]) -> None:
    """Duplicate deals: for each hand of one match index, the first level's mean result minus the
    second's over every seating that played that hand."""
    if result.paired is None:
        return
    assert result.paired_levels is not None      # set together with paired
    first, second = result.paired_levels
    by_hand: dict[int, dict[str, list[float]]] = {}
    for outcome in outcomes:
        for hand, level, value, _ in outcome.by_hand:
            by_hand.setdefault(hand, {}).setdefault(level, []).append(value)
    for values in by_hand.values():
        if values.get(first) and values.get(second):
            result.paired.add(sum(values[first]) / len(values[first]) - sum(values[second]) / len(values[second]))


def _worker_matches(game: str, options: Options, seed: int, players: list[str], rotate: bool, want_history: bool,
                    legal: bool, hands: int | None, index: int) -> list[MatchOutcome]:
    """In a worker process: every seating of match ``index`` (the history kept as text)."""
    from cardtable import games

    spec = games.get(game)
    bots = _WORKER_BOTS.setdefault(game, {})
    for level in set(players):
        if level not in bots:
            bots[level] = spec.bot(level)
    out = []
    for seating in rotations(spec, players, rotate):
        buffer = io.StringIO() if want_history else None
        outcome = play_match(spec, options, seed + index, seating, bots, buffer, legal, hands)
        outcome.history = buffer.getvalue() if buffer is not None else None
        out.append(outcome)
    return out


_WORKER_BOTS: dict[str, dict[str, Bot]] = {}


def default_jobs() -> int:
    """The machine's cores (what ``sim --jobs`` uses unless told)."""
    return max(1, os.cpu_count() or 1)


def run(spec: GameSpec, options: Options, games: int, seed: int, players: list[str],
        history: TextIO | None = None, legal: bool = False, rotate: bool = False,
        progress: Callable[[int], None] | None = None, jobs: int = 1, hands: int | None = None) -> SimResult:
    """Play ``games`` matches from seeds ``seed, seed+1, ...`` (each under every seating with
    ``rotate``), writing the history if asked. With ``jobs`` > 1 the matches are played in that many
    processes and added up in match order: the result and the history are the same as with one.
    ``hands`` stops each match after that many hands (so that long matches fit an arena)."""
    result = SimResult()
    levels = list(dict.fromkeys(players))
    if rotate and len(levels) == 2:
        result.paired, result.paired_levels = LevelStats(), (levels[0], levels[1])
    start = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        bots: dict[str, Bot] = {level: spec.bot(level) for level in set(players)}
        for index in range(games):
            outcomes = [play_match(spec, options, seed + index, seating, bots, history, legal, hands)
                        for seating in rotations(spec, players, rotate)]
            for outcome in outcomes:
                _add(result, outcome, None)
            _pair(result, outcomes)
            if progress is not None:
                progress(index + 1)
    else:
        work = functools.partial(_worker_matches, spec.name, options, seed, players, rotate, history is not None,
                                 legal, hands)
        chunk = max(1, min(8, games // (jobs * 4)))
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            for index, outcomes in enumerate(pool.map(work, range(games), chunksize=chunk)):
                for outcome in outcomes:
                    _add(result, outcome, history)
                _pair(result, outcomes)
                if progress is not None:
                    progress(index + 1)
    result.seconds = time.perf_counter() - start
    return result

