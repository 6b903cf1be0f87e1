"""Pilot tests of the search's advice at the tables: the hint (`h`) comes from the `hard` search in a
worker thread, the play checker writes a quiet line and the hand's summary lists what it flagged, and
keys stay responsive while a `hard` CPU decides (order of events, never timings)."""

import threading

from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.ui.dialogs import HandEndDialog
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen
from cardtable.ui.screens import RulesScreen
from cardtable.ui.widgets import HandView
from tests.ui_helpers import make_app, settle


def table(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def gongzhu(seed, level="normal"):
    return ("new", "gongzhu", GongZhuOptions(showing=False), seed, level)


def status(screen) -> str:
    return str(screen.query_one(f"#{screen.STATUS_ID}").render())


def advice_line(screen) -> str:
    line = screen.query_one(AdviceLine)
    return str(line.render()) if line.display else ""


async def human_turn(pilot, screen):
    for _ in range(100):
        if screen.match.to_move() == HUMAN and not screen.dealing and pilot.app.screen is screen:
            return
        await settle(pilot)
    raise AssertionError("the human never got the turn")


async def test_the_hint_is_the_searchs_move_computed_off_the_event_loop(tmp_path, monkeypatch):
    app = make_app(tmp_path, launch=gongzhu(5), lang="es")
    threads = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        advice = screen.spec.advice
        real_hint = advice.hint

        def recording_hint(view, *args):
            threads.append(threading.current_thread())
            return real_hint(view, *args)

        monkeypatch.setattr(advice, "hint", recording_hint)
        await human_turn(pilot, screen)
        await pilot.press("right")        # the cursor leaves the hinted card first
        view = screen.match.view(HUMAN)
        await pilot.press("h")
        await settle(pilot)
        expected = real_hint(view)
        hand = screen.query_one(HandView)
        assert hand.lifted is not None and hand.cards[hand.lifted] == expected.move.card
        text = status(screen)
        assert text.startswith("Pista: ") and screen.hint_text(expected) == text
        assert threads and all(t is not threading.main_thread() for t in threads)
        # Pressed again at the same position: the same hint at once, no second search.
        await pilot.press("h")
        await settle(pilot)
        assert len(threads) == 1 and status(screen) == text


async def test_a_hint_that_arrives_after_the_human_played_changes_nothing(tmp_path, monkeypatch):
    app = make_app(tmp_path, launch=gongzhu(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await human_turn(pilot, screen)
        gate = threading.Event()
        real_hint = screen.spec.advice.hint

        def slow_hint(view, *args):
            gate.wait(30)
            return real_hint(view, *args)

        monkeypatch.setattr(screen.spec.advice, "hint", slow_hint)
        await pilot.press("h")
        assert "thinking" in status(screen)
        moves = len(screen.match.moves)
        await pilot.press("enter", "enter")          # the human plays the card under the cursor
        assert len(screen.match.moves) > moves
        gate.set()
        await settle(pilot)
        assert "Hint:" not in status(screen)


def test_the_checker_is_on_at_easy_and_normal_tables_and_off_at_hard_ones(tmp_path):
    from cardtable import games

    spec = games.get("gongzhu")
    for setting, level, on in (("auto", "easy", True), ("auto", "normal", True), ("auto", "hard", False),
                               ("on", "hard", True), ("off", "normal", False)):
        app = make_app(tmp_path, checker=setting)
        screen = GameScreen(spec, spec.new_match(seed=1), ["human"] + [f"cpu:{level}"] * 3, "x", fresh=True)
        screen._parent = app           # the setting is read from the app
        assert screen.checker_on is on, (setting, level)


async def test_the_checker_flags_clear_mistakes_quietly_and_the_summary_lists_them(tmp_path):
    """The human plays like `easy` at a normal Gong Zhu table for a hand: the checker flags some of
    those plays in the line under the table (never a dialog), and the hand's summary lists them."""
    app = make_app(tmp_path, launch=gongzhu(11), checker="auto")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        easy = screen.spec.bot("easy")
        seen = []
        for _ in range(40):
            if isinstance(app.screen, HandEndDialog):
                break
            await human_turn(pilot, screen)
            view = screen.match.view(HUMAN)
            assert screen.play(easy.choose(view), HUMAN)
            await settle(pilot)
            if advice_line(screen):
                seen.append(advice_line(screen))
            assert app.screen is screen or isinstance(app.screen, HandEndDialog)
        assert isinstance(app.screen, HandEndDialog)
        assert screen.flags and seen
        assert all(text.startswith("The CPU would have played ") and "points expected" in text for text in seen)
        assert app.screen.flags == [screen.flag_text(f) for f in screen.flags]
        shown = " ".join(str(label.render()) for label in app.screen.query("Label"))
        assert "The play checker flagged" in shown and screen.flag_text(screen.flags[0]) in shown


async def test_keys_stay_responsive_while_a_hard_cpu_decides(tmp_path):
    """A hard Guiñote CPU decides in its worker thread (real searches, again and again until the test
    is done); meanwhile the rules screen opens and closes on key presses. The keys are handled while
    the decision is still running: their events come between its start and its end."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 3, "hard"))
    events: list[str] = []
    started, release = threading.Event(), threading.Event()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await human_turn(pilot, screen)
        seat = 1
        real = screen.bots[seat]

        class Thinking:
            def choose(self, view):
                events.append("decision started")
                started.set()
                for _ in range(50):           # each round a full hard search holding the GIL
                    move = real.choose(view)
                    if release.is_set():
                        break
                events.append("decision finished")
                return move

        screen.bots[seat] = Thinking()
        await pilot.press("enter", "enter")          # the human plays: the hard CPU's turn
        for _ in range(2000):
            if started.is_set():
                break
            await pilot.pause(0.01)
        assert started.is_set()
        await pilot.press("r")
        if isinstance(app.screen, RulesScreen):
            events.append("rules opened")
        await pilot.press("escape")
        if app.screen is screen:
            events.append("rules closed")
        release.set()
        await settle(pilot)
        assert events[:4] == ["decision started", "rules opened", "rules closed", "decision finished"]
        assert len(screen.match.moves) >= 2          # the CPU's move was played after all
