"""Pilot tests of the shell: home, settings, rules, keys, saves and the too-small message."""

import os

import pytest
from textual.widgets import DataTable, MarkdownViewer, OptionList

from cardtable.saves import SaveStore
from cardtable.settings import load_settings
from cardtable.ui.home import HomeScreen
from cardtable.ui.screens import HelpScreen, RulesScreen, SettingsScreen, SlotsScreen
from cardtable.ui.toosmall import TooSmallScreen
from tests.ui_helpers import make_app, settle


async def test_home_lists_the_three_games(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        options = app.screen.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == ["guandan", "gongzhu", "guinote"]
        assert app.screen.chosen_game in ids


async def test_help_and_rules_open_and_close_with_the_keyboard(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        viewer = app.screen.query_one(MarkdownViewer)
        assert "Gong Zhu" in viewer.document.source or "Guandan" in viewer.document.source
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_rules_follow_the_language(tmp_path):
    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(RulesScreen("gongzhu"))
        await settle(pilot)
        assert "Quién sale" in app.screen.query_one(MarkdownViewer).document.source


async def test_settings_change_language_and_persist(tmp_path):
    app = make_app(tmp_path, lang=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#set-language").query("RadioButton")[1].value = True
        app.screen.query_one("#set-card_style").query("RadioButton")[2].value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert app.settings.language == "es" and app.settings.card_style == "ascii"
        assert app.screen.active_bindings["c"].binding.description == "Continuar"
    saved = load_settings()
    assert saved.language == "es" and saved.card_style == "ascii"


async def test_settings_cancel_changes_nothing(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert app.settings.card_style == "colour"


async def test_damaged_slot_is_shown_as_damaged_and_good_slot_loads(tmp_path):
    from cardtable import games

    store = SaveStore(tmp_path / "saves")
    match = games.get("gongzhu").new_match(seed=3)
    store.save("good", match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    (tmp_path / "saves" / "broken.json").write_bytes(os.urandom(64))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        saves_text = str(app.screen.query_one("#home-saves").render())
        assert "broken" in saves_text and "damaged" in saves_text
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(i)[0]): [str(cell) for cell in table.get_row_at(i)]
                for i in range(table.row_count)}
        assert "damaged" in rows["broken"][3]          # the summary column, last (after the date)
        # Move to the good slot and load it.
        while table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value != "good":
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.__class__.__name__ == "GongZhuScreen"


async def test_damaged_slot_gives_a_clear_message(tmp_path):
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "broken.json").write_text("{not json")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.resume("broken") is False
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


async def test_small_terminal_shows_a_message_and_recovers(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        assert "80×24" in str(app.screen.query_one("#too-small").render())
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_the_small_terminal_message_breaks_between_its_sentences(tmp_path, lang):
    """At 70×20 each sentence keeps a line of its own (Spanish left «por favor.» alone on the last line)."""
    from rich.cells import cell_len

    app = make_app(tmp_path, lang=lang)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot)
        lines = str(app.screen.query_one("#too-small").render()).splitlines()
        assert len(lines) == 2 and "80×24" in lines[0]
        assert all(cell_len(line) <= 70 for line in lines)


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
def test_home_snapshot(snap_compare, tmp_path, lang):
    assert snap_compare(make_app(tmp_path, lang=lang), terminal_size=(80, 24))


async def test_command_palette_offers_the_games(tmp_path):
    from textual.command import CommandPalette

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "New game: Guiñote" in titles and "Continue" in titles and "Settings" in titles
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"guinote")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.__class__.__name__ == "GuinoteSetup"


def test_home_subtitle_does_not_call_gong_zhu_a_partnership_game():
    """Issue 9: Gong Zhu is every player for themselves; the subtitle says so in both languages."""
    from cardtable.i18n import catalog

    en, es = catalog("en")["home_subtitle"], catalog("es")["home_subtitle"]
    assert "partnership and trick games" not in en and "Gong Zhu" in en and "own" in en
    assert "bazas y parejas" not in es and "Gong Zhu" in es and "por su cuenta" in es
    assert len(en) <= 76 and len(es) <= 76          # one line at 80 columns
