"""Issue 9, bug 7: before the first lead the table names the seat that will lead, not the seat still
deciding something. Gong Zhu's showing is such a moment; Guiñote's (the exchange of the 7) is covered in
test_ui_guinote (the status says who may exchange)."""

import pytest

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
        assert "Showing cards · West leads" in text and "Your turn" not in text and "East" not in text.split("\n")[-1]


async def test_gongzhu_trick_area_says_cards_are_shown_not_your_turn(tmp_path):
    """Seed 14: you lead the first trick and hold a showable card. While you (and then the others)
    decide what to show, it is nobody's turn to play yet: the trick area says the cards are being shown
    and who will lead (it said «Your turn»)."""
    match = games.get("gongzhu").new_match(GongZhuOptions(showing=True), 14)
    assert match.log[0]["leader"] == 0 and match.phase == "show"
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(showing=True), 14, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ShowPanel)
        screen = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
        text = str(screen.query_one(TrickView).render())
        assert "Showing cards · you lead" in text and "Your turn" not in text


@pytest.mark.parametrize("game", ["gongzhu", "guinote", "guandan"])
@pytest.mark.parametrize("lang,words", [("en", "Dealing…"), ("es", "Repartiendo…")])
async def test_nobody_is_to_play_while_the_cards_are_dealt(tmp_path, game, lang, words):
    """During the deal animation the table says it is dealing, not whose turn it is («Your turn»
    flashed while the cards were still coming)."""
    from cardtable.ui.gamescreen import GameScreen

    spec = games.get(game)
    app = make_app(tmp_path, launch=("new", game, spec.options_type(), 8, "normal"), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        screen.dealing = True          # what start_deal_animation sets until the last card is shown
        screen.refresh_table()
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in screen.query("TrickView, TableView"))
        assert words in shown
        for turn in ("Your turn", "Te toca", "to play", "Juega ", "Your lead", "Abres"):
            assert turn not in shown
        screen.dealing = False


@pytest.mark.parametrize("lang,paying,returning", [("en", "pays the tribute", "returns a card"),
                                                   ("es", "paga el tributo", "devuelve una carta")])
async def test_guandan_names_who_pays_or_returns_the_tribute_not_who_plays(tmp_path, lang, paying, returning):
    """Before the first lead of a hand with a tribute, the seat to move pays or returns a card: the table
    says so (it said «Right to play» although the hand's first lead comes after the tribute)."""
    from cardtable.cards import Card
    from cardtable.games.guandan.state import GuandanOptions
    from cardtable.ui.gamescreen import GameScreen
    from cardtable.ui.guandan import TableView, seat_name

    app = make_app(tmp_path, launch=("new", "guandan", GuandanOptions(), 5, "normal"), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        match = screen.seat.match
        match.tribute = "single"
        match.tribute_moves = []
        match.pending, match.receiver_of = [("tribute", 1), ("return", 0)], {1: 0}
        screen.refresh_table()
        await pilot.pause()
        text = str(screen.query_one(TableView).render())
        assert f"{seat_name(1)} {paying}" in text and "to play" not in text and "Juega" not in text
        match.tribute_moves = [("tribute", 1, 0, Card(14, "S"))]
        match.pending = [("return", 2)]
        match.receiver_of = {1: 2}
        screen.refresh_table()
        await pilot.pause()
        text = str(screen.query_one(TableView).render())
        assert f"{seat_name(2)} {returning}" in text
