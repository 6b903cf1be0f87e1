"""Gong Zhu (拱猪): four players each on their own, avoid the Pig and the hearts, catch the Goat."""

from cardtable.games import GameSpec
from cardtable.games.gongzhu import advice
from cardtable.games.gongzhu.bots import BOTS
from cardtable.games.gongzhu.search import ExpertBot, HardBot
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions


def hand_scores(record: dict) -> list[float]:
    return [float(line["hand"]) for line in record["lines"]]


SPEC = GameSpec(
    name="gongzhu",
    title="Gong Zhu",
    match_type=GongZhuMatch,
    options_type=GongZhuOptions,
    bots={**BOTS, "hard": HardBot, "expert": ExpertBot},
    hand_scores=hand_scores,
    score_label="points per hand",
    ui="cardtable.ui.gongzhu:GongZhuScreen",
    rules_package="cardtable.games.gongzhu",
    advice=advice,
    partnerships=False,
)
