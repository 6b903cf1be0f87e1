"""How cards look: compact Rich text in the chosen card style (colour, four colours, or ASCII)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text

from cardtable.cards import Card, SpanishCard
from cardtable.i18n import t
from cardtable.ui import cells

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Each suit has an ink; each ink a colour in the palette of the theme in use.
COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}
FOUR_COLOUR = {"S": "black", "H": "red", "D": "blue", "C": "green"}
SPANISH_COLOURS = {"O": "gold", "C": "red", "E": "blue", "B": "green"}
SPANISH_RANK_LETTERS = {1: "A", 10: "S", 11: "C", 12: "R"}

# On a dark background the terminal's own bright colours. On a light one Textual turns those into its
# light ANSI palette, where «bright white» ♠/♣ are #f7f7f7 on #e0e0e0: light themes get dark inks
# (each at least 4.5:1 against the light themes' backgrounds; tests/test_ui_theme.py measures it).
# A theme may set its own inks with the variables ``card-black``, ``card-red``, … (see :func:`use_theme`).
DARK_INKS = {"black": "bright_white", "red": "bright_red", "blue": "bright_blue", "green": "bright_green",
             "gold": "yellow", "dim": "grey42", "big_joker": "bright_magenta", "small_joker": "magenta"}
LIGHT_INKS = {"black": "#1c1c1c", "red": "#a3001c", "blue": "#0a3fa0", "green": "#0b5d22", "gold": "#694600",
              "dim": "#666666", "big_joker": "#8e0070", "small_joker": "#6a1a80"}
_inks = dict(DARK_INKS)


def use_theme(dark: bool, variables: Mapping[str, str] | None = None) -> None:
    """Draw cards for a dark or a light theme from now on; ``card-<ink>`` theme variables win."""
    _inks.clear()
    _inks.update(DARK_INKS if dark else LIGHT_INKS)
    for ink in list(_inks):
        value = (variables or {}).get(f"card-{ink}")
        if value:
            _inks[ink] = value


def ink(name: str) -> str:
    """The colour of an ink («black», «red», «dim», …) in the current theme."""
    return _inks[name]


def spanish_colour(suit: str) -> str:
    return ink(SPANISH_COLOURS[suit])


def card_label(card: Card, style: str = "colour") -> str:
    """Plain text of a French card: ``Q♠`` (or ``QS`` in ASCII mode), ``SJ``/``BJ`` for jokers (``JP``/``JG``
    in Spanish)."""
    if card.is_joker:
        return t("joker_sj") if card.rank == 15 else t("joker_bj")
    rank = card.code[:-1]
    return rank + (card.suit if style == "ascii" else SUIT_SYMBOLS[card.suit])


def card_colour(card: Card, style: str = "colour") -> str:
    if card.is_joker:
        return ink("big_joker" if card.rank == 16 else "small_joker")
    return ink((FOUR_COLOUR if style == "four" else COLOUR)[card.suit])


def card_text(card: Card, style: str = "colour", *, dim: bool = False, selected: bool = False,
              width: int = 3) -> Text:
    """A card as styled text, padded to ``width`` cells."""
    label = cells.rjust(card_label(card, style), width)
    colour = ink("dim") if dim else card_colour(card, style)
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
    colour = ink("dim") if dim else spanish_colour(card.suit)
    if style == "ascii":
        colour = ink("dim") if dim else ink("black")
    return Text(cells.rjust(spanish_label(card, style), width), style=Style.parse(colour) + Style(bold=not dim,
                                                                                          reverse=selected))
