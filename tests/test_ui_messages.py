"""The tables' widgets talk to their screen with Messages (issue 15): a click on a widget posts the
widget's message and the screen's ``@on`` handler does the work; no widget calls its screen."""

import ast
import inspect
import textwrap

import pytest
from textual.screen import Screen
from textual.widget import Widget

from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.games.guandan.state import GuandanOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.guandan import ColumnsView, PlayControl
from cardtable.ui.widgets import HandView
from tests.test_ui_names import ui_classes
from tests.ui_helpers import make_app, settle


def posted(seen, kind) -> list:
    """The messages of ``kind`` the hook saw, each once (the hook sees a message at every node it
    bubbles through)."""
    return list({id(m): m for m in seen if isinstance(m, kind)}.values())


def table(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def wait_for_my_turn(pilot, screen):
    for _ in range(50):                       # bounded: a crashed app must fail, not hang
        if screen.seat.match.to_move() == 0:
            return
        await settle(pilot)
    raise AssertionError("the human never got the turn")


@pytest.mark.parametrize("game,options", [("gongzhu", GongZhuOptions(swap=False, showing=False)),
                                          ("guinote", GuinoteOptions())])
async def test_a_click_on_a_card_reaches_the_table_as_hand_view_chosen(tmp_path, game, options):
    seen = []
    app = make_app(tmp_path, launch=("new", game, options, 5, "normal"))
    async with app.run_test(size=(100, 30), message_hook=seen.append) as pilot:
        await settle(pilot)
        screen = table(app)
        await wait_for_my_turn(pilot, screen)
        await settle(pilot)
        hand = screen.query_one(HandView)
        view = screen.seat.match.view(0)
        playable = {getattr(move, "card", None) for move in view.legal}
        index = next(i for i, card in enumerate(hand.cards) if card in playable)
        await pilot.click(HandView, offset=(hand._offset() + index * hand.SLOT + 1, 1))
        await settle(pilot, 1)
        chosen = posted(seen, HandView.Chosen)
        assert [(m.control, m.index) for m in chosen] == [(hand, index)]
        assert hand.cursor == index and hand.lifted == index          # the screen's handler lifted it
        before = len(screen.seat.match.moves)
        await pilot.click(HandView, offset=(hand._offset() + index * hand.SLOT + 1, 0))  # the lifted card
        await settle(pilot)
        assert screen.seat.match.moves[before][0] == 0                         # ... and the second click played it


async def test_column_clicks_and_the_play_control_reach_the_guandan_table_as_messages(tmp_path):
    seen = []
    app = make_app(tmp_path, launch=("new", "guandan", GuandanOptions(), 5, "normal"))
    async with app.run_test(size=(80, 24), message_hook=seen.append) as pilot:
        await settle(pilot)
        screen = table(app)
        await wait_for_my_turn(pilot, screen)
        columns = screen.query_one(ColumnsView)
        first = columns._offset() + 2
        await pilot.click(ColumnsView, offset=(first, 1))                 # the top card of the first column
        await settle(pilot, 1)
        assert [m.control for m in posted(seen, ColumnsView.SelectionChanged)] == [columns]
        taken = columns.selection()
        assert len(taken) == 1
        assert screen.query_one(PlayControl).label != ""                  # the screen named the selection
        await pilot.click(PlayControl)
        await settle(pilot)
        assert [m.control for m in posted(seen, PlayControl.Pressed)] == [screen.query_one(PlayControl)]
        seat, move = screen.seat.match.moves[0]
        assert seat == 0 and list(move.cards) == taken                    # the screen's action_play played it


def test_no_widget_of_the_ui_calls_its_screen_or_app():
    """Widgets post Messages; screens and the app do the work (no ``self.screen.x`` or ``self.app.x``
    inside a widget class)."""
    callers = []
    for cls in ui_classes():
        if not issubclass(cls, Widget) or issubclass(cls, Screen):
            continue
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(cls)))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"
                    and node.value.attr in ("screen", "app")):
                callers.append(f"{cls.__module__}.{cls.__qualname__}: self.{node.value.attr}.{node.attr}")
    assert callers == []
