"""The deal animation of a table: the person's cards appear one by one (any key skips it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.ui.app import CardTableApp


class DealAnimation:
    """Mixed into a :class:`GameScreen`: ``dealing`` while the cards come; the table then goes on."""

    DEAL_STEP = 0.05        # seconds per card

    if TYPE_CHECKING:        # the screen's: declared for the type checker only
        app: CardTableApp
        seat: Any
        dealing: bool
        _deal_timer: Any

        def hand_widget(self) -> Any: ...

        def refresh_table(self) -> None: ...

        def advance(self) -> None: ...

        def set_interval(self, *args: Any, **kwargs: Any) -> Any: ...

    def start_deal_animation(self) -> None:
        if self.app.settings.cpu_delay <= 0:
            return
        self.dealing = True
        self.hand_widget().revealed = 0
        self._deal_timer = self.set_interval(self.DEAL_STEP, self._deal_step)

    def _deal_step(self) -> None:
        widget = self.hand_widget()
        widget.revealed += 1
        self.refresh_table()
        if widget.revealed >= len(self.seat.view().hand):
            self.finish_deal()

    def finish_deal(self) -> None:
        if self._deal_timer is not None:
            self._deal_timer.stop()
            self._deal_timer = None
        self.hand_widget().revealed = 99
        if self.dealing:
            self.dealing = False
            self.refresh_table()
            self.advance()
