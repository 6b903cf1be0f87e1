"""The statistics screen: the summary table per game and CPU level, and a chart of your points per hand.

The database is read off the event loop (the statistics service's own thread); the chart is a
textual-plotext widget, drawn with plain ASCII markers and no frame in ASCII mode.
"""

from __future__ import annotations

import dataclasses

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Header, Static
from textual_plotext import PlotextPlot

from cardtable import games
from cardtable.i18n import t
from cardtable.stats import LevelStats, format_row, summary_columns
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.chartaxes import set_axes
from cardtable.ui.footer import Footer
from cardtable.ui.numbers import minus
from cardtable.ui.typedapp import CardtableScreen

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
        set_axes(plt, len(points), [*points, 0], ascii_only)   # whole round numbers, «−»
        if ascii_only:
            plt.plot(xs, [0] * len(xs), marker="-")
        else:
            plt.hline(0)
    if ascii_only:
        plt.frame(False)
        plt.xaxes(False, False)
        plt.yaxes(False, False)
    widget.refresh()


def two_lines(label: str, width: int) -> str:
    """A column label wider than the column's values, broken at the space (or after the «/») nearest its
    middle: «Hands won» → «Hands\\nwon». The table fits 80 columns so (issue 31, item 11)."""
    if cell_len(label) <= width:
        return label
    if " · " in label:                          # «Game · CPU»: one on each line, as in the cells below
        return label.replace(" · ", "\n", 1)
    breaks = [i for i, ch in enumerate(label) if ch in " （("] + [i + 1 for i, ch in enumerate(label) if ch == "/"]
    if not breaks:
        return label
    middle = cell_len(label) / 2
    at = min(breaks, key=lambda i: abs(cell_len(label[:i]) - middle))
    return label[:at].rstrip() + "\n" + label[at:].lstrip()


def width(text: str) -> int:
    """The cells of a cell's widest line."""
    return max(cell_len(line) for line in text.split("\n"))


def name_lines(row: LevelStats) -> list[str]:
    """The first cell, one item a line: the game, the CPU level, «with undo»."""
    game, level = format_row(dataclasses.replace(row, undo=False))[0].split(" · ", 1)
    return [game, level] + ([t("stats_with_undo")] if row.undo else [])


class StatisticsScreen(CardtableScreen):
    """Matches, wins, hands, points, streaks and time per game and CPU level; ←/→ change the chart's game
    (before the table: it is as wide as the screen, nothing to scroll)."""

    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "back"),
        Binding("left", "chart(-1)", "previous_game", show=False, priority=True),
        Binding("right", "chart(1)", "next_game", show=False, priority=True),
        Binding("tab", "chart(1)", "next_game"),
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
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True, header_height=2)
            yield PlotextPlot(id="stats-chart")
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.sub_title = t("stats_title")
        self.query_one(DataTable).focus()
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
        table.clear(columns=True)
        style = self.app.settings.card_style
        cells = [["\n".join(name_lines(row))] + [minus(cell, style) if cell.startswith("-") else cell
                                                for cell in format_row(row)[1:]] for row in rows]
        labels = []
        for index, label in enumerate(summary_columns()):
            labels.append(two_lines(label, max((width(cell[index]) for cell in cells), default=0)))
        # Two cells between columns where they fit the screen, else one (Spanish labels are long).
        widths = [max([width(label)] + [width(cell[index]) for cell in cells]) for index, label in enumerate(labels)]
        compact = sum(widths) + 2 * len(widths) > self.size.width - 2
        table.cell_padding = 0 if compact else 1
        pad = (lambda text: "\n".join(" " + line for line in text.split("\n"))) if compact else (lambda text: text)
        for label in labels:
            table.add_column(pad(label))
        for line_cells in cells:
            table.add_row(*map(pad, line_cells), height=line_cells[0].count("\n") + 1)
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
