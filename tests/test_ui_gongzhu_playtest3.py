"""Issue 31, the third Gong Zhu play test: the hand's cursor, the match-over buttons beside the chart,
the showing panel's reason, the chart's axes and the Transformer's wording."""

from cardtable.ui.gongzhu import GongZhuScreen
from cardtable.ui.widgets import HandView
from tests.ui_helpers import pinned_app, settle, wait_until


def table(app) -> GongZhuScreen:
    return next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))


# -- 5: the hand's cursor stops at the ends
async def test_the_hand_cursor_stops_at_the_ends(tmp_path):
    app = pinned_app(tmp_path, "gongzhu-mid-hand")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: any(isinstance(s, GongZhuScreen) for s in app.screen_stack))
        await settle(pilot)
        hand = table(app).query_one(HandView)
        assert len(hand.cards) > 1
        await pilot.press("end", "right", "right")
        assert hand.cursor == len(hand.cards) - 1, "→ on the last card does not wrap to the first"
        await pilot.press("home", "left")
        assert hand.cursor == 0, "← on the first card does not wrap to the last"
