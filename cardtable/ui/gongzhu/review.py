"""The hand review of Gong Zhu: the cards shown at the deal, the points taken in each trick, each
seat's hand score (cardtable.ui.review shows it)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from cardtable.cards import parse_card
from cardtable.i18n import t
from cardtable.review import Step
from cardtable.ui import cells
from cardtable.ui.cardart import card_text
from cardtable.ui.gongzhu.text import seat_name
from cardtable.ui.numbers import signed
from cardtable.ui.reviewdraw import NAME_WIDTH, YOU, Renderer


class GongZhuRenderer(Renderer):
    def won(self, seat: int) -> str:
        return t("gz_you_take") if seat == YOU else t("gz_takes", name=self.seat_name(seat))

    def seat_name(self, seat: int) -> str:
        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        return card_text(card, self.style, selected=selected, width=0)

    def plays(self, step: Step) -> Text:
        if step.number:
            return super().plays(step)
        text = Text(f"{t('review_gz_shown')}: ", style="bold")
        shown = [(seat, cards) for seat, cards in step.plays if cards]
        if not shown:
            text.append(t("review_gz_nothing_shown"), style="dim")
        for index, (seat, cards) in enumerate(shown):
            if index:
                text.append(" · ")
            text.append(f"{self.seat_name(seat)} ")
            text.append_text(self.cards(cards))
        return text

    def notes(self, step: Step) -> Text:
        if not step.number:
            return Text()
        text = Text(f"{t('review_gz_points')}: ", style="bold")
        if step.gained:
            text.append_text(self.cards(step.gained))
        else:
            text.append(t("review_gz_no_points"), style="dim")
        return text

    def score(self, step: Step) -> Text:
        text = Text(f"{t('review_score') if step is not self.review.steps[-1] else t('review_final')}:\n",
                    style="bold")
        for seat in range(4):
            text.append(f"{cells.ljust(self.seat_name(seat)[:NAME_WIDTH], NAME_WIDTH)}{signed(step.score['hand'][seat], self.style, 5)}  ",
                        style="bold" if seat == YOU else "")
            text.append_text(self.cards([parse_card(code) for code in step.score["taken"][seat]]))
            if seat < 3:
                text.append("\n")
        return text


RENDERER = GongZhuRenderer


def hand_result(record: dict[str, Any], style: str = "colour") -> str:
    """A short line for a finished hand in the hand list: each seat's hand score."""
    return " · ".join(f"{seat_name(s)} {signed(line['hand'], style)}" for s, line in enumerate(record["lines"]))
