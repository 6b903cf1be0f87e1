"""The CPU's worker is made from the coroutine function when it starts (issue 29 item 12): a worker
cancelled before it ran (the app leaving on SIGTERM) left a never-awaited `_cpu_turn` coroutine and a
RuntimeWarning on the way out."""

import gc
import warnings

from cardtable.ui.gamescreen import GameScreen
from tests.ui_helpers import make_app, settle


async def test_a_cpu_turn_cancelled_before_it_starts_leaves_no_coroutine_behind(tmp_path):
    app = make_app(tmp_path, launch=("new", "guinote", None, 1, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert not table.seat.busy
        table.cpu_may_move = lambda: True
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            table.schedule_cpu()
            app.workers.cancel_group(table, "cpu")     # as the app's exit cancels it
            await pilot.pause()
            gc.collect()
        assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
