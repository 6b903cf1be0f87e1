"""Helpers for the Pilot tests."""

import asyncio
import shutil
from pathlib import Path

from cardtable.saves import SaveStore
from cardtable.settings import Settings
from cardtable.ui.app import CardTableApp

EXAMPLES = Path(__file__).resolve().parents[1] / "saves" / "examples"


def make_app(tmp_path, launch=None, lang="en", **settings):
    settings.setdefault("cpu_speed", "instant")
    settings.setdefault("checker", "off")     # the play checker's searches only where a test asks for them
    return CardTableApp(store=SaveStore(tmp_path / "saves"), settings=Settings(**settings), launch=launch,
                        language_override=lang)


def pinned_app(tmp_path, example: str, lang="en", **settings):
    """The app continuing a pinned position: a copy of ``saves/examples/<example>.json`` in the test's own
    store (the table autosaves into its slot, never into the repository)."""
    saves = tmp_path / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(EXAMPLES / f"{example}.json", saves / f"{example}.json")
    return make_app(tmp_path, launch=("continue", example), lang=lang, **settings)


def assert_human_to_move(table, moves: int) -> None:
    """The table is still at its pinned position (``moves`` moves) and waits for the human: nothing a CPU
    could decide (a move, an optional move out of turn) is pending, so the screen is the same whatever
    the CPU levels play."""
    assert len(table.seat.match.moves) == moves
    assert table.seat.session.pending() is None


class ViewOnlySeat:
    """A table's seat that answers ``view()`` from ``match`` (seat 0's) and nothing else: a table drawn
    over it shows it draws from the view alone."""

    def __init__(self, match):
        self._match = match

    def view(self):
        return self._match.view(0)


async def settle(pilot, rounds=3):
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(pilot, condition, timeout=5.0):
    """Pause in short steps until ``condition()`` holds; fail after ``timeout`` seconds. For effects
    Textual defers past the next screen refresh (a scroll), which an idle wait can return before."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"still not true after {timeout} s: {condition}"
        await pilot.pause(0.005)
