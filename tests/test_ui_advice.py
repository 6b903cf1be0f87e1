"""Pilot tests of the search's advice at the tables: the hint (`h`) comes from the `hard` search in the
app's worker process, the play checker writes a quiet line and the hand's summary lists what it
flagged, keys stay responsive while a `hard` CPU decides in the worker (order of events, never
timings), and a worker killed in the middle of a decision loses no move."""

import functools
import os
import signal

from cardtable import workers
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.ui.dialogs import HandEndDialog
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen
from cardtable.ui.screens import RulesScreen
from cardtable.ui.widgets import HandView
from tests import thinking
from tests.test_workers import gone
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
        if screen.seat.match.to_move() == HUMAN and not screen.dealing and pilot.app.screen is screen:
            return
        await settle(pilot)
    raise AssertionError("the human never got the turn")


async def test_the_hint_is_the_searchs_move_computed_off_the_event_loop(tmp_path):
    app = make_app(tmp_path, launch=gongzhu(5), lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await human_turn(pilot, screen)
        await pilot.press("right")        # the cursor leaves the hinted card first
        view = screen.seat.match.view(HUMAN)
        await pilot.press("h")
        await settle(pilot)
        expected = screen.spec.advice.hint(view)
        hand = screen.query_one(HandView)
        assert hand.lifted is not None and hand.cards[hand.lifted] == expected.move.card
        text = status(screen)
        assert text.startswith("Pista: ") and screen.hint_text(expected) == text
        assert app.thinker.answered == {"process": 1, "thread": 0}      # in the worker process
        assert app.thinker.pid not in (None, os.getpid())
        # Pressed again at the same position: the same hint at once, no second search.
        await pilot.press("h")
        await settle(pilot)
        assert app.thinker.answered == {"process": 1, "thread": 0} and status(screen) == text


async def test_a_hint_that_arrives_after_the_human_played_changes_nothing(tmp_path, monkeypatch):
    app = make_app(tmp_path, launch=gongzhu(5))
    release = tmp_path / "release"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await human_turn(pilot, screen)
        # The worker's hint waits for the file `release`.
        monkeypatch.setattr(workers, "hint", functools.partial(thinking.gated_hint, str(release)))
        await pilot.press("h")
        assert "thinking" in status(screen)
        moves = len(screen.seat.match.moves)
        await pilot.press("enter", "enter")          # the human plays the card under the cursor
        assert len(screen.seat.match.moves) > moves
        release.touch()
        await settle(pilot)
        assert app.thinker.answered["process"] == 1         # the hint came, late
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
            view = screen.seat.match.view(HUMAN)
            assert screen.play(easy.choose(view), HUMAN)
            await settle(pilot)
            if advice_line(screen):
                seen.append(advice_line(screen))
            assert app.screen is screen or isinstance(app.screen, HandEndDialog)
        assert isinstance(app.screen, HandEndDialog)
        assert screen.flags and seen
        assert all(text.startswith("The CPU would have played ") and "points better on average" in text for text in seen)
        assert app.screen.flags == [screen.flag_text(f) for f in screen.flags]
        shown = " ".join(str(label.render()) for label in app.screen.query("Label"))
        assert "The play checker flagged" in shown and screen.flag_text(screen.flags[0]) in shown


async def hard_cpu_thinking(pilot, tmp_path, monkeypatch):
    """A hard Guiñote table where the human has just played and the first CPU after is deciding in the
    worker process, searching again and again until the file ``release`` exists (real hard searches).
    Returns (screen, release, the worker's pid, the moves before the CPU's, the view it decides on)."""
    started, release = tmp_path / "started", tmp_path / "release"
    monkeypatch.setattr(workers, "decide", functools.partial(thinking.busy_decide, str(started), str(release)))
    await settle(pilot)
    screen = table(pilot.app)
    await human_turn(pilot, screen)
    await pilot.press("enter", "enter")          # the human plays: the hard CPU's turn
    for _ in range(3000):
        if started.exists() and started.read_text():
            break
        await pilot.pause(0.01)
    assert started.exists(), "the CPU's decision never started"
    seat = screen.seat.match.to_move()
    assert seat != HUMAN and screen.players[seat].startswith("cpu:")
    return screen, release, int(started.read_text()), len(screen.seat.match.moves), screen.seat.match.view(seat)


async def test_keys_stay_responsive_while_a_hard_cpu_decides(tmp_path, monkeypatch):
    """A hard Guiñote CPU decides in the worker process (real searches, again and again until the test
    is done); meanwhile the rules screen opens and closes on key presses. The keys are handled while
    the decision is still running: their effects come between its start and its end. The worker ends
    with the app."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 3, "hard"))
    events: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen, release, pid, moves, view = await hard_cpu_thinking(pilot, tmp_path, monkeypatch)
        assert pid == app.thinker.pid and pid != os.getpid()       # the search runs in the worker
        events.append("decision started")
        await pilot.press("r")
        if isinstance(app.screen, RulesScreen):
            events.append("rules opened")
        await pilot.press("escape")
        if app.screen is screen:
            events.append("rules closed")
        if len(screen.seat.match.moves) == moves:
            events.append("the CPU still deciding")
        release.touch()
        await settle(pilot)
        if len(screen.seat.match.moves) > moves:
            events.append("the CPU played")
        assert events == ["decision started", "rules opened", "rules closed", "the CPU still deciding",
                          "the CPU played"]
        assert screen.seat.match.moves[moves] == (view.seat, screen.spec.bot("hard").choose(view))
        assert app.thinker.answered["thread"] == 0
    assert app.thinker.closed and gone(pid, 5)


async def test_a_worker_killed_in_the_middle_of_a_decision_loses_no_move(tmp_path, monkeypatch):
    """kill -9 of the worker while a hard CPU decides: the decision is made in a thread instead (the
    same move), the game goes on, and the next decisions go to a new worker."""
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), 3, "hard"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen, release, pid, moves, view = await hard_cpu_thinking(pilot, tmp_path, monkeypatch)
        os.kill(pid, signal.SIGKILL)
        assert gone(pid, 5)
        release.touch()
        await settle(pilot)
        assert app.screen is screen and len(screen.seat.match.moves) > moves
        assert screen.seat.match.moves[moves] == (view.seat, screen.spec.bot("hard").choose(view))
        assert app.thinker.answered["thread"] == 1
        for _ in range(50):                          # the other CPUs decide in a new worker
            if app.thinker.answered["process"] or screen.seat.match.to_move() == HUMAN:
                break
            await settle(pilot)
        assert app.thinker.answered["process"] >= 1 and app.thinker.pid not in (None, pid)
