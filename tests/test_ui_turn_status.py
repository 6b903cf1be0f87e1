"""Issue 9, bug 7: before the first lead the table names the seat that will lead, not the seat still
deciding something. Gong Zhu's showing is such a moment; Guiñote's (the exchange of the 7) is covered in
test_ui_guinote (the status says who may exchange)."""

from cardtable import games
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.ui.gongzhu import GongZhuScreen, ShowPanel
from cardtable.ui.widgets import TrickView
from tests.ui_helpers import make_app, settle


async def test_gongzhu_status_names_the_leader_while_cards_are_shown(tmp_path):
    match = games.get("gongzhu").new_match(GongZhuOptions(showing=True), 42)
    assert match.log[0]["leader"] == 1 and match.to_move() == 0     # West leads; you decide what to show
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(showing=True), 42, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ShowPanel)
        screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
        text = str(screen.query_one(TrickView).render())
        assert "West to play" in text and "Your turn" not in text and "East" not in text.split("\n")[-1]
