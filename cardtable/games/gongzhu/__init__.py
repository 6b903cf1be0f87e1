"""Gong Zhu (拱猪): four players each on their own, avoid the Pig and the hearts, catch the Goat."""

from cardtable.games import GameSpec, HandResult
from cardtable.games.gongzhu import advice
from cardtable.games.gongzhu.bots import BOTS
from cardtable.games.gongzhu.search import ExpertBot, HardBot
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions


def hand_scores(record: dict) -> list[float]:
    return [float(line["hand"]) for line in record["lines"]]


def hand_result(record: dict, seat: int) -> HandResult:
    """Your hand score and your total after it; a Gong Zhu hand has no winner."""
    line = record["lines"][seat]
    return HandResult(float(line["hand"]), None, float(line["total"]))


def running_scores(hands: list[dict]) -> list[tuple[str, list[float]]]:
    """Each seat's total after each hand."""
    return [(f"gz_seat_{s}", [float(h["lines"][s]["total"]) for h in hands]) for s in range(4)]


SPEC = GameSpec(
    name="gongzhu",
    title="Gong Zhu",
    match_type=GongZhuMatch,
    options_type=GongZhuOptions,
    bots={**BOTS, "hard": HardBot, "expert": ExpertBot},
    hand_scores=hand_scores,
    hand_result=hand_result,
    running_scores=running_scores,
    score_label="points per hand",
    ui="cardtable.ui.gongzhu:GongZhuScreen",
    rules_package="cardtable.games.gongzhu",
    advice=advice,
    partnerships=False,
)
