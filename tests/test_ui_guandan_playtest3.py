"""Issue 30, the Guandan table's third play test: statistics at every speed, the counters' wording,
selection while the CPUs move, the reasons a selection is not a play, and the rest of the list."""

import pytest

from cardtable.games.guandan.bots import NormalBot
from cardtable.settings import CPU_SPEEDS
from cardtable.ui.guandan import GuandanScreen, GuandanSummary
from tests.test_ui_playtest_fixes import _game_table, _play_the_last_card
from tests.ui_helpers import make_app, pinned_app, settle, wait_until

SEED = 5


def launch(seed=SEED):
    from cardtable.games.guandan.state import GuandanOptions

    return ("new", "guandan", GuandanOptions(), seed, "normal")


def table(app) -> GuandanScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuandanScreen))


# ---------------------------------------------------------------- 1. statistics at every CPU speed
@pytest.mark.parametrize("speed", sorted(CPU_SPEEDS))
@pytest.mark.parametrize("example", ["guandan-last-play", "gongzhu-last-card", "guinote-last-card"])
async def test_a_finished_hand_is_counted_at_every_cpu_speed(tmp_path, example, speed):
    app = pinned_app(tmp_path, example, cpu_speed=speed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = _game_table(app)
        await _play_the_last_card(pilot, screen)
        await settle(pilot)
        rows = await app.statistics.call("summary")       # after the queued write
        assert [(row.game, row.hands) for row in rows] == [(screen.spec.name, 1)], (example, speed)


async def test_a_whole_guandan_hand_at_the_default_speed_is_in_the_statistics(tmp_path):
    """The default speed (Settings' own default, not the tests' «instant»), from the deal to the summary;
    the human's moves by the normal bot. Only the CPUs' pause between moves is cut, to keep it quick: the
    results pause, where the hand went uncounted, is the real one."""
    from cardtable.settings import Settings

    app = make_app(tmp_path, launch=launch(), cpu_speed=Settings().cpu_speed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert app.settings.cpu_delay > 0 and screen.results_pause() > 0
        screen.cpu_delay = lambda seat, move: 0.0
        bot = NormalBot()
        for _ in range(400):
            if isinstance(app.screen, GuandanSummary):
                break
            if screen.pending_results is None and screen.seat.match.to_move() == 0 and not screen.dealing:
                screen.play(bot.choose(screen.seat.match.view(0)), 0)
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GuandanSummary))
        rows = await app.statistics.call("summary")
        assert len(rows) == 1 and rows[0].game == "guandan" and rows[0].hands == 1
        assert rows[0].seconds > 0


# ---------------------------------------------------------------- 2. the counters count what is not yet played
@pytest.mark.parametrize("lang, words, wrong", [("zh", "未出：大王 2 · 小王 2 · 逢人配 2 · 级牌 6", "已出"),
                                                ("en", "not yet played: BJ 2 · SJ 2 · wild 2 · level 6", "out:"),
                                                ("es", "sin jugar: JG 2 · JP 2 · comodín 2 · nivel 6", "fuera:")])
async def test_the_counters_say_not_yet_played(tmp_path, lang, words, wrong):
    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = str(table(app).query_one("#gd-level").render())
        assert words in bar and wrong not in bar


# ---------------------------------------------------------------- 3. choosing cards while the CPUs play
def _cpu_turn(screen) -> None:
    """Pretend a CPU is to move (its decision not yet made): the human's cards stay the same."""
    screen.seat.match.turn = 1
    screen._view = None
    screen.refresh_table()


async def test_cursor_take_put_back_and_clear_work_while_the_cpus_move(tmp_path):
    from cardtable.ui.guandan import ColumnsView, PlayControl

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        screen.cpu_may_move = lambda: False          # the CPU «thinks» for as long as the test needs
        _cpu_turn(screen)
        columns = screen.query_one(ColumnsView)
        start = columns.cursor
        await pilot.press("right", "right")
        assert columns.cursor == start + 2
        while len(columns.columns[columns.cursor]) < 2:
            await pilot.press("right")
        await pilot.press("up", "up", "down")
        assert len(columns.selection()) == 1
        await pilot.press("space")
        assert len(columns.selection()) == 2
        await pilot.press("x")
        assert columns.selection() == []
        await pilot.press("up")
        chosen = columns.selection()
        await pilot.press("enter")                   # playing waits for the turn
        await settle(pilot)
        assert not any(seat == 0 for seat, _ in screen.seat.match.moves[1:]) and columns.selection() == chosen
        screen.seat.match.turn = 0                        # the turn comes: the selection is still there
        screen._view = None
        screen.refresh_table()
        assert columns.selection() == chosen and screen.query_one(PlayControl).label != "Play"


# ---------------------------------------------------------------- 4–5. why a selection is not a play
from tests.test_ui_guandan import control, deal, goto, status


@pytest.mark.parametrize("hand, level, picks, reason", [
    ("3C 4D 5S 6H 7C 8D KS", 2, ["3", "4", "5", "6", "7", "8"], "a straight is exactly 5 cards"),
    ("2H 3C 9D KS", 5, ["2", "3"], "a pair needs two of one rank"),
    ("SJ BJ 9D KS", 5, ["SJ", "BJ"], "big and small joker are no pair"),
])
async def test_a_selection_that_is_not_a_play_says_why_once(tmp_path, hand, level, picks, reason):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, hand, level)
        for label in picks:
            await goto(pilot, screen, label)
            await pilot.press("up")
        assert control(screen) == "Not a play"
        assert reason in status(screen) and "Not a play" not in status(screen)
        await pilot.press("enter")
        await settle(pilot)
        assert reason in status(screen) and not screen.seat.match.moves


async def test_an_ace_against_the_level_card_says_the_level_card_is_higher(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "3C 9D AS KS", 7, top=(3, "7C", "single", 7))
        await goto(pilot, screen, "A")
        await pilot.press("up")
        assert "the level card 7 is above the Ace this hand" in status(screen)


async def test_p_while_leading_and_enter_with_nothing_say_why(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "3C 9D AS KS", 7)
        await pilot.press("p")
        await settle(pilot)
        assert status(screen) == "You lead: you may not pass."
        await pilot.press("enter")
        await settle(pilot)
        assert status(screen).startswith("Nothing taken yet") and not screen.seat.match.moves


# ---------------------------------------------------------------- 6. the suit keys need Shift: said so
@pytest.mark.parametrize("lang, shift", [("en", "Shift+S"), ("es", "Mayús+S")])
async def test_the_suit_keys_say_they_need_shift(tmp_path, lang, shift):
    from textual.widgets import MarkdownViewer

    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = table(app)
        screen.seat.match.turn = 0
        screen._view = None
        screen.refresh_table()
        assert shift in status(screen)                   # nothing taken: the status line names the keys
        await pilot.press("question_mark")
        await settle(pilot)
        source = app.screen.query_one(MarkdownViewer).document.source
        assert f"| {shift} |" in source and "| S |" not in source


# ---------------------------------------------------------------- 7. the hint line: fresh, in a player's words
def _hint(move, reason="gd_why_over_partner_sure", gain=None, runner_up=None):
    from cardtable.hints import Hint, Reason

    return Hint(move=move, reason=Reason.of(reason), gain=gain, runner_up=runner_up, evaluation=None)


def advice(screen) -> str:
    return str(screen.query_one("#advice").render())


async def test_the_hint_line_goes_when_you_build_another_play(tmp_path):
    from cardtable.games.guandan.state import Play
    from tests.test_ui_guandan import cards

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "3C 4D 9S 9H KS", 5)
        hint = _hint(Play(tuple(cards("9S 9H")), "pair", 9), "gd_why_lead")
        screen._hint = (screen.position(), hint)
        screen.show_hint(hint)
        assert advice(screen).startswith("Hint: Pair of 9s")
        await pilot.press("x")
        assert advice(screen) == ""                       # stale once you choose yourself
        await goto(pilot, screen, "3")
        await pilot.press("up")
        assert advice(screen) == ""
        await pilot.press("h")                            # asked again: it comes back
        await settle(pilot)
        assert advice(screen).startswith("Hint: Pair of 9s")


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_the_take_key_is_never_cut_at_80_columns(tmp_path, lang):
    from cardtable.games.guandan.state import Play
    from tests.test_ui_guandan import cards

    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "3C 4D 9S 9H 10S 10H 10D 10C 10C KS", 5)
        bomb = Play(tuple(cards("10S 10H 10D 10C 10C")), "bomb", 10)
        hint = _hint(Play(tuple(cards("9S 9H")), "pair", 9), "gd_why_over_partner_sure", gain=0.6, runner_up=bomb)
        screen.show_hint(hint)
        line = advice(screen)
        key = {"en": "a: take it", "es": "a: tomarla", "zh": "a：采用"}[lang]
        assert line.endswith(f" · {key}") and screen.fits(line, 2), line


def test_the_edge_reads_as_levels_expected():
    from cardtable.games.guandan.advice import gain_text
    from cardtable.i18n import set_language

    assert gain_text(0.6, "Bomb of five 2s") == "+0.6 levels expected over Bomb of five 2s"
    set_language("zh")
    assert gain_text(0.8, "一对9") == "比一对9预计多 0.8 级"          # no «多 +0.8»


def test_a_low_lead_for_a_short_partner_says_so():
    from cardtable import games
    from cardtable.games.guandan.advice import explain
    from cardtable.games.guandan.state import Play
    from tests.test_ui_guandan import cards

    match = games.get("guandan").new_match(seed=5)
    match.level = 5
    match.hands[0] = cards("3C 7D 7S KS KH AS QD")
    match.hands[2] = cards("9S 9D 4C")
    match._sort()
    match.pending = []
    match.turn = 0
    view = match.view(0)
    reason = explain(view, Play(tuple(cards("3C")), "single", 3))
    assert reason.key == "gd_why_lead_low"


# ---------------------------------------------------------------- 8. the checker's note names the decision
@pytest.mark.parametrize("lang, start", [("en", "Return: the CPU would have given back 2♠"), ("zh", "还贡：电脑会还2♠")])
async def test_a_checker_note_about_the_return_says_so(tmp_path, lang, start):
    from cardtable.cards import parse_card
    from cardtable.games.guandan.state import Pass, Play, Return
    from cardtable.hints import Flag
    from tests.test_ui_guandan import cards

    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        note = screen.flag_text(Flag(1, Return(parse_card("9D")), Return(parse_card("2S")), 1.4, 0.1))
        assert note.startswith(start), note
        if lang == "en":
            play = Play(tuple(cards("9S 9H")), "pair", 9)
            assert screen.flag_text(Flag(1, Pass(), play, 0.8, 0.1)).startswith("Instead of passing, the CPU")
            single = Play(tuple(cards("KS")), "single", 13)
            assert screen.flag_text(Flag(1, play, single, 0.8, 0.1)).startswith(
                "Instead of your Pair of 9s, the CPU would have played Single K")


# ---------------------------------------------------------------- 9. the tribute stays in sight
def _first_lead_after_a_tribute(tmp_path):
    """A save at hand 2 after the tribute and the return, the first lead made (the CPUs played every seat
    of hand 1 and the tribute off the UI), and the app continuing it."""
    from cardtable import games
    from cardtable.games.guandan.bots import NormalBot
    from cardtable.saves import SaveStore

    bot = NormalBot()
    for seed in range(1, 40):
        match = games.get("guandan").new_match(seed=seed)
        while match.hand == 1 or match.phase == "tribute":
            match.apply(bot.choose(match.view(match.to_move())), match.to_move())
        if match.tribute in ("single", "double") and match.to_move() != 0:
            break
    match.apply(bot.choose(match.view(match.to_move())), match.to_move())      # the first lead
    players = ["human", "cpu:normal", "cpu:normal", "cpu:normal"]
    SaveStore(tmp_path / "saves").save("gd-tribute", match, players)
    return make_app(tmp_path, launch=("continue", "gd-tribute"))


async def test_the_tribute_stays_in_sight_until_the_first_trick_ends(tmp_path, monkeypatch):
    from cardtable.ui.dialogs import LastTrickDialog
    from cardtable.ui.guandan import TableView

    monkeypatch.setattr(GuandanScreen, "cpu_may_move", lambda self: False)     # stay within the first trick
    app = _first_lead_after_a_tribute(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        view = screen.human_view()
        assert view.plays and not view.last_trick and view.tribute_moves
        box = screen.query_one(TableView)
        assert box.border_title.startswith("Tribute: ") and "→" in box.border_title
        assert box.border_subtitle.startswith("Return: ")
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LastTrickDialog)
        shown = "\n".join(str(line) for line in app.screen.lines)
        assert "Tribute" in shown and "Return" in shown


# ---------------------------------------------------------------- 10. the «+3» by the team that rose
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_rise_sits_by_the_team_that_rose(tmp_path, lang):
    app = pinned_app(tmp_path, "guandan-last-play", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = _game_table(app)
        screen.results_pause = lambda: 600.0
        await _play_the_last_card(pilot, screen)
        record = screen.pending_results
        bar = str(screen.query_one("#gd-level").render()).split("\n")[0]
        us, them = ("Us", "Them") if lang == "en" else ("我方", "对方")
        rose = us if record["winner_team"] == 0 else them
        other = them if rose == us else us
        level = record["levels"][record["winner_team"]]
        assert f"{rose} {level} +{record['level_up']} " in bar, bar
        assert bar.index(f"+{record['level_up']}") < bar.index(other) or rose == them
        assert "  ·" not in bar, bar                       # no double space before the next part


# ---------------------------------------------------------------- the statistics screen and `cardtable stats`
def _some_statistics():
    from cardtable.stats import LevelStats

    return [LevelStats("gongzhu", "normal", True, matches=12, finished=10, won=4, hands=130, hands_won=40,
                       hands_decided=120, points=-4321, best=320, worst=-640, seconds=7300, streak=2, best_streak=5),
            LevelStats("guandan", "expert", False, matches=3, finished=2, won=1, hands=31, hands_won=15,
                       hands_decided=31, points=12, best=3, worst=-3, seconds=1900, streak=0, best_streak=2)]


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_the_statistics_table_fits_80_columns(tmp_path, lang):
    from textual.widgets import DataTable

    from cardtable.i18n import t
    from cardtable.ui.statistics import StatisticsScreen

    app = make_app(tmp_path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rows = _some_statistics()

        async def call(method, *args, **kwargs):
            return rows if method == "summary" else []
        app.statistics.call = call
        app.action_statistics()
        await settle(pilot)
        assert isinstance(app.screen, StatisticsScreen)
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.region.width, (table.virtual_size, table.region)
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        for word in (t("game_guandan"), t("stats_level_expert"), t("stats_with_undo"), "−640", "2h01"):
            assert word in shown, word
        assert "…" not in shown


async def test_left_and_right_switch_the_statistics_chart_and_the_keys_screen_names_them(tmp_path):
    from textual.widgets import MarkdownViewer

    from cardtable.ui.statistics import StatisticsScreen

    app = make_app(tmp_path, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.action_statistics()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        first = screen.chart_game
        await pilot.press("right")
        await settle(pilot)
        assert screen.chart_game != first
        await pilot.press("left")
        await settle(pilot)
        assert screen.chart_game == first
        await pilot.press("question_mark")
        await settle(pilot)
        source = app.screen.query_one(MarkdownViewer).document.source
        assert "| ← | Juego anterior |" in source and "previous_game" not in source


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [50, 80])
def test_cardtable_stats_breaks_lines_between_items_only(lang, width):
    from cardtable import i18n
    from cardtable.cli import stats_lines
    from cardtable.stats import format_row, summary_columns

    i18n.set_language(lang)
    for row in _some_statistics():
        cells = format_row(row)
        items = [f"{name} {cell}" for name, cell in zip(summary_columns()[1:], cells[1:])]
        lines = stats_lines(items, width)
        assert " · ".join(line.strip() for line in lines) == " · ".join(items)     # nothing cut or lost
        for line in lines:
            assert not line.rstrip().endswith("·") and not line.lstrip().startswith("·"), line


def test_cardtable_stats_writes_the_minus_sign(capsys, monkeypatch):
    from cardtable import stats
    from cardtable.cli import main

    monkeypatch.setattr(stats.StatsDB, "summary", lambda self, game=None: _some_statistics())
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--lang", "zh", "stats"]) == 0
    out = capsys.readouterr().out
    assert "−640" in out and "-640" not in out and "(有悔牌)" not in out
    assert all(not line.rstrip().endswith("·") for line in out.splitlines())


# ---------------------------------------------------------------- the wild marked on the card, runs in order
def test_a_wild_is_marked_on_the_card_and_runs_read_from_their_low_end():
    from cardtable.games.guandan import rules
    from cardtable.ui.guandan.text import play_cards
    from tests.test_ui_guandan import cards

    level = 2
    full = cards("2H 6C 6D 6H 9S 9D")[:5]                     # 2♥ 6♣ 6♦ 6♥ 9♠: the wild as a 9
    combo = next(c for c in rules.classify(full, level) if c.type == "full_house")
    shown = str(play_cards(full, combo, level, "colour"))
    assert "2♥→9" in shown and " as " not in shown and "♠→" not in shown
    low = cards("2C 3H 4S 5C AD")
    straight = next(c for c in rules.classify(low, 7) if c.type == "straight")
    assert str(play_cards(low, straight, 7, "colour")) == "A♦ 2♣ 3♥ 4♠ 5♣"
    run = cards("6S 7S 8S 10S 2H")                               # the wild as the 9♠ of a straight flush
    flush = next(c for c in rules.classify(run, 2) if c.type == "straight_flush")
    assert str(play_cards(run, flush, 2, "colour")) == "6♠ 7♠ 8♠ 2♥→9♠ 10♠"
    plain = next(c for c in rules.classify(run, 2, sf_as_straight=True) if c.type == "straight") if any(
        c.type == "straight" for c in rules.classify(run, 2)) else None
    if plain is not None:
        assert "2♥→9 " in str(play_cards(run, plain, 2, "colour"))      # the suit does not matter there


async def test_the_wild_stays_marked_on_the_seat_plates_and_the_table(tmp_path):
    from cardtable.games.guandan import rules
    from cardtable.games.guandan.state import Play, TopPlay
    from cardtable.ui.guandan import TableView
    from tests.test_ui_guandan import cards, screen_text

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "3C 9D AS KS", 5)
        played = cards("5H 6C 6D 6H")                           # 5♥ (wild) 6♣ 6♦ 6♥: a bomb of four 6s
        combo = next(c for c in rules.classify(played, 5) if c.type == "bomb")
        screen.seat.match.top = TopPlay(3, tuple(played), combo)
        screen.seat.match.actions = [None, None, None, Play(tuple(played), combo.type, combo.key)]
        screen._view = None
        screen.refresh_table()
        await settle(pilot)
        assert "5♥→6" in str(screen.query_one(TableView).render())
        assert screen_text(app).count("5♥→6") == 2, screen_text(app)       # the table and Left's plate


# ---------------------------------------------------------------- Chinese: full-width punctuation, aligned columns
async def test_chinese_table_text_uses_full_width_punctuation_and_aligned_joker_labels(tmp_path):
    from cardtable.games.guandan import rules
    from cardtable.games.guandan.state import Play, TopPlay
    from cardtable.ui.guandan import ColumnsView, TableView
    from tests.test_ui_guandan import cards

    app = make_app(tmp_path, launch=launch(), lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "10S 10D KS SJ BJ BJ", 5)
        played = cards("9C 9D")
        combo = next(c for c in rules.classify(played, 5) if c.type == "pair")
        screen.seat.match.top = TopPlay(2, tuple(played), combo)
        screen.seat.match.actions = [None, None, Play(tuple(played), combo.type, combo.key), None]
        screen._view = None
        screen.refresh_table()
        await settle(pilot)
        middle = str(screen.query_one(TableView).render())
        assert "对家：" in middle and "对家:" not in middle
        lines = str(screen.query_one(ColumnsView).render()).split("\n")
        for label in ("小王", "大王", "10"):
            assert lines[0].index(label) == lines[1].index(label), (label, lines[:2])


# ---------------------------------------------------------------- the readings line, the summary, the last trick
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_readings_line_is_never_cut_at_80_columns(tmp_path, lang):
    from rich.cells import cell_len

    from cardtable.i18n import t

    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        deal(screen, "5C 6D 7S 8H 9C 10D 2H 2H KS", 2)        # two wilds and 5 6 7: straights 3–7 to 5–9
        for label in ("5", "6", "7", "2"):
            await goto(pilot, screen, label)
            await pilot.press("up", "up") if label == "2" else await pilot.press("up")
        shown = status(screen)
        readings = len(screen._beating_readings())
        assert readings > 2 and cell_len(shown) <= screen._status_room(), shown     # whole, never cut
        assert t("gd_readings", n=readings) in shown or shown.count(" / ") == readings - 1


async def test_the_summary_names_its_second_column_and_guandan_calls_a_trick_lun(tmp_path):
    from cardtable.ui.dialogs import LastTrickDialog

    app = pinned_app(tmp_path, "guandan-last-play", lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = _game_table(app)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LastTrickDialog) and app.screen.title_text == "上一轮"
        await pilot.press("escape")
        await settle(pilot)
        await _play_the_last_card(pilot, screen)
        await pilot.press("space")
        await settle(pilot)
        assert isinstance(app.screen, GuandanSummary)
        from tests.test_ui_guandan import screen_text

        text = screen_text(app)
        assert "名次" in text and "玩家" in text


async def test_toasts_stay_off_the_status_line(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = table(app)
        from textual.widgets._toast import Toast

        await pilot.press("s")                                # «by play»: a toast
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)) and app.screen.query(Toast).first().region.height)
        toast = app.screen.query(Toast).first()
        assert toast.region.bottom <= screen.query_one("#gd-columns").region.y, toast.region
        assert toast.region.y >= 1                            # under the title bar


def test_the_readme_lists_every_cpu_level():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "--level easy\\|normal\\|hard\\|expert]" in readme


def test_the_chinese_rules_and_words_read_as_chinese():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "cardtable"
    rules_zh = (root / "games" / "guandan" / "rules_zh.md").read_text()
    assert "«" not in rules_zh and "»" not in rules_zh                  # Chinese quotes: “”
    assert " < 天王炸" not in rules_zh                                   # the bomb ladder is a list
    catalogue = tomllib.loads((root / "locales" / "zh.toml").read_text())
    assert not [key for key, text in catalogue.items() if "重发" in text]  # one term: 重打这一局
    assert catalogue["gd_last_trick"] == "上一轮" and catalogue["gd_review"] == "l：上一轮"
