"""The command palette never crashes on fast keys (issue 29 item 4) and reads well (issue 30).

Keys are sent as one read of the terminal delivers them: all queued before the app handles the first
(``Pilot.press`` waits for each key to be handled, and never showed the crashes)."""

import asyncio
import random
import unicodedata

import pytest
from textual import events
from textual.command import CommandList, CommandPalette
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.home import HomeScreen
from cardtable.ui.palette import SafeCommandPalette
from cardtable.ui.screens import SlotsScreen
from cardtable.ui.statistics import StatisticsScreen
from tests.ui_helpers import make_app, settle

TABLE = ("new", "guinote", None, 1, "normal")


def burst(app, *keys):
    """Queue ``keys`` at the app's driver at once, as a terminal read of several keys does."""
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        try:
            char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)


def assert_sane(app, table_expected=False):
    """Home at the bottom, no screen twice, at most one palette and only on top, one table at most."""
    stack = app.screen_stack
    assert isinstance(stack[0], HomeScreen)
    assert len({id(s) for s in stack}) == len(stack)
    palettes = [s for s in stack if isinstance(s, CommandPalette)]
    assert len(palettes) <= 1 and (not palettes or stack[-1] is palettes[0])
    tables = [s for s in stack if isinstance(s, GameScreen)]
    assert len(tables) <= 1
    if table_expected:
        assert tables, [type(s).__name__ for s in stack]


@pytest.mark.parametrize("launch", [None, TABLE], ids=["home", "table"])
@pytest.mark.parametrize("page", ["pageup", "pagedown"])
async def test_a_page_key_in_the_same_burst_as_ctrl_p(tmp_path, launch, page):
    """KeyError: 0 in OptionList._move_page: the list had options but no laid-out lines yet."""
    app = make_app(tmp_path, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(3):
            burst(app, "ctrl+p", page)
            await pilot.pause(0.3)
            assert isinstance(app.screen, SafeCommandPalette)
            assert_sane(app, table_expected=launch is not None)
            burst(app, "escape")
            await settle(pilot)
        assert_sane(app, table_expected=launch is not None)


@pytest.mark.parametrize("launch", [None, TABLE], ids=["home", "table"])
async def test_ctrl_p_enter_enter_runs_one_command_and_keeps_the_table(tmp_path, launch):
    """A second Enter dismissed the palette again: ScreenStackError at home, the table popped at a table."""
    app = make_app(tmp_path, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "ctrl+p", "enter", "enter")
        await pilot.pause(0.3)
        await settle(pilot)
        assert_sane(app, table_expected=launch is not None)
        assert not isinstance(app.screen, CommandPalette)
        assert sum(isinstance(s, SlotsScreen) for s in app.screen_stack) <= 1


@pytest.mark.parametrize("launch", [None, TABLE], ids=["home", "table"])
@pytest.mark.parametrize("seed", [0, 2, 4])
async def test_a_seeded_random_stream_of_keys_never_crashes(tmp_path, launch, seed):
    """Bursts of palette, navigation and table keys (no quit key), with pauses from none to 0.3 s."""
    pool = (["ctrl+p"] * 4 + ["enter"] * 4 + ["escape"] * 2
            + ["pageup", "pagedown", "up", "down", "left", "right", "tab", "shift+tab", "backspace", "space",
               "home", "end", "shift+end", "ctrl+home", "question_mark", "a", "c", "d", "e", "g", "h", "n",
               "r", "s", "t", "u", "v", "x", "p", "z"])
    rng = random.Random(seed)
    app = make_app(tmp_path, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(20):
            burst(app, *(rng.choice(pool) for _ in range(rng.randint(1, 6))))
            await pilot.pause(rng.choice([0, 0.01, 0.05, 0.3]))
            assert_sane(app)
        await settle(pilot)
        assert_sane(app)
    assert app.return_code in (None, 0)


async def test_statistics_closed_before_the_database_answers(tmp_path, monkeypatch):
    """NoMatches: 'DataTable' on StatisticsScreen: the answer came after Esc had closed the screen."""
    from cardtable.stats import StatsService

    answered = asyncio.Event()
    original = StatsService.call

    async def slow_call(self, *args, **kwargs):
        result = await original(self, *args, **kwargs)
        await answered.wait()
        return result

    monkeypatch.setattr(StatsService, "call", slow_call)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, rounds=1)
        burst(app, "t")
        await pilot.pause(0.5)       # mounted and drawn; its worker waits for the database
        assert isinstance(app.screen, StatisticsScreen)
        app.pop_screen()             # as Esc does; the answer comes before the screen is removed
        answered.set()
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("lang,text", [("en", "No matches found"), ("es", "Nada coincide con la búsqueda"),
                                       ("zh", "没有找到匹配的命令")])
async def test_no_matches_is_said_in_the_players_language(tmp_path, lang, text):
    app = make_app(tmp_path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"qqzzqq")
        await pilot.pause(1.0)
        options = app.screen.query_one(CommandList).options
        assert [str(option.prompt.renderable) for option in options] == [text]


async def test_the_palette_lists_rules_without_searching_and_no_entry_twice(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        commands = list(app.get_system_commands(app.screen))
        shown = [(c.title, c.help) for c in commands if c.discover]
        assert len(shown) == len(set(shown))
        assert all(title != help_text for title, help_text in shown), shown     # «Keys / Keys»
        for game in ("Guandan", "Gong Zhu", "Guiñote"):
            assert any(title.startswith("Rules") and game in title for title, _ in shown), shown
        await pilot.press("ctrl+p")
        await pilot.pause(0.5)
        await settle(pilot)
        listed = " ".join(str(option.prompt) for option in app.screen.query_one(CommandList).options)
        assert "Guiñote" in listed and listed.count("Rules") >= 3
