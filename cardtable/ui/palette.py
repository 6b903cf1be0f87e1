"""The command palette (Ctrl+P): Textual's, made safe against keys typed faster than it opens and closes.

Textual 8.2.8's palette crashed the app on fast keys (see docs/upstream.md): PgUp/PgDn before its list
was laid out (``KeyError: 0``), a second Enter before the first command ran (a second ``dismiss``, which
popped the screen below: the table), and timers or watchers that query its widgets once it is closing
(``NoMatches: 'CommandList'``). This subclass answers once, only while it is on top, and ignores what
comes after; its «No matches found» is in the player's language.
"""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.text import Text
from textual import on
from textual.command import CommandList, CommandPalette
from textual.widgets import Button, Input, OptionList
from textual.widgets.option_list import Option

from cardtable.i18n import t
from cardtable.ui.guard import on_top

NO_MATCHES_DELAY = 0.5    # seconds without a hit before «No matches found» is shown (as Textual waits)


class SafeCommandPalette(CommandPalette):
    """Textual's command palette that never crashes on keys, whatever their speed."""

    _dismissed = False

    def _usable(self) -> bool:
        """Whether the palette may still act: on top, mounted and not closing."""
        return not self._dismissed and on_top(self)

    def _command_list(self) -> CommandList | None:
        lists = self.query(CommandList)
        return lists.first() if lists else None

    # -- answering once
    def dismiss(self, result: Any = None) -> Any:
        if not self._usable():        # a second Enter, Esc or click: the palette is already closing
            return None
        self._dismissed = True
        self._cancel_gather_commands()
        self._stop_no_matches_countdown()
        self._stop_busy_countdown()
        return super().dismiss(result)

    # Textual's handlers for these messages are bound with @on in its class: they run after these,
    # unless these prevent the default (which stops the handlers of the classes further down).
    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _drop_when_closing(self, event: Any) -> None:
        if not self._usable():
            event.stop()
            event.prevent_default()

    def _select_or_command(self, event: Any = None) -> None:
        if not self._usable():
            if event is not None:
                event.stop()
            return
        super()._select_or_command(event)

    def _select_command(self, event: Any) -> None:
        if not self._usable():
            event.stop()
            return
        super()._select_command(event)

    def _action_escape(self) -> None:
        if self._usable():
            super()._action_escape()

    # -- moving in a list that may not be laid out yet
    def _action_command_list(self, action: str) -> None:
        command_list = self._command_list()
        if command_list is None or not self._usable():
            return
        if action in ("page_up", "page_down"):
            # Textual pages by the list's laid-out lines: none yet while it is hidden or has just been
            # filled (KeyError in OptionList._move_page). Without lines, a page goes to the end.
            highlighted = command_list.highlighted or 0
            if highlighted not in command_list._index_to_line:
                if command_list.option_count:
                    action = "first" if action == "page_up" else "last"
                else:
                    return
        super()._action_command_list(action)

    def _action_cursor_down(self) -> None:
        if self._command_list() is not None and self._usable():
            super()._action_cursor_down()

    # -- watchers and timers that may fire while it closes
    def _watch__list_visible(self) -> None:
        if self._command_list() is not None and not self._dismissed:
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._command_list() is not None and not self._dismissed:
            await super()._watch__show_busy()

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """After a short wait with no hit, say so (in the player's language) for a search, or hide the
        list for the empty search (nothing to discover is nothing to point out)."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            command_list = self._command_list()
            if command_list is None or self._dismissed:
                return
            if search_value:
                command_list.add_option(Option(Align.center(Text(t("palette_no_matches"), style="not bold")),
                                               disabled=True, id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(NO_MATCHES_DELAY, show_no_matches)
