"""Guandan (掼蛋): two partnerships climb the levels from 2 to beyond the Aces."""

from cardtable.games import GameSpec, HandResult
from cardtable.games.guandan import advice
from cardtable.games.guandan.bots import BOTS
from cardtable.games.guandan.search import ExpertBot, HardBot
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions


def hand_scores(record: dict) -> list[float]:
    """1 for each seat of the team that finished first (won the deal), 0 otherwise."""
    return [1.0 if seat % 2 == record["winner_team"] else 0.0 for seat in range(4)]


def hand_result(record: dict, seat: int) -> HandResult:
    """The levels your team climbed (+) or the other team climbed (−), and whether your team won the deal."""
    won = record["winner_team"] == seat % 2
    rise = float(record.get("level_up", 0))
    return HandResult(rise if won else -rise, won, None)


_RANK_VALUES = {str(n): n for n in range(2, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14}


def running_scores(hands: list[dict]) -> list[tuple[str, list[float]]]:
    """Each team's level after each deal (2 to 14, the Ace)."""
    return [(key, [float(_RANK_VALUES[str(h["levels"][side])]) for h in hands])
            for side, key in enumerate(("chart_us", "chart_them"))]


def bench_move_generation(samples: int = 400) -> list[str]:
    """CPU time of the legal moves of a 27-card lead (the first lead of a match, through the public
    contract: a fresh match per sample, so nothing is cached) by the number of wilds held: median, p95."""
    import statistics
    import time

    from cardtable.games.guandan.rules import is_wild

    by_wilds: dict[int, list[float]] = {0: [], 1: [], 2: []}
    seed = 1
    while min(len(v) for v in by_wilds.values()) < samples:
        match = GuandanMatch(GuandanOptions(), seed)
        seed += 1
        seat = match.to_move()
        assert seat is not None
        wilds = sum(1 for c in match.hands[seat] if is_wild(c, match.level))
        if len(by_wilds[wilds]) >= samples:
            continue
        start = time.thread_time()
        match.legal_moves()
        by_wilds[wilds].append(time.thread_time() - start)
    lines = []
    for wilds, times in by_wilds.items():
        times.sort()
        lines.append(f"guandan  legal moves, 27-card lead, {wilds} wild(s): median "
                     f"{statistics.median(times) * 1e6:.0f} µs, p95 {times[int(0.95 * len(times))] * 1e6:.0f} µs "
                     f"(CPU time, {len(times)} leads)")
    return lines


SPEC = GameSpec(
    name="guandan",
    title="Guandan",
    match_type=GuandanMatch,
    options_type=GuandanOptions,
    bots={**BOTS, "hard": HardBot, "expert": ExpertBot},
    hand_scores=hand_scores,
    hand_result=hand_result,
    running_scores=running_scores,
    score_label="share of deals won by the team",
    ui="cardtable.ui.guandan:GuandanScreen",
    rules_package="cardtable.games.guandan",
    advice=advice,
    partnerships=True,
    partner_rule=True,
    extra_bench=bench_move_generation,
)
