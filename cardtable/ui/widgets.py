"""Widgets the game tables share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import OptionList, Static

MARKER, MARKER_ASCII = "▲", "^"


class HandView(Widget, can_focus=True):
    """The human's cards in a row: a cursor, a lifted card, unplayable cards dimmed, a deal animation
    (``revealed``); a click moves the cursor to a card and posts ``HandView.Chosen``, which the table
    answers as it answers Enter (lift the card, or play it if it is lifted)."""

    class Chosen(Message):
        """A click chose the card at ``index`` (the cursor is already on it)."""

        def __init__(self, hand: HandView, index: int) -> None:
            super().__init__()
            self.hand = hand
            self.index = index

        @property
        def control(self) -> HandView:
            return self.hand

    DEFAULT_CSS = "HandView { height: 3; width: 100%; }"
    SLOT = 4

    cursor: reactive[int] = reactive(0)
    lifted: reactive[int | None] = reactive(None)
    revealed: reactive[int] = reactive(99)

    def __init__(self, renderer: Callable[..., Text], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.renderer = renderer
        self.cards: tuple = ()
        self.playable: frozenset = frozenset()
        self.style_name = "colour"

    def set_cards(self, cards: tuple, playable: frozenset, style: str) -> None:
        if cards != self.cards:
            old = self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None
            self.cards = cards
            self.lifted = None
            self.cursor = cards.index(old) if old in cards else min(self.cursor, max(0, len(cards) - 1))
        self.playable = playable
        self.style_name = style
        self.refresh()

    @property
    def current(self) -> Any:
        return self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None

    def step(self, delta: int) -> Any:
        """Move the cursor ``delta`` cards, stopping at the first and the last card: it never wraps round
        (docs/decisions.md «The hand's cursor stops at the ends»). At an end nothing changes. Returns the
        card under the cursor (None for an empty hand)."""
        if self.cards:
            index = max(0, min(len(self.cards) - 1, self.cursor + delta))
            if index != self.cursor:
                self.point(index)
        return self.current

    def point(self, index: int) -> Any:
        """Put the cursor on card ``index`` (counted round the hand: -1 is the last card), lower a lifted
        card, and return the card now under the cursor (None for an empty hand)."""
        if self.cards:
            self.cursor = index % len(self.cards)
            self.lifted = None
        return self.current

    def _offset(self) -> int:
        return max(0, (self.size.width - self.SLOT * len(self.cards)) // 2)

    def render(self) -> Text:
        shown = self.cards[: self.revealed]
        pad = " " * self._offset()
        top, middle, bottom = Text(pad), Text(pad), Text(pad)
        for i, card in enumerate(shown):
            dim = bool(self.playable) and card not in self.playable or not self.playable
            text = self.renderer(card, self.style_name, dim=dim, selected=i == self.cursor and self.has_focus,
                                 width=3)
            blank = Text(" " * self.SLOT)
            if i == self.lifted:
                top.append_text(text)
                top.append(" ")
                middle.append_text(blank)
            else:
                top.append_text(blank)
                middle.append_text(text)
                middle.append(" ")
            bottom.append(((MARKER_ASCII if self.style_name == "ascii" else MARKER) if i == self.cursor else " ").center(3) + " ", style="bold")
        return Text("\n").join([top, middle, bottom])

    def on_click(self, event: events.Click) -> None:
        index = (event.x - self._offset()) // self.SLOT
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.post_message(self.Chosen(self, index))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class TrickView(Static):
    """The cards of the trick in a cross: partner or North on top, you at the bottom, the players on
    your left and right at the sides; then who took the last trick, or whose turn it is."""

    DEFAULT_CSS = "TrickView { height: 100%; content-align: center middle; text-align: center; }"

    def show_cross(self, slot: Callable[[int], Text], name: Callable[[int], str], left: int, right: int,
                   taker: str | None, status: str) -> None:
        lines = [Text(name(2), style="dim"), slot(2), Text(""),
                 Text.assemble(Text(f"{name(left)} "), slot(left), Text("        "), slot(right),
                               Text(f" {name(right)}")),
                 Text(""), slot(0), Text(name(0), style="dim")]
        if taker is not None:
            lines.append(Text(taker, style="bold"))
        lines.append(Text(status, style="bold" if taker is None else ""))
        if self.size.height and len(lines) + status.count("\n") > self.size.height:
            del lines[4], lines[2]      # no room for the blank rows around the middle: the news come first
        self.update(Text("\n").join(lines))


class MenuList(OptionList):
    """An OptionList whose ↓ / ↑ stop at the last / first option. Textual's wraps around (↓ on the last
    game went back to the first); every other list and cursor here stops at its ends (the saved games,
    the hand's cards, Guandan's columns), and a short menu is easier to use when ↓ ↓ ↓ ends on its last
    item whatever the start. Home / End / PgUp / PgDn are Textual's."""

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def _step(self, direction: int) -> None:
        index = (-1 if direction > 0 else self.option_count) if self.highlighted is None else self.highlighted
        index += direction
        while 0 <= index < self.option_count and self.get_option_at_index(index).disabled:
            index += direction
        if 0 <= index < self.option_count:
            self.highlighted = index
