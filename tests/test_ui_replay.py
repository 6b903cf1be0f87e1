"""«Replay this deal»: a practice table with the same cards, never saved over the match, never counted."""

import json

from cardtable import games
from cardtable.games.gongzhu.bots import NormalBot
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.sim import next_cpu_move
from cardtable.ui.gongzhu import GongZhuScreen, ResultsScreen, ShowPanel
from cardtable.undo import deal_again, hand_start
from tests.ui_helpers import make_app, settle


async def _finish_hand(pilot, app, screen) -> None:
    bot = NormalBot()
    for _ in range(300):
        if isinstance(app.screen, ResultsScreen):
            return
        if isinstance(app.screen, ShowPanel):
            await pilot.press("escape")
        elif screen in app.screen_stack and screen.seat.match.to_move() == 0 and screen.seat.match.phase == "play":
            screen.play(bot.choose(screen.seat.match.view(0)), 0)
        await settle(pilot)
    raise AssertionError("the hand did not end")


async def test_replay_this_deal_is_practice(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(), 2024, "normal"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        real = next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))
        await _finish_hand(pilot, app, real)
        deal = next(r for r in real.seat.match.log if r["type"] == "deal")
        slot_file = tmp_path / "saves" / f"{real.slot}.json"
        saved = slot_file.read_bytes()
        hands_counted = (await app.statistics.call("summary"))[0].hands
        await pilot.press("d")                                   # «Replay this deal»
        await settle(pilot)
        practice = next(s for s in reversed(app.screen_stack) if isinstance(s, GongZhuScreen))
        assert practice is not real and practice.practice
        assert "practice" in practice.title
        assert practice.seat.match.moves == [] and practice.seat.match.hand == 1
        assert sorted(map(str, practice.seat.match.view(0).hand)) == sorted(deal["hands"][0])
        await _finish_hand(pilot, app, practice)
        assert slot_file.read_bytes() == saved                   # the real match's save is untouched
        assert (await app.statistics.call("summary"))[0].hands == hands_counted   # and not counted
        assert "Back to the match" in str(app.screen.query_one("#next").label)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)             # the real hand's results again
        assert app.screen_stack[-2] is real
        await pilot.press("n")
        await settle(pilot)
        assert real.seat.match.hand == 2
        assert json.loads(slot_file.read_text())["moves"]       # the real match goes on


def test_deal_again_gives_the_same_cards_of_a_later_hand():
    spec = games.get("guandan")
    match = spec.new_match(spec.options_type(), 12)
    bot = spec.bot("easy")
    while match.hand < 3 and match.to_move() is not None:
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    copy = deal_again(match, 2)
    assert copy.hand == 2
    deals = [r for r in match.log if r["type"] == "deal"]
    assert [r for r in copy.log if r["type"] == "deal"][-1] == deals[1]
    assert copy.moves == match.moves[:hand_start(match, 2)]
    assert hand_start(match, 1) == 0
