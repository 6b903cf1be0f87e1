"""Guandan (掼蛋): two partnerships climb the levels from 2 to beyond the Aces."""

from cardtable.games import GameSpec
from cardtable.games.guandan.bots import BOTS
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions


def hand_scores(record: dict) -> list[float]:
    """1 for each seat of the team that finished first (won the deal), 0 otherwise."""
    return [1.0 if seat % 2 == record["winner_team"] else 0.0 for seat in range(4)]


def bench_move_generation(samples: int = 400) -> list[str]:
    """Move-generation time per call on 27-card hands holding 0, 1 and 2 wilds (median, p95)."""
    import statistics
    import time

    from cardtable.cards import guandan_deck
    from cardtable.games.guandan.rules import generate, is_wild
    from cardtable.rng import Rng

    level = 2
    rng = Rng(2026)
    by_wilds: dict[int, list[list]] = {0: [], 1: [], 2: []}
    while min(len(v) for v in by_wilds.values()) < samples:
        deck = guandan_deck()
        rng.shuffle(deck)
        hand = deck[:27]
        wilds = sum(1 for c in hand if is_wild(c, level))
        if len(by_wilds[wilds]) < samples:
            by_wilds[wilds].append(hand)
    lines = []
    for wilds, hands in by_wilds.items():
        times = []
        for hand in hands:
            start = time.perf_counter()
            generate(hand, level)
            times.append(time.perf_counter() - start)
        times.sort()
        lines.append(f"guandan  move generation, 27 cards, {wilds} wild(s): median "
                     f"{statistics.median(times) * 1e3:.2f} ms, p95 {times[int(0.95 * len(times))] * 1e3:.2f} ms")
    return lines


SPEC = GameSpec(
    name="guandan",
    title="Guandan",
    match_type=GuandanMatch,
    options_type=GuandanOptions,
    bots=BOTS,
    hand_scores=hand_scores,
    score_label="share of deals won by the team",
    ui="cardtable.ui.guandan:GuandanScreen",
    rules_package="cardtable.games.guandan",
    partnerships=True,
    extra_bench=bench_move_generation,
)
