"""The play checker's own thread (cardtable/ui/checkrunner.py): waiting checks never hold the threads the
CPUs' turns need, and a quick player's checks never pile up."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from cardtable import games, workers
from cardtable.table import Play
from cardtable.ui.checkrunner import CheckRunner
from cardtable.ui.seatlink import LocalSeat
from tests.test_seatlink import Pacing, cpus_done


class SlowChecks:
    """A thinker whose checks wait until released (a search pool queueing them for seconds); every other
    question is answered at once, in the calling thread."""

    def __init__(self):
        self.release = threading.Event()
        self.checked = []

    def call(self, function, *args):
        if function is workers.check:
            self.release.wait(10)
            self.checked.append(args[2])
            return None
        return function(*args)

    def warm(self):
        pass


async def test_waiting_checks_never_hold_a_cpu_turn():
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=2))     # fewer threads than waiting checks
    spec = games.get("gongzhu")
    thinker = SlowChecks()
    seat = LocalSeat(spec, spec.new_match(None, 5), ["human", "cpu:easy", "cpu:easy", "cpu:easy"], "gongzhu-1",
                     thinker=thinker)
    pacing = Pacing()
    seat.pace(pacing)
    seat.listen(lambda events: None)
    await cpus_done(seat, pacing)
    view = seat.view()
    checks = [asyncio.ensure_future(seat.check(view, view.legal[0])) for _ in range(4)]
    await asyncio.sleep(0.05)
    moves = len(seat.match.moves)
    assert seat.send(Play(view.legal[0])).ok
    try:
        await asyncio.wait_for(cpus_done(seat, pacing), 5)      # the CPUs moved while the checks waited
        assert seat.view().to_move == 0 and len(seat.match.moves) >= moves + 4    # the person's and 3 CPUs'
        assert not thinker.checked
    finally:
        thinker.release.set()
    verdicts = await asyncio.wait_for(asyncio.gather(*checks), 5)
    assert verdicts == [None] * len(checks)


async def test_a_newer_check_replaces_the_oldest_waiting_one():
    runner = CheckRunner(waiting=2)
    release = threading.Event()
    answered = []

    def check(n):
        release.wait(10)
        answered.append(n)
        return f"flag {n}"

    tasks = []
    for n in range(4):
        tasks.append(asyncio.ensure_future(runner.run(check, n)))
        await asyncio.sleep(0.02)        # in order: 0 runs, 1 and 2 wait, 3 drops 1
    assert tasks[1].done() and tasks[1].result() is None and runner.dropped == 1
    release.set()
    assert await asyncio.wait_for(asyncio.gather(*tasks), 5) == ["flag 0", None, "flag 2", "flag 3"]
    assert answered == [0, 2, 3]


async def test_a_check_that_fails_raises_in_its_awaiter_and_the_next_still_runs():
    runner = CheckRunner()

    def broken():
        raise ValueError("a table edited by hand")

    try:
        await runner.run(broken)
    except ValueError as exc:
        assert "edited" in str(exc)
    else:
        raise AssertionError("the check's error was lost")
    assert await runner.run(lambda: 7) == 7


async def test_the_thread_ends_when_no_check_waits():
    runner = CheckRunner()
    assert await runner.run(lambda: 1) == 1
    for _ in range(100):
        if not any(thread.name == "cardtable-checker" and thread.is_alive() for thread in threading.enumerate()):
            break
        await asyncio.sleep(0.02)
    assert runner._thread is None
    assert not any(thread.name == "cardtable-checker" and thread.is_alive() for thread in threading.enumerate())
    assert await runner.run(lambda: 2) == 2                   # the next check starts one again
