"""A dialog's key bar is drawn with the dialog, in its first frame: the results dialog of a hand showed a
blank key bar for a moment under load (issue 31: its Footer was mounted after the dialog's first frame
and filled in two frames later)."""

import pytest
from textual.widgets._footer import FooterKey

from cardtable.saves import SaveStore
from cardtable.ui.dialogs import HandEndDialog
from cardtable.ui.footer import DialogKeys
from cardtable.ui.gamescreen import GameScreen
from tests.test_ui_review import PLAYERS, _before_the_last_human_move
from tests.ui_helpers import make_app, settle, wait_until


def record_dialog_frames(app):
    """Wrap the app's display: for each frame drawn of a dialog with its own key bar, the keys of that
    bar on screen (the actions of the key widgets among the compositor's visible widgets, left to
    right, and whether the bar is in the compact spacing)."""
    frames: list[tuple[object, tuple]] = []
    display = app._display

    def recording(screen, renderable):
        if renderable is not None and isinstance(screen, DialogKeys):
            visible = screen._compositor.visible_widgets
            keys = sorted((region.x, widget.action, widget.compact) for widget, (region, _clip) in visible.items()
                          if isinstance(widget, FooterKey))
            frames.append((screen, tuple(keys)))
        return display(screen, renderable)

    app._display = recording
    return frames


@pytest.mark.parametrize("game,seed", [("gongzhu", 3), ("guinote", 5)])
async def test_the_results_dialog_draws_its_keys_in_its_first_frame(tmp_path, game, seed):
    match, move, _full = _before_the_last_human_move(game, seed)
    SaveStore(tmp_path / "saves").save("hand", match, PLAYERS)
    app = make_app(tmp_path, launch=("continue", "hand"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        frames = record_dialog_frames(app)
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert table.play(move, 0)
        await wait_until(pilot, lambda: isinstance(app.screen, HandEndDialog), timeout=30)
        await settle(pilot)
        dialog = app.screen
        drawn = [keys for screen, keys in frames if screen is dialog]
        assert drawn, "no frame of the results dialog was drawn"
        blank = next((index for index, keys in enumerate(drawn) if keys), len(drawn))
        assert blank == 0, f"the results' first {blank} frames had no keys"
        assert all(keys == drawn[-1] for keys in drawn), drawn     # the same keys from the first frame on
        assert "app.help" in [action for _x, action, _compact in drawn[-1]]


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_the_results_key_bar_fits_80_columns_with_its_help_key(tmp_path, lang):
    """Drawn at once, the key bar still turns to the compact spacing when its keys do not fit: «? Keys»
    (the last key) stays on the screen at 80 columns."""
    match, move, _full = _before_the_last_human_move("gongzhu", 3)
    SaveStore(tmp_path / "saves").save("hand", match, PLAYERS)
    app = make_app(tmp_path, launch=("continue", "hand"), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert table.play(move, 0)
        await wait_until(pilot, lambda: isinstance(app.screen, HandEndDialog), timeout=30)
        await settle(pilot)
        keys = [key for key in app.screen.query(FooterKey) if key.region.width]
        assert keys and keys[-1].action == "app.help", [key.action for key in keys]
        assert all(key.region.right <= 80 for key in keys), [(key.action, key.region) for key in keys]
