"""The Guiñote table: setup, pinta and stock, cantes and the 7 exchange (pre-armable), arrastre,
claims in a hand de vueltas, the end-of-hand summary and the match end.

Modules: text (words), widgets (the table's pieces), dialogs, screen (GuinoteScreen).

This package's UI strings are in cardtable/locales/<lang>.toml (en, es, zh)."""

from cardtable.ui.guinote.dialogs import (
    ClaimScreen,
    ExchangeScreen,
    GuinoteSetup,
    MatchEndScreen,
    SummaryScreen,
    last_trick_dialog,
    summary_rows,
)
from cardtable.ui.guinote.screen import GuinoteScreen
from cardtable.ui.guinote.text import (
    RANK_NAMES,
    SUITS,
    cante_sentence,
    cantes_text,
    card_name,
    exchange_block_reason,
    exchange_news,
    exchanged,
    seat_name,
    suit_name,
    suit_text,
    taken_by,
    the_card,
)
from cardtable.ui.guinote.widgets import TablePanel, seat_plate, show_trick

__all__ = [
    "RANK_NAMES",
    "SUITS",
    "ClaimScreen",
    "ExchangeScreen",
    "GuinoteScreen",
    "GuinoteSetup",
    "MatchEndScreen",
    "SummaryScreen",
    "TablePanel",
    "cante_sentence",
    "cantes_text",
    "card_name",
    "exchange_block_reason",
    "exchange_news",
    "exchanged",
    "last_trick_dialog",
    "seat_name",
    "seat_plate",
    "show_trick",
    "suit_name",
    "suit_text",
    "summary_rows",
    "taken_by",
    "the_card",
]
