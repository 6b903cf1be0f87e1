"""Charts: the match's running score on the match-end screen, and the statistics screen with data."""

import os
from pathlib import Path

from textual_plotext import PlotextPlot

from cardtable import stats
from cardtable.engine import Outcome
from cardtable.ui.dialogs import RunningScoreChart
from cardtable.ui.gongzhu import GongZhuMatchEnd, GongZhuScreen, ResultsScreen, ShowPanel
from tests.ui_helpers import assert_human_to_move, make_app, pinned_app, settle

# A Gong Zhu match of three hands (target 1000, max_hands 3), pinned just before your last card of the
# last hand: that card ends the match, and no CPU plays after it.
ALMOST = "gongzhu-match-last-card"


async def _to_match_end(pilot, app) -> None:
    screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
    for _ in range(30):
        if isinstance(app.screen, GongZhuMatchEnd):
            return
        if isinstance(app.screen, ResultsScreen):
            await pilot.press("n")
        elif isinstance(app.screen, ShowPanel):
            await pilot.press("escape")
        elif screen.seat.match.to_move() == 0:
            await pilot.press("enter", "enter")
        await settle(pilot)
    raise AssertionError("no match end")


async def test_the_match_end_shows_the_running_score(tmp_path):
    app = pinned_app(tmp_path, ALMOST)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await _to_match_end(pilot, app)
        chart = app.screen.query_one(RunningScoreChart)
        screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
        hands = [r for r in screen.seat.match.log if r["type"] == "hand_end"]
        assert len(hands) == 3
        assert [label for label, _ in chart.series] == [f"gz_seat_{s}" for s in range(4)]
        for seat, (_, values) in enumerate(chart.series):
            assert values == [h["lines"][seat]["total"] for h in hands]
        assert chart.series[0][1][-1] == app.screen.record["totals"][0]


async def test_the_running_score_in_ascii_mode_is_ascii(tmp_path):
    app = pinned_app(tmp_path, ALMOST, card_style="ascii")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await _to_match_end(pilot, app)
        plot = app.screen.query_one(RunningScoreChart).query_one(PlotextPlot)
        text = plot.plt.uncolorize(plot.plt.build())
        assert "*" in text and all(ord(ch) < 128 for ch in text), text


def test_running_scores_per_game():
    gd = [{"type": "hand_end", "levels": ["2", "4"]}, {"type": "hand_end", "levels": ["5", "4"]},
          {"type": "deal"}]
    assert stats.running_scores("guandan", gd) == [("chart_us", [2.0, 5.0]), ("chart_them", [4.0, 4.0])]
    gn = [{"type": "hand_end", "score": [60, 40]}, {"type": "hand_end", "score": [0, 0]}]
    assert stats.running_scores("guinote", gn) == [("chart_us", [60.0, 0.0]), ("chart_them", [40.0, 0.0])]
    assert stats.running_scores("guandan", [{"type": "hand_end", "levels": ["Z"]}]) == []


def test_match_end_chart_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        assert_human_to_move(next(s for s in pilot.app.screen_stack if isinstance(s, GongZhuScreen)), 167)
        await _to_match_end(pilot, pilot.app)

    assert snap_compare(pinned_app(tmp_path, ALMOST), terminal_size=(80, 24), run_before=run_before)


def test_statistics_screen_snapshot(snap_compare, tmp_path):
    db = stats.StatsDB(Path(os.environ["CARDTABLE_HOME"]) / stats.FILE_NAME)
    for number, points in enumerate([-150, 40, 0, -25, 200, -10, 75], 1):
        db.record_hand(slot="a", game="gongzhu", level="normal", seed=5, options={}, number=number,
                       record={"lines": [{"hand": points, "total": 0}] * 4}, seconds=95)
    db.record_hand(slot="b", game="guandan", level="easy", seed=6, options={}, number=1,
                   record={"winner_team": 0, "level_up": 2}, seconds=300,
                   outcome=Outcome(True, (0, 2), (3, 2, 3, 2)))
    db.close()

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.action_statistics()
        await settle(pilot)
        await pilot.press("right")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(100, 30), run_before=run_before)
