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


def screen_text(app) -> str:
    """What the terminal shows, as plain text."""
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


def trick_text(screen) -> str:
    return str(screen.query_one(TrickView).render())


async def open_table(pilot, app) -> GuinoteScreen:
    """The table once it is composed: a move made before its seat panels are mounted has nothing to
    draw on (seen on a loaded machine)."""
    await wait_until(pilot, lambda: any(isinstance(s, GuinoteScreen) and s.is_mounted and s.query("#gn-west")
                                        for s in app.screen_stack), timeout=20)
    await settle(pilot)
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
                             and (screen.seat.match.to_move() == 0 or screen.window_waits()
                                  or isinstance(app.screen, ExchangeScreen)), timeout=60)
            if screen.window_waits() or len(screen.seat.match.moves) >= 8:
                break
            if isinstance(app.screen, ExchangeScreen):
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        await settle(pilot)
        assert len(screen.seat.match.moves) == 8, "the partner did not lead over the human's window"
        assert screen.seat.match.to_move() == 2 and Cante("O") in screen.seat.match.legal_moves(0)
        assert screen.window_waits()
        assert "You may sing: o" in trick_text(screen) and "Enter: play on" in trick_text(screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.seat.match.moves) > 8, timeout=30)
        assert screen.seat.match.moves[8][0] == 2 and isinstance(screen.seat.match.moves[8][1], Play)


async def test_you_may_sing_in_the_partners_window(tmp_path):
    """The same window: `o` sings the 40 out of turn, then the partner leads."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 50, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        for _ in range(40):
            await wait_until(pilot, lambda: not screen._cpu_running and (
                screen.seat.match.to_move() == 0 or screen.window_waits() or isinstance(app.screen, ExchangeScreen)))
            if screen.window_waits():
                break
            if isinstance(app.screen, ExchangeScreen):
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        await pilot.press("o")
        await wait_until(pilot, lambda: len(screen.seat.match.moves) > 9, timeout=10)
        assert screen.seat.match.moves[8] == (0, Cante("O"))
        assert screen.seat.match.moves[9][0] == 2


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
        await settle(pilot)
        sung = [move for seat, move in screen.seat.match.moves if seat == 0 and isinstance(move, Cante)]
        assert Cante("C") in sung, "the armed cante is sung before the claim question"
        assert Claim() not in [m for _, m in screen.seat.match.moves]
        view = screen.seat.match.view(0)
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
        assert app.screen is screen and Claim() in screen.seat.match.legal_moves(0)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, ClaimScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), timeout=10)
        assert (0, Claim()) in screen.seat.match.moves


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


# -- 3: hidden 20s
def saved_before(tmp_path, seed: int, moves: int, slot: str):
    match = SPEC.new_match(seed=seed)
    while len(match.moves) < moves:
        seat, move = next_cpu_move(match, lambda _: NORMAL)
        match.apply(move, seat)
    SaveStore(tmp_path / "saves").save(slot, match, ["human"] + ["cpu:normal"] * 3)
    return match


def plates_text(screen) -> str:
    return "\n".join(str(screen.query_one(f"#gn-{side}").render()) for side in ("west", "north", "east"))


def test_a_20_sung_after_trick_4_is_an_arrastre_cante():
    """The draw after trick 4 empties the stock: a 20 sung in that window keeps its suit from the other
    pair (docs/decisions.md), as one sung later does; one sung after trick 3 does not."""
    from cardtable.games.guinote.state import GuinoteMatch

    for after, hidden in ((3, False), (4, True), (6, True)):
        match = GuinoteMatch(GuinoteOptions(), 1)
        suit = "C" if match.trump != "C" else "E"
        match.cantes += ((1, suit, 20, after),)
        assert match.view(0).cantes[0].suit == (None if hidden else suit), after     # the other pair
        assert match.view(3).cantes[0].suit == suit                                   # the partner


async def test_an_opponents_20_in_arrastre_never_shows_its_suit(tmp_path):
    """Seed 21: Left (seat 3) sings the 20 in oros right after trick 4. Neither the trick area, the plates
    nor the last trick name oros beside it; the plate says «20 (?)»."""
    saved_before(tmp_path, 21, 16, "left")
    app = make_app(tmp_path, launch=("continue", "left"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await wait_until(pilot, lambda: any(isinstance(m, Cante) for _, m in screen.seat.match.moves[16:]), timeout=10)
        await settle(pilot)
        assert screen.seat.match.moves[16] == (3, Cante("O"))
        text = trick_text(screen) + plates_text(screen)
        assert "Left sings 20" in text and "in oros" not in text and "20 oros" not in text
        assert "20 (?)" in plates_text(screen)
        await pilot.press("l")
        assert "oros" not in "\n".join(str(w.render()) for w in app.screen.query("Static"))


async def test_the_partners_20_in_arrastre_shows_only_after_v(tmp_path):
    """Seed 50: the partner sings the 20 in copas right after trick 4. The trick area says «Partner sings
    20» with no suit (it said «in copas»), the plate «20 (?)»; `v` shows the suit on the plate."""
    saved_before(tmp_path, 50, 17, "partner")
    app = make_app(tmp_path, launch=("continue", "partner"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await wait_until(pilot, lambda: (2, Cante("C")) in screen.seat.match.moves, timeout=10)
        await settle(pilot)
        assert "Partner sings 20" in trick_text(screen) and "copas" not in trick_text(screen)
        north = str(screen.query_one("#gn-north").render())
        assert "20 (?)" in north and "copas" not in north
        await pilot.press("v")
        await settle(pilot)
        assert "20 copas" in str(screen.query_one("#gn-north").render())


# -- 7: the exchange question leaves the hand and the score in sight, with the trick area's keys
async def test_the_exchange_question_shows_the_hand_and_uses_p_and_k(tmp_path):
    """The question sits over the title and the north seat, not over the trick, the score or the hand;
    its key bar names p and k, the keys the trick area names."""
    from tests.test_ui_guinote import _until_exchange_prompt, launch

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _until_exchange_prompt(pilot, app)
        dialog = app.screen.query_one(".dialog").region
        for widget in (screen.query_one(TrickView), screen.query_one("#gn-score"), screen.query_one("#gn-hand")):
            assert not dialog.overlaps(widget.region), widget
        keys = {b.action: key for key, (_, b, _, _) in app.screen.active_bindings.items() if b.show}
        shown = {b.action: b.key_display or key for key, (_, b, _, _) in app.screen.active_bindings.items()}
        from cardtable.ui.footer import shown_keys

        first = {}
        for key, _display, _label, action, show, *_ in shown_keys(app.screen):
            if show:
                first.setdefault(action, key)
        assert first["answer(True)"] == "p" and first["answer(False)"] == "k", (first, keys, shown)
        assert "p: exchange" in trick_text(screen) and "k: keep" in trick_text(screen)
        await pilot.press("k")
        await settle(pilot)
        assert not isinstance(app.screen, ExchangeScreen)


# -- 4: de vueltas the table says the card points are hidden, and s shows them
async def test_de_vueltas_the_table_says_the_points_are_hidden_and_s_shows_them(tmp_path):
    vueltas_position(tmp_path)
    app = make_app(tmp_path, launch=("continue", "window"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        score = str(screen.query_one("#gn-score").render())
        assert "card points hidden: s shows them" in score and "= " not in score
        await pilot.press("s")
        await settle(pilot)
        score = str(screen.query_one("#gn-score").render())
        assert app.settings.count_help == "on" and "= " in score and "hidden" not in score


# -- 5: the hand's cursor stops at the ends
async def test_the_hand_cursor_stops_at_the_ends(tmp_path):
    from cardtable.ui.widgets import HandView
    from tests.ui_helpers import pinned_app

    app = pinned_app(tmp_path, "guinote-mid-hand")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        hand = screen.query_one(HandView)
        assert len(hand.cards) > 1
        await pilot.press("end", "right", "right")
        assert hand.cursor == len(hand.cards) - 1, "→ on the last card does not wrap to the first"
        await pilot.press("home", "left")
        assert hand.cursor == 0, "← on the first card does not wrap to the last"
        await pilot.press("right")
        assert hand.cursor == 1


# -- 6: a hint's edge and a checker's cost are a chance in percent, not «points»
@pytest.mark.parametrize("language, gain, cost", [
    ("en", "6 % more likely to win the hand than Y", "The CPU would have played X: 6 % more likely to win the hand"),
    ("es", "un 6 % más de probabilidad de ganar la mano que con Y",
     "La CPU habría jugado X: un 6 % más de probabilidad de ganar la mano"),
    ("zh", "比Y赢这一局的可能性高 6%", "电脑会出X：赢这一局的可能性高 6%"),
])
def test_the_edge_is_a_percentage_in_every_language(lang, language, gain, cost):
    lang(language)
    assert SPEC.advice.gain_text(0.12, "Y") == gain
    assert SPEC.advice.cost_text("X", 0.12) == cost


# -- 8: an armed cante goes dark once it can no longer happen; an impossible one is not armed
async def test_an_armed_cante_goes_dark_when_its_sota_is_played(tmp_path):
    """Seed 7: the human holds the Rey de oros without the Sota and arms the cante (o); Right plays the
    Sota de oros in trick 1. The cante is no longer armed nor shown among the keys, and the status says why."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 7, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await wait_until(pilot, lambda: screen.seat.match.to_move() == 0 and not screen._cpu_running
                         and not screen.dealing, timeout=10)
        await pilot.press("o")
        assert screen.armed_cantes == {"O"}
        assert "sing: o" in str(screen.query_one("#gn-score").render())
        assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        from cardtable.cards import SpanishCard

        sota = SpanishCard(10, "O")
        await wait_until(pilot, lambda: sota in screen.seat.match.view(0).played, timeout=10)
        await settle(pilot)
        assert screen.armed_cantes == set()
        assert "sing:" not in str(screen.query_one("#gn-score").render())
        assert "the Sota de oros has been played" in screen.status


async def test_arming_an_impossible_cante_is_refused_with_the_reason(tmp_path):
    """In the arrastre (guinote-mid-hand) a suit whose Rey and Sota the hand does not hold cannot be armed."""
    from cardtable.games.guinote import rules
    from tests.ui_helpers import pinned_app

    app = pinned_app(tmp_path, "guinote-mid-hand")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        hand = screen.seat.match.view(0).hand
        suit = next(s for s in "OCEB" if not rules.can_sing(hand, s))
        await pilot.press(suit.lower())
        assert screen.armed_cantes == set()
        assert screen.status.startswith("No cante in")


# -- 9: the setup dialog has every Guiñote option; a match length of 0 is refused with the reason
async def test_the_guinote_setup_sets_every_option(tmp_path):
    from textual.widgets import Checkbox, Input

    from cardtable.ui.guinote import GuinoteSetup

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        answers = []
        dialog = GuinoteSetup()
        await app.push_screen(dialog, callback=answers.append)
        await settle(pilot)
        assert dialog.query_one(".dialog").region.bottom <= 22, "the dialog fits 80×24"
        dialog.query_one("#gn-partidas", Input).value = "0"
        dialog.query_one("#setup-start").focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert answers == [] and app.screen is dialog, "«0» hands to a coto starts nothing"
        assert any("from 1 to 99" in str(n.message) for n in app._notifications)
        dialog.query_one("#gn-partidas", Input).value = "5"
        dialog.query_one("#gn-thirty", Checkbox).value = False
        dialog.query_one("#gn-any-pinta", Checkbox).value = True
        dialog.query_one("#setup-start").focus()
        await settle(pilot)
        start = dialog.query_one("#setup-start")     # (a Button ignores a press while its last one shows)
        await wait_until(pilot, lambda: not start.has_class("-active"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: answers, timeout=10)
        options = answers[0][0]
        assert (options.points_per_coto, options.thirty_includes_ultimas, options.exchange_any_pinta) == (
            5, False, True)


# -- 10: `cardtable saves` never cuts a slot name at 80 columns
@pytest.mark.parametrize("language", ["en", "es"])
def test_cardtable_saves_keeps_slot_names_whole_at_80_columns(tmp_path, language):
    import subprocess
    import sys

    store = SaveStore(tmp_path / "saves")
    slots = ["guinote-20261204-034512", "gongzhu-20261204-101010-2", "guandan-20261204-235959"]
    for slot, game in zip(slots, ("guinote", "gongzhu", "guandan"), strict=True):
        spec = games.get(game)
        store.save(slot, spec.new_match(seed=3), ["human"] + ["cpu:normal"] * 3)
    out = subprocess.run([sys.executable, "-m", "cardtable", "--lang", language, "--save-dir", str(tmp_path / "saves"),
                          "saves"], capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL,
                         env={**__import__("os").environ, "COLUMNS": "80"}).stdout
    lines = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]      # the table (not the path above)
    assert lines and all(len(line) <= 80 for line in lines), out
    for slot in slots:
        assert any(slot in line for line in lines), (slot, out)


# -- the Spanish and layout list
async def test_the_pinta_panel_counts_15_plus_the_pinta(tmp_path, lang):
    lang("es")
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 50, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        await settle(pilot)
        panel = screen.query_one("#gn-table")
        assert panel.border_subtitle == "mazo 15 + pinta", panel.border_subtitle
        assert "pinta" in screen_text(app).split("\n")[5], "on the panel's bottom border, not wrapped"


@pytest.mark.parametrize("key, text", [
    ("gn_reason_claim_right_them", "anunciaron que pasaban de 100, y era cierto"),
    ("gn_reason_claim_wrong_us", "anunciasteis que pasabais de 100, y no era cierto"),
])
def test_the_spanish_claim_reasons_say_100(lang, key, text):
    from cardtable.i18n import t

    lang("es")
    assert t(key) == text


def test_the_rules_pages_never_speak_of_the_source():
    from pathlib import Path

    pages = Path(__file__).resolve().parents[1] / "cardtable" / "games"
    for page in pages.glob("*/rules_*.md"):
        text = page.read_text(encoding="utf-8").lower()
        assert "the source" not in text and "la fuente" not in text, page


async def test_the_window_prompt_fits_80_columns_in_spanish(tmp_path):
    """«⏎ Seguir» in the key bar and the trick area's line: nothing cut at 80×24 («⏎ Seguir jugando» cut
    «? Teclas» off the key bar)."""
    from tests.test_truncation import truncated

    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 50, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, app)
        for _ in range(40):
            await wait_until(pilot, lambda: not screen._cpu_running and (
                screen.seat.match.to_move() == 0 or screen.window_waits() or isinstance(app.screen, ExchangeScreen)))
            if screen.window_waits():
                break
            if isinstance(app.screen, ExchangeScreen):
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        await settle(pilot)
        assert "Puedes cantar: o · Enter: seguir" in trick_text(screen)
        assert truncated(app) == []
        assert "? Teclas" in screen_text(app).split("\n")[-1]
