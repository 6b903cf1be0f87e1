"""Issue 9's Guiñote play-test findings: announcements in the table, sentences about a seat, the de
vueltas score line at 80 columns, arming an impossible exchange, the status before the first lead, the
short card notation, the neutral claim prompt, your own cantes and las últimas."""

import pytest

from cardtable import games
from cardtable.cards import parse_spanish_card, spanish_deck
from cardtable.games.guinote.state import Cante, GuinoteOptions
from cardtable.saves import SaveStore
from cardtable.ui import guinote as ui
from cardtable.ui.cardart import spanish_label
from cardtable.ui.guinote import ClaimScreen, ExchangeScreen, SummaryScreen
from cardtable.ui.widgets import TrickView
from tests.test_ui_guinote import launch, play_a_card, table
from tests.ui_helpers import make_app, settle

SPEC = games.get("guinote")


def dialog_text(screen) -> str:
    from textual.widgets import Static

    return "\n".join(str(w.render()) for w in screen.query(Static) if not w.has_class("dialog-title"))


def trick_text(screen) -> str:
    return str(screen.query_one(TrickView).render())


# -- 9: short notation
def test_short_notation_never_mistakes_a_caballo_for_copas():
    labels = {card: spanish_label(card) for card in spanish_deck()}
    assert len(set(labels.values())) == 40
    ranks = {label[0] for label in labels.values()}
    suits = {label[1] for label in labels.values()}
    assert not ranks & suits, "a letter means a rank or a suit, never both"
    assert spanish_label(parse_spanish_card("11E")) == "Ce" and spanish_label(parse_spanish_card("3C")) == "3c"
    assert spanish_label(parse_spanish_card("11C")) == "Cc"


async def test_status_line_names_the_card_in_full_when_your_turn_comes(tmp_path):
    app = make_app(tmp_path, launch=launch(42))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.seat.match.to_move() == 0
        hand = screen.hand_widget()
        assert str(screen.query_one("#gn-status").render()) == ui.card_name(hand.current)
        assert " de " in screen.status          # the Spanish deck's own names, in English too


# -- 4: sentences about a seat
@pytest.mark.parametrize("language", ["en", "es"])
def test_sentences_about_you_have_their_own_grammar(lang, language):
    lang(language)
    card = parse_spanish_card("12O")
    for sentence in (ui.taken_by, ui.exchanged, lambda seat: ui.exchange_news(seat, card)):
        mine, theirs = sentence(0), sentence(3)
        assert ui.seat_name(3) in theirs and mine != theirs
    assert ui.exchange_news(0, card) == {"en": "You exchanged the 7 for the Rey de oros",
                                         "es": "Cambiaste el 7 por el Rey de oros"}[language]
    assert ui.cante_sentence(0, 40, "O") == {"en": "You sing 40", "es": "Cantas las 40"}[language]
    assert ui.cante_sentence(3, 20, "C") == {"en": "Left sings 20 in copas",
                                             "es": "Izquierda canta las 20 en copas"}[language]
    assert ui.cante_sentence(1, 20, None) == {"en": "Right sings 20", "es": "Derecha canta las 20"}[language]
    if language == "es":
        assert ui.exchanged(0) == "Cambiaste el 7" and ui.taken_by(0) == "Robaste la pinta"
        for sentence in (ui.exchanged(0), ui.cante_sentence(0, 20, "B")):
            assert "Tú cambió" not in sentence and "Tú canta" not in sentence
    else:
        assert ui.exchanged(0) == "You exchanged the 7" and "You sings" not in ui.cante_sentence(0, 20, "B")


@pytest.mark.parametrize("language", ["en", "es"])
async def test_claim_reason_says_which_pair_claimed(tmp_path, lang, language):
    app = make_app(tmp_path, lang=language)
    async with app.run_test(size=(80, 24)):
        record = {"hand": 2, "points": [40, 30], "cantes": [20, 40], "ultimas": None, "totals": [102, 90],
                  "winner": 0, "claim": {"pair": 0, "right": True}, "score": [1, 0], "cotos": [0, 0]}
        deal = {"vueltas": True, "carry": [42, 20]}
        for claim, expected in (({"pair": 0, "right": True}, {"en": "your pair claimed", "es": "anunciasteis que pasabais de 100, y era cierto"}),
                                ({"pair": 1, "right": False}, {"en": "they claimed", "es": "anunciaron que"})):
            screen = SummaryScreen({**record, "claim": claim}, deal, GuinoteOptions(), False)
            await app.push_screen(screen)
            text = dialog_text(screen)
            assert expected[language] in text
            assert "anunció" not in text
            app.pop_screen()


# -- 3: announcements in the table, no notices
async def test_cantes_are_announced_in_the_trick_area_not_in_notices(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        seen = None
        for _ in range(300):
            sung = [(s, m) for s, m in screen.seat.match.moves if isinstance(m, Cante)]
            if sung and screen.news:
                seen = screen.news[-1]
                break
            if isinstance(app.screen, (SummaryScreen, ClaimScreen, ExchangeScreen)):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        assert seen is not None
        assert seen in trick_text(screen)
        assert not app._notifications, "no toast over the hand"


async def test_your_own_cantes_sit_on_your_plate(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for key in "ocebp":
            await pilot.press(key)
        for _ in range(300):
            if any(s == 0 and isinstance(m, Cante) for s, m in screen.seat.match.moves) or screen.seat.match.hand > 1:
                break
            if isinstance(app.screen, (SummaryScreen, ClaimScreen)):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        mine = [m for s, m in screen.seat.match.moves if s == 0 and isinstance(m, Cante)]
        assert mine and screen.seat.match.hand == 1
        suit = ui.suit_name(mine[0].suit)
        assert "You · " in trick_text(screen) and suit in trick_text(screen).split("You · ")[1]


# -- 6: refuse to arm what cannot happen
async def test_arming_an_impossible_exchange_is_refused_with_the_reason(tmp_path):
    seed = next(s for s in range(100) if SPEC.new_match(seed=s).pinta.rank == 2)
    app = make_app(tmp_path, launch=launch(seed))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await pilot.press("p")
        assert not screen.armed_exchange
        assert "(2 de" in screen.status and "not a counting card" in screen.status
        assert len(screen.status) <= 78, "the reason fits the status line"
        assert "p: exchange" not in str(screen.query_one("#gn-score").render())
        assert "armed" not in str(screen.query_one("#gn-table").render())


async def test_armed_exchange_is_dropped_when_it_can_no_longer_happen(tmp_path):
    seed = next(s for s in range(100) if SPEC.new_match(seed=s).pinta.rank in (1, 3, 10, 11, 12))
    app = make_app(tmp_path, launch=launch(seed))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await pilot.press("p")
        assert screen.armed_exchange
        for _ in range(200):
            if screen.seat.match.pinta_taker is not None or screen.seat.match.hand > 1:
                break
            if isinstance(app.screen, (SummaryScreen, ClaimScreen)):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        assert not screen.armed_exchange


# -- 5: de vueltas at 80 columns; the claim prompt neutral, counting help a setting
def vueltas_save(tmp_path):
    from tests.test_ui_guinote import _first_hand_goes_de_vueltas

    seed = next(s for s in range(200) if _first_hand_goes_de_vueltas(SPEC, s))
    match = SPEC.new_match(seed=seed)
    bot = SPEC.bot("normal")
    from cardtable.sim import next_cpu_move

    while match.hand == 1:
        s, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, s)
    SaveStore(tmp_path / "saves").save("vueltas", match, ["human"] + ["cpu:normal"] * 3)
    return match


@pytest.mark.parametrize("help_on", [False, True])
async def test_de_vueltas_score_lines_fit_80_columns_in_spanish(tmp_path, help_on):
    match = vueltas_save(tmp_path)
    assert match.vueltas
    app = make_app(tmp_path, launch=("continue", "vueltas"), lang="es", count_help="on" if help_on else "off")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        score = screen.query_one("#gn-score")
        lines = str(score.render()).split("\n")
        assert len(lines) == (3 if help_on else 2)
        assert all(len(line) <= 78 for line in lines), lines
        assert score.size.height == len(lines), "no line pushed off"
        # the keys' row (empty unless this hand can exchange the 7 or sing: they show only then)
        assert lines[-1] == "" or lines[-1].startswith("p: cambiar el 7") or lines[-1].startswith("cantar:") \
            or lines[-1].startswith("tantos ocultos")
        assert ("tantos ocultos: s los muestra" in lines[-1]) == (not help_on), "say the points are hidden"
        assert ("= " in lines[0]) == help_on, "card points and total only with the counting help"


@pytest.mark.parametrize("help_on", [False, True])
async def test_claim_prompt_is_neutral_unless_the_counting_help_is_on(tmp_path, help_on):
    match = vueltas_save(tmp_path)
    app = make_app(tmp_path, count_help="on" if help_on else "off")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = match.view(0)
        screen = ClaimScreen(view, app.settings.count_help == "on")
        await app.push_screen(screen)
        await settle(pilot)
        text = dialog_text(screen)
        assert ("cards" in text and str(view.total(0)) in text) == help_on


# -- las últimas where they count
def test_summary_rows_add_up_with_las_ultimas_in_their_own_row():
    record = {"points": [85, 45], "cantes": [20, 40], "ultimas": 0, "totals": [105, 85]}
    rows = ui.summary_rows(record, {"vueltas": False})
    keys = [r[0] for r in rows]
    assert keys == ["gn_row_cards", "gn_row_ultimas", "gn_row_cantes", "gn_row_total"]
    for column in (1, 2):
        assert sum(int(r[column] or 0) for r in rows[:-1]) == int(rows[-1][column])
    assert rows[0][1:] == ("75", "45") and rows[1][1:] == ("+10", "")


async def test_counting_help_is_a_setting_off_by_default_and_persists(tmp_path, monkeypatch):
    from cardtable.settings import Settings, load_settings
    from cardtable.ui.screens import SettingsScreen

    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    assert Settings().count_help == "off"
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#set-count_help").query("RadioButton")[1].value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert app.settings.count_help == "on"
    assert load_settings(tmp_path / "settings.json").count_help == "on"
    (tmp_path / "settings.json").write_text('{"count_help": "maybe"}')
    assert load_settings(tmp_path / "settings.json").count_help == "off"
