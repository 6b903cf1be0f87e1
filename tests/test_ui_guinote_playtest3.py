"""Issue 31, the third Guiñote play test: the human's window after the partner's trick, the order of a
window's optional moves (armed cantes, then the claim), hidden 20s, and the smaller findings."""

import pytest

from cardtable import games
from cardtable.games.guinote.state import Cante, Claim, GuinoteOptions, Play
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move
from cardtable.ui.guinote import ClaimScreen, ExchangeScreen, GuinoteScreen, SummaryScreen
from cardtable.ui.widgets import TrickView
from tests.ui_helpers import make_app, settle, wait_until

SPEC = games.get("guinote")
NORMAL = SPEC.bot("normal")


def table(app) -> GuinoteScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuinoteScreen))


def trick_text(screen) -> str:
    return str(screen.query_one(TrickView).render())


async def open_table(pilot, app) -> GuinoteScreen:
    await wait_until(pilot, lambda: any(isinstance(s, GuinoteScreen) for s in app.screen_stack), timeout=20)
    return table(app)


# -- 1: the human may sing after the partner's trick; the partner waits for them
@pytest.mark.parametrize("speed", ["normal", "instant"])
async def test_the_partner_waits_while_you_may_sing_after_its_trick(tmp_path, speed):
    """Seed 50, the human playing the normal CPU's cards: the partner wins trick 2 and is to lead while
    the human holds the Sota and Rey of oros (trumps). The partner does not lead: the trick area says the
    human may sing (o) or play on (Enter). Enter lets the window go and the partner leads."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 50, "normal"), cpu_speed=speed)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        for _ in range(40):
            await wait_until(pilot, lambda: not screen._cpu_running and not screen.dealing
                             and (screen.match.to_move() == 0 or screen.window_waits()
                                  or isinstance(app.screen, ExchangeScreen)), timeout=20)
            if screen.window_waits() or len(screen.match.moves) >= 8:
                break
            if isinstance(app.screen, ExchangeScreen):
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.match.view(0)), 0)
        await settle(pilot)
        assert len(screen.match.moves) == 8, "the partner did not lead over the human's window"
        assert screen.match.to_move() == 2 and Cante("O") in screen.match.legal_moves(0)
        assert screen.window_waits()
        assert "You may sing: o" in trick_text(screen) and "Enter: play on" in trick_text(screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.match.moves) > 8, timeout=10)
        assert screen.match.moves[8][0] == 2 and isinstance(screen.match.moves[8][1], Play)


async def test_you_may_sing_in_the_partners_window(tmp_path):
    """The same window: `o` sings the 40 out of turn, then the partner leads."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 50, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        for _ in range(40):
            await wait_until(pilot, lambda: not screen._cpu_running and (
                screen.match.to_move() == 0 or screen.window_waits() or isinstance(app.screen, ExchangeScreen)))
            if screen.window_waits():
                break
            if isinstance(app.screen, ExchangeScreen):
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.match.view(0)), 0)
        await pilot.press("o")
        await wait_until(pilot, lambda: len(screen.match.moves) > 9, timeout=10)
        assert screen.match.moves[8] == (0, Cante("O"))
        assert screen.match.moves[9][0] == 2


# -- 2: the order of a window: armed cantes first, then the claim with the updated score
def vueltas_position(tmp_path, seed: int = 29, moves: int = 52):
    """Seed 29 goes de vueltas; at its 52nd move the human leads... is to play a card that wins the trick,
    after which the pair may sing the 20 in copas and claim. Saved as slot «window»."""
    match = SPEC.new_match(seed=seed)
    while len(match.moves) < moves:
        seat, move = next_cpu_move(match, lambda _: NORMAL)
        match.apply(move, seat)
    assert match.vueltas and match.to_move() == 0
    SaveStore(tmp_path / "saves").save("window", match, ["human"] + ["cpu:normal"] * 3)
    return match


async def test_an_armed_cante_comes_before_the_claim_question_and_the_table_stays_in_sight(tmp_path):
    match = vueltas_position(tmp_path)
    card = NORMAL.choose(match.view(0))
    app = make_app(tmp_path, launch=("continue", "window"), count_help="on")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        await pilot.press("c")                     # arm the 20 in copas
        assert "C" in screen.armed_cantes
        assert screen.play(card, 0)
        await wait_until(pilot, lambda: isinstance(app.screen, ClaimScreen), timeout=10)
        sung = [move for seat, move in screen.match.moves if seat == 0 and isinstance(move, Cante)]
        assert Cante("C") in sung, "the armed cante is sung before the claim question"
        assert Claim() not in [m for _, m in screen.match.moves]
        view = screen.match.view(0)
        score = str(screen.query_one("#gn-score").render())
        assert f"cantes {view.cante_points(0)}" in score and view.cante_points(0) >= 20
        # The trick just won and the score are not under the question (80×24).
        dialog = app.screen.query_one(".dialog").region
        for widget in (screen.query_one(TrickView), screen.query_one("#gn-score"), screen.query_one("#gn-hand")):
            assert not dialog.overlaps(widget.region), widget
        await pilot.press("l")                     # the last trick, over the question
        assert type(app.screen).__name__ == "LastTrickDialog"
        await pilot.press("escape")
        assert isinstance(app.screen, ClaimScreen)
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(app.screen, ClaimScreen)


async def test_you_may_claim_yourself_after_playing_on(tmp_path):
    """After «Play on» the window is still open: `a` asks the claim question again."""
    match = vueltas_position(tmp_path)
    card = NORMAL.choose(match.view(0))
    app = make_app(tmp_path, launch=("continue", "window"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        assert screen.play(card, 0)
        await wait_until(pilot, lambda: isinstance(app.screen, ClaimScreen), timeout=10)
        await pilot.press("n")
        await settle(pilot)
        assert app.screen is screen and Claim() in screen.match.legal_moves(0)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, ClaimScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), timeout=10)
        assert (0, Claim()) in screen.match.moves


async def test_the_claims_yes_key_is_s_in_spanish(tmp_path):
    match = vueltas_position(tmp_path)
    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        answers = []
        await app.push_screen(ClaimScreen(match.view(0)), callback=answers.append)
        await settle(pilot)
        keys = {b.action: key for key, (_, b, _, _) in app.screen.active_bindings.items()}
        assert keys["answer(True)"] == "s"
        await pilot.press("s")
        await settle(pilot)
        assert answers == [True]
