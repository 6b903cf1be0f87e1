"""Guiñote: the Aragonese tute for two pairs — pass 100 with tricks, cantes and las diez de últimas."""

from cardtable.games import GameSpec
from cardtable.games.guinote import advice
from cardtable.games.guinote.bots import BOTS
from cardtable.games.guinote.search import ExpertBot, HardBot
from cardtable.games.guinote.state import GuinoteMatch, GuinoteOptions


def hand_scores(record: dict) -> list[float]:
    """1 for each seat of the pair that won the hand, 0 otherwise (nothing for a hand that goes de vueltas)."""
    winner = record["winner"]
    return [1.0 if winner is not None and seat % 2 == winner else 0.0 for seat in range(4)]


SPEC = GameSpec(
    name="guinote",
    title="Guiñote",
    match_type=GuinoteMatch,
    options_type=GuinoteOptions,
    bots={**BOTS, "hard": HardBot, "expert": ExpertBot},
    hand_scores=hand_scores,
    score_label="share of hands won by the pair",
    ui="cardtable.ui.guinote:GuinoteScreen",
    rules_package="cardtable.games.guinote",
    advice=advice,
    partnerships=True,
)
