"""Radio buttons and check boxes whose state shows without colour.

Textual draws a radio button as «▐●▌» and a check box as «▐X▌» whether on or off; only the colour of the
mark changes, so under NO_COLOR, on a monochrome terminal or to a colour-blind player every option looks
chosen. Here the mark is drawn only when the option is on («▐●▌ Quick  ▐ ▌ Standard»)."""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class ChoiceButton(RadioButton):
    """A radio button that shows its dot only when it is the chosen one."""

    @property
    def BUTTON_INNER(self) -> str:      # the name of the class constant Textual reads
        return "●" if self.value else " "


class TickBox(Checkbox):
    """A check box that shows its tick only when it is ticked."""

    @property
    def BUTTON_INNER(self) -> str:
        return "X" if self.value else " "
