"""Our screens' ``app`` typed as the cardtable app (Textual types it ``App[object]``), so that mypy checks
``self.app.settings``, ``self.app.store`` and the rest. Declared for the checker only, as Textual declares
its own (``MessagePump.app``): at run time the screens keep Textual's property, and ``cardtable.ui.app``,
which imports the screens, is not imported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from textual import getters

    from cardtable.ui.app import CardTableApp

ResultType = TypeVar("ResultType")


class CardtableScreen(Screen[ResultType]):
    """A full screen of the app."""

    if TYPE_CHECKING:
        app = getters.app(CardTableApp)


class CardtableModal(ModalScreen[ResultType]):
    """A dialog of the app."""

    if TYPE_CHECKING:
        app = getters.app(CardTableApp)
