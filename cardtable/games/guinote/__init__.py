"""Guiñote: the Aragonese tute for two pairs — pass 100 with tricks, cantes and las diez de últimas."""

from cardtable.games import GameSpec, HandResult
from cardtable.games.guinote import advice
from cardtable.games.guinote.bots import BOTS
from cardtable.games.guinote.search import ExpertBot, HardBot
from cardtable.games.guinote.state import GuinoteMatch, GuinoteOptions


def hand_scores(record: dict) -> list[float]:
    """1 for each seat of the pair that won the hand, 0 otherwise (nothing for a hand that goes de vueltas)."""
    winner = record["winner"]
    return [1.0 if winner is not None and seat % 2 == winner else 0.0 for seat in range(4)]


def hand_result(record: dict, seat: int) -> HandResult:
    """Your pair's points (cards, las últimas and cantes) minus the other pair's, whether your pair won
    the hand (None: it goes on de vueltas) and your pair's total."""
    team = seat % 2
    own = record["points"][team] + record["cantes"][team]
    other = record["points"][1 - team] + record["cantes"][1 - team]
    winner = record.get("winner")
    return HandResult(float(own - other), None if winner is None else winner == team,
                      float(record["totals"][team]))


def running_scores(hands: list[dict]) -> list[tuple[str, list[float]]]:
    """Each pair's points in the coto being played, after each hand."""
    return [(key, [float(h["score"][side]) for h in hands]) for side, key in enumerate(("chart_us", "chart_them"))]


SPEC = GameSpec(
    name="guinote",
    title="Guiñote",
    match_type=GuinoteMatch,
    options_type=GuinoteOptions,
    bots={**BOTS, "hard": HardBot, "expert": ExpertBot},
    hand_scores=hand_scores,
    hand_result=hand_result,
    running_scores=running_scores,
    score_label="share of hands won by the pair",
    ui="cardtable.ui.guinote:GuinoteScreen",
    rules_package="cardtable.games.guinote",
    advice=advice,
    partnerships=True,
)
