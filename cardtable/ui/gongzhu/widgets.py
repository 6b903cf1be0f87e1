"""The Gong Zhu table widgets: the seat panels and the trick."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuView
from cardtable.i18n import card_count, t
from cardtable.ui.cardart import card_text, cards_text
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.gongzhu.text import hand_points, seat_name, taken_text
from cardtable.ui.numbers import signed
from cardtable.ui.seats import Plate
from cardtable.ui.widgets import TrickView


# ---------------------------------------------------------------- widgets
def seat_plate(view: GongZhuView, seat: int, count: int, style: str, wide: bool = False,
               width: int | None = None) -> Plate:
    """An opponent's plate: card count, total, shown cards, point cards taken and hand points.

    ``wide`` (North, across the top): two lines, the shown cards beside the count and the hand points
    beside the taken cards, so that nothing is cut by the plate's height. ``width``: the plate's inner
    width; a count and total that do not fit it go on two lines («13 cartas» / «total −100»), never with
    the number alone on the second."""
    first = Text()
    first.append(card_count(count))
    total = f"{t('gz_total')} {signed(view.totals[seat], style)}"
    lines = [first]
    if not wide and width is not None and first.cell_len + 2 + cell_len(total) > width:
        lines.append(Text(total, style="bold"))
    else:
        first.append(f"  {total}", style="bold")
    if view.shown[seat]:
        shown = first if wide else Text()
        shown.append(f"{'  ' if wide else ''}{t('gz_shown')}: ")
        shown.append_text(cards_text(view.shown[seat], style))
        if not wide:
            lines.append(shown)
    points = [c for c in view.taken[seat] if c.suit != "H" or rules.heart_value(c)]
    if view.taken[seat]:
        taken = Text(f"{t('gz_taken')}: ")
        taken.append_text(taken_text(points, style))
        lines.append(taken)
        hand = Text(f"{t('gz_hand_points')} {signed(hand_points(view, seat), style)}")
        if wide:
            taken.append("  ")
            taken.append_text(hand)
        else:
            lines.append(hand)
    return Plate(seat_name(seat), lines, to_move=view.to_move == seat and view.phase == "play")


def show_trick(widget: TrickView, view: GongZhuView, style: str, status: str) -> None:
    """The current trick, or the last one with who took it."""
    trick, winner = view.trick, None
    if not trick and view.tricks:
        trick, winner = view.tricks[-1], view.winners[-1]
    cards = dict(trick)
    top = trick[rules.trick_winner_index(trick)][0] if trick else None

    def slot(seat: int) -> Text:
        if seat not in cards:
            return Text("." if style == "ascii" else "·", style="grey30")
        return card_text(cards[seat], style, selected=seat == top and winner is not None, width=3)

    taker = None if winner is None else t("gz_you_take") if winner == HUMAN else t("gz_takes", name=seat_name(winner))
    widget.show_cross(slot, seat_name, left=1, right=3, taker=taker, status=status)
