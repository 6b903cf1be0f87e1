"""Issue 16: a CPU's optional Guiñote moves out of turn (the partner's cantes, claims) are chosen off the
event loop, like its decisions, and the game comes out as ``engine.next_auto_move`` plays it."""

import threading

from cardtable import games, workers
from cardtable.engine import next_auto_move
from cardtable.games import GameSpec
from cardtable.games.guinote.state import Cante, GuinoteOptions, Play
from cardtable.ui.guinote import ExchangeScreen, GuinoteScreen, SummaryScreen
from tests.ui_helpers import make_app, settle

# With the human playing the normal CPU's choices, seed 50's first hand has the partner (seat 2) sing out
# of turn right after the human won a trick (the human to lead), then the human sing too.
SEED = 50
SPEC = games.get("guinote")
NORMAL = SPEC.bot("normal")


def reference_hand(seed: int) -> list:
    """The first hand as the engine plays it: normal CPUs, the human playing the normal CPU's choice
    whenever nobody else moves (what the tests below do at the table)."""
    match = SPEC.new_match(GuinoteOptions(), seed)
    while not any(record["type"] == "hand_end" for record in match.log):
        step = next_auto_move(match, lambda seat: NORMAL if seat else None)
        seat, move = step if step is not None else (0, NORMAL.choose(match.view(0)))
        match.apply(move, seat)
    return list(match.moves)


def table(app) -> GuinoteScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuinoteScreen))


async def play_the_hand(pilot, app) -> GuinoteScreen:
    """The human plays the normal CPU's choice each time the table waits for them (the exchange
    question answered by its focused button, Exchange), until the hand's results come up."""
    await settle(pilot)
    screen = table(app)
    for _ in range(200):
        await settle(pilot)
        if isinstance(app.screen, SummaryScreen):
            return screen
        if isinstance(app.screen, ExchangeScreen):
            await pilot.press("enter")
            continue
        if screen.window_waits():        # the partner to lead, the human may sing: Enter plays on
            await pilot.press("enter")
            continue
        assert app.screen is screen and screen.seat.match.to_move() == 0
        assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
    raise AssertionError("the hand did not end")


def out_of_turn(view) -> bool:
    return view.to_move != view.seat


async def test_the_partners_optional_moves_are_chosen_off_the_event_loop(tmp_path, monkeypatch):
    """Normal CPUs, whose bots record every question about a move out of turn and the thread it came in:
    none on the event loop's thread, the partner asked, and the hand the same as the engine's."""
    asked: list[tuple[int, bool]] = []

    class Recording:
        level = "normal"

        def choose(self, view):
            if out_of_turn(view):
                asked.append((view.seat, threading.current_thread() is threading.main_thread()))
            return NORMAL.choose(view)

    real = GameSpec.bot
    monkeypatch.setattr(GameSpec, "bot", lambda spec, level: Recording() if spec.name == "guinote" else
                        real(spec, level))
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), SEED, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await play_the_hand(pilot, app)
        moves = list(screen.seat.match.moves)
    assert moves == reference_hand(SEED)
    assert (2, Cante("C")) in moves and (0, Cante("O")) in moves      # the partner's cante, then the human's
    assert asked and (2, False) in asked
    assert not any(on_loop for _, on_loop in asked), asked


async def test_at_a_search_table_they_go_to_the_thinker(tmp_path):
    """A hard table asks its CPUs through the app's thinker (the worker process): the optional moves out
    of turn too. A stand-in thinker answers with the normal CPU (so the hand is the reference's) and notes
    each question: every one came from a thread, and the partner's out-of-turn question was among them."""
    questions: list[tuple[int, bool]] = []

    class Thinker:
        closed = False
        answered = {"process": 0, "thread": 0}

        def warm(self):
            pass

        def close(self):
            self.closed = True

        def call(self, function, *args):
            assert function is workers.decide
            game, level, view = args
            assert (game, level) == ("guinote", "hard")
            if out_of_turn(view):
                questions.append((view.seat, threading.current_thread() is threading.main_thread()))
            return NORMAL.choose(view)

    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), SEED, "hard"))
    app.thinker = Thinker()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await play_the_hand(pilot, app)
        moves = list(screen.seat.match.moves)
    assert moves == reference_hand(SEED)
    assert (2, False) in questions and not any(on_loop for _, on_loop in questions)


async def test_a_lead_waits_for_the_partners_cante(tmp_path, monkeypatch):
    """While the partner's cante is still being chosen (held here in its thread), the human's lead is
    refused with a word, not played over it (which would close the window on the partner's cante); once
    the partner has sung, the same lead is played. Type-ahead is dropped, never replayed."""
    gate, waiting = threading.Event(), threading.Event()

    class Held:
        level = "normal"

        def choose(self, view):
            if out_of_turn(view) and view.seat == 2:
                waiting.set()
                assert gate.wait(20)
            return NORMAL.choose(view)

    real = GameSpec.bot
    monkeypatch.setattr(GameSpec, "bot", lambda spec, level: Held() if spec.name == "guinote" else
                        real(spec, level))
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), SEED, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause(0.01)
            if any(isinstance(s, GuinoteScreen) for s in app.screen_stack):
                break
        screen = table(app)
        for _ in range(200):                           # the human plays until the partner is asked
            for _ in range(100):
                await pilot.pause(0.01)
                if waiting.is_set() or (not screen._cpu_running and (screen.seat.match.to_move() == 0
                                                                      or screen.window_waits())):
                    break
            if waiting.is_set():
                break
            if isinstance(app.screen, ExchangeScreen) or screen.window_waits():
                await pilot.press("enter")
                continue
            assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        assert waiting.is_set() and screen.seat.match.to_move() == 0
        moves = len(screen.seat.match.moves)
        lead = next(m for m in screen.seat.match.legal_moves(0) if isinstance(m, Play))
        assert not screen.play(lead, 0)
        assert len(screen.seat.match.moves) == moves
        assert "Partner has not finished" in screen.status
        gate.set()
        await settle(pilot)
        assert screen.seat.match.moves[moves] == (2, Cante("C"))
        assert "has not finished" not in screen.status          # the word goes once the partner is done
        assert screen.play(lead, 0)
        assert (0, lead) in screen.seat.match.moves[moves:]


async def test_a_lead_during_the_partners_pause_waits_too(tmp_path, monkeypatch):
    """At the slow speed the partner's cante is shown after a pause. A lead pressed in that pause used to
    be played: the cante was lost and the next CPU never moved (the CPU turn stopped on the cante, now
    illegal, and nobody started it again). Now the lead waits for the cante, then plays, and the game
    goes on. (Only the cante's pause matters here: the CPU's plays before it are made without theirs,
    which at the slow speed took the test some 15 s.)"""
    slow = GuinoteScreen.cpu_delay
    monkeypatch.setattr(GuinoteScreen, "cpu_delay",
                        lambda self, seat, move: slow(self, seat, move) if isinstance(move, Cante) else 0.0)
    app = make_app(tmp_path, launch=("new", "guinote", GuinoteOptions(), SEED, "normal"), cpu_speed="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if any(isinstance(s, GuinoteScreen) for s in app.screen_stack):
                break
        screen = table(app)
        for _ in range(3000):
            await pilot.pause(0.02)
            if screen.seat.waiting_for() is not None:
                break
            if isinstance(app.screen, ExchangeScreen) or (screen.window_waits() and not screen._cpu_running):
                await pilot.press("enter")
            elif screen.seat.match.to_move() == 0 and not screen._cpu_running and app.screen is screen:
                assert screen.play(NORMAL.choose(screen.seat.match.view(0)), 0)
        assert screen.seat.waiting_for() is not None and screen.seat.match.to_move() == 0
        moves = len(screen.seat.match.moves)
        lead = next(m for m in screen.seat.match.legal_moves(0) if isinstance(m, Play))
        assert not screen.play(lead, 0)
        await settle(pilot)
        assert screen.seat.match.moves[moves:] == [(2, Cante("C"))]
        assert screen.play(lead, 0)
        await settle(pilot)
        assert screen.seat.match.moves[moves + 1] == (0, lead) and len(screen.seat.match.moves) > moves + 2   # seat 1 played
