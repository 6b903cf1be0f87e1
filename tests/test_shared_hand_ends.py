"""The match-end chart at a shared table: the seat collects the public ``hand_end`` records (each
``hand_over``'s, and a snapshot's for the hands before a join or a rejoin), turned to its chair, so the
running scores are the solo table's from that chair."""

from __future__ import annotations

import asyncio

from cardtable import games, stats
from cardtable.table import Event, Snapshot
from cardtable.ui import turned
from cardtable.ui.remoteseat import RemoteSeat
from tests.test_remote_seat import Seen
from tests.test_table_hub import BOUND, Person, started, table_of_two


async def test_a_snapshot_brings_the_finished_hands_and_a_hand_over_adds_one(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub, "gongzhu")
            await asyncio.gather(Person(alice).play_hand(), Person(bob).play_hand())
            log = hub.tables[code].session.match.log
            ends = [r for r in log if r["type"] == "hand_end"]
            assert len(ends) == 1
            seat = RemoteSeat(bob, games.get("gongzhu"))        # a screen that came late: at seat 2
            seen = Seen()
            seat.listen(seen)
            seat.go_on()
            assert seat.hand_ends() == []
            seat.send(Snapshot())
            await seen.until(lambda e: e.type == "snapshot")
            mine = [turned.turn_record("gongzhu", r, 2) for r in ends]
            assert seat.hand_ends() == mine and mine[0]["lines"][0] == ends[0]["lines"][2]
            # The chart from this chair: «you» (the first series) are seat 2 of the table's own.
            table_chart = stats.running_scores("gongzhu", ends)
            chart = stats.running_scores("gongzhu", seat.hand_ends())
            assert [points for _, points in chart] == [table_chart[s][1] for s in (2, 3, 0, 1)]
            # The next hand's end, as its hand_over brings it, joins them in hand order.
            later = dict(ends[0], hand=2, taken=[["QS"], [], ["KH"], []])
            seat._deliver([Event("hand_over", {"record": later})])
            assert [r["hand"] for r in seat.hand_ends()] == [1, 2]
            assert seat.hand_ends()[1]["taken"] == [["KH"], [], ["QS"], []]
            await seat.close()
            await alice.close()
        finally:
            await hub.close()


def test_guinote_s_summary_from_a_shared_seat_s_view_is_the_solo_one_from_that_chair():
    """The shared screen reads de vueltas and the points carried into it from the finished hand's view
    (a deal record, which holds every hand, is never sent): the same rows as solo's from the deal
    record, us and them from the player's chair — over hands de vueltas too."""
    from cardtable.ui.guinote.dialogs import summary_rows

    spec = games.get("guinote")
    bot = spec.bot("easy")
    checked = vueltas = 0
    for seed in range(40):
        match = spec.new_match(None, seed)
        match.hold_deals = True
        while not match.is_over() and checked < 200:
            if match.phase == "hand_over":
                record = match.log[-1]
                deal = next(r for r in reversed(match.log) if r["type"] == "deal")
                assert record["type"] == "hand_end" and deal["hand"] == record["hand"]
                solo = summary_rows(record, deal)
                for seat in range(4):
                    view = turned.turn_view("guinote", match.view(seat), seat)
                    shared = summary_rows(turned.turn_record("guinote", record, seat),
                                          {"vueltas": view.vueltas, "carry": list(view.carry)})
                    assert view.vueltas == deal["vueltas"]
                    assert shared == (solo if seat % 2 == 0 else [(key, b, a) for key, a, b in solo])
                checked += 1
                vueltas += deal["vueltas"]
                match.deal_next()
                continue
            mover = match.to_move()
            assert mover is not None
            match.apply(bot.choose(match.view(mover)), mover)
        if vueltas and checked >= 20:
            break
    assert vueltas and checked >= 20
