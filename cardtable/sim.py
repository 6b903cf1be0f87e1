"""Headless matches between CPU players: the engine of ``cardtable sim`` (and of the bench)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import TextIO

from cardtable.engine import Options
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


def next_cpu_move(match, bot_for: Callable[[int], object]) -> tuple[int, object]:
    """The next move when every seat is a CPU: first any optional move another seat wants to make
    (a partner's cante, say), else the move of the seat to move."""
    seat = match.to_move()
    for other in match.optional_movers():
        if other != seat:
            move = bot_for(other).choose(match.view(other))
            if move is not None:
                return other, move
    return seat, bot_for(seat).choose(match.view(seat))


def rotations(spec: GameSpec, players: list[str], rotate: bool) -> list[list[str]]:
    """The seatings each deal is played under: all four rotations (or both pair orders) with --rotate."""
    if not rotate:
        return [players]
    count = 2 if spec.partnerships else 4
    return [players[-r:] + players[:-r] if r else list(players) for r in range(count)]


def run(spec: GameSpec, options: Options, games: int, seed: int, players: list[str],
        history: TextIO | None = None, legal: bool = False, rotate: bool = False,
        progress: Callable[[int], None] | None = None) -> SimResult:
    """Play ``games`` matches from seeds ``seed, seed+1, ...`` (each under every seating with
    ``rotate``), writing the history if asked."""
    result = SimResult()
    bots = {level: spec.bot(level) for level in set(players)}
    start = time.perf_counter()
    for index in range(games):
        for seating in rotations(spec, players, rotate):
            match = spec.new_match(options, seed + index)
            labels = [f"cpu:{level}" for level in seating]
            writer = HistoryWriter(history, match, labels, legal) if history is not None else None
            while (seat := match.to_move()) is not None:
                seat, move = next_cpu_move(match, lambda s, seating=seating: bots[seating[s]])
                if writer is not None:
                    writer.apply(move, seat)
                else:
                    match.apply(move, seat)
                result.moves += 1
            for record in match.events:
                if record["type"] == "hand_end":
                    result.hands += 1
                    for s, value in enumerate(spec.hand_scores(record)):
                        if spec.partnerships and s >= 2:
                            continue     # partners share the result: count each team once per hand
                        result.by_level.setdefault(seating[s], LevelStats()).add(value)
                elif record["type"] == "match_end":
                    for s in _match_winners(record):
                        if spec.partnerships and s >= 2:
                            continue     # a team wins once
                        result.wins_by_level[seating[s]] = result.wins_by_level.get(seating[s], 0) + 1
            result.matches += 1
        if progress is not None:
            progress(index + 1)
    result.seconds = time.perf_counter() - start
    return result


def _match_winners(record: dict) -> list[int]:
    if "winners" in record:
        return list(record["winners"])
    team = record.get("winner_team", record.get("winner"))
    return [team, team + 2] if isinstance(team, int) else []
