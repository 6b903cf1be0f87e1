"""Radio buttons and check boxes whose state shows without colour.

Textual draws a radio button as «▐●▌» and a check box as «▐X▌» whether on or off; only the colour of the
mark changes, so under NO_COLOR, on a monochrome terminal or to a colour-blind player every option looks
chosen. Here the mark is drawn only when the option is on («▐●▌ Quick  ▐ ▌ Standard»)."""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class ChoiceButton(RadioButton):
    """A radio button that shows its dot only when it is the chosen one."""

    # Textual reads a class constant; a property gives it per state (a read-only override on purpose).
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # the name of the class constant Textual reads
        return "●" if self.value else " "


class TickBox(Checkbox):
    """A check box that shows its tick only when it is ticked."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # as ChoiceButton's
        return "X" if self.value else " "
