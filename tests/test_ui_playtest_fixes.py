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
        assert cost == "The CPU would have played X: 9 % more likely to win the hand"
        assert gain == "9 % more likely to win the hand than Y"
    if game == "guinote" and language == "es":
        assert cost == "La CPU habría jugado X: un 9 % más de probabilidad de ganar la mano"


# -- 5: the highlighted button is the focused one
def _highlighted(app, button: Button) -> bool:
    return button.styles.background == Color.parse(app.theme_variables["primary"])


async def test_the_claim_dialog_highlights_the_focused_safe_answer(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        answers = []
        app.push_screen(ClaimScreen(screen.seat.match.view(0)), callback=answers.append)
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
        for dialog in (ExchangeScreen(screen.seat.match.view(0)), screen.setup_screen(), SettingsScreen()):
            app.push_screen(dialog)
            await pilot.pause()
            buttons = list(dialog.query(Button))
            lit = [b for b in buttons if _highlighted(app, b)]
            assert lit == [app.focused], (type(dialog).__name__, [str(b.label) for b in lit])
            app.pop_screen()
            await pilot.pause()


# -- 6: Spanish wording
def test_spanish_claim_and_carry_use_the_sources_words(lang):
    from cardtable.ui.guinote import taken_by

    lang("es")
    assert t("gn_claim_title") == "¿Anunciar que habéis superado los 100?"      # «anunciar que ha superado…»
    for key in ("gn_claim_title", "gn_claim_text", "gn_vueltas_claim", "review_gn_claim_right",
                "review_gn_claim_wrong"):
        assert "antar" not in t(key, name="Tú"), key            # «cantar» is for cantes
    assert t("gn_carry", carry=47) == " + 47 de antes"
    assert "47 de antes" in t("gn_claim_count", total=97, cards=30, cantes=20, carry=47)
    assert taken_by(2) == "Compañero robó la pinta" and taken_by(0) == "Robaste la pinta"


async def test_the_showing_panel_never_offers_to_show_nothing(tmp_path):
    from textual.widgets import Checkbox

    from cardtable.games.gongzhu import rules
    from cardtable.ui.gongzhu import ShowPanel

    spec = games.get("gongzhu")
    seed = next(s for s in range(100) if rules.showable_in(spec.new_match(seed=s).hands[0]))
    app = make_app(tmp_path, launch=("new", "gongzhu", spec.options_type(), seed, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ShowPanel)
        show = app.screen.query_one("#do-show", Button)
        assert not show.display                                  # no «Mostrar 0 y jugar»
        await pilot.press("space")
        await settle(pilot)
        assert show.display and str(show.label) == "Mostrar 1 y jugar"
        await pilot.press("space")
        await settle(pilot)
        assert not app.screen.query(Checkbox).first().value and not show.display


async def test_home_and_end_are_named_in_spanish(tmp_path):
    from cardtable.ui.keys import key_name

    app = make_app(tmp_path, launch=launch(), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert key_name("home") == "Inicio" and key_name("end") == "Fin"
        bindings = screen._bindings.key_to_bindings
        assert bindings["home"][0].key_display == "Inicio" and bindings["end"][0].key_display == "Fin"
        await pilot.press("question_mark")
        await settle(pilot)
        shown = " ".join(str(w.render()) for w in app.screen.query("Markdown, MarkdownBlock, Static"))
        assert "Inicio" in shown and "Fin" in shown and "Home" not in shown


# -- 7: card names in English are the Spanish deck's own, and the sing keys are their suits' letters
def test_english_card_names_are_the_spanish_decks_own(lang):
    from cardtable.cards import parse_spanish_card
    from cardtable.ui.guinote import GuinoteScreen, card_name, suit_name, the_card

    lang("en")
    assert card_name(parse_spanish_card("12O")) == "Rey de oros"
    assert the_card(parse_spanish_card("1B")) == "the As de bastos"
    assert card_name(parse_spanish_card("7C")) == "7 de copas"
    sing = {b.key: b.action for b in GuinoteScreen.BINDINGS if b.action.startswith("cante")}
    for suit in "OCEB":
        key = suit.lower()
        assert sing[key] == f"cante('{suit}')" and suit_name(suit).startswith(key)


async def test_guandan_names_enter_once_at_the_bottom(tmp_path):
    from cardtable.ui.footer import shown_keys

    app = make_app(tmp_path, launch=("new", "guandan", games.get("guandan").options_type(), 1, "normal"),
                   lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = next(s for s in app.screen_stack if type(s).__name__ == "GuandanScreen")
        assert "enter" not in {key for key, *_ in shown_keys(screen)}
        assert str(screen.query_one("#gd-play").render()).startswith("⏎ ")


# -- 8: Enter on the Guiñote table, and the standing hints
def _enter_label(screen) -> str:
    return screen.active_bindings["enter"][1].description


async def test_the_footer_says_what_enter_does(tmp_path):
    app = make_app(tmp_path, launch=launch(42))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.seat.match.to_move() == 0
        assert _enter_label(screen) == "Lift"
        moves = len(screen.seat.match.moves)
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.seat.match.moves) == moves and screen.hand_widget().lifted is not None
        assert _enter_label(screen) == "Play"
        await pilot.press("right")
        await settle(pilot)
        assert _enter_label(screen) == "Lift"
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert len(screen.seat.match.moves) > moves


async def test_exchange_and_sing_hints_show_only_when_this_hand_can(tmp_path):
    from cardtable.cards import SpanishCard
    from cardtable.games.guinote import rules
    from cardtable.ui.guinote import exchange_block_reason

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        seen = set()
        for _ in range(60):
            view = screen.seat.match.view(0)
            keys = str(screen.query_one("#gn-score").render()).split("\n")[-1]
            seven = SpanishCard(rules.SEVEN, view.trump) in view.hand and exchange_block_reason(view) is None
            singable = [s for s in "OCEB" if rules.can_sing(view.hand, s) and s not in {c.suit for c in view.cantes}]
            assert ("p: exchange the 7" in keys) == (seven or screen.armed_exchange)
            assert ("sing:" in keys) == bool(singable)
            assert keys.replace("p: exchange the 7", "").replace("sing:", "").split() == [s.lower() for s in singable]
            seen.add((seven, bool(singable)))
            if screen.seat.match.hand > 1:
                break
            if screen.seat.match.to_move() == 0 and not isinstance(app.screen, (ClaimScreen, ExchangeScreen)):
                from tests.test_ui_guinote import play_a_card
                await play_a_card(pilot, app)
            elif isinstance(app.screen, (ClaimScreen, ExchangeScreen)):
                await pilot.press("n")
            await settle(pilot)
        assert (False, False) in seen


# -- 1: the saved games list: reasons in the player's language, foreign JSON files left out
REPO_SAVES = __import__("pathlib").Path(__file__).resolve().parents[1] / "saves"


def test_a_json_file_that_is_no_save_is_not_a_slot(tmp_path):
    from cardtable.saves import SaveStore

    assert (REPO_SAVES / "schema-v1.json").is_file()
    assert [info.slot for info in SaveStore(REPO_SAVES).list()] == []      # the schema is no damaged save
    (tmp_path / "notes.json").write_text('{"a": 1}')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "cut.json").write_text('{"format": "cardtable-save", "sch')
    (tmp_path / "blank.json").write_bytes(b"")
    (tmp_path / "old.json").write_text('{"format": "cardtable-save", "schema": 99}')
    listed = {info.slot: info for info in SaveStore(tmp_path).list()}
    assert set(listed) == {"cut", "blank", "old"} and all(info.damaged for info in listed.values())


@pytest.mark.parametrize("language", ["es", "zh"])
async def test_damaged_slots_say_why_in_the_players_language(tmp_path, language, lang):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "schema-v1.json").write_bytes((REPO_SAVES / "schema-v1.json").read_bytes())
    (saves / "cut.json").write_text('{"format": "cardtable-save",\n "sch')
    (saves / "bin.json").write_bytes(b"\xff\xfe")
    (saves / "game.json").write_text('{"format": "cardtable-save", "schema": 1, "game": "\\u001b[2Jmus", '
                                     '"options": {}, "seed": 1, "moves": []}')
    app = make_app(tmp_path, lang=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = str(app.screen.query_one("#home-saves").render())
        lang(language)
        for slot, key, params in (("cut", "save_why_not_json", {"line": 2, "column": 2}),
                                  ("bin", "save_why_not_utf8", {}), ("game", "save_why_unknown_game", {"game": "[2Jmus"})):
            assert f"{slot}  {t('damaged')}: {t(key, **params)}" in shown, (slot, shown)
        assert "schema-v1" not in shown and "\x1b" not in shown
        assert not any(word in shown for word in ("not a", "damaged:", "valid JSON", "unknown game"))


# -- 2: «Play on» at the claim question survives Ctrl+C and the resume
def _claim_window_for_the_human_to_lead():
    """A match de vueltas stopped where the human just won a trick and may claim (and leads next)."""
    from cardtable.games.guinote.state import Claim
    from cardtable.sim import next_cpu_move

    bot = GUINOTE.bot("normal")
    for seed in range(300):
        match = GUINOTE.new_match(seed=seed)
        while not match.is_over() and match.hand <= 3:
            if match.vueltas and match.to_move() == 0 and Claim() in match.legal_moves(0) \
                    and match.window_pair == 0 and not match.trick:
                return match
            seat, move = next_cpu_move(match, lambda _: bot)
            if isinstance(move, Claim):
                break
            match.apply(move, seat)
    raise AssertionError("no claim window found")


async def test_play_on_is_not_asked_again_after_ctrl_c_and_resume(tmp_path):
    from cardtable.saves import SaveStore

    match = _claim_window_for_the_human_to_lead()
    SaveStore(tmp_path / "saves").save("claim", match, ["human"] + ["cpu:normal"] * 3)
    app = make_app(tmp_path, launch=("continue", "claim"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ClaimScreen)
        await pilot.press("n")                       # «Play on»
        await settle(pilot)
        assert app.screen is table(app) and len(table(app).seat.match.moves) == len(match.moves)
        await pilot.press("ctrl+c")                  # saves and quits
    data = SaveStore(tmp_path / "saves").read("claim")
    assert data.table == {"claim_declined_hand": match.hand, "claim_declined_tricks": len(match.tricks)}
    app = make_app(tmp_path, launch=("continue", "claim"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert app.screen is screen, "not asked again"
        assert screen.seat.match.to_move() == 0 and len(screen.seat.match.moves) == len(match.moves)
        await pilot.press("y")                       # no dialog: the key is no answer to anything
        await settle(pilot)
        assert len(screen.seat.match.moves) == len(match.moves)


async def test_a_claim_question_left_open_is_asked_again(tmp_path):
    """Quitting with the question still open is no answer: the resumed table asks it."""
    from cardtable.saves import SaveStore

    match = _claim_window_for_the_human_to_lead()
    SaveStore(tmp_path / "saves").save("claim", match, ["human"] + ["cpu:normal"] * 3)
    app = make_app(tmp_path, launch=("continue", "claim"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ClaimScreen)
        await pilot.press("ctrl+c")
    assert SaveStore(tmp_path / "saves").read("claim").table is None
    app = make_app(tmp_path, launch=("continue", "claim"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ClaimScreen)


# -- 4: behind the results, the finished hand stays on the table until the player goes on
def _game_table(app):
    from cardtable.ui.gamescreen import GameScreen

    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def _play_the_last_card(pilot, screen):
    """The human's only card (the pinned examples stop there): lifted and played with the keyboard."""
    from cardtable.ui.guandan.widgets import ColumnsView

    if screen.spec.name == "guandan":
        from tests.test_ui_guandan import take_column

        columns = screen.query_one(ColumnsView)
        await take_column(pilot, screen, next(i for i, c in enumerate(columns.columns) if c), 1)
        await pilot.press("enter")
    else:
        legal = {m.card for m in screen.seat.match.view(0).legal if hasattr(m, "card")}
        hand = screen.hand_widget()
        while hand.current not in legal:
            await pilot.press("right")
        await pilot.press("enter", "enter")
    await settle(pilot)


@pytest.mark.parametrize("example", ["guinote-last-card", "gongzhu-last-card", "guandan-last-play"])
async def test_the_finished_hand_stays_behind_its_results(tmp_path, example):
    from cardtable.ui.dialogs import HandEndDialog
    from tests.ui_helpers import pinned_app

    app = pinned_app(tmp_path, example)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = _game_table(app)
        number = screen.seat.match.view(0).hand_number
        await _play_the_last_card(pilot, screen)
        if example == "guandan-last-play":
            await pilot.press("space")               # the «+N» on the level bar first (any key goes on)
            await settle(pilot)
        dialog = app.screen
        assert dialog is not screen and hasattr(dialog, "record"), type(dialog)
        assert screen.seat.match.view(0).hand_number == number + 1          # the engine has dealt already
        shown = screen.human_view()
        assert shown.hand_number == number and not shown.hand            # the table: the finished hand
        assert str(number) in screen.sub_title and str(number + 1) not in screen.sub_title.split("·")[0]
        await pilot.press("enter")                   # «Next hand»
        await settle(pilot, rounds=6)
        assert not isinstance(app.screen, HandEndDialog)
        assert screen.human_view().hand_number == number + 1 and screen.human_view().hand


async def test_the_showing_panel_highlights_what_enter_presses(tmp_path):
    from cardtable.games.gongzhu import rules
    from cardtable.ui.gongzhu import ShowPanel

    spec = games.get("gongzhu")
    seed = next(s for s in range(100) if rules.showable_in(spec.new_match(seed=s).hands[0]))
    app = make_app(tmp_path, launch=("new", "gongzhu", spec.options_type(), seed, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen
        assert isinstance(panel, ShowPanel)
        show, no = panel.query_one("#do-show", Button), panel.query_one("#no-show", Button)
        assert _highlighted(app, no) and not show.display        # Enter now: play, showing nothing
        await pilot.press("space")
        await settle(pilot)
        assert _highlighted(app, show) and not _highlighted(app, no)
        no.focus()                                               # Tab onto «No, play»: Enter presses it
        await settle(pilot)
        assert app.focused is no and _highlighted(app, no) and not _highlighted(app, show)


async def test_in_the_game_number_box_enter_starts_and_start_is_highlighted(tmp_path):
    from textual.widgets import Input

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.start_game("guinote", ask=True)
        await settle(pilot)
        dialog = app.screen
        start = dialog.query_one("#setup-start", Button)
        assert app.focused is start and _highlighted(app, start)
        dialog.query_one("#setup-seed", Input).focus()
        await settle(pilot)
        lit = [b for b in dialog.query(Button) if _highlighted(app, b)]
        assert lit == [start]
