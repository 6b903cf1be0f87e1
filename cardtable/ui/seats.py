"""One seat plate for every table: the seat's name in the border, then the lines its table gives it
(count, place or total, what it played or took, its cantes…), lit when the seat is to move and tinted for
the human's partner. The lines are the table's: each game builds them from its view (``Plate``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static


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
    SeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    SeatPanel.to-move { border: round $accent; }
    SeatPanel.partner { border: round $success-darken-1; }
    SeatPanel.partner.to-move { border: round $accent; }
    """

    def show_plate(self, plate: Plate) -> None:
        self.border_title = plate.name
        self.set_class(plate.to_move, "to-move")
        self.set_class(plate.partner, "partner")
        self.update(Text("\n").join(plate.lines))
