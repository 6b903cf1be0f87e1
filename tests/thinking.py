"""Slow stand-ins for cardtable.workers' functions, for tests that need a decision still running while
they act (press keys, kill the worker). Module-level, so the worker process can import them by name;
they talk to the test through files (``started``, ``release``), which work across processes.
They call the real decision (``workers._bot``), never ``workers.decide``, which a test may have replaced."""

import os
import time
from pathlib import Path

from cardtable import games, workers

ROUNDS = 200     # a bound, so that a test gone wrong cannot leave a search running for ever


def busy_decide(started: str, release: str, game: str, level: str, view, partner_human: bool = False):
    """The real decision, searched again and again until the file ``release`` exists; ``started`` is
    created first (with this process's id in it)."""
    Path(started).write_text(str(os.getpid()))
    move = None
    for _ in range(ROUNDS):
        move = workers._bot(game, level, partner_human).choose(view)
        if os.path.exists(release):
            break
    return move


def gated_hint(release: str, game: str, view):
    """The real hint, once the file ``release`` exists."""
    for _ in range(3000):
        if os.path.exists(release):
            break
        time.sleep(0.01)
    return games.get(game).advice.hint(view)


QUICK_HINT = 0.1     # the share of the hint's search budget that quick_hint spends


def quick_hint(game: str, view):
    """The game's hint from a tenth of the search (the same kind of answer, sooner): for tests that
    press the hint key many times and check what the table does with a hint, not which move it names."""
    advice = games.get(game).advice
    return advice.hint(view, advice.DEFAULT_BUDGET.scaled(QUICK_HINT))
