"""The play test of 3 Dec: damaged-save reasons in the player's language, the claim answer kept over a
save, checker amounts written as changes, the finished hand kept behind its results, the highlighted
button being the focused one, Spanish wording, card names, and what Enter does on the Guiñote table."""

import pytest
from textual.color import Color
from textual.widgets import Button

from cardtable import games, i18n
from cardtable.i18n import t
from cardtable.ui.guinote import ClaimScreen, ExchangeScreen
from tests.test_ui_guinote import launch, table
from tests.ui_helpers import make_app, settle

GUINOTE = games.get("guinote")


@pytest.fixture
def lang():
    before = i18n.language()
    yield i18n.set_language
    i18n.set_language(before)


# -- 3: a checker's cost and a hint's edge read as changes, never as a negative chance
@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game", ["guinote", "gongzhu", "guandan"])
def test_checker_and_hint_amounts_read_as_changes(lang, language, game):
    lang(language)
    advice = games.get(game).advice
    cost = advice.cost_text("X", 0.18)
    gain = advice.gain_text(0.18, "Y")
    for text in (cost, gain):
        assert "−" not in text and " -" not in text and "% chance" not in text, text
    if game == "guinote" and language == "en":
        assert cost == "The CPU would have played X: 9 points more chance of winning the hand"
        assert gain == "9 points more chance than Y"
    if game == "guinote" and language == "es":
        assert cost == "La CPU habría jugado X: 9 puntos más de probabilidad de ganar la mano"


# -- 5: the highlighted button is the focused one
def _highlighted(app, button: Button) -> bool:
    return button.styles.background == Color.parse(app.theme_variables["primary"])


async def test_the_claim_dialog_highlights_the_focused_safe_answer(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        answers = []
        app.push_screen(ClaimScreen(screen.match.view(0)), callback=answers.append)
        await pilot.pause()
        dialog = app.screen
        play_on, claim = dialog.query_one("#no", Button), dialog.query_one("#yes", Button)
        assert app.focused is play_on                       # the safe choice, from the first frame
        assert _highlighted(app, play_on) and not _highlighted(app, claim)
        await pilot.press("tab")
        assert app.focused is claim and _highlighted(app, claim) and not _highlighted(app, play_on)
        await pilot.press("shift+tab", "enter")
        await settle(pilot)
        assert answers == [False]


async def test_every_dialog_highlights_only_its_focused_button(tmp_path):
    """The exchange, the setup, the results and the settings: one highlighted button, the focused one."""
    from cardtable.ui.screens import SettingsScreen

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for dialog in (ExchangeScreen(screen.match.view(0)), screen.setup_screen(), SettingsScreen()):
            app.push_screen(dialog)
            await pilot.pause()
            buttons = list(dialog.query(Button))
            lit = [b for b in buttons if _highlighted(app, b)]
            assert lit == [app.focused], (type(dialog).__name__, [str(b.label) for b in lit])
            app.pop_screen()
            await pilot.pause()
