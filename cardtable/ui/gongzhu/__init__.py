"""The Gong Zhu table: setup, deal, showing panel, tricks, results and the match end.

Modules: text (words), widgets (the table's pieces), dialogs, screen (GongZhuScreen).

This package's UI strings are in cardtable/locales/<lang>.toml (en, es, zh)."""

from cardtable.ui.gongzhu.dialogs import (
    GongZhuMatchEnd,
    GongZhuSetup,
    ResultsScreen,
    ShowPanel,
    last_trick_dialog,
    results_table,
)
from cardtable.ui.gongzhu.screen import GongZhuScreen
from cardtable.ui.gongzhu.text import SUIT_NAMES, card_name, hand_label, hand_points, seat_name, taken_text
from cardtable.ui.gongzhu.widgets import seat_plate, show_trick

__all__ = [
    "SUIT_NAMES",
    "GongZhuMatchEnd",
    "GongZhuScreen",
    "GongZhuSetup",
    "ResultsScreen",
    "ShowPanel",
    "card_name",
    "hand_label",
    "hand_points",
    "last_trick_dialog",
    "results_table",
    "seat_name",
    "seat_plate",
    "show_trick",
    "taken_text",
]
