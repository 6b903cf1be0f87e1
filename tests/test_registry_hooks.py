"""The registry is the only per-game switch (issue 33): the statistics, the match-end chart and the hand
review ask the game through its GameSpec and its ``cardtable.ui.<game>.review`` module, and name no game
themselves, so a fourth game touches only its own packages."""

import ast
import dataclasses
from pathlib import Path

import pytest

from cardtable import games, stats
from cardtable.games import HandResult

ROOT = Path(__file__).resolve().parent.parent / "cardtable"


@pytest.mark.parametrize("module", ["stats.py", "ui/review.py", "ui/reviewdraw.py"])
def test_the_shared_modules_name_no_game(module):
    names = set(games.GAME_MODULES)
    strings = {node.value for node in ast.walk(ast.parse((ROOT / module).read_text()))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not names & strings, sorted(names & strings)


def test_the_statistics_and_the_chart_ask_the_games_hooks(monkeypatch):
    spec = games.get("gongzhu")
    seen = []

    def hand_result(record, seat):
        seen.append(("hand", seat))
        return HandResult(7.0, True, 70.0)

    def running_scores(hands):
        seen.append(("chart", len(hands)))
        return [("chart_us", [float(len(hands))])]

    fake = dataclasses.replace(spec, hand_result=hand_result, running_scores=running_scores)
    monkeypatch.setitem(games._load(), "gongzhu", fake)
    assert stats.hand_result("gongzhu", {}, seat=2) == HandResult(7.0, True, 70.0)
    log = [{"type": "hand_end"}, {"type": "trick"}, {"type": "hand_end"}]
    assert stats.running_scores("gongzhu", log) == [("chart_us", [2.0])]
    assert seen == [("hand", 2), ("chart", 2)]


def test_every_game_has_its_review_module():
    from cardtable.ui.review import game_review
    from cardtable.ui.reviewdraw import Renderer

    for name in games.games():
        module = game_review(name)
        assert issubclass(module.RENDERER, Renderer) and module.RENDERER is not Renderer
        assert callable(module.hand_result)
