"""The Guandan table widgets: the level bar, the seat panels, the table, the hand columns and the play
control."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, cast

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.state import GuandanView, Pass, Play
from cardtable.i18n import card_count, t
from cardtable.tricks import partner
from cardtable.ui import cells
from cardtable.ui.cardart import card_label, card_text
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.guandan.text import (
    anti_text,
    combo_name,
    combo_of,
    fails_text,
    place_name,
    play_cards,
    seat_name,
)
from cardtable.ui.seats import Plate
from cardtable.ui.widgets import MARKER, MARKER_ASCII


# ---------------------------------------------------------------- widgets
class LevelBar(Static):
    DEFAULT_CSS = "LevelBar { height: 2; padding: 0 1; background: $boost; }"

    def show(self, view: GuandanView, flash: str = "", team: int = 0) -> None:
        """The levels (``flash``, the «+3» of a hand just won, beside the team ``team`` that rose), the Aces'
        failures, and the counters of the big cards not yet played."""
        out = view.still_out()
        marks = ("\x01", "\x02")               # where each team's level ends, in the language's own order
        line = t("gd_level_bar", us=rules.rank_name(view.levels[0]) + marks[0],
                 them=rules.rank_name(view.levels[1]) + marks[1], level=rules.rank_name(view.level))
        text = Text()
        for part in re.split("([\x01\x02])", line):
            if part in marks:
                if flash and marks.index(part) == team:
                    text.append(" ")
                    text.append(flash, style="bold green reverse")
            else:
                text.append(part, style="bold")
        text.append(f" · {fails_text(view, view.a_failures)}")
        text.append("\n")
        text.append(t("gd_out", bj=out["BJ"], sj=out["SJ"], wild=out["wild"], level=out["level"]), style="dim")
        self.update(text)


def seat_plate(view: GuandanView, seat: int, style: str, one_line: bool = False) -> Plate:
    """A seat's plate: its count (bold when few cards are left) and place, then what it did last (on one
    line for North)."""
    emphasis = "bold" if 0 < view.counts[seat] <= 6 else ""
    text = Text(card_count(view.counts[seat]), style=emphasis)
    if seat in view.finish:
        text.append(f" · {place_name(view.finish.index(seat))}", style="bold green")
    last = Text(style=emphasis)
    action = view.actions[seat]
    if isinstance(action, Play):
        combo = combo_of(action.cards, action.type, action.key, view.level, view.options.straight_flush_as_straight)
        last.append_text(play_cards(action.cards, combo, view.level, style, sep=""))
    elif isinstance(action, Pass):
        last.append(t("gd_passed"), style="dim italic")
    if one_line:
        text.append("   ")
        text.append_text(last)
        lines = [text]
    else:
        lines = [text, last]
    return Plate(seat_name(seat), lines, to_move=view.to_move == seat, partner=seat == partner(HUMAN))


class TableView(Static):
    """The middle of the table: the play to beat, or who won the last trick, or the tribute panel (who
    pays whom, which card, who returns what) until the first lead; the turn in the last line."""

    DEFAULT_CSS = """
    TableView { height: 100%; content-align: center middle; text-align: center;
                border: round $table-border; }
    TableView.tribute { border: round $warning; text-align: left; }
    """

    def show_table(self, view: GuandanView, style: str, status: str) -> None:
        tribute = self.tribute_panel(view, style)
        self.set_class(tribute is not None, "tribute")
        self.border_title = t("gd_tribute_title") if tribute is not None else ""
        self.border_subtitle = ""
        if tribute is None and view.plays and not view.last_trick and view.tribute_moves:
            # Until the first trick ends the border keeps who paid what and what came back (l: in full).
            paid, back = tribute_rows(view, style, "tribute"), tribute_rows(view, style, "return")
            self.border_title = t("gd_seat_label", name=t("gd_tribute_row")) + " · ".join(paid) if paid else ""
            self.border_subtitle = t("gd_seat_label", name=t("gd_return_row")) + " · ".join(back) if back else ""
        text = Text()
        if tribute is not None:
            text.append_text(tribute)
        elif view.top is not None:
            text.append(t("gd_seat_label", name=seat_name(view.top.seat)), style="bold")
            text.append(combo_name(view.top.combo))
            text.append("\n")
            text.append_text(play_cards(view.top.cards, view.top.combo, view.level, style))
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
            text.append(t("gd_seat_label", name=seat_name(HUMAN)) + t("gd_passed") + "\n", style="dim")
        elif tribute is None and isinstance(mine, Play) and (view.top is None or view.top.seat != HUMAN):
            text.append(t("gd_seat_label", name=seat_name(HUMAN)), style="dim")
            combo = combo_of(mine.cards, mine.type, mine.key, view.level, view.options.straight_flush_as_straight)
            text.append_text(play_cards(mine.cards, combo, view.level, style, sep=""))
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
        return tribute_text(view, style)


def tribute_rows(view: GuandanView, style: str, kind: str) -> list[str]:
    """«Right→You BJ» for each tribute (or return) made so far."""
    return [f"{seat_name(giver)}→{seat_name(receiver)} {card_label(card, style)}"
            for made, giver, receiver, card in view.tribute_moves if made == kind and card is not None]


def tribute_text(view: GuandanView, style: str) -> Text:
    """One line per tribute and return: «Tribute Right → You BJ» (no columns: at 80 columns the table has
    34 cells, and «Devolución Izquierda → Compañero» needs them all)."""
    labels = {"tribute": t("gd_tribute_row"), "return": t("gd_return_row")}
    text = Text()
    for kind, giver, receiver, card in view.tribute_moves:
        text.append(labels[kind] + " ", style="yellow")
        text.append(f"{seat_name(giver)} → {seat_name(receiver)} ")
        text.append_text(card_text(cast(Card, card), style, width=0))     # (a card once made)
        text.append("\n")
    return text


class ColumnsView(Widget, can_focus=True):
    """Your cards in columns, one per rank (or one per group when sorted by play).

    Any card of a column can be chosen: a suit key (S H D C) takes or puts back the card of that suit,
    a click on a card takes or puts it back. ↑ takes one more card from the top and stops when the
    column is all taken; Space (and a click on the label) follows the source's tap cycle: one more
    card, and once the column is all taken, the next tap empties it. A click posts
    ``ColumnsView.SelectionChanged`` for the table to name the new selection."""

    class SelectionChanged(Message):
        """A click changed which cards are taken."""

        def __init__(self, columns: ColumnsView) -> None:
            super().__init__()
            self.columns = columns

        @property
        def control(self) -> ColumnsView:
            return self.columns

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
            lines[0].append(self._label_cell(label, column[0], width),
                            style=("reverse " if current else "") + ("bold" if lit else "grey42"))
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

    def _label_cell(self, label: str, card: Card, width: int) -> str:
        """A rank label sits over the rank of its cards (a «10», a wide «小王» too); other labels centred."""
        face = card_label(card, self.style_name)
        if label == face:                                   # a joker: the label is the whole card
            shape = cells.rjust(label, 3)
        elif label == face[:-1]:                            # a rank: a blank where the suit is
            shape = cells.rjust(label + " ", 3)
        else:
            return cells.center(label, width)
        spare = max(0, width - cell_len(shape))
        return " " * (spare // 2) + shape + " " * (spare - spare // 2)

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
        self.post_message(self.SelectionChanged(self))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class PlayControl(Static):
    """The play control: names exactly what is selected («⏎ Pair of 9s», «⏎ Play (2 readings)», «⏎ Not a
    play»); Enter or a click plays it (a click posts ``PlayControl.Pressed``)."""

    class Pressed(Message):
        """A click on the play control."""

        def __init__(self, control: PlayControl) -> None:
            super().__init__()
            self.play_control = control

        @property
        def control(self) -> PlayControl:
            return self.play_control

    DEFAULT_CSS = """
    PlayControl { width: auto; max-width: 50%; height: 1; padding: 0 1; background: $panel; color: $text-muted; }
    PlayControl.ready { background: $success-darken-2; color: $text; text-style: bold; }
    """

    def show(self, label: str, ready: bool) -> None:
        self.label = label
        self.set_class(ready, "ready")
        self.update(Text(f"⏎ {label}"))

    def on_click(self) -> None:
        self.post_message(self.Pressed(self))
