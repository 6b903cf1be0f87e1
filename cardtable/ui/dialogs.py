"""Dialogs the game tables share: the end of a hand, the end of the match and the last trick."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from cardtable.engine import OptionError, check_seed
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

    def __init__(self, record: dict) -> None:
        super().__init__()
        self.record = record            # the match_end line of the history

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


class SetupDialog(ModalScreen):
    """Before a match: the game's own options, then the CPU level and the game number, and a start
    button. Answers ``(options, seed or None, level)``, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    TITLE_KEY = ""
    START_KEY = ""

    def fields(self) -> Iterable[Widget]:
        """The game's own option rows."""
        raise NotImplementedError

    def options(self) -> object:
        """The game's options from the rows."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t(self.TITLE_KEY), classes="dialog-title")
            yield from self.fields()
            yield radio_row("cpu_level", "setup-level", (("level_easy", "easy", False),
                                                           ("level_normal", "normal", True)))
            with Horizontal(classes="form-row"):
                yield Label(t("game_number"), classes="form-label")
                yield Input(placeholder=t("game_number_help"), id="setup-seed", restrict=r"[0-9]*", max_length=20)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("cancel"), id="setup-cancel")
                yield Button(t(self.START_KEY), id="setup-start", variant="primary")

    def on_mount(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)
        self.query_one("#setup-start", Button).focus()

    def choice(self, set_id: str, default: str) -> str:
        pressed = self.query_one(f"#{set_id}", RadioSet).pressed_button
        return pressed.name if pressed is not None else default

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "setup-start":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        raw = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = check_seed(raw) if raw else None
        except OptionError:
            self.notify(t("bad_game_number"), severity="error")
            return
        self.dismiss((self.options(), seed, self.choice("setup-level", "normal")))

    def action_cancel(self) -> None:
        self.dismiss(None)


def radio_row(label_key: str, set_id: str, choices: Iterable[tuple[str, str, bool]]) -> Horizontal:
    """A labelled row of radio buttons: ``choices`` are (i18n key, value, pressed)."""
    return Horizontal(
        Label(t(label_key), classes="form-label"),
        RadioSet(*(RadioButton(t(text), value=pressed, name=value) for text, value, pressed in choices),
                 id=set_id, classes="inline"),
        classes="form-row")
