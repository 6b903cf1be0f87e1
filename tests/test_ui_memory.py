"""The tables do not grow hand after hand: the number of live widgets stays flat while hands are played
headless (it grew by ~600 discarded footer keys per Guandan hand: Textual issue #6666)."""

import dataclasses

import pytest
from textual.widgets import Footer

from cardtable import workers
from cardtable.ui.autoplay import live_widgets, play_hands, settle, table_of
from cardtable.ui.footer import shown_keys
from tests import thinking
from tests.ui_helpers import make_app

LAUNCHES = {
    "guandan": ("new", "guandan", None, 1, "normal"),
    "gongzhu": ("new", "gongzhu", None, 1, "normal"),
    "guinote": ("new", "guinote", None, 1, "normal"),
}


@pytest.mark.parametrize("game,hands", [("guandan", 2), ("gongzhu", 2), ("guinote", 2)])
async def test_live_widgets_stay_flat_over_hands(tmp_path, monkeypatch, game, hands):
    # The hint key is pressed before each of the human's moves (its answer changes the selection): the
    # worker answers from a tenth of the search, as the count of widgets does not depend on the move
    # named (a full hint took ~0.4 s of CPU, some 50 a test).
    monkeypatch.setattr(workers, "hint", thinking.quick_hint)
    app = make_app(tmp_path, launch=LAUNCHES[game])
    counts = {}
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        played = await play_hands(pilot, hands, on_hand=lambda n: counts.__setitem__(n, live_widgets()))
        assert played == hands
    growth = counts[hands] - counts[1]
    assert growth <= 8, f"live widgets grew from {counts[1]} to {counts[hands]} in {hands - 1} hands"


async def test_refreshing_the_table_does_not_rebuild_the_footer(tmp_path):
    app = make_app(tmp_path, launch=LAUNCHES["gongzhu"])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = table_of(app)
        footer = screen.query_one(Footer)
        keys = list(footer.children)
        before = live_widgets()
        for _ in range(50):
            screen.refresh_table()
            screen.refresh_bindings()
            await pilot.pause()
        assert list(footer.children) == keys            # the same key widgets, not rebuilt copies
        assert live_widgets() <= before
        assert shown_keys(screen) == footer._shown


async def test_the_footer_follows_a_change_of_bindings(tmp_path):
    """Only unchanged bindings are skipped: a new label (another language) still reaches the footer."""
    app = make_app(tmp_path, launch=LAUNCHES["gongzhu"], lang=None, language="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        footer = table_of(app).query_one(Footer)
        assert "Continue later" in [str(key.description) for key in footer.query("FooterKey")]
        app.apply_settings(dataclasses.replace(app.settings, language="es"))
        await settle(pilot)
        labels = [str(key.description) for key in footer.query("FooterKey")]
        assert "Seguir luego" in labels and "Continue later" not in labels, labels
