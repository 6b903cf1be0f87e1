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
            if screen.pending_results is None and screen.match.to_move() == 0 and not screen.dealing:
                screen.play(bot.choose(screen.match.view(0)), 0)
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GuandanSummary))
        rows = await app.statistics.call("summary")
        assert len(rows) == 1 and rows[0].game == "guandan" and rows[0].hands == 1
        assert rows[0].seconds > 0
