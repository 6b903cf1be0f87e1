"""Textual matches CSS by class name: two screens or widgets with one name share each other's rules
(issue 15: Guandan's hand summary was 66 wide instead of 60 once a Guiñote summary had been shown)."""

import importlib
import inspect
import pkgutil

from textual.dom import DOMNode

import cardtable.ui
from cardtable.games.guandan.state import GuandanOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.ui import guandan, guinote
from tests.ui_helpers import make_app, settle

GUANDAN_RECORD = {"type": "hand_end", "hand": 9, "finish": [1, 0, 3, 2], "winner_team": 1, "level_up": 0,
                  "levels": ["A", "A"], "a_failures": [2, 0], "match_won": False}
GUINOTE_RECORD = {"type": "hand_end", "hand": 2, "winner": 0, "points": [90, 40], "cantes": [20, 0], "claim": None,
                  "totals": [110, 40], "ultimas": 0, "score": [1, 0], "cotos": [0, 0]}


def ui_classes():
    """Every screen and widget class defined in cardtable.ui, by module."""
    found = []
    for module_info in pkgutil.walk_packages(cardtable.ui.__path__, "cardtable.ui."):
        module = importlib.import_module(module_info.name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, DOMNode) and cls.__module__ == module.__name__]
    return found


def test_no_two_screens_or_widgets_in_the_ui_share_a_name():
    by_name = {}
    for cls in ui_classes():
        by_name.setdefault(cls.__name__, set()).add(f"{cls.__module__}.{cls.__qualname__}")
    assert len(by_name) > 20
    assert {name: where for name, where in by_name.items() if len(where) > 1} == {}


def dialog_width(app) -> int:
    return app.screen.query_one(".dialog").outer_size.width


async def test_a_guandan_summary_keeps_its_width_after_a_guinote_summary(tmp_path):
    guandan_summary = next(cls for cls in ui_classes() if cls.__module__.startswith(guandan.__name__)
                           and cls.__name__.endswith(("Summary", "SummaryScreen")))
    guinote_summary = next(cls for cls in ui_classes() if cls.__module__.startswith(guinote.__name__)
                           and cls.__name__.endswith(("Summary", "SummaryScreen")))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(guandan_summary(GUANDAN_RECORD, False, GuandanOptions()))
        await settle(pilot)
        alone = dialog_width(app)
        app.pop_screen()
        app.push_screen(guinote_summary(GUINOTE_RECORD, {"vueltas": False, "carry": [0, 0]}, GuinoteOptions(),
                                        False))
        await settle(pilot)
        guinote_width = dialog_width(app)
        app.pop_screen()
        app.push_screen(guandan_summary(GUANDAN_RECORD, False, GuandanOptions()))
        await settle(pilot)
        assert (alone, dialog_width(app), guinote_width) == (60, 60, 66)
