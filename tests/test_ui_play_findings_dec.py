"""Findings of the December play-test (80×24, en/es/zh): the dialogs' key bar, the saved games' date, the
Guiñote exchange announcement, the Gong Zhu showing panel, the home list's ends. Each failed before."""

import datetime as dt

import pytest
from rich.cells import cell_len

from cardtable import games
from cardtable.games.gongzhu import rules as gz_rules
from cardtable.games.guinote.state import Exchange, GuinoteOptions
from cardtable.i18n import t
from cardtable.ui.footer import Footer
from cardtable.ui.gongzhu.dialogs import ShowPanel
from cardtable.ui.guinote import ExchangeScreen, GuinoteScreen
from cardtable.ui.guinote.text import cante_sentence, exchange_news
from cardtable.ui.screens import SettingsScreen, SlotsScreen
from cardtable.ui.widgets import TrickView
from tests.ui_helpers import make_app, settle

GN = games.get("guinote")
GN_NORMAL = GN.bot("normal")


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def bottom_row(app) -> str:
    return screen_text(app).splitlines()[-1]


def guinote_table(app) -> GuinoteScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuinoteScreen))


async def play_until(pilot, app, done, limit=120):
    """The human plays the normal CPU's choices (the exchange question answered with Enter, its focused
    Exchange) until ``done(screen)``; then the table is left as it is."""
    await settle(pilot)
    screen = guinote_table(app)
    for _ in range(limit):
        await settle(pilot)
        if done(screen):
            return screen
        if isinstance(app.screen, ExchangeScreen):
            await pilot.press("enter")
            continue
        assert app.screen is screen
        assert screen.play(GN_NORMAL.choose(screen.seat.match.view(0)), 0)
    raise AssertionError("never got there")


# ---------------------------------------------------------------- the dialogs' own key bar
@pytest.mark.parametrize("language", ["en", "es", "zh"])
async def test_the_exchange_question_shows_its_own_keys_and_keys_in_full(tmp_path, language):
    """Under «Exchange the 7?» the key bar was the table's (Play, Pinta, Last trick…, none of which work
    there), and at 80 columns its «? Keys» was cut to «?▏». Now it is the dialog's: its answers, then
    «? Keys», whole."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 28, "normal"), lang=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(pilot, app, lambda screen: isinstance(app.screen, ExchangeScreen))
        row = bottom_row(app)
        for key in ("gn_exchange_yes", "gn_exchange_no", "gn_exchange_later"):
            assert t(key) in row, (key, row)
        assert f"? {t('help')}" in row, row
        assert t("gn_play") not in row and t("last_trick") not in row, row
        assert cell_len(row.rstrip()) <= 80


@pytest.mark.parametrize("opening", ["setup", "settings", "last_trick"])
async def test_every_dialog_shows_its_own_keys(tmp_path, opening):
    """The new game's setup, the settings and the last trick: their key bar names their keys (Cancel,
    Close…) and «? Keys», never the home screen's or the table's."""
    launch = ("new", "guinote", GuinoteOptions(), 28, "normal") if opening == "last_trick" else None
    app = make_app(tmp_path, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        under = app.screen
        if opening == "setup":
            await pilot.press("enter")
            expected = t("cancel")
        elif opening == "settings":
            await pilot.press("s")
            expected = t("cancel")
        else:
            await pilot.press("l")
            expected = t("close")
        await settle(pilot)
        assert app.screen is not under and app.screen.query(Footer)
        row = bottom_row(app)
        assert expected in row and f"? {t('help')}" in row, row
        assert t("new_game") not in row and t("gn_play") not in row, row
        if opening == "settings":
            assert isinstance(app.screen, SettingsScreen)


# ---------------------------------------------------------------- the saved games' date
def test_saved_when_is_short_local_and_in_the_players_language(lang):
    from cardtable.ui.screens import saved_when

    local = dt.datetime(2026, 12, 1, 22, 54, tzinfo=dt.datetime.now().astimezone().tzinfo)
    stamp = local.astimezone(dt.UTC).isoformat()
    now = local + dt.timedelta(days=3)
    for language, expected in (("en", "Dec 1 22:54"), ("es", "1 dic 22:54"), ("zh", "12月1日 22:54")):
        lang(language)
        assert saved_when(stamp, now) == expected
    assert saved_when(stamp, now + dt.timedelta(days=365)) == "2026-12-01"      # another year: the date
    assert saved_when("yesterday\x1b[31m") == "yesterday[31m"                    # a hand-edited stamp


@pytest.mark.parametrize("language", ["en", "es", "zh"])
async def test_the_saved_games_list_shows_when_at_80_columns(tmp_path, language):
    """At 80 columns the «Saved» column came last and was cut to «2026»: now it is «Dec 1 22:54» before
    the summary, and a summary too long for the room ends in «…»."""
    app = make_app(tmp_path, lang=language)
    spec = games.get("guandan")
    match = spec.new_match(None, 3)
    bot = spec.bot("easy")
    for _ in range(40):
        match.apply(bot.choose(match.view(match.to_move())), match.to_move())
    slot = app.store.new_slot_name("guandan")
    app.store.save(slot, match, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    info = app.store.list()[0]
    from cardtable.ui.screens import saved_when

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(SlotsScreen())
        await settle(pilot)
        line = next(row for row in screen_text(app).splitlines() if slot in row)
        assert saved_when(info.saved_at) in line, line
        assert cell_len(line.rstrip()) <= 80
        summary = info.describe()
        assert summary in line or "…" in line, line


# ---------------------------------------------------------------- Guiñote: the exchange announcement
@pytest.mark.parametrize("language", ["en", "es", "zh"])
async def test_the_exchange_announcement_reads_on_clean_lines_at_80_columns(tmp_path, language):
    """«Izquierda cambió el 7 por el Caballo de» / «espadas»: the sentence was wrapped by the 40 columns
    of the trick area. Now it is one line where it fits, else two clean ones: who exchanged the 7, and
    for which card."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 11, "normal"), lang=language)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await play_until(pilot, app, lambda s: any(isinstance(m, Exchange) for _, m in s.seat.match.moves))
        seat = next(seat for seat, move in screen.seat.match.moves if isinstance(move, Exchange))
        news = exchange_news(seat, screen.seat.match.exchange[1])
        trick = screen.query_one(TrickView)
        lines = str(trick.render()).splitlines()
        assert all(cell_len(line) <= trick.size.width for line in lines), lines
        if cell_len(news) <= trick.size.width:
            assert news in lines
        else:
            first, second = news.broken
            assert lines[lines.index(first) + 1] == second, lines


async def test_a_crowded_trick_area_keeps_every_line(tmp_path, lang):
    """The trick just taken, the exchange (on two lines) and a cante, then whose turn: more lines than the
    area's 11 rows at 80×24 with the cross's blank rows, so those go and nothing is lost."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 28, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        def after_a_trick(screen):
            view = screen.seat.match.view(0)
            return (view.to_move == 0 and not view.trick and bool(view.tricks) and view.deciding is None
                    and app.screen is screen)
        screen = await play_until(pilot, app, after_a_trick)
        from cardtable.cards import parse_spanish_card

        screen.news = [exchange_news(2, parse_spanish_card("11E")), cante_sentence(2, 20, "E")]
        screen.refresh_table()
        await pilot.pause()
        trick = screen.query_one(TrickView)
        lines = str(trick.render()).splitlines()
        assert len(lines) <= trick.size.height
        assert lines[-5:] == [t("gn_you_take"), "Compañero cambió el 7", "por el Caballo de espadas",
                              "Compañero canta las 20 en espadas", t("gn_your_turn")], lines


# ---------------------------------------------------------------- Gong Zhu: the ♥A named once
@pytest.mark.parametrize("language", ["en", "es", "zh"])
async def test_the_showing_panel_names_each_card_once(tmp_path, language):
    """«A♥  ♥A (doubles every heart)  −200 → −400»: the heart Ace was named twice. Each row is the card,
    then what it is or does, then the effect."""
    spec = games.get("gongzhu")
    seed = next(s for s in range(1, 300) if gz_rules.HEART_ACE in spec.new_match(None, s).view(0).hand)
    app = make_app(tmp_path, launch=("new", "gongzhu", None, seed, "normal"), lang=language)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(10):
            await settle(pilot)
            if isinstance(app.screen, ShowPanel):
                break
        assert isinstance(app.screen, ShowPanel)
        box = app.screen.query_one(f"#show-{gz_rules.HEART_ACE.code}")
        label = str(box.label)
        assert label.count("A") == 1 and label.count("♥") == 1, label
        assert t("gz_heart_ace") in label


# ---------------------------------------------------------------- home: the list's ends
async def test_the_home_list_stops_at_its_ends(tmp_path):
    """↓ on the last game went back to the first (Textual's OptionList wraps), ↑ on the first to the last.
    It stops, as the saved games, the cards and Guandan's columns do."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        games_list = app.screen.query_one("#game-list")
        seen = [games_list.highlighted]
        for key in ("down", "down", "down", "down", "up", "up", "up", "up"):
            await pilot.press(key)
            seen.append(games_list.highlighted)
        assert seen == [0, 1, 2, 2, 2, 1, 0, 0, 0]


@pytest.mark.parametrize("match_over,practice,label", [(False, False, "next_hand"), (True, False, "continue"),
                                                        (False, True, "practice_end")])
async def test_the_results_key_bar_names_enter_as_its_button_does(tmp_path, match_over, practice, label):
    """The last hand's results say «Continue» on the button (the match's end follows), and a practice
    deal's «End practice»: the key bar said «n Next hand» under both."""
    from cardtable.ui.guinote import SummaryScreen

    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        record = {"hand": 2, "points": [70, 60], "cantes": [20, 0], "ultimas": 0, "totals": [90, 60],
                  "winner": 0, "claim": None, "score": [1, 0], "cotos": [0, 0]}
        dialog = SummaryScreen(record, {"vueltas": False, "carry": [0, 0]}, GuinoteOptions(), match_over)
        dialog.practice = practice
        app.push_screen(dialog)
        await settle(pilot)
        row = bottom_row(app)
        assert t(label) in row, row
        for other in {"next_hand", "continue", "practice_end"} - {label}:
            assert t(other) not in row.replace(t("continue_later"), ""), row


# ---------------------------------------------------------------- a Spanish play-through (80×24)
async def test_spanish_sentences_found_playing_a_hand_of_each_game(tmp_path):
    """Playing in Spanish: the checker said «La CPU habría jugado Rey de copas» / «jugado as de
    diamantes» (no article), your Gong Zhu plate «Tú … se lleva:», and the end of a Gong Zhu match with
    two winners «Gana: Oeste, Este»."""
    from cardtable.cards import parse_card, parse_spanish_card
    from cardtable.games.gongzhu.state import Play as GzPlay
    from cardtable.games.guinote.state import Play as GnPlay
    from cardtable.hints import Flag
    from cardtable.ui.gongzhu import GongZhuScreen
    from cardtable.ui.gongzhu.dialogs import GongZhuMatchEnd

    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 28, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = guinote_table(app)
        flag = Flag(1, GnPlay(parse_spanish_card("1C")), GnPlay(parse_spanish_card("12C")), 0.17, 0.01)
        assert screen.flag_text(flag).startswith("La CPU habría jugado el Rey de copas:")
    app = make_app(tmp_path, launch=("new", "gongzhu", None, 5, "normal"), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(10):
            await settle(pilot)
            if isinstance(app.screen, ShowPanel):
                await pilot.press("escape")
            elif isinstance(app.screen, GongZhuScreen):
                break
        screen = app.screen
        assert isinstance(screen, GongZhuScreen)
        flag = Flag(1, GzPlay(parse_card("2D")), GzPlay(parse_card("AD")), 134, 5)
        assert screen.flag_text(flag).startswith("La CPU habría jugado el as de diamantes:")
        queen = Flag(1, GzPlay(parse_card("2S")), GzPlay(parse_card("QS")), 50, 5)
        assert "jugado la dama de picas, el Cerdo:" in screen.flag_text(queen)
        for _ in range(60):
            view = screen.seat.match.view(0)
            if view.taken[0]:
                break
            if view.to_move == 0:
                assert screen.play(screen.spec.bot("normal").choose(view), 0)
            await settle(pilot)
        assert "te llevas:" in str(screen.query_one("#gz-me").render())
        app.push_screen(GongZhuMatchEnd({"totals": [-520, 0, -40, 0], "winners": [1, 3], "pig": [0]}))
        await settle(pilot)
        shown = "\n".join(str(label.render()) for label in app.screen.query("Label"))
        assert "Ganan: Oeste y Este" in shown, shown
