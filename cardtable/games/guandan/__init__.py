"""Guandan (掼蛋): two partnerships climb the levels from 2 to beyond the Aces."""

from cardtable.games import GameSpec
from cardtable.games.guandan.bots import BOTS
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions


def hand_scores(record: dict) -> list[float]:
    """1 for each seat of the team that finished first (won the deal), 0 otherwise."""
    return [1.0 if seat % 2 == record["winner_team"] else 0.0 for seat in range(4)]


SPEC = GameSpec(
    name="guandan",
    title="Guandan",
    match_type=GuandanMatch,
    options_type=GuandanOptions,
    bots=BOTS,
    hand_scores=hand_scores,
    score_label="deals won per seat-deal",
    ui="cardtable.ui.guandan:GuandanScreen",
    rules_package="cardtable.games.guandan",
    partnerships=True,
)
