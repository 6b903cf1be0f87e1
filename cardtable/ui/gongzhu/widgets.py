"""The Gong Zhu table widgets: the seat panels and the trick."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuView
from cardtable.i18n import card_count, t
from cardtable.ui.cardart import card_text, cards_text
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.gongzhu.text import hand_points, seat_name, taken_text
from cardtable.ui.widgets import TrickView


# ---------------------------------------------------------------- widgets
class GongZhuSeatPanel(Static):
    """An opponent: name, card count, shown cards, point cards taken, hand points and total."""

    DEFAULT_CSS = """
    GongZhuSeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    GongZhuSeatPanel.to-move { border: round $accent; }
    """

    def show_seat(self, view: GongZhuView, seat: int, count: int, style: str, wide: bool = False) -> None:
        """``wide`` (North, across the top): two lines, the shown cards beside the count and the hand
        points beside the taken cards, so that nothing is cut by the plate's height."""
        self.border_title = seat_name(seat)
        self.set_class(view.to_move == seat and view.phase == "play", "to-move")
        sep = "  " if wide else "\n"
        body = Text()
        body.append(card_count(count))
        body.append(f"  {t('gz_total')} {view.totals[seat]:+d}", style="bold")
        if view.shown[seat]:
            body.append(f"{sep}{t('gz_shown')}: ")
            body.append_text(cards_text(view.shown[seat], style))
        points = [c for c in view.taken[seat] if c.suit != "H" or rules.heart_value(c)]
        if view.taken[seat]:
            body.append(f"\n{t('gz_taken')}: ")
            body.append_text(taken_text(points, style))
            body.append(f"{sep}{t('gz_hand_points')} {hand_points(view, seat):+d}")
        self.update(body)


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
