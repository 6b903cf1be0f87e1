"""The table's key bar after a move: its keys relabelled, greyed or lit in place (cardtable/ui/footer.py),
drawing what a rebuilt key bar draws."""

from textual.widgets._footer import FooterKey

from cardtable.ui.footer import Footer
from cardtable.ui.gongzhu import GongZhuScreen, ShowPanel
from tests.ui_helpers import make_app, settle


def drawn(footer):
    return [(key.key, key.description, key.has_class("-disabled")) for key in footer.query(FooterKey)]


async def test_a_lift_and_the_cpus_turn_change_the_keys_in_place_as_a_rebuild_would(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", None, 12345, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(10):                       # past the showing, to the person's play
            if isinstance(app.screen, ShowPanel):
                await pilot.press("escape")
                await settle(pilot)
            elif app.screen.seat.view().phase != "play" or app.screen.seat.view().to_move != 0:
                await settle(pilot)
        table = app.screen
        assert isinstance(table, GongZhuScreen) and table.seat.view().to_move == 0
        footer = table.query_one(Footer)
        widgets = list(footer.query(FooterKey))
        labels = drawn(footer)
        await pilot.press("enter")                # lift: Enter reads «Play» now
        await settle(pilot)
        assert list(footer.query(FooterKey)) == widgets            # the same key widgets
        relabelled = drawn(footer)
        assert relabelled != labels and [k for k, _, _ in relabelled] == [k for k, _, _ in labels]
        table.dealing = True                      # nobody may play: the table's keys grey
        table.refresh_bindings()
        await settle(pilot)
        assert list(footer.query(FooterKey)) == widgets
        greyed = drawn(footer)
        assert any(dim for _, _, dim in greyed) and greyed != relabelled
        footer.call_later(footer.recompose)       # what a rebuild draws is what was drawn in place
        await settle(pilot)
        assert list(footer.query(FooterKey)) != widgets and drawn(footer) == greyed
