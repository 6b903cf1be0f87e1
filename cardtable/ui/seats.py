"""One seat plate for every table: the seat's name in the border, then the lines its table gives it
(count, place or total, what it played or took, its cantes…), lit when the seat is to move and tinted for
the human's partner. The lines are the table's: each game builds them from its view (``Plate``).
The frames' colours are theme variables readable on light themes too (``frame_variables``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.color import Color
from textual.theme import Theme
from textual.widgets import Static

# The frames' colours, as theme variables: Textual's own colours on a dark theme; on a light theme the same
# hues darkened until they stand out from the background (#FAFAFA frames on #E0E0E0 were near invisible).
# A theme may set any of them itself.
FRAMES = {"seat-border": "panel-lighten-2", "seat-to-move": "accent", "seat-partner": "success-darken-1",
          "table-border": "panel-lighten-1"}
FRAME_CONTRAST = 3.0      # WCAG's minimum for the parts of a screen one must see (borders, controls)


def luminance(colour: Color) -> float:
    """WCAG relative luminance."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour.rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_on(colour: Color, background: Color, minimum: float = FRAME_CONTRAST) -> Color:
    """``colour``, darkened just enough to reach ``minimum`` contrast with a light ``background``."""
    colour = background + colour            # an alpha colour as it shows on the background
    amount = 0.0
    while contrast(colour.darken(amount), background) < minimum and amount < 1.0:
        amount += 0.05
    return colour.darken(amount)


def frame_variables(theme: Theme) -> dict[str, str]:
    """The frame variables for ``theme`` (the app's theme variable defaults)."""
    system = theme.to_color_system().generate()
    background = Color.parse(system["background"])
    if theme.dark or background.ansi is not None:      # (ansi themes: the terminal's own colours)
        return {name: system[source] for name, source in FRAMES.items()}
    return {name: readable_on(Color.parse(system[source]), background).hex for name, source in FRAMES.items()}


@dataclass(frozen=True)
class Plate:
    """What a seat's plate shows: its name, its lines top to bottom, whether it is to move and whether it
    is the human's partner."""

    name: str
    lines: Sequence[Text]
    to_move: bool = False
    partner: bool = False


class SeatPanel(Static):
    """A seat's plate on any table (see ``Plate``)."""

    DEFAULT_CSS = """
    SeatPanel { border: round $seat-border; padding: 0 1; height: 100%; }
    SeatPanel.to-move { border: round $seat-to-move; }
    SeatPanel.partner { border: round $seat-partner; }
    SeatPanel.partner.to-move { border: round $seat-to-move; }
    """

    def show_plate(self, plate: Plate) -> None:
        self.border_title = plate.name
        self.set_class(plate.to_move, "to-move")
        self.set_class(plate.partner, "partner")
        self.update(Text("\n").join(plate.lines))
