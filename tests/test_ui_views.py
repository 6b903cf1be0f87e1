"""The tables draw from the human's view only (issue 15): what a served or multi-human table will
have. A fake seat that shows nothing but its ``view`` draws the same table as the real one."""

import pytest

from cardtable.ui.gamescreen import GameScreen
from tests.ui_helpers import ViewOnlySeat, make_app, settle


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("game,seed", [("guandan", 3), ("gongzhu", 5), ("guinote", 3)])
async def test_a_table_draws_from_the_view_alone(tmp_path, game, seed):
    app = make_app(tmp_path, launch=("new", game, None, seed, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, GameScreen) and table.seat.match.to_move() == 0
        table.refresh_table()
        await settle(pilot)
        before = screen_text(app)
        real, table.seat = table.seat, ViewOnlySeat(table.seat.match)
        try:
            table.refresh_table()
            table.refresh_bindings()
            await settle(pilot)
            assert screen_text(app) == before
        finally:
            table.seat = real
