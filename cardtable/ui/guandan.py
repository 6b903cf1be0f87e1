"""The Guandan table: hand columns with selection, readings chooser, hints, pass, tribute and return,
the level bar with its counters, the hand summary and the match end."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.bots import decompose, recommended_return
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.state import GuandanOptions, GuandanView, Pass, Play, Return, Tribute
from cardtable.i18n import card_count, t
from cardtable.tricks import partner
from cardtable.ui import cells
from cardtable.ui.cardart import card_label, card_text, cards_text
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.widgets import MARKER, MARKER_ASCII

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).


def seat_name(seat: int) -> str:
    return t(f"gd_seat_{seat}")


def rank_label(rank: int) -> str:
    """A rank as the player reads it: jokers in the language's notation (SJ/BJ, JP/JG)."""
    if rank == 15:
        return t("joker_sj")
    if rank == 16:
        return t("joker_bj")
    return rules.rank_name(rank)


def combo_name(combo: Combo) -> str:
    """«Pair of 9s», «Straight 5–9», «Bomb of four 7s» in the player's language."""
    key = "" if combo.key is None else rank_label(combo.key)
    if combo.type == "joker_bomb":
        return t("gd_joker_bomb")
    low = ""
    if combo.type in ("straight", "straight_flush", "tube", "plate"):
        span = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}[combo.type]
        bottom = combo.key - span
        low = rules.rank_name(rules.ACE if bottom == 1 else bottom)
    count = t(f"number_{combo.size}") if 4 <= combo.size <= 10 else str(combo.size)
    return t(f"gd_{combo.type}", key=key, low=low, count=count)


def place_name(index: int) -> str:
    return t(f"gd_place_{index + 1}")


def anti_text(holders: tuple[int, ...]) -> str:
    """Why there is no tribute, reading well for «you» and for the others."""
    if len(holders) == 1:
        return t("gd_anti_you") if holders[0] == HUMAN else t("gd_anti_one", name=seat_name(holders[0]))
    if HUMAN in holders:
        return t("gd_anti_us")
    return t("gd_anti_them", a=seat_name(3), b=seat_name(1))       # «Left and Right», «Izquierda y Derecha»


def fails_text(view_or_options: Any, failures: tuple[int, int] | list[int]) -> str:
    options = getattr(view_or_options, "options", view_or_options)
    if options.aces == "three_strikes":
        return t("gd_fails_three", us=failures[0], them=failures[1])
    return t("gd_fails_unlimited", us=failures[0], them=failures[1])


# ---------------------------------------------------------------- widgets
class LevelBar(Static):
    DEFAULT_CSS = "LevelBar { height: 2; padding: 0 1; background: $boost; }"

    def show(self, view: GuandanView, flash: str = "") -> None:
        out = view.still_out()
        text = Text()
        text.append(t("gd_level_bar", us=rules.rank_name(view.levels[0]), them=rules.rank_name(view.levels[1]),
                      level=rules.rank_name(view.level)), style="bold")
        if flash:
            text.append(f" {flash} ", style="bold green reverse")
        text.append(f" · {fails_text(view, view.a_failures)}")
        text.append("\n")
        text.append(t("gd_out", bj=out["BJ"], sj=out["SJ"], wild=out["wild"], level=out["level"]), style="dim")
        self.update(text)


class GuandanSeatPanel(Static):
    DEFAULT_CSS = """
    GuandanSeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    GuandanSeatPanel.to-move { border: round $accent; }
    GuandanSeatPanel.partner { border: round $success-darken-1; }
    GuandanSeatPanel.partner.to-move { border: round $accent; }
    """

    def show_seat(self, view: GuandanView, seat: int, style: str, one_line: bool = False) -> None:
        self.border_title = seat_name(seat)
        self.set_class(view.to_move == seat, "to-move")
        self.set_class(seat == partner(HUMAN), "partner")
        text = Text(card_count(view.counts[seat]), style="bold" if 0 < view.counts[seat] <= 6 else "")
        if seat in view.finish:
            text.append(f" · {place_name(view.finish.index(seat))}", style="bold green")
        action = view.actions[seat]
        text.append("   " if one_line else "\n")
        if isinstance(action, Play):
            text.append_text(cards_text(action.cards, style, sep=""))
        elif isinstance(action, Pass):
            text.append(t("gd_passed"), style="dim italic")
        self.update(text)


class TableView(Static):
    """The middle of the table: the play to beat, or who won the last trick, or the tribute panel (who
    pays whom, which card, who returns what) until the first lead; the turn in the last line."""

    DEFAULT_CSS = """
    TableView { height: 100%; content-align: center middle; text-align: center;
                border: round $panel-lighten-1; }
    TableView.tribute { border: round $warning; text-align: left; }
    """

    def show_table(self, view: GuandanView, style: str, status: str) -> None:
        tribute = self.tribute_panel(view, style)
        self.set_class(tribute is not None, "tribute")
        self.border_title = t("gd_tribute_title") if tribute is not None else ""
        text = Text()
        if tribute is not None:
            text.append_text(tribute)
        elif view.top is not None:
            text.append(f"{seat_name(view.top.seat)}: ", style="bold")
            text.append(combo_name(view.top.combo))
            text.append("\n")
            text.append_text(cards_text(view.top.cards, style))
            if view.top.combo.wilds_as:
                text.append("  ")
                text.append(t("gd_as", cards=" ".join(card_label(c, style) for c in view.top.combo.wilds_as)),
                            style="italic")
            text.append("\n")
        elif view.last_winner is not None and not view.trick:
            winner = view.last_winner
            text.append(t("gd_trick_you") if winner == HUMAN else t("gd_trick_won", name=seat_name(winner)),
                        style="bold green" if winner % 2 == HUMAN % 2 else "bold")
            text.append("\n")
            text.append(t("gd_review"), style="dim")
            text.append("\n")
        mine = view.actions[HUMAN]
        if tribute is None and isinstance(mine, Pass):
            text.append(f"{seat_name(HUMAN)}: {t('gd_passed')}\n", style="dim")
        elif tribute is None and isinstance(mine, Play) and (view.top is None or view.top.seat != HUMAN):
            text.append(f"{seat_name(HUMAN)}: ", style="dim")
            text.append_text(cards_text(mine.cards, style, sep=""))
            text.append("\n")
        text.append(status, style="bold")
        self.update(text)

    @staticmethod
    def tribute_panel(view: GuandanView, style: str) -> Text | None:
        """Shown from the deal until the first lead of a hand that has a tribute (or an anti-tribute)."""
        if view.tribute == "none" or view.plays or view.phase == "over":
            return None
        if view.tribute == "anti":
            return Text(anti_text(view.anti_holders) + "\n", style="yellow")
        text = Text()
        for kind, giver, receiver, card in view.tribute_moves:
            label = t("gd_tribute_row") if kind == "tribute" else t("gd_return_row")
            text.append(cells.ljust(label, 5), style="yellow")
            text.append(f"{seat_name(giver)} → {seat_name(receiver)}  ")
            text.append_text(card_text(card, style, width=0))
            text.append("\n")
        return text


class ColumnsView(Widget, can_focus=True):
    """Your cards in columns, one per rank (or one per group when sorted by play).

    Any card of a column can be chosen: a suit key (S H D C) takes or puts back the card of that suit,
    a click on a card takes or puts it back. ↑ takes one more card from the top and stops when the
    column is all taken; Space (and a click on the label) follows the source's tap cycle: one more
    card, and once the column is all taken, the next tap empties it."""

    DEFAULT_CSS = "ColumnsView { height: 1fr; width: 100%; }"
    WIDTH = 5

    cursor: reactive[int] = reactive(0)
    revealed: reactive[int] = reactive(99)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.columns: list[list[Card]] = []
        self.chosen: list[set[int]] = []          # per column, the rows taken
        self.lit: set[int] = set()
        self.labels: list[str] = []
        self.style_name = "colour"

    @property
    def taken(self) -> list[int]:
        return [len(rows) for rows in self.chosen]

    def set_columns(self, columns: list[list[Card]], labels: list[str], style: str) -> None:
        if [list(c) for c in columns] != self.columns:
            self.columns = [list(c) for c in columns]
            self.chosen = [set() for _ in columns]
            self.cursor = min(self.cursor, max(0, len(columns) - 1))
        self.labels = labels
        self.style_name = style
        self.refresh()

    def selection(self) -> list[Card]:
        return [column[row] for column, rows in zip(self.columns, self.chosen) for row in sorted(rows)]

    def select(self, cards: list[Card]) -> None:
        """Take exactly ``cards`` (a hint or a recommended return), wherever they sit in their columns."""
        wanted = Counter(cards)
        self.chosen = [set() for _ in self.columns]
        for i, column in enumerate(self.columns):
            for row, card in enumerate(column):
                if wanted[card] > 0:
                    wanted[card] -= 1
                    self.chosen[i].add(row)
        if any(self.chosen) and not self.chosen[self.cursor]:
            self.cursor = next(i for i, rows in enumerate(self.chosen) if rows)
        self.refresh()

    def take(self, index: int | None = None) -> bool:
        """One more card of the column, from the top. False when the column is all taken."""
        i = self.cursor if index is None else index
        if not self.columns:
            return False
        free = [row for row in range(len(self.columns[i])) if row not in self.chosen[i]]
        if not free:
            return False
        self.chosen[i].add(free[0])
        self.refresh()
        return True

    def press(self, index: int | None = None) -> None:
        """The tap cycle: one more card; once the column is all taken, empty it."""
        i = self.cursor if index is None else index
        if self.columns and not self.take(i):
            self.chosen[i] = set()
            self.refresh()

    def put_back(self) -> bool:
        if self.columns and self.chosen[self.cursor]:
            self.chosen[self.cursor].discard(max(self.chosen[self.cursor]))
            self.refresh()
            return True
        return False

    def toggle(self, index: int, row: int) -> None:
        """Take the card at ``row`` of column ``index``, or put it back."""
        self.chosen[index] ^= {row}
        self.refresh()

    def take_suit(self, suit: str) -> bool:
        """Take the next card of ``suit`` in the current column; when every one is taken, put them back."""
        if not self.columns:
            return False
        column, rows = self.columns[self.cursor], self.chosen[self.cursor]
        of_suit = [row for row, card in enumerate(column) if card.suit == suit]
        if not of_suit:
            return False
        free = [row for row in of_suit if row not in rows]
        if free:
            rows.add(free[0])
        else:
            rows.difference_update(of_suit)
        self.refresh()
        return True

    def clear(self) -> None:
        self.chosen = [set() for _ in self.columns]
        self.refresh()

    # -- layout: the space the hand gets decides the width of a column and the height of a card
    def _width(self) -> int:
        if not self.columns:
            return self.WIDTH
        return max(self.WIDTH, min(7, self.size.width // len(self.columns)))

    def _card_rows(self) -> int:
        height = max((len(c) for c in self.columns), default=0)
        return 2 if self.size.height >= 2 * height + 2 else 1

    def _offset(self) -> int:
        return max(0, (self.size.width - self._width() * len(self.columns)) // 2)

    def render(self) -> Text:
        if not self.columns:
            return Text("")
        width, card_rows = self._width(), self._card_rows()
        height = max(len(c) for c in self.columns)
        # The cursor row (▲) only when it fits: the label of the current column is marked anyway.
        marker_row = self.size.height >= height * card_rows + 2 or self.size.height == 0
        pad = " " * self._offset()
        lines = [Text(pad) for _ in range(height * card_rows + 1 + (1 if marker_row else 0))]
        shown = 0
        for i, column in enumerate(self.columns):
            lit = not self.lit or i in self.lit
            current = i == self.cursor and self.has_focus
            label = f"{len(self.chosen[i])}/{len(column)}" if self.chosen[i] else self.labels[i]
            if current and not marker_row:
                label = f"▸{label}"
            lines[0].append(cells.center(label, width), style=("reverse " if current else "") + ("bold" if lit else "grey42"))
            for row in range(height):
                top = row * card_rows + 1
                if row < len(column) and shown < self.revealed:
                    shown += 1
                    card = column[row]
                    taken = row in self.chosen[i]
                    cell = card_text(card, self.style_name, dim=not lit and not taken, selected=taken, width=3)
                    spare = max(0, width - cell.cell_len)       # a joker's «大王» takes 4 cells
                    lines[top].append(" " * (spare // 2))
                    lines[top].append_text(cell)
                    lines[top].append(" " * (spare - spare // 2))
                    if card_rows == 2:
                        edge = "───" if row + 1 < len(column) else "   "
                        lines[top + 1].append(edge.center(width), style="grey35")
                else:
                    for extra in range(card_rows):
                        lines[top + extra].append(" " * width)
            if marker_row:
                marker = (MARKER_ASCII if self.style_name == "ascii" else MARKER) if i == self.cursor else " "
                lines[-1].append(marker.center(width), style="bold")
        return Text("\n").join(lines)

    def _hit(self, event: events.Click) -> tuple[int, int | None] | None:
        """(column, row of the card or None for the label) under a click."""
        index = (event.x - self._offset()) // self._width()
        if not 0 <= index < len(self.columns) or event.x < self._offset():
            return None
        if event.y == 0:
            return index, None
        row = (event.y - 1) // self._card_rows()
        return (index, row) if 0 <= row < len(self.columns[index]) else (index, None)

    def on_click(self, event: events.Click) -> None:
        hit = self._hit(event)
        if hit is None:
            return
        index, row = hit
        self.cursor = index
        if row is None:
            self.press(index)
        else:
            self.toggle(index, row)
        self.screen.selection_changed()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


# ---------------------------------------------------------------- modal screens
class GuandanSetup(SetupDialog):
    """The start: the objective, a card with the five key rules, the Aces option."""

    TITLE_KEY = "gd_setup"
    START_KEY = "gd_start"
    DEFAULT_CSS = """
    GuandanSetup .dialog { width: 78; }
    GuandanSetup #gd-rules { border: round $primary; padding: 0 1; }
    """

    def fields(self):
        yield Static(t("gd_objective"))
        yield Static(t("gd_key_rules"), id="gd-rules")
        yield radio_row("gd_aces", "gd-aces", (("gd_aces_unlimited", "unlimited", True),
                                               ("gd_aces_three", "three_strikes", False)))

    def options(self) -> GuandanOptions:
        return GuandanOptions(aces=self.choice("gd-aces", "unlimited"))


class ChooserScreen(AnswerOnce):
    """The readings of a selection with wilds, strongest first (marked ★). Its own footer names its
    own keys (the table's keys do not apply while it is open)."""

    BINDINGS = [Binding("enter", "choose", "gd_choose", priority=True), Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = "ChooserScreen { align: center top; } ChooserScreen .dialog { width: 60; margin-top: 6; }"

    def __init__(self, readings: list[Combo], style: str) -> None:
        super().__init__()
        self.readings = readings
        self.style_name = style

    def compose(self) -> ComposeResult:
        options = []
        for i, combo in enumerate(self.readings):
            line = Text(f"{i + 1}. {combo_name(combo)}")
            if combo.wilds_as:
                line.append("  " + t("gd_as", cards=" ".join(card_label(c, self.style_name) for c in combo.wilds_as)),
                            style="italic")
            if i == 0:
                line.append("  ★", style="bold yellow")
            options.append(Option(line, id=str(i)))
        with Vertical(classes="dialog"):
            yield Label(t("gd_choose_title"), classes="dialog-title")
            yield OptionList(*options, id="gd-readings")
        yield Footer()

    def on_mount(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)
        self.query_one(OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.readings):
                event.stop()
                self.dismiss(index)

    def action_choose(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        self.dismiss(0 if highlighted is None else highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)


def rise_text(record: dict) -> Text:
    """What a hand_end record means for the levels: «Us +2», «We pass the Aces!», «Them: no rise»."""
    us = record["winner_team"] == 0
    if record.get("match_won"):
        rise = t("gd_pass_aces_us") if us else t("gd_pass_aces_them")
    elif record["level_up"]:
        rise = t("gd_rise", team=t("gd_us") if us else t("gd_them"), n=record["level_up"])
    else:
        rise = t("gd_no_rise_us") if us else t("gd_no_rise_them")
    return Text(rise, style="bold green" if us else "bold red")


class GuandanSummary(HandEndDialog):
    """The places and the levels after a hand."""

    DEFAULT_CSS = "GuandanSummary .dialog { width: 60; }"

    def __init__(self, record: dict, match_over: bool, options: GuandanOptions | None = None) -> None:
        super().__init__(t("gd_summary", hand=record["hand"]), match_over)
        self.record = record
        self.options = options or GuandanOptions()

    def body(self):
        record = self.record
        table = Table(expand=False, pad_edge=False)
        table.add_column(t("gd_places"))
        table.add_column("")
        finish = record["finish"]
        out = min(finish.index(partner(finish[0])) + 1, 3)     # players out when the hand ended
        for index, seat in enumerate(finish):
            table.add_row(place_name(index if index < out else 3), seat_name(seat))
        yield Static(table)
        yield Label(rise_text(record))
        yield Label(t("gd_levels_now", us=record["levels"][0], them=record["levels"][1]))
        if self.options.aces == "three_strikes":        # (the compulsory rule says «tournament» in the line)
            yield Label(t("gd_aces_rule_three"))
        yield Label(fails_text(self.options, record["a_failures"]))


class GuandanMatchEnd(MatchEndDialog):
    DEFAULT_CSS = "GuandanMatchEnd .dialog { width: 56; }"

    def body(self):
        us = self.record["winner_team"] == 0
        yield Label(Text(t("gd_match_us") if us else t("gd_match_them"), style="bold green" if us else "bold red"))


def last_trick_dialog(view: GuandanView, style: str) -> LastTrickDialog:
    """The last closed trick: each seat's play or pass in order, then who won it."""
    if not view.last_trick:
        return LastTrickDialog([], None)
    lines = []
    for seat, move in view.last_trick:
        line = Text(f"{seat_name(seat)}: ", style="bold")
        if isinstance(move, Play):
            combo = next((c for c in rules.classify(move.cards, view.level, view.options.straight_flush_as_straight)
                          if c.type == move.type and c.key == move.key), None)
            if combo is not None:
                line.append(combo_name(combo) + "  ")
            line.append_text(cards_text(move.cards, style, sep=""))
        else:
            line.append(t("gd_passed"), style="dim italic")
        lines.append(line)
    winner = view.last_winner
    return LastTrickDialog(lines, t("gd_trick_you") if winner == HUMAN else t("gd_trick_won", name=seat_name(winner)))


class PlayControl(Static):
    """The play control: names exactly what is selected («⏎ Pair of 9s», «⏎ Play (2 readings)», «⏎ Not a
    play»); Enter or a click plays it."""

    DEFAULT_CSS = """
    PlayControl { width: auto; max-width: 50%; height: 1; padding: 0 1; background: $panel; color: $text-muted; }
    PlayControl.ready { background: $success-darken-2; color: $text; text-style: bold; }
    """

    def show(self, label: str, ready: bool) -> None:
        self.label = label
        self.set_class(ready, "ready")
        self.update(Text(f"⏎ {label}"))

    def on_click(self) -> None:
        self.screen.action_play()


# ---------------------------------------------------------------- the table
class GuandanScreen(GameScreen):
    BINDINGS = [
        Binding("left", "cursor(-1)", "move_left", show=False),
        Binding("right", "cursor(1)", "move_right", show=False),
        Binding("home", "cursor_to(0)", "gd_first_column", show=False),
        Binding("end", "cursor_to(-1)", "gd_last_column", show=False),
        Binding("up", "take", "gd_take", show=False),
        Binding("space", "tap", "gd_tap", show=False),
        Binding("down", "put_back", "gd_put_back", show=False),
        Binding("S", "suit('S')", "gd_suit_S", show=False),
        Binding("H", "suit('H')", "gd_suit_H", show=False),
        Binding("D", "suit('D')", "gd_suit_D", show=False),
        Binding("C", "suit('C')", "gd_suit_C", show=False),
        Binding("enter", "play", "gd_play"),
        Binding("p", "pass", "gd_pass"),
        Binding("h", "hint", "gd_hint"),
        Binding("x,backspace", "clear", "gd_clear"),
        Binding("s", "sort", "gd_sort"),
        Binding("l", "last_trick", "last_trick", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("escape", "continue_later", "continue_later"),
        Binding("question_mark", "app.help", "help"),
    ]
    DEFAULT_CSS = """
    GuandanScreen #gd-top { height: 3; }
    GuandanScreen #gd-north { width: 1fr; }
    GuandanScreen #gd-middle { height: 6; }
    GuandanScreen #gd-west, GuandanScreen #gd-east { width: 22; }
    GuandanScreen #gd-table { width: 1fr; }
    GuandanScreen #gd-bottom { height: 1; }
    GuandanScreen #gd-status { height: 1; width: 1fr; padding: 0 1; }
    """

    TITLE_KEY = "gd_title"
    STATUS_ID = "gd-status"
    DEAL_STEP = 0.03
    RESULTS_PAUSE = 1.2     # seconds the «+N» shows alone before the summary (any key cuts it short)

    @classmethod
    def setup_screen(cls) -> GuandanSetup:
        return GuandanSetup()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sort_by_play = False
        self.hint_index = -1
        self._hints: tuple[int, list[tuple[list[Card], str]]] | None = None
        self.flash = ""
        self._chooser_open = False
        self._results_timer: Any = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield LevelBar(id="gd-level")
        with Horizontal(id="gd-top"):
            yield GuandanSeatPanel(id="gd-north")
        with Horizontal(id="gd-middle"):
            yield GuandanSeatPanel(id="gd-west")
            yield TableView(id="gd-table")
            yield GuandanSeatPanel(id="gd-east")
        yield ColumnsView(id="gd-columns")
        with Horizontal(id="gd-bottom"):
            yield PlayControl(id="gd-play")
            yield Static(id="gd-status")
        yield AdviceLine(id="advice")
        yield Footer(show_command_palette=False)

    @property
    def columns(self) -> ColumnsView:
        return self.query_one(ColumnsView)

    def hand_widget(self) -> ColumnsView:
        return self.columns

    def on_resize(self, event: events.Resize) -> None:
        """Use the room of a tall terminal: taller seat panels and middle (the hand grows by itself)."""
        tall = event.size.height >= 34
        self.query_one("#gd-top").styles.height = 4 if tall else 3
        self.query_one("#gd-middle").styles.height = 8 if tall else 6
        self.refresh_table()

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not self._chooser_open

    def results_pause(self) -> float:
        return self.RESULTS_PAUSE if self.app.settings.cpu_delay > 0 else 0.0

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        if seat == HUMAN:
            self.hint_index = -1
        ended = [r for r in records if r["type"] == "hand_end"]
        for record in ended:
            self.flash = t("gd_level_up", n=record["level_up"]) if record["level_up"] else ""
        pause = self.results_pause() if ended else 0.0
        if pause <= 0:
            super().after_move(seat, move, records)
            return
        # The «+N» first, alone on the level bar; the summary after a pause (or at the next key).
        for record in records:
            if record["type"] == "hand_end":
                self.pending_results = record
            elif record["type"] == "match_end":
                self.pending_match_end = record
        self.refresh_table()
        self._results_timer = self.set_timer(pause, self._results_now)

    def _results_now(self) -> None:
        if self._results_timer is not None:
            self._results_timer.stop()
            self._results_timer = None
            self.show_results()

    def on_key(self, event: events.Key) -> None:
        if self._results_timer is not None:
            self._results_now()
            event.stop()
            event.prevent_default()
            return
        super().on_key(event)

    def advance(self) -> None:
        if self.dealing:
            return
        if (self.pending_results is None and self.pending_match_end is None and self.match.to_move() == HUMAN
                and self.match.phase == "tribute"):
            self._prepare_tribute()
            return
        super().advance()

    def _prepare_tribute(self) -> None:
        legal = self.match.legal_moves()
        if isinstance(legal[0], Tribute):
            receiver = self.match.receiver_of[HUMAN]
            if len(legal) == 1:
                self.notify(t("gd_tribute_you_pay", name=seat_name(receiver)))
                self.play(legal[0], HUMAN)
                return
            self.columns.select([legal[0].card])
            self.set_status(t("gd_tribute_pick", card=card_label(legal[0].card, self.style_name)))
        else:
            self.columns.select([recommended_return(self.match.view(HUMAN)).card])
            self.set_status(t("gd_return_you"))

    def results_dialog(self, record: dict) -> GuandanSummary:
        return GuandanSummary(record, self.pending_match_end is not None, self.match.options)

    def match_end_dialog(self, record: dict) -> GuandanMatchEnd:
        return GuandanMatchEnd(record)

    def new_hand_started(self) -> None:
        self.flash = ""
        super().new_hand_started()

    # -- rendering
    def _column_groups(self, view: GuandanView) -> tuple[list[list[Card]], list[str]]:
        if self.sort_by_play:
            groups = decompose(list(view.hand), view.level)
            groups.sort(key=lambda g: (g[0] in rules.BOMB_TYPES, min(rules.card_value(c, view.level) for c in g[1])))
            return [g[1] for g in groups], [t(f"gd_short_{g[0]}") for g in groups]
        columns: dict[int, list[Card]] = {}
        for card in view.hand:
            columns.setdefault(rules.card_value(card, view.level), []).append(card)
        ordered = sorted(columns)
        return [columns[v] for v in ordered], [rank_label(columns[v][0].rank) for v in ordered]

    def refresh_table(self) -> None:
        if not self.query(ColumnsView):
            return
        view = self.fresh_view()
        style = self.style_name
        self.query_one(LevelBar).show(view, self.flash)
        for seat, widget_id in ((3, "#gd-west"), (2, "#gd-north"), (1, "#gd-east")):
            self.query_one(widget_id, GuandanSeatPanel).show_seat(view, seat, style, one_line=seat == 2)
        columns, labels = self._column_groups(view)
        keep = self.columns.selection() if [list(c) for c in columns] == self.columns.columns else None
        self.columns.set_columns(columns, labels, style)
        if keep:
            self.columns.select(keep)
        self.columns.lit = self._lit_columns(view)
        turn = view.to_move
        if self.dealing:
            message = t("dealing")
        elif turn == HUMAN and view.phase == "play":
            message = t("gd_lead") if view.top is None else t("gd_your_turn")
        elif turn == HUMAN and view.phase == "tribute":
            message = t("gd_your_tribute") if isinstance(view.legal[0], Tribute) else t("gd_your_return")
        elif turn is not None and view.phase == "tribute":
            # Before the first lead the seat to move pays the tribute or returns a card, not plays.
            payers = 2 if view.tribute == "double" else 1
            paid = sum(1 for kind, *_ in view.tribute_moves if kind == "tribute")
            message = t("gd_pays", name=seat_name(turn)) if paid < payers else t("gd_returns", name=seat_name(turn))
        elif turn is not None:
            message = t("gd_to_play", name=seat_name(turn))
        else:
            message = ""
        self.query_one(TableView).show_table(view, style, message)
        self.sub_title = f"{t('gd_summary', hand=view.hand_number)} · " + t(
            "gd_level_bar", us=rules.rank_name(view.levels[0]), them=rules.rank_name(view.levels[1]),
            level=rules.rank_name(view.level))
        self.selection_changed(refresh=False)
        self._label_enter(view)
        self.refresh_bindings()

    def _label_enter(self, view: GuandanView) -> None:
        """The play control (Enter in the footer) names exactly the selection: «Pair of 9s», «Straight
        5–9», «2 readings»; «Not a play»; during the tribute «Return» (or «Pay tribute»)."""
        label = t("gd_play")
        if view.phase == "tribute" and view.to_move == HUMAN:
            label = t("gd_return") if isinstance(view.legal[0], Return) else t("gd_tribute")
        elif view.to_move == HUMAN and self.columns.selection():
            readings = self._readings()
            beating = self._beating_readings()
            if len(beating) == 1:
                label = combo_name(beating[0])
            elif len(beating) > 1:
                label = t("gd_n_readings", n=len(beating))
            elif readings:
                label = combo_name(readings[0])
            else:
                label = t("gd_not_a_play")
        self.query_one(PlayControl).show(label, ready=label != t("gd_play") and bool(self._beating_readings())
                                         or view.phase == "tribute" and view.to_move == HUMAN)

    def _readings(self) -> list[Combo]:
        cards = self.columns.selection()
        if not cards:
            return []
        view = self.human_view()
        return rules.classify(cards, view.level, view.options.straight_flush_as_straight)

    def _beating_readings(self) -> list[Combo]:
        view = self.human_view()
        top = view.top.combo if view.top else None
        return [c for c in self._readings() if rules.beats(c, top, view.level)]

    def _lit_columns(self, view: GuandanView) -> set[int]:
        """When answering, the columns holding a card of some legal play that beats the table."""
        if view.to_move != HUMAN or view.top is None or view.phase != "play":
            return set()
        cards = rules.usable_cards(view.hand, view.level, view.top.combo, view.options.straight_flush_as_straight)
        lit = {i for i, column in enumerate(self.columns.columns) if any(c in cards for c in column)}
        return lit or {-1}

    def selection_changed(self, refresh: bool = True) -> None:
        """Name the selection in the status line and on the play control, or say why it is not a play."""
        self.set_status(self._describe_selection())
        if refresh:
            self._label_enter(self.human_view())
            self.refresh_bindings()

    def _describe_selection(self) -> str:
        view = self.human_view()
        if view.to_move == HUMAN and view.phase == "tribute":
            return self.status
        cards = self.columns.selection()
        if not cards:
            if view.to_move != HUMAN:
                return ""
            if view.top is not None and not any(isinstance(m, Play) for m in view.legal):
                return t("gd_no_hint")
            return t("gd_nothing")
        readings = self._readings()
        if not readings:
            return t("gd_not_a_play")
        beating = self._beating_readings()
        if not beating:
            return t("gd_does_not_beat", play=combo_name(readings[0]))
        if len(beating) > 1:
            return " / ".join(combo_name(c) for c in beating) + " — " + t("gd_readings", n=len(beating))
        combo = beating[0]                  # the play control names it; the status adds what wilds stand for
        if combo.wilds_as:
            return t("gd_as", cards=" ".join(card_label(c, self.style_name) for c in combo.wilds_as))
        return ""

    # -- actions
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        view = self.human_view()
        mine = view.to_move == HUMAN and not self.dealing
        # Shown dimmed (None), not hidden, while they cannot be used: the footer keeps its place.
        if action in ("play", "hint", "clear", "take", "tap", "put_back", "cursor", "cursor_to", "suit"):
            return True if mine else None
        if action == "pass":
            return True if mine and view.phase == "play" and view.top is not None else None
        return True

    def action_cursor(self, step: int) -> None:
        """← →: no wrap-around at either end."""
        columns = self.columns
        if columns.columns:
            columns.cursor = max(0, min(len(columns.columns) - 1, columns.cursor + step))
            columns.refresh()

    def action_cursor_to(self, index: int) -> None:
        columns = self.columns
        if columns.columns:
            columns.cursor = index % len(columns.columns)
            columns.refresh()

    def action_take(self) -> None:
        """↑: one more card; when the column is all taken it stays so (x or ↓ put cards back)."""
        if not self.columns.take():
            self.set_status(t("gd_all_taken"))
            return
        self.selection_changed()

    def action_tap(self) -> None:
        """Space: the source's tap cycle (one more card; all taken, the next tap empties the column)."""
        self.columns.press()
        self.selection_changed()

    def action_put_back(self) -> None:
        self.columns.put_back()
        self.selection_changed()

    def action_suit(self, suit: str) -> None:
        if self.columns.take_suit(suit):
            self.selection_changed()
        else:
            self.app.bell()

    def action_clear(self) -> None:
        self.columns.clear()
        self.hint_index = -1
        self.selection_changed()

    def action_sort(self) -> None:
        self.sort_by_play = not self.sort_by_play
        self.notify(t("gd_sort_play") if self.sort_by_play else t("gd_sort_rank"))
        self.refresh_table()

    def action_pass(self) -> None:
        if self.play(Pass(), HUMAN):
            self.columns.clear()

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.match.view(HUMAN), self.style_name))

    def hint_thinking(self) -> None:
        self.say_advice(t("hint_thinking"))

    def show_hint(self, hint: Any) -> None:
        self.say_advice(self.hint_text(hint))

    def hint_failed(self) -> None:
        self.say_advice("")

    def move_text(self, move: Any) -> str:
        if isinstance(move, (Tribute, Return)):
            move = move.card
        if isinstance(move, Card):
            return card_label(move, self.style_name)
        if isinstance(move, Pass):
            return t("gd_pass")
        if isinstance(move, Play):
            view = self.match.view(HUMAN)
            combo = next((c for c in rules.classify(move.cards, view.level, view.options.straight_flush_as_straight)
                          if c.type == move.type and c.key == move.key), None)
            return combo_name(combo) if combo is not None else " ".join(card_label(c, self.style_name)
                                                                           for c in move.cards)
        return str(move)

    def hint_cycle(self) -> list[tuple[list[Card], str]]:
        """The hints for this turn, one per press of h, as (cards to select, what the status says).

        Tribute: the card to pay; return: the recommended card. Otherwise the legal plays from the
        cheapest to the dearest (non-bombs before bombs, fewer wilds, lower, smaller). When the partner
        is winning the trick, the first hint is to pass — unless a play takes your last cards."""
        if self._hints is not None and self._hints[0] == len(self.match.moves):
            return self._hints[1]
        view = self.match.view(HUMAN)
        level = view.level
        cycle: list[tuple[list[Card], str]] = []
        legal = list(view.legal)
        if view.phase == "tribute" and legal:
            if isinstance(legal[0], Tribute):
                card = legal[0].card
                cycle = [([card], t("gd_hint_tribute", card=card_label(card, self.style_name)))]
            else:
                card = recommended_return(view).card
                cycle = [([card], t("gd_hint_return", card=card_label(card, self.style_name)))]
        else:
            plays = [m for m in legal if isinstance(m, Play)]

            def combo_of(move: Play) -> Combo:
                return next(c for c in rules.classify(move.cards, level, view.options.straight_flush_as_straight)
                            if c.type == move.type and c.key == move.key)

            def cost(move: Play) -> tuple:
                combo = combo_of(move)
                wilds = sum(1 for c in move.cards if rules.is_wild(c, level))
                return (combo.is_bomb, rules.rung(combo) if combo.is_bomb else 0, wilds, rules.strength(combo, level),
                        len(move.cards), rules.TYPES.index(combo.type))

            plays.sort(key=cost)
            partner_winning = view.top is not None and view.top.seat == partner(HUMAN)
            if partner_winning:
                out = [p for p in plays if len(p.cards) == len(view.hand)]
                cycle = [(list(p.cards), t("gd_hint_out", play=combo_name(combo_of(p)))) for p in out]
                cycle.append(([], t("gd_hint_partner")))
                cycle += [(list(p.cards), t("gd_over_partner", play=combo_name(combo_of(p))))
                          for p in plays if p not in out]
            else:
                cycle = [(list(p.cards), "") for p in plays]
        self._hints = (len(self.match.moves), cycle)
        return cycle

    def action_hint(self) -> None:
        """Propose plays from the cheapest to the dearest, one per press (the first press included);
        the first press also asks the `hard` search (in a worker) what it would play: its answer and why
        go to the line under the table, without touching the selection."""
        self.request_hint()
        cycle = self.hint_cycle()
        if not cycle:
            self.columns.clear()
            self.set_status(t("gd_no_hint"))
            self._label_enter(self.human_view())
            self.refresh_bindings()
            return
        self.hint_index = (self.hint_index + 1) % len(cycle)
        cards, message = cycle[self.hint_index]
        if cards:
            self.columns.select(cards)
        else:
            self.columns.clear()
        self.selection_changed()
        if message:
            self.set_status(message)

    def action_play(self) -> None:
        if self.match.to_move() != HUMAN:
            return
        cards = self.columns.selection()
        if self.match.phase == "tribute":
            legal = self.match.legal_moves()
            kind = type(legal[0])
            if len(cards) == 1 and kind(cards[0]) in legal:
                self.play(kind(cards[0]), HUMAN)
                self.columns.clear()
            else:
                self.set_status(t("gd_bad_tribute") if kind is Tribute else t("gd_bad_return"))
            return
        if not cards:
            self.set_status(t("gd_nothing"))
            return
        readings = self._readings()
        beating = self._beating_readings()
        if not beating:
            # Say what is wrong without asking the engine: the selection names itself.
            self.set_status(t("gd_does_not_beat", play=combo_name(readings[0])) if readings else t("gd_not_a_play"))
            self.app.bell()
            return
        if len(beating) > 1:
            self._chooser_open = True
            self.app.push_screen(ChooserScreen(beating, self.style_name),
                                 callback=lambda index: self._chosen(cards, beating, index))
            return
        self._play_cards(cards, beating[0])

    def _chosen(self, cards: list[Card], readings: list[Combo], index: int | None) -> None:
        self._chooser_open = False
        if index is not None:
            self._play_cards(cards, readings[index])
        else:
            self.schedule_cpu()

    def _play_cards(self, cards: list[Card], combo: Combo) -> None:
        if self.play(Play(tuple(cards), combo.type, combo.key), HUMAN):
            self.columns.clear()

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("guandan"))

    def cpu_delay(self, seat: int, move: Any) -> float:
        # Passes come often in Guandan: a short pause keeps the table lively.
        base = super().cpu_delay(seat, move)
        return base / 3 if isinstance(move, Pass) else base
