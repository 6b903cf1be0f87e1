"""The Guiñote table widgets: the seat panels, the table panel (pinta and stock) and the trick."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from cardtable.games.guinote import rules
from cardtable.games.guinote.state import GuinoteView
from cardtable.i18n import card_count, t
from cardtable.ui.cardart import spanish_text
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.guinote.text import (
    cantes_text,
    card_name,
    exchanged,
    seat_name,
    suit_text,
    taken_by,
)
from cardtable.ui.seats import Plate
from cardtable.ui.widgets import TrickView


# ---------------------------------------------------------------- widgets
def seat_plate(view: GuinoteView, seat: int, count: int, revealed: bool) -> Plate:
    """A seat's plate: its count and tricks won, its cantes, the pinta if it took it."""
    first = Text(card_count(count))
    won = sum(1 for w in view.winners if w == seat)
    if won:
        first.append(f" · {won} ✓")
    lines = [first]
    sung = cantes_text(view, seat, revealed)
    if sung:
        lines.append(sung)
    if view.pinta_taker == seat:
        lines.append(Text(f"{t('gn_pinta')} ✓", style="dim"))
    return Plate(seat_name(seat), lines, to_move=view.to_move == seat, partner=seat == 2)


class TablePanel(Static):
    """The pinta by the stock, the trump suit and the count of cards left."""

    DEFAULT_CSS = "TablePanel { border: round $warning-darken-2; padding: 0 1; height: 100%; width: 30; }"

    def show_table(self, view: GuinoteView, style: str, armed: bool) -> None:
        self.border_title = t("gn_pinta")
        body = Text()
        body.append_text(spanish_text(view.pinta, style, width=2, dim=view.pinta_taker is not None))
        body.append(f"  {card_name(view.pinta)}\n")
        body.append(t("gn_trump", suit="") )
        body.append_text(suit_text(view.trump))
        # The stock on the bottom border (a line of its own would not fit the panel's three), counted as
        # the rules count it: «15 face-down cards plus the pinta» («stock 15 + pinta»).
        if view.pinta_taker is None and view.stock_count:
            self.border_subtitle = t("gn_stock_pinta", n=view.stock_count - 1)
        else:
            self.border_subtitle = t("gn_stock", n=view.stock_count)
        if view.pinta_taker is not None:
            body.append(f"\n{taken_by(view.pinta_taker)}", style="dim")
        elif view.exchange is not None:
            body.append(f"\n{exchanged(view.exchange[0])}", style="dim")
        elif armed:
            body.append(f"\n{t('gn_exchange_key')} · {t('gn_armed')}", style="bold reverse")
        self.update(body)


def show_trick(widget: TrickView, view: GuinoteView, style: str, status: str, news: list[str] | None = None) -> None:
    """The current trick, or the last one with who took it; then the announcements since that trick
    (cantes, the exchange) and whose turn it is."""
    trick, winner = view.trick, None
    if not trick and view.tricks:
        trick, winner = view.tricks[-1], view.winners[-1]
    cards = dict(trick)
    top = trick[rules.winner_index(trick, view.trump)][0] if trick else None

    def slot(seat: int) -> Text:
        if seat not in cards:
            return Text(" ." if style == "ascii" else " ·", style="grey30")
        return spanish_text(cards[seat], style, selected=seat == top and winner is not None, width=2)

    def name(seat: int) -> str:
        """Seat names; yours carries your own cantes (your plate: the others' are on their panels)."""
        if seat != HUMAN:
            return seat_name(seat)
        mine = cantes_text(view, HUMAN, True)
        return f"{seat_name(seat)} · {mine.plain}" if mine else seat_name(seat)

    taker = None if winner is None else t("gn_you_take") if winner == HUMAN else t("gn_takes", name=seat_name(winner))
    if news:                                        # the latest two fit the cross at 80×24
        width = widget.size.width or 999
        lines: list[Any] = []
        for item in news[-2:]:
            broken = getattr(item, "broken", ())
            lines.extend(broken if broken and cell_len(item) > width else (item,))
        status = "\n".join([*lines, status])
    widget.show_cross(slot, name, left=3, right=1, taker=taker, status=status)
