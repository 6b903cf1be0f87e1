"""One minus sign in the whole UI: the typographic «−» (U+2212), as the hints and the showing panel
already wrote it; the plates, the results, the match's end and the reviews wrote an ASCII «-140»."""

import dataclasses
import re

import pytest
from rich.console import Console

from cardtable import games
from cardtable.i18n import set_language
from cardtable.ui.gongzhu.dialogs import results_table
from cardtable.ui.gongzhu.widgets import seat_plate
from cardtable.ui.numbers import in_style, signed
from cardtable.ui.review import hand_result

ASCII_NEGATIVE = re.compile(r"(?<![\w-])-\d")


def rendered(renderable) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


def test_signed_writes_the_typographic_minus_and_ascii_in_the_ascii_style():
    assert signed(-140, "colour") == "\u2212140" and signed(60, "four") == "+60" and signed(0, "colour") == "+0"
    assert signed(0, "colour", zero="0") == "0" and signed(-5, "colour", 5) == "   \u22125"
    assert signed(-140, "ascii") == "-140" and in_style("\u2212100 \u2192 \u2212200", "ascii") == "-100 \u2192 -200"


@pytest.mark.parametrize("style", ["colour", "four"])
def test_a_gongzhu_plate_writes_a_negative_total_with_the_minus_sign(style):
    view = games.get("gongzhu").new_match(seed=1).view(0)
    view = dataclasses.replace(view, totals=(-140, -20, 60, 100))
    text = "\n".join(line.plain for line in seat_plate(view, 1, 13, style).lines)
    assert "\u221220" in text and not ASCII_NEGATIVE.search(text)
    ascii_text = "\n".join(line.plain for line in seat_plate(view, 1, 13, "ascii").lines)
    assert "-20" in ascii_text and "\u2212" not in ascii_text


def record_with_negatives():
    lines = [{"hearts": -30, "pig": -100, "goat": 0, "base": -130, "transformer": "none", "hand": -130,
              "total": -140}] + [{"hearts": -10, "pig": 0, "goat": 100, "base": 90, "transformer": "none",
                                  "hand": 90, "total": 60}] * 3
    return {"hand": 3, "lines": lines, "taken": [["QS", "AH"], [], [], []], "totals": [-140, 60, 60, 60],
            "winners": [1], "pig": [0]}


def test_the_gongzhu_results_and_the_hand_list_write_the_minus_sign():
    record = record_with_negatives()
    for text in (rendered(results_table(record, "colour")), hand_result("gongzhu", record)):
        assert "\u2212130" in text and not ASCII_NEGATIVE.search(text), text
    for text in (rendered(results_table(record, "ascii")), hand_result("gongzhu", record, "ascii")):
        assert "-130" in text and "\u2212" not in text, text
