"""Pilot tests of the setup dialogs every game shares (SetupDialog) and of Gong Zhu's variant rows."""

import pytest
from textual.widgets import Checkbox, Input, RadioSet

from cardtable.ui.gongzhu import GongZhuScreen, GongZhuSetup
from cardtable.ui.guandan import GuandanSetup
from cardtable.ui.guinote import GuinoteSetup
from tests.ui_helpers import make_app, settle


@pytest.mark.parametrize("setup", [GuandanSetup, GongZhuSetup, GuinoteSetup])
async def test_radio_cursor_starts_on_the_selected_entry(tmp_path, setup):
    """Bug 8: Space (or Enter) on a radio row keeps its selected entry: the cursor starts there."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = setup()
        app.push_screen(dialog)
        await settle(pilot)
        sets = list(dialog.query(RadioSet))
        assert any(radio.pressed_index > 0 for radio in sets)   # the CPU level row: Normal, not first
        for radio in sets:
            before = radio.pressed_index
            radio.focus()
            await pilot.press("space")
            await settle(pilot, 1)
            assert radio.pressed_index == before, radio.id


async def test_gongzhu_setup_plays_the_variants_from_the_keyboard(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#game-list").highlighted = 1   # Gong Zhu
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, GongZhuSetup)
        hands = dialog.query_one("#gz-hands", Input)
        assert hands.disabled                     # only with «Fixed hands»
        dialog.query_one("#gz-ending", RadioSet).focus()
        await pilot.press("right", "right", "space")
        await settle(pilot, 1)
        assert not hands.disabled
        await pilot.press("tab")
        assert dialog.focused is hands
        await pilot.press("backspace", "5", "tab")          # 5 hands; on to «All hearts»
        assert isinstance(dialog.focused, RadioSet) and dialog.focused.id == "gz-all-hearts"
        await pilot.press("right", "space", "tab", "tab", "tab", "space")   # +400; «Only ♠Q and ♣10»
        assert dialog.query_one("#gz-showable", Checkbox).value
        dialog.query_one("#setup-start").focus()
        await pilot.press("enter")
        await settle(pilot)
        screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
        options = screen.seat.match.options
        assert (options.target, options.max_hands, options.all_hearts, options.showable) == (
            0, 5, 400, "pig_transformer")
        assert "Hand 1 of 5" in screen.sub_title and "+400" in screen.sub_title


async def test_gongzhu_setup_defaults_are_the_table_rules(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = GongZhuSetup()
        app.push_screen(dialog)
        await settle(pilot)
        options = dialog.options()
        assert (options.target, options.max_hands, options.all_hearts, options.showable) == (500, 30, 200, "all")
