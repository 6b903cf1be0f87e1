"""Findings of a keyboard play-test (80×24, en/es): each test reproduces what a player saw."""

from cardtable.review import review
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.guandan import GuandanScreen
from cardtable.ui.review import ReviewScreen
from tests.test_ui_review import _before_the_last_human_move, text_of
from tests.ui_helpers import assert_human_to_move, make_app, pinned_app, settle, wait_until


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
        moves = len(screen.seat.match.moves)
        assert_human_to_move(screen, moves)
        await pilot.press("h")
        await settle(pilot)
        assert gd_status(screen) == "No play beats the table: pass."
        await pilot.press("h")
        assert gd_status(screen) == "No play beats the table: pass."
        await pilot.press("enter")
        assert gd_status(screen) == "No play beats the table: pass."
        assert len(screen.seat.match.moves) == moves             # nothing was played or passed


# ---------------------------------------------------------------- Gong Zhu: the showing panel
async def test_gongzhu_show_panel_moves_between_the_cards_with_the_arrows(tmp_path):
    """The showing panel is a list of cards to tick: ↓ did nothing (only Tab moved), so Space, ↓, Space
    ticked and unticked the Pig instead of showing the Goat. ↓ and ↑ now go to the next and previous."""
    from textual.widgets import Checkbox

    from cardtable.games.gongzhu.state import GongZhuOptions
    from cardtable.ui.gongzhu import ShowPanel

    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), 0, "normal"))  # Q♠ J♦ A♥
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ShowPanel)
        boxes = list(app.screen.query(Checkbox))
        assert len(boxes) == 3 and app.screen.focused is boxes[0]
        await pilot.press("down", "space")
        assert app.screen.focused is boxes[1]
        assert [box.value for box in boxes] == [False, True, False]
        await pilot.press("down", "up", "up")
        assert app.screen.focused is boxes[0]
        await pilot.press("enter")                  # shows the Goat and plays on
        await settle(pilot)
        assert [card.code for card in table(app).seat.match.shown[0]] == ["JD"]


# ---------------------------------------------------------------- the results of a hand at 80×24
async def test_hand_results_with_the_checkers_notes_keep_their_buttons_on_an_80x24_screen(tmp_path):
    """Guandan hand 1 lost 1-2 with three plays flagged by the checker: the notes wrapped onto two lines
    each and the dialog ran past the screen's last row, so «Review the hand», «Continue later» and
    «Next hand» were not shown at all. The results now scroll (↓) between the title and the buttons."""
    from textual.containers import VerticalScroll
    from textual.widgets import Button

    from cardtable.games.guandan.state import GuandanOptions
    from cardtable.ui.guandan import GuandanSummary

    record = {"type": "hand_end", "hand": 1, "finish": [1, 3, 0, 2], "winner_team": 1, "level_up": 3,
              "levels": ["2", "5"], "a_failures": [0, 0], "match_won": False}
    flags = ["The CPU would have played Single K: 0.8 levels better on average",
             "The CPU would have played Pair of 7s: 2.5 levels better on average",
             "The CPU would have played Single Q: 1.5 levels better on average"]
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = GuandanSummary(record, False, GuandanOptions())
        dialog.flags = flags
        chosen = []
        app.push_screen(dialog, callback=chosen.append)
        await settle(pilot)
        buttons = list(dialog.query(Button))
        assert [str(b.label) for b in buttons] == ["Review the hand", "Continue later", "Next hand"]
        for button in buttons:
            region = button.region
            assert region.height == 3 and region.y >= 0 and region.bottom <= 24, (button.label, region)
        body = dialog.query_one("#hand-end-body", VerticalScroll)
        assert body.max_scroll_y > 0                  # taller than its room: it scrolls, the buttons stay
        for row in (1, 2):                            # a scroll lands after the next refresh: one at a time
            await pilot.press("down")
            await wait_until(pilot, lambda row=row: body.scroll_y == row)
        await pilot.press("enter")
        await settle(pilot)
        assert chosen == ["next"]


# ---------------------------------------------------------------- Guiñote hints: cards in a reason
async def test_guinote_hint_reasons_name_their_cards_with_articles_and_a_list(tmp_path):
    """«Pista: 3 de copas — arrastra: tienes As de copas 3 de copas»: the cards of a reason were written
    one after the other without article or «y». They read as the table's sentences do."""
    from types import SimpleNamespace

    from cardtable import hints
    from cardtable.cards import parse_spanish_card

    as_c, tres_c, sota_o = (parse_spanish_card(code) for code in ("1C", "3C", "10O"))
    for lang, draw, give in (
            ("es", "Pista: 3 de copas — arrastra: tienes el As de copas y el 3 de copas",
             "Pista: 3 de copas — la baza está perdida: da la Sota de oros"),
            ("en", "Hint: 3 de copas — draws trumps: you hold the As de copas and the 3 de copas",
             "Hint: 3 de copas — the trick is lost: gives the Sota de oros")):
        app = pinned_app(tmp_path / lang, "guinote-mid-hand", lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = table(app)

            def line(key, screen=screen, **params):
                hint = SimpleNamespace(move=tres_c, reason=hints.Reason.of(key, **params), gain=None,
                                       runner_up=None)
                return screen.hint_text(hint)

            assert line("gn_why_draw_trumps", cards=(as_c, tres_c)) == draw
            assert line("gn_why_give", card=sota_o) == give


# ---------------------------------------------------------------- home: the saved games
async def test_home_lists_each_saved_game_on_one_line_in_spanish(tmp_path):
    """«guandan-20261201-204339  Guandan · mano 3 al 8 · niveles: nosotros 2, ellos» and «8» alone on the
    next line: at 80 columns a Spanish Guandan save wrapped. Each save is one line (cut with «…»)."""
    from cardtable import games
    from cardtable.saves import SaveStore

    store = SaveStore(tmp_path / "saves")
    players = ["human", "cpu:normal", "cpu:normal", "cpu:normal"]
    for slot, game in (("guandan-20261201-204339", "guandan"), ("gongzhu-20261201-203712", "gongzhu")):
        store.save(slot, games.get(game).new_match(seed=3), players)
    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
        title = next(i for i, line in enumerate(lines) if "Partidas guardadas" in line)
        shown = [line for line in lines[title + 1:title + 4] if line.strip()]
        assert len(shown) == 2, shown
        assert shown[0].lstrip().startswith("gongzhu-") or shown[0].lstrip().startswith("guandan-")
        assert all(line.lstrip().split()[0].startswith(("guandan-", "gongzhu-")) for line in shown), shown
        guandan = next(line for line in shown if "guandan-" in line)
        assert "niveles" in guandan and len(guandan) <= 80


# ---------------------------------------------------------------- Home / End along the hand
async def test_home_and_end_go_to_the_first_and_last_card_of_the_hand(tmp_path):
    """In Gong Zhu and Guiñote Home and End did nothing (Guandan's columns and the review have them):
    they now put the cursor on the first and the last card, nothing lifted."""
    from cardtable.ui.widgets import HandView

    for example in ("gongzhu-mid-hand", "guinote-mid-hand"):
        app = pinned_app(tmp_path / example, example)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = table(app)
            moves = len(screen.seat.match.moves)
            assert_human_to_move(screen, moves)
            hand = screen.query_one(HandView)
            assert len(hand.cards) > 2
            await pilot.press("end")
            assert hand.cursor == len(hand.cards) - 1 and hand.lifted is None
            await pilot.press("up", "home")
            assert hand.cursor == 0 and hand.lifted is None
            assert len(screen.seat.match.moves) == moves
