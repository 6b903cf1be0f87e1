"""Issue 31, the third Gong Zhu play test: the hand's cursor, the match-over buttons beside the chart,
the showing panel's reason, the chart's axes and the Transformer's wording."""

import pytest

from cardtable.ui.gongzhu import GongZhuScreen
from cardtable.ui.widgets import HandView
from tests.ui_helpers import pinned_app, settle, wait_until


def screen_text(app) -> str:
    """What the terminal shows, as plain text."""
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


def table(app) -> GongZhuScreen:
    return next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))


# -- 5: the hand's cursor stops at the ends
async def test_the_hand_cursor_stops_at_the_ends(tmp_path):
    app = pinned_app(tmp_path, "gongzhu-mid-hand")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: any(isinstance(s, GongZhuScreen) for s in app.screen_stack))
        await settle(pilot)
        hand = table(app).query_one(HandView)
        assert len(hand.cards) > 1
        await pilot.press("end", "right", "right")
        assert hand.cursor == len(hand.cards) - 1, "→ on the last card does not wrap to the first"
        await pilot.press("home", "left")
        assert hand.cursor == 0, "← on the first card does not wrap to the last"


# -- 9: «Hands 0» is refused with the reason (it started silently as 1 of 1)
async def test_fixed_hands_0_is_refused_with_the_reason(tmp_path):
    from textual.widgets import Input, RadioSet

    from cardtable.ui.gongzhu import GongZhuSetup
    from tests.ui_helpers import make_app

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        answers = []
        dialog = GongZhuSetup()
        await app.push_screen(dialog, callback=answers.append)
        await settle(pilot)
        dialog.query_one("#gz-ending", RadioSet).focus()
        await pilot.press("right", "right", "space")
        hands = dialog.query_one("#gz-hands", Input)
        hands.value = "0"
        dialog.query_one("#setup-start").focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert answers == [] and app.screen is dialog and dialog.focused is hands
        assert any("from 1 to 1000" in str(n.message) for n in app._notifications)
        hands.value = "2"
        dialog.query_one("#setup-start").focus()
        await settle(pilot)
        start = dialog.query_one("#setup-start")     # (a Button ignores a press while its last one shows)
        await wait_until(pilot, lambda: not start.has_class("-active"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: answers, timeout=10)
        assert answers[0][0].max_hands == 2 and answers[0][0].target == 0


# -- 12: «Match over» keeps its buttons in sight beside the chart
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_match_end_buttons_show_with_the_chart(tmp_path, size):
    from textual.widgets import Button

    from cardtable.ui.dialogs import RunningScoreChart
    from tests.test_ui_charts import ALMOST, _to_match_end

    app = pinned_app(tmp_path, ALMOST)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await _to_match_end(pilot, app)
        await settle(pilot)
        dialog = app.screen.query_one(".dialog")
        assert app.screen.query(RunningScoreChart)
        inner = dialog.content_region
        for button in app.screen.query(Button):
            assert inner.contains_region(button.region), (button.id, button.region, inner)
            assert "New game" in str(button.label) or "Home" in str(button.label)


# -- 15: the charts' axes: whole numbers at round steps, with «−»
def test_value_ticks_are_whole_round_steps():
    from cardtable.ui.chartaxes import tick_labels, value_ticks

    assert value_ticks([300, 143.3, -170]) == [-200, 0, 200, 400]
    assert value_ticks([2.5, 3.0]) == [2, 3]
    assert value_ticks([0, 37, 95]) == [0, 50, 100]
    assert value_ticks([-640, 0, 15]) == [-800, -600, -400, -200, 0, 200]
    assert tick_labels([-200, 0, 200], "unicode") == ["\u2212200", "0", "200"]
    assert tick_labels([-200], "ascii") == ["-200"]


async def test_the_match_end_chart_writes_whole_ticks_with_the_minus_sign(tmp_path):
    import re

    from textual_plotext import PlotextPlot

    from tests.test_ui_charts import ALMOST, _to_match_end

    app = pinned_app(tmp_path, ALMOST)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await _to_match_end(pilot, app)
        await settle(pilot)
        plot = app.screen.query_one(PlotextPlot)
        drawn = re.sub(r"\x1b\[[0-9;]*m", "", plot.plt.build())
        assert "\u2212" in drawn and not re.search(r"\d\.\d", drawn), drawn
        assert "-" not in re.sub(r"[─┬┴┼├┤┌┐└┘│]", "", drawn).replace("−", ""), drawn


# -- 16: a shown Transformer «multiplied by 4», not «doubled (×4)»
@pytest.mark.parametrize("language, x4, x2", [
    ("en", "multiplied the hand by 4", "doubled the hand"),
    ("es", "multiplicó la mano por 4", "dobló la mano"),
])
async def test_the_results_say_multiplied_by_4(tmp_path, lang, language, x4, x2):
    from cardtable.ui.gongzhu import ResultsScreen
    from tests.ui_helpers import make_app

    lang(language)
    line = {"hearts": 0, "pig": 0, "goat": 0, "base": 0, "transformer": "none", "hand": 0, "total": 0}
    lines = [dict(line, transformer="x4", base=50, hand=200, total=200), dict(line, transformer="x2", base=10,
             hand=20, total=20), dict(line), dict(line)]
    record = {"hand": 1, "lines": lines, "taken": [["10C"], ["10C"], [], []]}
    app = make_app(tmp_path, lang=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(ResultsScreen(record, False))
        await settle(pilot)
        body = screen_text(app)
        assert x4 in body and x2 in body
        assert "doubled (×4)" not in body and "dobló (×4)" not in body


# -- 13: the showing panel's «show nothing» gives its reason
async def test_the_show_panels_hint_to_show_nothing_says_why(tmp_path):
    """Seed 0: the search shows nothing while the hand holds the Pig (♠Q), the Goat and the ♥A: the hint
    says what showing the Pig would risk, not only «nothing is worth showing»."""
    from textual.widgets import Static

    from cardtable.games.gongzhu.state import GongZhuOptions
    from cardtable.ui.gongzhu import ShowPanel
    from tests.ui_helpers import make_app

    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), 0, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen
        assert isinstance(panel, ShowPanel)
        await pilot.press("h")
        await settle(pilot)
        line = str(panel.query_one("#show-hint", Static).render())
        assert "show nothing: a shown Pig is \u2212200 for its taker, maybe you" in line, line


# -- the Spanish list: the house rule about ♥2–4 says what it means, and fits 80 columns
async def test_the_zero_hearts_house_rule_reads_whole_in_spanish(tmp_path):
    from cardtable.ui.gongzhu import GongZhuSetup
    from tests.ui_helpers import make_app

    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(GongZhuSetup())
        await settle(pilot)
        text = screen_text(app)
        assert "El ♣10 con ♥2–4 (sin puntos) sigue «solo»: +50 (regla de la casa)" in text, text


# -- the layout list: side plates never leave «−100» alone on a line; wider where there is room
def test_a_side_plate_puts_the_total_on_its_own_line_rather_than_cut_it(lang):
    import dataclasses

    from cardtable import games
    from cardtable.ui.gongzhu.widgets import seat_plate

    lang("es")
    view = games.get("gongzhu").new_match(seed=3).view(0)
    view = dataclasses.replace(view, totals=(0, -100, 0, 0))
    lines = [line.plain for line in seat_plate(view, 1, 13, "unicode", width=20).lines]
    assert lines[:2] == ["13 cartas", "total \u2212100"], lines
    lines = [line.plain for line in seat_plate(view, 1, 13, "unicode", width=26).lines]
    assert lines[0] == "13 cartas  total \u2212100", lines


async def test_the_side_plates_widen_at_120_columns(tmp_path):
    for size, width in (((80, 24), 24), ((120, 40), 30)):
        app = pinned_app(tmp_path / str(width), "gongzhu-mid-hand", lang="es")
        async with app.run_test(size=size) as pilot:
            await wait_until(pilot, lambda app=app: any(isinstance(s, GongZhuScreen) for s in app.screen_stack))
            await settle(pilot)
            screen = table(app)
            assert screen.query_one("#gz-west").outer_size.width == width
            assert screen.query_one("#gz-east").outer_size.width == width
