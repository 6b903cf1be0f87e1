"""How cards look: compact Rich text in the chosen card style (colour, four colours, or ASCII)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from cardtable.cards import Card, SpanishCard
from cardtable.i18n import t
from cardtable.ui import cells

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COLOUR = {"S": "bright_white", "C": "bright_white", "H": "bright_red", "D": "bright_red"}
FOUR_COLOUR = {"S": "bright_white", "H": "bright_red", "D": "bright_blue", "C": "bright_green"}
SPANISH_COLOURS = {"O": "yellow", "C": "bright_red", "E": "bright_blue", "B": "bright_green"}
SPANISH_RANK_LETTERS = {1: "A", 10: "S", 11: "C", 12: "R"}


def card_label(card: Card, style: str = "colour") -> str:
    """Plain text of a French card: ``Q♠`` (or ``QS`` in ASCII mode), ``SJ``/``BJ`` for jokers (``JP``/``JG``
    in Spanish)."""
    if card.is_joker:
        return t("joker_sj") if card.rank == 15 else t("joker_bj")
    rank = card.code[:-1]
    return rank + (card.suit if style == "ascii" else SUIT_SYMBOLS[card.suit])


def card_colour(card: Card, style: str = "colour") -> str:
    if card.is_joker:
        return "bright_magenta" if card.rank == 16 else "magenta"
    return (FOUR_COLOUR if style == "four" else COLOUR)[card.suit]


def card_text(card: Card, style: str = "colour", *, dim: bool = False, selected: bool = False,
              width: int = 3) -> Text:
    """A card as styled text, padded to ``width`` cells."""
    label = cells.rjust(card_label(card, style), width)
    colour = "grey42" if dim else card_colour(card, style)
    return Text(label, style=Style.parse(colour) + Style(bold=not dim, reverse=selected))


def cards_text(cards, style: str = "colour", sep: str = " ") -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(sep)
        text.append_text(card_text(card, style, width=0))
    return text


def spanish_label(card: SpanishCard, style: str = "colour") -> str:
    """The screen's short label: the rank as a capital letter or digit (``A`` As, ``S`` Sota, ``C``
    Caballo, ``R`` Rey), the suit as a small letter (``o c e b``): ``Ce`` is the Caballo de espadas, ``3c``
    the 3 de copas, never mistaken for each other. (The history keeps its own notation, ``11E``.)"""
    return f"{SPANISH_RANK_LETTERS.get(card.rank, str(card.rank))}{card.suit.lower()}"


def spanish_text(card: SpanishCard, style: str = "colour", *, dim: bool = False, selected: bool = False,
                 width: int = 2) -> Text:
    colour = "grey42" if dim else SPANISH_COLOURS[card.suit]
    if style == "ascii":
        colour = "grey42" if dim else "bright_white"
    return Text(cells.rjust(spanish_label(card, style), width), style=Style.parse(colour) + Style(bold=not dim,
                                                                                          reverse=selected))
