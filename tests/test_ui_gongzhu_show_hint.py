"""`h` at the Gong Zhu showing panel: the other tables answer `h` wherever the player decides; the panel
did nothing. It now asks the same search as at the table, ticks exactly the cards it would show and says
why on a line of the panel."""

import pytest
from textual.widgets import Checkbox, Static

from cardtable import games
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.hints import render
from cardtable.i18n import t
from cardtable.ui.gongzhu import GongZhuScreen, ShowPanel
from tests.test_truncation import truncated
from tests.ui_helpers import make_app, settle


def table(app) -> GongZhuScreen:
    return next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
@pytest.mark.parametrize("seed", [0, 24])       # 0: show nothing; 24: show the Goat
async def test_h_at_the_showing_panel_ticks_the_search_s_choice_and_says_why(tmp_path, lang, seed):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), seed, "normal"), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen
        assert isinstance(panel, ShowPanel)
        boxes = list(panel.query(Checkbox))
        await pilot.press("space")                    # a tick of the player's own, before asking
        await pilot.press("h")
        await settle(pilot)
        screen = table(app)
        hint = games.get("gongzhu").advice.hint(screen.seat.match.view(0))
        assert [box.value for box in boxes] == [card in hint.move.cards for card in panel.cards]
        line = panel.query_one("#show-hint", Static)
        assert line.display
        assert str(line.render()) == t("gz_show_hint", why=render(hint.reason, screen.param_text))
        assert truncated(app) == []
        await pilot.press("enter")                    # Enter plays on with the hinted choice
        await settle(pilot)
        assert tuple(screen.seat.match.shown[0]) == tuple(hint.move.cards)
