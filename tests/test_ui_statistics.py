"""The statistics screen after a played hand, the home key and the palette entry, ASCII charts."""

from textual.widgets import DataTable
from textual_plotext import PlotextPlot

from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.ui.gongzhu import GongZhuScreen, ResultsScreen, ShowPanel
from cardtable.ui.home import HomeScreen
from cardtable.ui.statistics import StatisticsScreen, draw_points_chart
from tests.ui_helpers import make_app, settle


async def _play_one_hand(pilot, app) -> dict:
    screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
    bot = NormalBot()
    for _ in range(300):
        if isinstance(app.screen, ShowPanel):
            await pilot.press("escape")
        elif isinstance(app.screen, ResultsScreen):
            return app.screen.record
        elif screen.seat.match.to_move() == 0 and screen.seat.match.phase == "play":
            screen.play(bot.choose(screen.seat.match.view(0)), 0)
        await settle(pilot)
    raise AssertionError("the hand did not end")


async def test_a_played_hand_shows_in_the_statistics_screen(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), 12345, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        record = await _play_one_hand(pilot, app)
        rows = await app.statistics.call("summary")        # after the queued write
        assert len(rows) == 1 and rows[0].hands == 1 and rows[0].points == record["lines"][0]["hand"]
        app.action_statistics()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        cells = [str(c) for c in table.get_row_at(0)]
        assert cells[0] == "Gong Zhu\nnormal" and cells[3] == "1"          # the game over its CPU level
        assert screen.chart_game == "guandan"
        await pilot.press("right")                          # the chart moves to Gong Zhu
        await settle(pilot)
        assert screen.chart_game == "gongzhu"
        assert screen.chart_title == "Gong Zhu: your points per hand (last 1)"


async def test_home_key_and_spanish_labels(tmp_path):
    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, StatisticsScreen)
        assert "Aún no hay estadísticas" in str(app.screen.query_one("#stats-note").render())
        headers = [" ".join(str(c.label).split()) for c in app.screen.query_one(DataTable).columns.values()]
        assert headers[:3] == ["Juego CPU", "Partidas", "Ganadas"]      # (on two lines where it is narrow)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


async def test_a_damaged_database_is_said_once_and_replaced(tmp_path):
    import os
    from pathlib import Path

    home = Path(os.environ["CARDTABLE_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "stats.sqlite3").write_bytes(b"\x00garbage" * 500)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.action_statistics()
        await settle(pilot)
        note = str(app.screen.query_one("#stats-note").render())
        assert "damaged" in note and "moved" in note
    assert list(home.glob("stats.sqlite3.damaged-*"))


def test_ascii_chart_uses_only_ascii(tmp_path):
    from textual.app import App

    class ChartApp(App):
        def compose(self):
            yield PlotextPlot()

    async def run():
        app = ChartApp()
        async with app.run_test(size=(60, 16)) as pilot:
            plot = app.query_one(PlotextPlot)
            draw_points_chart(plot, "points", [10, -20, 35, 0, 5], ascii_only=True)
            await pilot.pause()
            text = plot.plt.build()
            assert "*" in text
            assert all(ord(ch) < 128 for ch in plot.plt.uncolorize(text)), text

    import asyncio

    asyncio.run(run())
