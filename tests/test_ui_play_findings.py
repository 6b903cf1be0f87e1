"""Findings of a keyboard play-test (80×24, en/es): each test reproduces what a player saw."""

from cardtable.review import review
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.guandan import GuandanScreen
from cardtable.ui.review import ReviewScreen
from tests.test_ui_review import _before_the_last_human_move, text_of
from tests.ui_helpers import assert_human_to_move, make_app, pinned_app, settle


def table(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def gd_status(screen) -> str:
    return str(screen.query_one("#gd-status").render())


# ---------------------------------------------------------------- Guiñote review: who took a trick
async def test_guinote_review_credits_a_pointless_trick_to_the_pair_that_took_it(tmp_path):
    """Trick 1 of a hand: «You take the trick», then «Points of the trick: Them +0» (the pair was picked
    by who scored, so a trick of no points always went to Them). Every trick's points name the pair of
    its winner, in en and es."""
    _match, _move, full = _before_the_last_human_move("guinote", 6)
    rv = review(full, 1)
    pointless_ours = [s.number for s in rv.steps if s.number and s.winner % 2 == 0 and s.gained[0] == 0]
    assert pointless_ours                     # the hand has the case: your pair takes a trick of 0 points
    for lang, us, them in (("en", "Us", "Them"), ("es", "Nosotros", "Ellos")):
        app = make_app(tmp_path, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = ReviewScreen(rv, "colour")
            app.push_screen(screen)
            await settle(pilot)
            for index, step in enumerate(rv.steps):
                if not step.number:
                    continue
                screen.go(index)
                await pilot.pause()
                first = text_of(screen, "#review-notes").splitlines()[0]
                side = step.winner % 2
                named = us if side == 0 else them
                assert f"{named} +{step.gained[side]}" in first, (lang, step.number, first)
                if step.number == 10:
                    assert first.count("(") == 1, first        # «(with +10 de últimas, the last trick)»


# ---------------------------------------------------------------- Guandan: nothing beats the table
async def test_guandan_says_pass_when_nothing_beats_a_winning_partner(tmp_path):
    """Your partner's pair of Qs is on the table and you can only pass. h said «Partner is winning the
    trick: pass (h again: plays that beat it)» though no play beats it, and Enter with nothing taken said
    «Take cards: ↑/Space on a column…», as if some could be taken. Both now say to pass."""
    app = pinned_app(tmp_path, "guandan-mid-hand")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert isinstance(screen, GuandanScreen)
        moves = len(screen.match.moves)
        assert_human_to_move(screen, moves)
        await pilot.press("h")
        await settle(pilot)
        assert gd_status(screen) == "No play beats the table: pass."
        await pilot.press("h")
        assert gd_status(screen) == "No play beats the table: pass."
        await pilot.press("enter")
        assert gd_status(screen) == "No play beats the table: pass."
        assert len(screen.match.moves) == moves             # nothing was played or passed
