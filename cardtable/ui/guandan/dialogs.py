"""The Guandan dialogs: setup, the readings chooser, the hand summary, the match end and the last trick."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from cardtable.cards import Card
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.state import GuandanOptions, GuandanView, Play
from cardtable.i18n import t
from cardtable.tricks import partner
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.guandan.text import (
    combo_name,
    combo_of,
    fails_text,
    place_name,
    play_cards,
    rise_text,
    seat_name,
    wild_marks,
)
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.widgets import MenuList


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

    def __init__(self, readings: list[Combo], style: str, cards: Sequence[Card] = (), level: int = 2) -> None:
        super().__init__()
        self.readings = readings
        self.style_name = style
        self.cards = tuple(cards)        # the selection, to mark its wilds («2♥→9») in each reading
        self.level = level

    def compose(self) -> ComposeResult:
        options = []
        for i, combo in enumerate(self.readings):
            line = Text(f"{i + 1}. {combo_name(combo)}")
            if combo.wilds_as and self.cards:
                line.append("  " + wild_marks(self.cards, combo, self.level, self.style_name), style="italic")
            if i == 0:
                line.append("  ★", style="bold yellow")
            options.append(Option(line, id=str(i)))
        with Vertical(classes="dialog"):
            yield Label(t("gd_choose_title"), classes="dialog-title")
            yield MenuList(*options, id="gd-readings")
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
        self.dismiss(int(cast(str, event.option.id)))     # (each reading's option is its index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class GuandanSummary(HandEndDialog):
    """The places and the levels after a hand."""

    DEFAULT_CSS = "GuandanSummary .dialog { width: 60; }"
    name_of: Callable[[int], str] = staticmethod(seat_name)     # a shared table names its people

    def __init__(self, record: dict, match_over: bool, options: GuandanOptions | None = None) -> None:
        super().__init__(t("gd_summary", hand=record["hand"]), match_over)
        self.record = record
        self.options = options or GuandanOptions()

    def body(self):
        record = self.record
        table = Table(expand=False, pad_edge=False)
        table.add_column(t("gd_places"))
        table.add_column(t("gd_player"))
        finish = record["finish"]
        out = min(finish.index(partner(finish[0])) + 1, 3)     # players out when the hand ended
        for index, seat in enumerate(finish):
            table.add_row(place_name(index if index < out else 3), self.name_of(seat))
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
    """The last closed trick: each seat's play or pass in order, then who won it. Before the first trick
    ends, the hand's tribute and return (who paid what to whom), if it had any."""
    from cardtable.ui.guandan.widgets import tribute_text

    if not view.last_trick:
        if view.tribute_moves and view.phase != "over":
            rows = tribute_text(view, style)
            rows.rstrip()
            return LastTrickDialog(list(rows.split("\n")), t("gd_no_last_trick"), t("gd_last_trick"))
        return LastTrickDialog([], None, t("gd_last_trick"), t("gd_no_last_trick"))
    lines = []
    for seat, move in view.last_trick:
        line = Text(t("gd_seat_label", name=seat_name(seat)), style="bold")
        if isinstance(move, Play):
            combo = combo_of(move.cards, move.type, move.key, view.level, view.options.straight_flush_as_straight)
            if combo is not None:
                line.append(combo_name(combo) + "  ")
            line.append_text(play_cards(move.cards, combo, view.level, style, sep=""))
        else:
            line.append(t("gd_passed"), style="dim italic")
        lines.append(line)
    winner = view.last_winner
    return LastTrickDialog(lines, t("gd_trick_you") if winner == HUMAN else t("gd_trick_won", name=seat_name(cast(int, winner))),
                           t("gd_last_trick"))
