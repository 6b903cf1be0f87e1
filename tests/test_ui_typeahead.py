"""Type-ahead: keys typed while a game launches never reach the wrong screen or a table that is not
mounted yet (F1), and every dialog has its safe forward button focused from its first frame (F2)."""

import asyncio
import random

import pytest
from textual import events
from textual.screen import Screen
from textual.widgets import Label, Static

from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog, SetupDialog
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.gongzhu import GongZhuSetup
from cardtable.ui.guandan import GuandanSetup
from cardtable.ui.guinote import GuinoteSetup
from cardtable.ui.home import HomeScreen
from cardtable.ui.screens import SettingsScreen
from tests.ui_helpers import make_app, settle

# Keys a player types at a table (no Esc/q/c: those leave it on purpose).
TABLE_KEYS = ["enter", "space", "up", "down", "left", "right", "h", "p", "x", "s", "n", "l"]
CHARS = {"enter": "\r", "space": " "}


def key_event(key):
    return events.Key(key, CHARS.get(key, key if len(key) == 1 else None))


async def type_ahead(app, keys, every=0.02, watch=None):
    """Post keys to the app as a terminal would, every ``every`` seconds, without waiting for the app
    to handle them; ``watch()`` is called after each. ``every=None``: all at once, as one read of the
    terminal delivers them."""
    for key in keys:
        app.post_message(key_event(key))
        if every is not None:
            await asyncio.sleep(every)
        if watch is not None:
            watch()


def stack_census(app):
    return (sum(isinstance(s, SetupDialog) for s in app.screen_stack),
            sum(isinstance(s, GameScreen) for s in app.screen_stack))


@pytest.mark.parametrize("game", ["guandan", "gongzhu", "guinote"])
@pytest.mark.parametrize("every", [None, 0.02])
async def test_keys_typed_as_a_game_opens_never_reach_an_unready_table(tmp_path, game, every):
    rng = random.Random(game)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.call_later(app.start_game, game, None, 3)     # the keys queue up behind the launch
        await type_ahead(app, [rng.choice(TABLE_KEYS) for _ in range(40)], every=every)
        await settle(pilot)
        assert stack_census(app)[1] == 1
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert table.is_mounted


@pytest.mark.parametrize("every", [None, 0.02])
async def test_enters_typed_ahead_on_home_open_one_setup_dialog_then_one_table(tmp_path, every):
    app = make_app(tmp_path)
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        for _ in range(10):
            await type_ahead(app, ["enter"] * 4, every=every, watch=lambda: seen.append(stack_census(app)))
            await asyncio.sleep(0.02)
            seen.append(stack_census(app))
        await settle(pilot)
        seen.append(stack_census(app))        # on a loaded machine the dialog may open after the last round
        assert max(setups for setups, _ in seen) <= 1
        assert max(tables for _, tables in seen) == 1
        assert stack_census(app) == (0, 1)


async def test_a_double_press_on_a_dialog_button_answers_once(tmp_path):
    """Two Enters reach the focused button before the dialog handles the first press: the second
    answer must not pop the screen below."""
    app = make_app(tmp_path)
    answers = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(GuandanSetup(), callback=answers.append)
        await settle(pilot)
        start = app.screen.query_one("#setup-start")
        start.press()
        start.press()
        await settle(pilot)
        assert len(answers) == 1
        assert isinstance(app.screen, HomeScreen)


class _Hand(HandEndDialog):
    def body(self):
        yield Label("body")


class _Match(MatchEndDialog):
    def body(self):
        yield Label("body")


def first_focus_probe(cls):
    """A subclass that notes what is focused when the screen is first shown."""

    def on_screen_resume(self):
        if not hasattr(self, "first_focused"):
            self.first_focused = self.focused

    return type(f"Probe{cls.__name__}", (cls,), {"on_screen_resume": on_screen_resume})


DIALOGS = [
    (lambda: first_focus_probe(_Hand)("Hand 1", False), "next"),
    (lambda: first_focus_probe(_Hand)("Hand 9", True), "next"),
    (lambda: first_focus_probe(_Match)({"type": "match_end"}), "new"),
    (lambda: first_focus_probe(GuandanSetup)(), "setup-start"),
    (lambda: first_focus_probe(GongZhuSetup)(), "setup-start"),
    (lambda: first_focus_probe(GuinoteSetup)(), "setup-start"),
    (lambda: first_focus_probe(SettingsScreen)(), "settings-ok"),
]


@pytest.mark.parametrize("make,default", DIALOGS)
async def test_the_safe_forward_button_is_focused_from_the_first_frame(tmp_path, make, default):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = make()
        app.push_screen(dialog)
        await settle(pilot)
        assert dialog.first_focused is not None and dialog.first_focused.id == default


@pytest.mark.parametrize("dialog,answer", [(lambda: _Hand("Hand 1", False), "next"),
                                           (lambda: _Match({"type": "match_end"}), "new")])
async def test_enter_typed_as_the_dialog_opens_goes_forward(tmp_path, dialog, answer):
    app = make_app(tmp_path)
    answers = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(dialog(), callback=answers.append)
        await type_ahead(app, ["enter"] * 3, every=0.005)
        await settle(pilot)
        assert answers == [answer]



class _Opener(Screen):
    """A screen whose focused widget answers «x» by opening the next screen, as the home screen's list
    answers Enter by opening the setup dialog; the key then bubbles on up to the app."""

    def compose(self):
        yield _OpensOnX()


class _OpensOnX(Static, can_focus=True):
    def on_key(self, event):
        if event.key == "x":
            self.app.push_screen(_Bound())


class _Bound(Screen):
    BINDINGS = [("x", "hit", "hit")]
    hits = 0

    def compose(self):
        yield Label("next")

    def action_hit(self):
        type(self).hits += 1


async def test_a_key_never_acts_on_the_screen_it_opened(tmp_path):
    """F1: a key typed at one screen that opens another must not also run the new screen's binding for
    the same key when it bubbles up to the app (Enter on home opened the setup dialog and could start a
    game; Enter at a dialog reached a Guandan table not composed yet: NoMatches ColumnsView)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(_Opener())
        await settle(pilot)
        app.screen.query_one(_OpensOnX).focus()
        _Bound.hits = 0
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, _Bound) and _Bound.hits == 0
        await pilot.press("x")                # typed at the new screen: its binding works
        await settle(pilot)
        assert _Bound.hits == 1
