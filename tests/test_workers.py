"""The search's worker process (cardtable.workers): what crosses to it pickles, its answers are the ones
the table's own bot gives, it falls back to the calling thread when it cannot start, and it never
outlives its app. (Killed in the middle of a decision at a real table: tests/test_ui_advice.py.)"""

import os
import pickle
import subprocess
import sys
import threading
import time

import pytest

from cardtable import games, hints, sim, workers
from cardtable.games.guinote.state import Claim
from cardtable.workers import Thinker, ThinkerClosed

# Every kind of move each game has, by class name (Guiñote's Claim only comes in las vueltas with the
# claim option: pickled on its own below).
MOVE_KINDS = {"guandan": {"Play", "Pass", "Tribute", "Return"}, "gongzhu": {"Show", "Play"},
              "guinote": {"Play", "Cante", "Exchange", "KeepSeven"}}


def positions(spec, seed, hands):
    """(match, seat) for every seat at every step of ``hands`` hands played by `normal` bots."""
    match = spec.new_match(seed=seed)
    bot = spec.bot("normal")
    while not match.is_over() and match.hand <= hands:
        for seat in range(4):
            yield match, seat
        seat, move = sim.next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)


@pytest.mark.parametrize("game", sorted(MOVE_KINDS))
def test_every_view_and_move_crosses_to_the_worker_unchanged(game):
    spec = games.get(game)
    kinds = set()
    for seed in (1, 2):
        for match, seat in positions(spec, seed, hands=2):
            view = match.view(seat)
            again = pickle.loads(pickle.dumps(view))
            assert again == view and type(again) is type(view)
            assert again.bot_seed == view.bot_seed
            for move in view.legal:
                assert pickle.loads(pickle.dumps(move)) == move
                kinds.add(type(move).__name__)
                played = move
    assert MOVE_KINDS[game] <= kinds
    if game == "guinote":
        assert pickle.loads(pickle.dumps(Claim())) == Claim()
    flag = hints.Flag(1, played, played, 12.5, 3.0)    # what the checker sends back
    assert pickle.loads(pickle.dumps(flag)) == flag


def decisions(spec, count):
    """``count`` positions of ``spec`` where the seat to move has a real choice, from several deals."""
    found = []
    bot = spec.bot("normal")
    for seed in range(1, 40):
        match = spec.new_match(seed=seed)
        for _ in range(5 + 7 * seed % 23):           # somewhere in the first hand
            if match.is_over():
                break
            seat, move = sim.next_cpu_move(match, lambda _: bot)
            match.apply(move, seat)
        seat = match.to_move()
        if seat is None or match.automatic_move(seat) is not None:
            continue
        view = match.view(seat)
        if len(view.legal) >= 2:
            found.append(view)
        if len(found) == count:
            return found
    raise AssertionError("not enough positions")


def test_the_worker_decides_hints_and_checks_exactly_as_the_direct_call():
    """Hard decisions (three positions per game), a hint and checks (Guandan's, the quickest): the
    worker's answers equal the direct calls' (the worker computes while this thread computes the same
    directly)."""
    thinker = Thinker()
    questions = []
    for game in games.games():
        views = decisions(games.get(game), 3)
        questions += [(workers.decide, game, "hard", view) for view in views]
        if game == "guandan":
            questions.append((workers.hint, game, views[0]))
            questions += [(workers.check, game, views[1], move) for move in views[1].legal[-2:]]
    answers = {}
    asked = threading.Thread(target=lambda: answers.update(
        (i, thinker.call(*question)) for i, question in enumerate(questions)))
    try:
        asked.start()
        direct = [function(*args) for function, *args in questions]
        asked.join()
        assert thinker.pid is not None and thinker.pid != os.getpid()
    finally:
        thinker.close()
    assert thinker.answered == {"process": len(questions), "thread": 0}
    for i, expected in enumerate(direct):
        assert answers[i] == expected, questions[i][:3]
    assert thinker.closed and thinker.pid is None
    with pytest.raises(ThinkerClosed):
        thinker.call(workers.decide, "gongzhu", "normal", questions[0][3])


def test_a_worker_that_cannot_start_leaves_the_decisions_to_the_thread(monkeypatch):
    def refused(self, *args, **kwargs):
        raise OSError("no new processes here")

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)
    spec = games.get("guinote")
    view = decisions(spec, 1)[0]
    thinker = Thinker()
    for _ in range(workers.MAX_FAILURES + 2):
        assert thinker.call(workers.decide, "guinote", "normal", view) == spec.bot("normal").choose(view)
    assert thinker.answered == {"process": 0, "thread": workers.MAX_FAILURES + 2}
    assert not thinker.processes and thinker.failures == workers.MAX_FAILURES   # it stopped trying


def test_a_question_that_does_not_pickle_is_answered_in_the_thread():
    thinker = Thinker()
    try:
        assert thinker.call(lambda a, b: a + b, 2, 3) == 5
        assert thinker.answered == {"process": 0, "thread": 1} and thinker.failures == 0
        assert thinker.call(pow, 2, 10) == 1024       # the worker was fine all along
        assert thinker.answered["process"] == 1
        with pytest.raises(ZeroDivisionError):         # what the function raises, from the worker
            thinker.call(divmod, 1, 0)
    finally:
        thinker.close()


def test_thread_mode_never_starts_a_worker(monkeypatch):
    monkeypatch.setenv(workers.MODE_VARIABLE, "thread")
    thinker = Thinker()
    assert thinker.call(pow, 3, 2) == 9 and thinker.answered == {"process": 0, "thread": 1}
    assert thinker.pid is None


ORPHAN = """
import sys
from cardtable.workers import Thinker
if __name__ == "__main__":
    thinker = Thinker()
    thinker.call(pow, 2, 2)
    print(thinker.pid, flush=True)
    sys.stdin.read()
"""


def gone(pid, seconds):
    """Whether process ``pid`` has ended (a zombie nobody reaped yet counts as ended) within ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        except OSError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
        if time.monotonic() > end:
            return False
        time.sleep(0.05)


def test_the_worker_never_outlives_its_app_even_killed_by_sigkill(tmp_path):
    script = tmp_path / "table.py"
    script.write_text(ORPHAN)
    table = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        pid = int(table.stdout.readline())
        assert pid != table.pid and not gone(pid, 0)
        table.kill()                                   # kill -9: nobody closes the worker
        table.wait()
        assert gone(pid, 10), "the worker outlived its app"
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
