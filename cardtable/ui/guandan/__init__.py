"""The Guandan table: hand columns with selection, readings chooser, hints, pass, tribute and return,
the level bar with its counters, the hand summary and the match end.

Modules: text (words), widgets (the table's pieces), dialogs, screen (GuandanScreen).

This package's UI strings are in cardtable/locales/<lang>.toml (en, es, zh)."""

from cardtable.ui.guandan.dialogs import (
    ChooserScreen,
    GuandanMatchEnd,
    GuandanSetup,
    GuandanSummary,
    last_trick_dialog,
)
from cardtable.ui.guandan.screen import GuandanScreen
from cardtable.ui.guandan.text import (
    anti_text,
    combo_name,
    fails_text,
    place_name,
    rank_label,
    rise_text,
    seat_name,
)
from cardtable.ui.guandan.widgets import ColumnsView, LevelBar, PlayControl, TableView, seat_plate

__all__ = [
    "ChooserScreen",
    "ColumnsView",
    "GuandanMatchEnd",
    "GuandanScreen",
    "GuandanSetup",
    "GuandanSummary",
    "LevelBar",
    "PlayControl",
    "TableView",
    "anti_text",
    "combo_name",
    "fails_text",
    "last_trick_dialog",
    "place_name",
    "rank_label",
    "rise_text",
    "seat_name",
    "seat_plate",
]
