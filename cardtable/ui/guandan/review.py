"""The hand review of Guandan: the level, tribute and return at the deal, one line per play with the
passes after it, who went out, the rise (cardtable.ui.review shows it)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from cardtable.games.guandan import rules
from cardtable.i18n import t
from cardtable.review import HandReview, Step
from cardtable.tricks import partner
from cardtable.ui import cells
from cardtable.ui.cardart import card_text
from cardtable.ui.guandan.text import combo_name, place_name, play_cards, rise_text, seat_name
from cardtable.ui.reviewdraw import NAME_WIDTH, YOU, Renderer, symbol


class GuandanRenderer(Renderer):
    sides = 2

    def won(self, seat: int) -> str:
        return t("gd_trick_you") if seat == YOU else t("gd_trick_won", name=self.seat_name(seat))

    def led(self, seat: int) -> str:
        return t("review_gd_led_you") if seat == YOU else t("review_gd_led", name=self.seat_name(seat))

    def __init__(self, review: HandReview, style: str) -> None:
        super().__init__(review, style)
        self.level = rules.rank_from_name(review.deal["level"])

    def seat_name(self, seat: int) -> str:
        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        return card_text(card, self.style, selected=selected, width=0)

    def cards(self, cards: Any, selected: Any = ()) -> Text:
        """Guandan hands are long (27 cards): no gap between cards, a space between ranks."""
        marked = list(selected)
        text = Text()
        previous = None
        for card in cards:
            if previous is not None:
                text.append(" " if card.rank != previous.rank else "")
            hit = card in marked
            if hit:
                marked.remove(card)
            text.append_text(self.card(card, selected=hit))
            previous = card
        return text

    def play_text(self, move: Any) -> Text:
        if not hasattr(move, "cards"):
            return Text(t("gd_passed"), style="dim italic")
        options = self.review.options
        combo = next((c for c in rules.classify(move.cards, self.level, options.straight_flush_as_straight)
                      if c.type == move.type and c.key == move.key), None)
        text = Text(combo_name(combo) + "  " if combo is not None else "")
        text.append_text(play_cards(move.cards, combo, self.level, self.style, sep=""))
        return text

    def plays(self, step: Step) -> Text:
        deal = self.review.deal
        if step.number == 0:
            text = Text(t("review_gd_level", level=deal["level"], us=deal["levels"][0], them=deal["levels"][1]))
            text.append("\n")
            if not step.plays:
                text.append(t("review_gd_anti" if deal["tribute"] == "anti" else "review_gd_no_tribute"),
                            style="dim")
            for index, (seat, move) in enumerate(step.plays):
                if index:
                    text.append("\n")
                data = move.to_json()
                other = step.draws[index][0]          # who received the card
                if "tribute" in data:
                    text.append(t("review_gd_tribute", payer=self.seat_name(seat), receiver=self.seat_name(other)))
                else:
                    text.append(t("review_gd_return", receiver=self.seat_name(seat), payer=self.seat_name(other)))
                text.append(" ")
                text.append_text(self.card(move.card))
            return text
        # One line per play; the passes that follow it on the same line, so a round fits the screen.
        text = Text()
        passes: list[str] = []

        def flush() -> None:
            if passes:
                text.append("  " + t("gd_passes_after", names=t("gd_name_sep").join(passes)), style="dim italic")
                passes.clear()

        for index, (seat, move) in enumerate(step.plays):
            if not hasattr(move, "cards"):
                passes.append(self.seat_name(seat))
                continue
            flush()
            if text:
                text.append("\n")
            text.append(cells.ljust(self.seat_name(seat)[:NAME_WIDTH - 1], NAME_WIDTH), style="bold")
            text.append_text(self.play_text(move))
            if self.went_out_here(step, seat, index):
                place = step.score["finish"].index(seat)
                text.append(f"  {symbol('out', self.style)} {t('review_gd_went_out', name=self.seat_name(seat), place=t(f'gd_place_{place + 1}'))}",
                            style="bold yellow")
        flush()
        return text

    def went_out_here(self, step: Step, seat: int, index: int) -> bool:
        """Whether this play emptied the seat's hand (its last play in the step and nothing left)."""
        left = list(step.hands[seat])
        for mover, move in step.plays[: index + 1]:
            if mover == seat and hasattr(move, "cards"):
                for card in move.cards:
                    left.remove(card)
        return not left

    def notes(self, step: Step) -> Text:
        if step.number == 0:
            return Text()
        text = Text(f"{t('review_gd_out')}: ", style="bold")
        finish = step.score["finish"]
        final = step is self.review.steps[-1]
        out = finish if not final else finish[: self.out_count(finish)]
        if not out:
            text.append(t("review_gd_nobody_out"), style="dim")
        text.append(", ".join(f"{self.seat_name(seat)} {t(f'gd_place_{i + 1}')}" for i, seat in enumerate(out)))
        return text

    @staticmethod
    def out_count(finish: list[int]) -> int:
        return min(finish.index(partner(finish[0])) + 1, 3)

    def score(self, step: Step) -> Text:
        if step is not self.review.steps[-1]:
            return Text()
        text = Text(f"{t('review_final')}: ", style="bold")
        text.append_text(rise_text(dict(self.review.end)))
        return text


RENDERER = GuandanRenderer


def hand_result(record: dict[str, Any], style: str = "colour") -> str:
    """A short line for a finished hand in the hand list: the first two out."""
    return ", ".join(f"{place_name(i)} {seat_name(s)}" for i, s in enumerate(record["finish"][:2]))
