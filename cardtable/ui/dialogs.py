"""Dialogs the game tables share: the end of a hand, the end of the match and the last trick."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from cardtable.i18n import t


class ChoiceDialog(ModalScreen[str]):
    """A dialog that answers with the id of the button pressed (or of the key's choice)."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, value: str) -> None:
        self.dismiss(value)


class HandEndDialog(ChoiceDialog):
    """The results of a hand, with «Next hand» / «Continue later». Subclasses give the body."""

    BINDINGS = [Binding("n,enter", "choose('next')", "next_hand"),
                Binding("escape,c", "choose('later')", "continue_later")]

    def __init__(self, title: str, match_over: bool) -> None:
        super().__init__()
        self.title_text = title
        self.match_over = match_over

    def body(self) -> Iterable[Widget]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield from self.body()
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("continue_later"), id="later")
                yield Button(t("match_over") if self.match_over else t("next_hand"), id="next", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#next", Button).focus()


class MatchEndDialog(ChoiceDialog):
    """The end of the match, with «Home» / «New game». Subclasses give the body."""

    BINDINGS = [Binding("n", "choose('new')", "new_game"), Binding("escape,h,enter", "choose('home')", "home")]

    def body(self) -> Iterable[Widget]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("match_over"), classes="dialog-title")
            yield from self.body()
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("home"), id="home")
                yield Button(t("new_game"), id="new", variant="primary")


class LastTrickDialog(ModalScreen):
    """The last trick of the hand: one line per card, then who took it."""

    BINDINGS = [Binding("escape,enter,l", "app.pop_screen", "close")]
    DEFAULT_CSS = "LastTrickDialog .dialog { width: 46; }"

    def __init__(self, lines: list[Text], taker: str | None) -> None:
        super().__init__()
        self.lines = lines
        self.taker = taker

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("last_trick"), classes="dialog-title")
            if not self.lines:
                yield Label(t("no_last_trick"))
            else:
                text = Text("\n").join(self.lines)
                text.append(f"\n{self.taker}", style="bold")
                yield Static(text)
