"""Type-ahead safety: a dialog answers once, and only while it is the screen on top.

Keys typed ahead are forwarded to the focused button before the dialog has handled the first press, so
two Enters make two ``Button.Pressed`` messages. Textual's ``dismiss`` does not check that the screen is
still on top: a second answer would call the callback again and pop the screen below (the table)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from cardtable.ui.footer import DialogKeys
from cardtable.ui.typedapp import CardtableModal


def on_top(screen: Screen) -> bool:
    """Whether ``screen`` is the screen on top and ready (mounted): the only one that may act."""
    return screen.is_attached and screen.is_mounted and screen.app.screen is screen


class AnswerOnce(DialogKeys, CardtableModal):
    """A modal screen whose answer (``dismiss``) counts once, and only while it is on top. Its key bar
    shows its own keys (:class:`DialogKeys`)."""

    _answered = False

    def dismiss(self, result: Any = None) -> Any:
        if self._answered or not on_top(self):
            return None
        self._answered = True
        return super().dismiss(result)
