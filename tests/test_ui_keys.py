"""One key per meaning on the three tables, and a Keys screen that lists exactly the keys of the screen
it was opened from, first (issue 8 point 9: the Guandan table listed «s Settings» and «q Quit»)."""

import pytest
from textual import events
from textual.widgets import Input, Label, MarkdownViewer

from cardtable.i18n import t
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.gongzhu import GongZhuScreen, GongZhuSetup
from cardtable.ui.guandan import GuandanScreen, GuandanSetup
from cardtable.ui.guinote import GuinoteScreen, GuinoteSetup
from cardtable.ui.home import HomeScreen
from cardtable.ui.keys import key_name
from cardtable.ui.screens import HelpScreen, RulesScreen, SettingsScreen, SlotBusyDialog, SlotsScreen
from cardtable.ui.statistics import StatisticsScreen
from tests.ui_helpers import make_app, settle

TABLES = {"guandan": GuandanScreen, "gongzhu": GongZhuScreen, "guinote": GuinoteScreen}
# Meanings every table shares, and the one key each has on all of them.
SHARED = {"continue_later": {"escape"}, "hint": {"h"}, "rules": {"r"}, "app.help": {"question_mark"}}


def bound(screen_class):
    """{key: (action, description)} as the class and its cardtable bases bind them (comma lists split;
    a subclass's binding of a key wins)."""
    keys = {}
    for cls in reversed(screen_class.__mro__):
        if cls.__module__.startswith("cardtable") and "BINDINGS" in cls.__dict__:
            for binding in cls.__dict__["BINDINGS"]:
                for key in binding.key.split(","):
                    keys[key.strip()] = (binding.action, binding.description)
    return keys


def sections(markdown):
    """{heading: [(keys, action), ...]} in order, from the Keys screen's markdown."""
    found, current = {}, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            found[current] = []
        elif current is not None and line.startswith("| ") and not line.startswith("|---"):
            keys, action = (cell.strip() for cell in line.strip().strip("|").split("|"))
            found[current].append((keys, action))
    for rows in found.values():
        if rows and rows[0] == (t("key_column"), t("action_column")):
            del rows[0]
    return found


@pytest.mark.parametrize("game", TABLES)
def test_one_key_per_meaning_across_the_tables(game):
    keys = bound(TABLES[game])
    for action, wanted in SHARED.items():
        assert {key for key, (a, _) in keys.items() if a == action} == wanted, (game, action)
    if game == "guinote":
        assert keys["c"][0] == "cante('C')"           # c sings copas, so it cannot mean anything else
    else:
        assert "c" not in keys
    if "l" in keys:
        assert keys["l"][0] == "last_trick"


def test_the_results_dialog_continues_later_with_esc_only():
    later = {key for binding in HandEndDialog.BINDINGS for key in binding.key.split(",")
             if binding.action == "choose('later')"}
    assert later == {"escape"}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", TABLES)
async def test_the_keys_screen_lists_exactly_the_tables_keys_first(tmp_path, game, lang):
    app = make_app(tmp_path, launch=("new", game, None, 1, "normal"), lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, GameScreen)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        found = sections(app.screen.query_one(MarkdownViewer).document.source)
        heading, rows = next(iter(found.items()))
        assert heading == t("keys_table", game=t(table.TITLE_KEY))
        listed = [key for keys, _ in rows for key in keys.split(" / ")]
        keys = bound(type(table))
        assert sorted(listed) == sorted(key_name(key) for key in keys)          # exactly, once each
        by_key = {key: action for keys_text, action in rows for key in keys_text.split(" / ")}
        for key, (_, description) in keys.items():
            assert by_key[key_name(key)] == t(description), key
        assert by_key[key_name("escape")] == t("continue_later")
        assert t("settings") not in by_key.values() and t("quit") not in by_key.values()
        everywhere = {k: a for ks, a in found[t("keys_everywhere")] for k in ks.split(" / ")}
        assert everywhere["Ctrl+Q"] == t("quit") and "?" not in everywhere      # ? is listed above
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is table


async def test_the_keys_screen_from_home_lists_the_home_keys(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        found = sections(app.screen.query_one(MarkdownViewer).document.source)
        heading, rows = next(iter(found.items()))
        assert heading == t("home")
        listed = sorted(key for keys, _ in rows for key in keys.split(" / "))
        assert listed == sorted(key_name(key) for key in bound(HomeScreen))


class _Hand(HandEndDialog):
    def body(self):
        yield Label("body")


class _Match(MatchEndDialog):
    def body(self):
        yield Label("body")


# Every kind of dialog and screen the app shows over a table or home (issue 10: «?» did nothing while a
# dialog was open, since a modal screen stops the app's ordinary bindings).
SCREENS = {
    "hand_end": lambda: _Hand("Hand 1", False),
    "match_end": lambda: _Match({"type": "match_end"}),
    "setup_guandan": GuandanSetup,
    "setup_gongzhu": GongZhuSetup,
    "setup_guinote": GuinoteSetup,
    "settings": SettingsScreen,
    "slot_busy": lambda: SlotBusyDialog("s"),
    "last_trick": lambda: LastTrickDialog([], None),
    "rules": lambda: RulesScreen("guinote"),
    "slots": SlotsScreen,
    "statistics": StatisticsScreen,
}


@pytest.mark.parametrize("name", SCREENS)
async def test_the_keys_screen_opens_from_every_dialog_and_screen(tmp_path, name):
    app = make_app(tmp_path)
    answers = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        under = SCREENS[name]()
        app.push_screen(under, callback=answers.append)
        await settle(pilot)
        focused = app.screen.focused
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and app.screen.source is under
        assert sections(app.screen.query_one(MarkdownViewer).document.source)   # it lists keys
        await pilot.press("question_mark")          # «?» again closes it, like Esc
        await settle(pilot)
        assert app.screen is under and app.screen.focused is focused and answers == []


async def test_question_mark_typed_ahead_with_enter_on_a_dialog_does_not_answer_it(tmp_path):
    """«?» then Enter in one read of the terminal: the Keys screen opens and the Enter is not an answer
    to the dialog underneath; back from the Keys screen, the dialog still answers once."""
    app = make_app(tmp_path)
    answers = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        dialog = _Hand("Hand 1", False)
        app.push_screen(dialog, callback=answers.append)
        await settle(pilot)
        for key, char in (("question_mark", "?"), ("enter", "\r")):
            app.post_message(events.Key(key, char))
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and answers == []
        assert sum(isinstance(screen, HelpScreen) for screen in app.screen_stack) == 1
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is dialog and app.screen.focused.id == "next"
        await pilot.press("enter")
        await settle(pilot)
        assert answers == ["next"]


async def test_question_mark_in_the_game_number_box_opens_the_keys(tmp_path):
    """The game-number box takes digits only, so «?» there still opens the Keys screen."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(GuinoteSetup())
        await settle(pilot)
        box = app.screen.query_one("#setup-seed", Input)
        box.focus()
        await pilot.press("1", "question_mark", "2")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert box.value == "1"


@pytest.mark.parametrize("game", TABLES)
async def test_unavailable_table_keys_are_dimmed_not_hidden(tmp_path, game):
    """While the cards are being dealt (or the CPU players are playing) the hint and play keys stay in
    the footer, dimmed, so that it does not jump about."""
    from textual.widgets._footer import FooterKey

    app = make_app(tmp_path, launch=("new", game, None, 1, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, GameScreen)
        table.dealing = True
        table.refresh_bindings()
        await settle(pilot)
        hint = app.screen.active_bindings["h"]
        assert hint.binding.show and not hint.enabled
        keys = {key.key: key for key in app.screen.query(FooterKey)}
        assert "h" in keys and keys["h"].has_class("-disabled")


@pytest.mark.parametrize("lang,theme,quit_text,search", [("en", "Theme", "Quit", "Search for commands…"),
                                                        ("es", "Tema", "Salir", "Busca una orden…")])
async def test_the_palette_speaks_the_ui_language(tmp_path, lang, theme, quit_text, search):
    from textual.command import CommandInput, CommandPalette

    app = make_app(tmp_path, lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert theme in titles and quit_text in titles
        assert titles.count(t("help")) == 1                   # one «Keys»: ours (Textual's panel is left out)
        if lang == "es":
            assert not {"Theme", "Quit", "Screenshot", "Maximize", "Minimize"} & set(titles)
        footer_labels = [str(key.description) for key in app.screen.query("FooterKey")]
        assert t("palette") in footer_labels
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == search
        await pilot.press("escape")
        await settle(pilot)
        app.action_change_theme()                              # the theme picker, from «Theme»
        await settle(pilot)
        assert app.screen.query_one(CommandInput).placeholder == t("palette_themes")
        assert app.screen.query_one(CommandInput).placeholder != "Search for themes…" or lang == "en"
