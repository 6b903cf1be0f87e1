"""The statistics screen: the summary table per game and CPU level, and a chart of your points per hand.

The database is read off the event loop (the statistics service's own thread); the chart is a
textual-plotext widget, drawn with plain ASCII markers and no frame in ASCII mode.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static
from textual_plotext import PlotextPlot

from cardtable import games
from cardtable.i18n import t
from cardtable.stats import LevelStats, format_row, summary_columns
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.dialogs import hand_ticks
from cardtable.ui.footer import Footer
from cardtable.ui.numbers import minus

CHART_HANDS = 60


def draw_points_chart(widget: PlotextPlot, title: str, points: list[float], ascii_only: bool) -> None:
    """Your points per hand as a line, with a zero line; plain markers in ASCII mode."""
    plt = widget.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title(title)
    if points:
        xs = list(range(1, len(points) + 1))
        plt.plot(xs, points, marker="*" if ascii_only else "braille")
        plt.xticks(hand_ticks(len(points)))
        if ascii_only:
            plt.plot(xs, [0] * len(xs), marker="-")
        else:
            plt.hline(0)
    if ascii_only:
        plt.frame(False)
        plt.xaxes(False, False)
        plt.yaxes(False, False)
    widget.refresh()


class StatisticsScreen(Screen):
    """Matches, wins, hands, points, streaks and time per game and CPU level; ←/→ change the chart's game."""

    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "back"),
        Binding("left", "chart(-1)", "previous_game", show=False),
        Binding("right,tab", "chart(1)", "next_game"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        names = list(games.games())
        self.chart_game = game if game in names else names[0]
        self.chart_title = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="stats-body"):
            yield Static("", id="stats-note")
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield PlotextPlot(id="stats-chart")
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.sub_title = t("stats_title")
        table = self.query_one(DataTable)
        for column in summary_columns():
            table.add_column(column)
        table.focus()
        self.load()

    @property
    def ascii_only(self) -> bool:
        return self.app.settings.card_style == "ascii"

    @work(exclusive=True, group="stats")
    async def load(self) -> None:
        service = self.app.statistics
        rows: list[LevelStats] = await service.call("summary") or []
        history = await service.call("history", self.chart_game, CHART_HANDS) or []
        if self not in self.app.screen_stack:     # closed (Esc typed ahead) while the database answered
            return
        notice = service.take_notice()
        self._show(rows, [points for _, points in history], notice)

    def _show(self, rows: list[LevelStats], points: list[float], notice: str | None) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for row in rows:
            style = self.app.settings.card_style
            table.add_row(*(minus(cell, style) if cell.startswith("-") else cell for cell in format_row(row)))
        note = self.query_one("#stats-note", Static)
        if notice:
            note.update(t("stats_damaged", notice=notice))
        elif not rows:
            note.update(t("stats_none"))
        else:
            note.update("")
        name = t("game_" + self.chart_game)
        title = t("stats_chart", game=name, n=len(points)) if points else t("stats_chart_none", game=name)
        self.chart_title = title
        draw_points_chart(self.query_one(PlotextPlot), title, points, self.ascii_only)

    def action_chart(self, step: int) -> None:
        names = list(games.games())
        self.chart_game = names[(names.index(self.chart_game) + step) % len(names)]
        self.load()
