"""Dialogs the game tables share: the end of a hand, the end of the match and the last trick."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from cardtable.engine import OptionError, check_seed
from cardtable.i18n import t
from cardtable.ui.chartaxes import set_axes
from cardtable.ui.footer import DialogKeys
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.toggles import ChoiceButton


class ChoiceDialog(AnswerOnce):
    """A dialog that answers with the id of the button pressed (or of the key's choice). Its default
    button (``AUTO_FOCUS``), the safe step forward, has the focus from the first frame."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, value: str) -> None:
        self.dismiss(value)


class HandEndDialog(ChoiceDialog):
    """The results of a hand, with «Review the hand» (v), «Continue later» and «Next hand» (focused),
    and «Replay this deal» on d. Subclasses give the body."""

    BINDINGS = [Binding("n,enter", "choose('next')", "next_hand"),
                Binding("escape", "choose('later')", "continue_later"),
                Binding("d", "choose('replay')", "replay_deal"),
                Binding("v", "choose('review')", "review_hand"),
                # the results and the checker's notes scroll when they are taller than the room (80×24)
                Binding("up", "scroll_body(-1)", "scroll_up", show=False),
                Binding("down", "scroll_body(1)", "scroll_down", show=False)]
    AUTO_FOCUS = "#next"

    def __init__(self, title: str, match_over: bool) -> None:
        super().__init__()
        self.title_text = title
        self.match_over = match_over
        self.practice = False           # the end of a practice deal: no «replay», «next» ends it
        self.flags: list[str] = []      # the play checker's notes on this hand's plays

    def body(self) -> Iterable[Widget]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            # Between the title and the buttons, scrolling when taller than the dialog's room: the
            # checker's notes under a Guandan or Gong Zhu table pushed the buttons off an 80×24 screen.
            with VerticalScroll(id="hand-end-body", can_focus=False):
                yield from self.body()
                if self.flags:
                    yield Label(t("checker_flagged", n=len(self.flags)), classes="dialog-hint")
                    for flag in self.flags[:6]:
                        yield Label(f"· {flag}", classes="dialog-hint")
                if not self.practice:
                    yield Label(t("review_hint"), classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("review_hand"), id="review")
                if self.practice:
                    yield Button(t("practice_end"), id="next")
                else:
                    yield Button(t("continue_later"), id="later")
                    yield Button(t("continue") if self.match_over else t("next_hand"), id="next")


    def adjust_bindings(self) -> None:
        # The key bar names Enter / n as the button does: «Continue» when the match is over, «End
        # practice» after a practice deal (it said «Next hand» under a «Continue» button).
        if self.practice:
            self.relabel("choose('next')", t("practice_end"))
        elif self.match_over:
            self.relabel("choose('next')", t("continue"))

    def action_scroll_body(self, step: int) -> None:
        self.query_one("#hand-end-body", VerticalScroll).scroll_relative(y=step, animate=False)


class MatchEndDialog(ChoiceDialog):
    """The end of the match, with «Home» / «New game». Subclasses give the body."""

    BINDINGS = [Binding("n,enter", "choose('new')", "new_game"), Binding("escape,h", "choose('home')", "home")]
    AUTO_FOCUS = "#new"

    def __init__(self, record: dict) -> None:
        super().__init__()
        self.record = record            # the match_end line of the history
        # The running score (set by the table before showing the dialog): the chart's title key and
        # one (label key, values per hand) series per seat or side.
        self.chart: tuple[str, list[tuple[str, list[float]]]] | None = None
        self.ascii_only = False

    def body(self) -> Iterable[Widget]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("match_over"), classes="dialog-title")
            yield from self.body()
            if self.chart is not None and self.chart[1] and len(self.chart[1][0][1]) > 1:
                yield RunningScoreChart(*self.chart, ascii_only=self.ascii_only, classes="match-chart")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("home"), id="home")
                yield Button(t("new_game"), id="new")

    # The chart takes the rows the rest leaves (its full height where they are enough): at 80×24 and
    # 120×40 the buttons were pushed out of the dialog under it («▔▔▔» alone showed).
    def on_mount(self) -> None:
        self.call_after_refresh(self.fit_chart)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_chart)

    def fit_chart(self) -> None:
        charts = self.query(RunningScoreChart)
        if not charts or not self.is_attached:
            return
        chart, dialog = charts.first(), self.query_one(".dialog")
        others = sum(child.outer_size.height + child.styles.margin.top + child.styles.margin.bottom
                     for child in dialog.children if child is not chart)
        from textual.widgets import Footer

        keys = sum(footer.outer_size.height for footer in self.query(Footer))     # the dialog's key bar
        room = self.size.height - keys - dialog.styles.gutter.height - others
        height = max(RunningScoreChart.MIN_HEIGHT, min(RunningScoreChart.HEIGHT, room))
        if chart.outer_size.height != height:
            chart.styles.height = height


class RunningScoreChart(Widget):
    """The match's score after each hand, one line per seat or side (textual-plotext), with the legend
    in a line of its own below, so that it never hides a line."""

    HEIGHT, MIN_HEIGHT = 10, 6      # rows, with the legend's (MatchEndDialog.fit_chart)
    DEFAULT_CSS = """
    RunningScoreChart { height: 10; }
    RunningScoreChart PlotextPlot { height: 1fr; }
    RunningScoreChart .chart-legend { height: 1; content-align: center middle; width: 100%; }
    """
    COLOURS = ("cyan", "red", "green", "orange")
    RICH_COLOURS = ("cyan", "red", "green", "dark_orange")
    MARKERS = ("*", "+", "o", "x")

    def __init__(self, title_key: str, series: list[tuple[str, list[float]]], ascii_only: bool,
                 classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.title_key = title_key
        self.series = series
        self.ascii_only = ascii_only

    def legend(self) -> Text:
        legend = Text()
        for index, (label, _) in enumerate(self.series):
            mark = self.MARKERS[index % 4] if self.ascii_only else "━━"
            legend.append(f"  {mark} ", style=self.RICH_COLOURS[index % 4])
            legend.append(t(label))
        return legend

    def compose(self) -> ComposeResult:
        from textual_plotext import PlotextPlot

        yield PlotextPlot()
        yield Static(self.legend(), classes="chart-legend")

    def on_mount(self) -> None:
        from textual_plotext import PlotextPlot

        plt = self.query_one(PlotextPlot).plt
        plt.title(t(self.title_key))
        count = len(self.series[0][1])
        for index, (_, values) in enumerate(self.series):
            marker = self.MARKERS[index % 4] if self.ascii_only else "braille"
            plt.plot(list(range(1, count + 1)), values, marker=marker, color=self.COLOURS[index % 4])
        set_axes(plt, count, [v for _, values in self.series for v in values], self.ascii_only)
        if self.ascii_only:
            plt.frame(False)
            plt.xaxes(False, False)
            plt.yaxes(False, False)


class LastTrickDialog(DialogKeys, ModalScreen):
    """The last trick of the hand: one line per card, then who took it."""

    BINDINGS = [Binding("escape,enter,l", "app.pop_screen", "close")]
    DEFAULT_CSS = "LastTrickDialog .dialog { width: 56; }"

    def __init__(self, lines: list[Text], taker: str | None, title: str = "", empty: str = "") -> None:
        super().__init__()
        self.lines = lines
        self.taker = taker
        self.title_text = title or t("last_trick")      # a game's own word for a trick (Guandan's 轮)
        self.empty_text = empty or t("no_last_trick")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if not self.lines:
                yield Label(self.empty_text)
            else:
                text = Text("\n").join(self.lines)
                text.append(f"\n{self.taker}", style="bold")
                yield Static(text)


class DigitsInput(Input):
    """A box for a number: it takes digits only, so the other keys keep their meaning there («?» opens
    the Keys screen; Textual hands every printable key to a plain Input)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()


class SetupDialog(AnswerOnce):
    """Before a match: the game's own options, then the CPU level and the game number, and a start
    button (focused from the first frame). Answers ``(options, seed or None, level)``, or None."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    AUTO_FOCUS = "#setup-start"
    TITLE_KEY = ""
    START_KEY = ""

    def fields(self) -> Iterable[Widget]:
        """The game's own option rows."""
        raise NotImplementedError

    def options(self) -> object:
        """The game's options from the rows."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t(self.TITLE_KEY), classes="dialog-title")
            yield from self.fields()
            yield radio_row("cpu_level", "setup-level", (("level_easy", "easy", False),
                                                           ("level_normal", "normal", True),
                                                           ("level_hard", "hard", False)))
            with Horizontal(classes="form-row"):
                yield Label(t("game_number"), classes="form-label")
                yield DigitsInput(placeholder=t("game_number_help"), id="setup-seed", restrict=r"[0-9]*",
                                  max_length=20)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("cancel"), id="setup-cancel")
                yield Button(t(self.START_KEY), id="setup-start")

    def on_mount(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)

    def choice(self, set_id: str, default: str) -> str:
        pressed = self.query_one(f"#{set_id}", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name is not None else default

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_descendant_focus(self) -> None:
        """In the game number's box Enter starts: the start button is highlighted then (app.tcss)."""
        self.query_one("#setup-start", Button).set_class(isinstance(self.focused, Input), "enter")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "setup-start":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        raw = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = check_seed(raw) if raw else None
        except OptionError:
            self.notify(t("bad_game_number"), severity="error")
            return
        self.dismiss((self.options(), seed, self.choice("setup-level", "normal")))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PresetRadioSet(RadioSet):
    """A RadioSet whose keyboard cursor starts on the pressed button (Textual's starts on the first)."""

    def on_mount(self) -> None:
        # Textual dispatches this before RadioSet's own mount handler, which puts the cursor on the first
        # button: move the cursor once that handler has run.
        self.call_later(self._cursor_to_pressed)

    def _cursor_to_pressed(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

    def on_resize(self) -> None:
        if self.has_class("inline"):
            self.call_after_refresh(self._stack_if_cut)

    def _stack_if_cut(self) -> None:
        """An inline row whose choices do not fit its width (a narrow terminal, a longer language) shows
        them one under the other instead of cutting the last one off."""
        buttons = list(self.query(RadioButton))
        needed = sum(b.outer_size.width + b.styles.margin.right for b in buttons)
        stack = needed > self.size.width > 0
        if stack != self.has_class("stacked"):
            self.set_class(stack, "stacked")
            if self.parent is not None:
                self.parent.set_class(stack, "stacked")


def radio_row(label_key: str, set_id: str, choices: Iterable[tuple[str, str, bool]]) -> Horizontal:
    """A labelled row of radio buttons: ``choices`` are (i18n key, value, pressed)."""
    return Horizontal(
        Label(t(label_key), classes="form-label"),
        PresetRadioSet(*(ChoiceButton(t(text), value=pressed, name=value) for text, value, pressed in choices),
                       id=set_id, classes="inline"),
        classes="form-row")
