"""Play whole hands at a table headless, as a person would press keys: for the memory bench and the
tests that check the table does not grow hand after hand. The human's moves are a CPU player's choices,
so the driver does not depend on any table's own selection keys; the table is refreshed exactly as
after a human move, and the hint key is pressed before each of them (it changes the selection)."""

from __future__ import annotations

import gc
from typing import Any

from textual.widget import Widget

from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog, SetupDialog
from cardtable.ui.gamescreen import HUMAN, GameScreen


def live_widgets() -> int:
    """How many widgets are alive in this process (after a full collection)."""
    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, Widget))


def rss_kib() -> int | None:
    """Resident set size of this process in KiB, from /proc/self/status (None where there is none)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def table_of(app: Any) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def settle(pilot: Any, rounds: int = 2) -> None:
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def play_hands(pilot: Any, hands: int, on_hand: Any = None, max_steps: int = 5000) -> int:
    """Play ``hands`` hands from the current state of the table; after each hand's results dialog is
    closed with «Next hand», call ``on_hand(number_of_hands_played)``. When a match ends, «New game»
    and «Start» open the next one. Returns the hands played."""
    app = pilot.app
    screen = table_of(app)
    bot = screen.spec.bot("normal")
    played = 0
    for _ in range(max_steps):
        if played >= hands:
            break
        top = app.screen
        if isinstance(top, HandEndDialog):
            await pilot.press("enter")
            await settle(pilot)
            played += 1
            if on_hand is not None:
                on_hand(played)
            continue
        if isinstance(top, MatchEndDialog):
            await pilot.press("n")
            await settle(pilot)
            continue
        if isinstance(top, SetupDialog):
            await pilot.press("enter")
            await settle(pilot)
            screen = table_of(app)
            continue
        if top is screen and screen.human_view().to_move == HUMAN and not screen.dealing:
            await pilot.press("h")
            move = bot.choose(screen.human_view())
            screen.play(move, HUMAN)
        elif top is screen and screen.waits_for_human():
            await pilot.press("enter")      # the window to sing in: play on (the bot plays no cante here)
        elif top is not screen:
            await pilot.press("escape")     # a table's own panel (a chooser, a show panel): decline it
        await settle(pilot)
    return played
