"""Which option is chosen shows without colour (issue 15): under NO_COLOR, on a monochrome terminal or to
a colour-blind player, Textual's «▐●▌ Quick  ▐●▌ Standard» looked all chosen; now only the chosen one
has its mark, in every dialog with radio buttons or check boxes."""

import pytest
from textual.widgets import Checkbox, RadioButton, RadioSet
from textual.widgets._toggle_button import ToggleButton

from cardtable.ui.gongzhu import GongZhuSetup
from cardtable.ui.guandan import GuandanSetup
from cardtable.ui.guinote import GuinoteSetup
from cardtable.ui.screens import SettingsScreen
from tests.ui_helpers import make_app, settle

DIALOGS = {"guandan": GuandanSetup, "gongzhu": GongZhuSetup, "guinote": GuinoteSetup, "settings": SettingsScreen}


def screen_lines(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def drawn(app, button: ToggleButton) -> str:
    """The characters the terminal shows for ``button``'s box, e.g. «▐●▌» (its label not included)."""
    region = button.content_region
    return screen_lines(app)[region.y][region.x:region.x + 3]


def mark(button: ToggleButton) -> str:
    return "●" if isinstance(button, RadioButton) else "X"


@pytest.mark.parametrize("name", DIALOGS)
async def test_the_chosen_option_is_marked_without_colour(tmp_path, monkeypatch, name):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.push_screen(DIALOGS[name]())
        await settle(pilot)
        buttons = list(app.screen.query(ToggleButton))
        assert buttons and any(isinstance(b, RadioButton) for b in buttons)
        for button in buttons:
            assert (mark(button) in drawn(app, button)) == button.value, (button, drawn(app, button))
        for radio_set in app.screen.query(RadioSet):     # one mark per set: the pressed button's
            assert [mark(b) in drawn(app, b) for b in radio_set.query(RadioButton)].count(True) == 1
        # Choose another option: the mark moves with it.
        radio_set = app.screen.query(RadioSet).first()
        other = next(b for b in radio_set.query(RadioButton) if not b.value)
        other.value = True
        await settle(pilot)
        assert "●" in drawn(app, other)
        assert [b for b in radio_set.query(RadioButton) if "●" in drawn(app, b)] == [other]
        for box in app.screen.query(Checkbox):
            box.toggle()
            await settle(pilot)
            assert ("X" in drawn(app, box)) == box.value
