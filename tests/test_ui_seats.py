"""One seat plate for the three tables (issue 15): every table draws its opponents with the shared
``SeatPanel``, filled with the lines its game builds from the view."""

import importlib
import inspect
import pkgutil

import pytest
from rich.text import Text
from textual.app import App
from textual.color import Color
from textual.theme import BUILTIN_THEMES, Theme

import cardtable.ui
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.games.guandan.state import GuandanOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.ui import seats
from cardtable.ui.seats import Plate, SeatPanel
from tests.ui_helpers import make_app, settle

TABLES = [("guandan", GuandanOptions(), "gd"), ("guinote", GuinoteOptions(), "gn"),
          ("gongzhu", GongZhuOptions(swap=False, showing=False), "gz")]


@pytest.mark.parametrize("game,options,prefix", TABLES)
async def test_every_table_draws_its_three_opponents_with_the_one_seat_panel(tmp_path, game, options, prefix):
    text = importlib.import_module(f"cardtable.ui.{game}.text")
    app = make_app(tmp_path, launch=("new", game, options, 5, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        panels = list(app.screen.query(SeatPanel))
        assert [type(panel) for panel in panels] == [SeatPanel] * 3
        assert {panel.id for panel in panels} == {f"{prefix}-west", f"{prefix}-north", f"{prefix}-east"}
        assert {str(panel.border_title) for panel in panels} == {text.seat_name(seat) for seat in (1, 2, 3)}
        assert all(str(panel.render()).strip() for panel in panels)


def test_no_table_keeps_a_seat_panel_class_of_its_own():
    panels = set()
    for module_info in pkgutil.walk_packages(cardtable.ui.__path__, "cardtable.ui."):
        module = importlib.import_module(module_info.name)
        panels |= {cls for _, cls in inspect.getmembers(module, inspect.isclass) if cls.__name__.endswith("SeatPanel")}
    assert panels == {SeatPanel}


async def test_a_plate_shows_its_name_lines_turn_and_partner():
    class Host(App):
        def get_theme_variable_defaults(self):          # the frame colours, as the card table app gives them
            return seats.frame_variables(self.current_theme)

        def compose(self):
            yield SeatPanel()

    async with Host().run_test() as pilot:
        panel = pilot.app.query_one(SeatPanel)
        panel.show_plate(Plate("North", [Text("9 cards"), Text("passed")], to_move=True, partner=True))
        await pilot.pause()
        assert panel.border_title == "North" and str(panel.render()) == "9 cards\npassed"
        assert panel.has_class("to-move") and panel.has_class("partner")
        panel.show_plate(Plate("West", [Text("3 cards")]))
        await pilot.pause()
        assert not panel.has_class("to-move") and not panel.has_class("partner")


LIGHT_THEMES = [name for name, theme in BUILTIN_THEMES.items() if not theme.dark and not name.startswith("ansi")]
DARK_THEMES = [name for name, theme in BUILTIN_THEMES.items() if theme.dark]


@pytest.mark.parametrize("theme_name", LIGHT_THEMES)
def test_the_frames_stand_out_on_every_light_theme(theme_name):
    """Issue 15: the plates' borders were #FAFAFA on #E0E0E0 under textual-light."""
    theme = BUILTIN_THEMES[theme_name]
    background = Color.parse(theme.to_color_system().generate()["background"])
    for name, value in seats.frame_variables(theme).items():
        assert seats.contrast(Color.parse(value), background) >= seats.FRAME_CONTRAST, name


@pytest.mark.parametrize("theme_name", DARK_THEMES)
def test_dark_themes_keep_textuals_own_frame_colours(theme_name):
    system = BUILTIN_THEMES[theme_name].to_color_system().generate()
    assert seats.frame_variables(BUILTIN_THEMES[theme_name]) == {
        name: system[source] for name, source in seats.FRAMES.items()}


async def test_the_seat_borders_follow_the_theme_and_a_theme_may_set_its_own(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(swap=False, showing=False), 5, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        plate = next(panel for panel in app.screen.query(SeatPanel) if not panel.has_class("to-move"))
        assert plate.styles.border_top[1] == Color.parse(BUILTIN_THEMES["textual-dark"].to_color_system()
                                                         .generate()["panel-lighten-2"])
        app.theme = "textual-light"
        await settle(pilot)
        background = Color.parse(BUILTIN_THEMES["textual-light"].to_color_system().generate()["background"])
        assert seats.contrast(plate.styles.border_top[1], background) >= seats.FRAME_CONTRAST
        app.register_theme(Theme("own", primary="#004578", dark=False, variables={"seat-border": "#123456"}))
        app.theme = "own"
        await settle(pilot)
        assert plate.styles.border_top[1] == Color.parse("#123456")
