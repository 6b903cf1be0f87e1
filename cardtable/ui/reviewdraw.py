"""How the hand review draws a step (:mod:`cardtable.ui.review` shows it): the parts every game shares.
Each game's ``cardtable.ui.<game>.review`` module subclasses :class:`Renderer` for its cards, names and
score lines."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from cardtable.i18n import t
from cardtable.review import HandReview, Step

YOU = 0
NAME_WIDTH = 10
# Symbols, and their ASCII stand-ins for terminals that mis-measure anything else (the ASCII card style).
SYMBOLS = {"then": ("  →  ", "  ->  "), "out": ("★", "*"), "none": ("—", "-"),
           "first": ("⏮", "|<"), "previous": ("◀", "<"), "next": ("▶", ">"), "last": ("⏭", ">|")}


def symbol(name: str, style: str) -> str:
    return SYMBOLS[name][1 if style == "ascii" else 0]


# ---------------------------------------------------------------- per-game drawing
class Renderer:
    """How one game draws a step. Subclasses (``cardtable.ui.<game>.review``) give the names, the cards
    and the game's own lines."""

    def __init__(self, review: HandReview, style: str) -> None:
        self.review = review
        self.style = style

    def seat_name(self, seat: int) -> str:
        raise NotImplementedError

    def card(self, card: Any, selected: bool = False) -> Text:
        raise NotImplementedError

    def cards(self, cards: Any, selected: Any = ()) -> Text:
        """Cards in a row; those in ``selected`` (a multiset, as a list) reversed."""
        marked = list(selected)
        text = Text()
        for index, card in enumerate(cards):
            if index:
                text.append(" ")
            hit = card in marked
            if hit:
                marked.remove(card)
            text.append_text(self.card(card, selected=hit))
        return text

    def heading(self, step: Step) -> Text:
        total = len(self.review.steps) - 1
        if step.number == 0:
            text = Text(t("review_deal"), style="bold")
        else:
            text = Text(t("review_trick", n=step.number, total=total), style="bold")
        if step.leader is not None:
            text.append(f" · {self.led(step.leader)}")
        if step.winner is not None:
            text.append(" · ")
            text.append(self.won(step.winner), style="bold green" if step.winner % self.sides == 0 else "bold")
        return text

    def led(self, seat: int) -> str:
        """«you lead» / «West leads»."""
        return t("review_led_you") if seat == YOU else t("review_led", name=self.seat_name(seat))

    def won(self, seat: int) -> str:
        """«You take the trick» / «West takes the trick»."""
        raise NotImplementedError

    sides = 4                 # the winner line is green when it is you (or your pair: 2)

    def played_by(self, step: Step, seat: int) -> list[Any]:
        """The cards marked in ``seat``'s hand: those it plays in this step (at the deal: the cards it
        shows, or gives as tribute or return)."""
        out: list[Any] = []
        for mover, what in step.plays:
            if mover != seat:
                continue
            if hasattr(what, "rank"):                   # a card (cards are named tuples: first)
                out.append(what)
            elif hasattr(what, "cards"):                # Guandan: a play
                out.extend(what.cards)
            elif hasattr(what, "card"):                 # Guandan: a tribute or a return
                out.append(what.card)
            elif isinstance(what, tuple):               # Gong Zhu: the cards shown
                out.extend(what)
        return out

    def hands(self, step: Step) -> Table:
        """The four hands, one row each; a long hand wraps under its own column."""
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=NAME_WIDTH - 1, no_wrap=True)
        grid.add_column()
        for seat in range(4):
            cards = step.hands[seat]
            grid.add_row(Text(self.seat_name(seat)[:NAME_WIDTH - 1], style="bold"),
                         self.cards(cards, self.played_by(step, seat)) if cards else Text(symbol("none", self.style), style="dim"))
        return grid

    def plays(self, step: Step) -> Text:
        """The trick in order, the winning card marked."""
        text = Text()
        for index, (seat, card) in enumerate(step.plays):
            if index:
                text.append(symbol("then", self.style), style="dim")
            text.append(f"{self.seat_name(seat)} ", style="bold" if seat == step.winner else "")
            text.append_text(self.card(card, selected=seat == step.winner))
        return text

    def notes(self, step: Step) -> Text:
        return Text()

    def score(self, step: Step) -> Text:
        raise NotImplementedError
