"""The "enlarge the terminal" screen. Kept apart (and light) because the app checks the size at start."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from cardtable.i18n import t

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmallScreen(Screen):
    """Shown while the terminal is under 80×24; it goes away by itself when the terminal grows."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self) -> None:
        width, height = self.app.size
        for message in self.query("#too-small").results(Static):
            message.update(t("too_small", width=width, height=height))

    def on_resize(self) -> None:
        self.update_size()

    def on_screen_resume(self) -> None:
        width, height = self.app.size
        if width >= MIN_WIDTH and height >= MIN_HEIGHT:
            self.call_after_refresh(self.dismiss)


