"""Shared tables from a player's side: RemoteSeat over a real hub (its refusals, its views, a drop → CPU →
rejoin), the lobby's model, and the hub's turn timer, save notices and store pruning."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

from cardtable import games
from cardtable.serve import tablestore
from cardtable.serve.hub import SLOT_PREFIX
from cardtable.serve.tableclient import TableClient
from cardtable.table import OVER, Decline, Event, NextHand, Play, Sit, TableSession, TakeBack
from cardtable.ui.lobby import LobbyModel
from cardtable.ui.remoteseat import RemoteSeat, command_json
from tests.test_table_hub import ALICE, BOB, BOUND, fast, started, table_of_two

GZ = games.get("gongzhu")


class Seen:
    """A RemoteSeat's listener: every batch it was handed."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.arrived = asyncio.Event()

    def __call__(self, batch: list[Event]) -> None:
        self.events.extend(batch)
        self.arrived.set()

    async def until(self, test: Any, timeout: float = 20.0) -> Event:
        async with asyncio.timeout(timeout):
            while True:
                found = next((event for event in self.events if test(event)), None)
                if found is not None:
                    return found
                self.arrived.clear()
                await self.arrived.wait()


async def seat_for(client: TableClient) -> tuple[RemoteSeat, Seen]:
    notices: list[str] = []
    seat = RemoteSeat(client, GZ, notify=notices.append)
    seen = Seen()
    seat.listen(seen)
    seat.go_on()
    return seat, seen


def test_every_command_has_its_wire_form():
    move = GZ.match_type.parse_move("QS")
    assert command_json(Play(move)) == {"cmd": "play", "move": move.to_json()}
    assert command_json(Decline()) == {"cmd": "decline"}
    assert command_json(TakeBack()) == {"cmd": "take_back"}
    assert command_json(NextHand()) == {"cmd": "next_hand"}
    assert command_json(Sit(2)) == {"cmd": "sit", "seat": 2}


async def test_a_remote_seat_draws_its_own_view_refuses_from_it_and_hears_the_hubs_refusals(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            seat, seen = await seat_for(bob)
            await to_move_or_play(alice, seat, seen)
            view = seat.view()
            # Bob sits at seat 2; his screen sees the table from his chair: himself at 0.
            assert seat.seat == 2 and seat.index == 0 and view.seat == 0
            assert view.hand == hub.tables[code].session.match.view(2).hand
            # A card Bob does not hold: refused at once from his view, with the engine's own reason.
            others = [card for card in hub.tables[code].session.match.hands[0]]
            refusal = seat.refusal(GZ.match_type.parse_move(str(others[0])))
            assert refusal is not None and refusal.key
            assert seat.refusal(view.legal[0]) is None
            # Sent anyway, the hub refuses it: a «refused» event, and nothing changed.
            moves = len(hub.tables[code].session.match.moves)
            assert seat.send(Play(GZ.match_type.parse_move(str(others[0])))) is None
            refused = await seen.until(lambda e: e.type == "refused")
            assert refused.data["key"] and len(hub.tables[code].session.match.moves) == moves
            # Hints are off with two people at the table: the hub says so.
            hint = await seat.hint()
            assert not hint.ok and hint.key == "table_hints_off"
            # A legal play: the seat's own move comes back, with the new view and position.
            before = seat.position()
            seat.send(Play(view.legal[0]))
            mine = await seen.until(lambda e: e.type == "moved" and e.data["seat"] == 0)
            assert mine.data["move"] == view.legal[0].to_json()
            assert seat.position() != before and seat.names()[0] == "bob" and seat.names()[2] == "alice"
            assert (2, view.legal[0]) in hub.tables[code].session.match.moves
            await seat.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


async def to_move_or_play(alice: TableClient, seat: RemoteSeat, seen: Seen) -> None:
    """Alice plays (easy bot) whenever she is to move, until Bob's seat is to move."""
    bot = GZ.bot("easy")
    async with asyncio.timeout(30):
        while not (seat.view() is not None and seat.view().to_move == seat.index and seat.view().legal):
            await asyncio.sleep(0)
            view = alice.view
            if view is not None and view.to_move == alice.seat and view.legal:
                await alice.play(bot.choose(view))
            await asyncio.sleep(0.02)


async def test_a_dropped_remote_seat_is_played_by_its_cpu_and_plays_on_after_rejoining(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            session = hub.tables[code].session
            notices: list[str] = []
            watcher, seen = RemoteSeat(alice, GZ, notify=notices.append), Seen()
            watcher.listen(seen)
            watcher.go_on()
            await bob.close()                                     # Bob drops
            left = await seen.until(lambda e: e.type == "left" and e.data["seat"] == 2)
            assert left.data["seats"][2]["connected"] is False
            assert "bob has left: a CPU plays their seat." in notices      # Alice is told
            bot = GZ.bot("easy")
            async with asyncio.timeout(30):                       # the CPU plays Bob's seat meanwhile
                while not any(e.type == "moved" and e.data["seat"] == 2 for e in seen.events):
                    view = watcher.view()
                    if view.to_move == 0 and view.legal:
                        watcher.send(Play(bot.choose(view)))
                    seen.arrived.clear()
                    with contextlib_suppress_timeout():
                        await asyncio.wait_for(seen.arrived.wait(), 1.0)
            assert session.seats[2].cpu_plays
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await bob.join(code))["ok"]
            back, back_seen = await seat_for(bob)
            await back_seen.until(lambda e: e.type == "snapshot")
            assert back.view().seat == 0 and back.seat == 2 and not session.seats[2].cpu_plays
            await seen.until(lambda e: e.type == "joined" and e.data["seat"] == 2)
            assert "bob sits at the table." in notices
            await to_move_or_play(alice, back, back_seen)
            moves = len(session.match.moves)
            back.send(Play(back.view().legal[0]))
            await back_seen.until(lambda e: e.type == "moved" and e.data["seat"] == 0
                                  and e.data["number"] > moves)
            for remote in (watcher, back):
                await remote.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


async def bob_leads(alice: TableClient, seat: RemoteSeat, seen: Seen) -> None:
    """Both play on (Bob his first legal choice) until Bob is to lead a trick of the play."""
    for _ in range(30):
        await to_move_or_play(alice, seat, seen)
        if seat.view().phase == "play" and not seat.view().trick:
            return
        number = len(seen.events)
        seat.send(Play(seat.view().legal[0]))
        await seen.until(lambda e, n=number: e.type == "moved" and e.data["seat"] == 0
                         and seen.events.index(e) >= n)
    raise AssertionError("Bob never led")


def contextlib_suppress_timeout() -> Any:
    import contextlib

    return contextlib.suppress(TimeoutError)


def test_the_lobby_reads_the_seats_the_phase_and_the_host_from_public_events():
    model = LobbyModel("K7QX2M", "gongzhu", 0)
    seats = [{"seat": 0, "name": "alice", "person": True, "connected": True, "level": "easy", "open": False},
             {"seat": 1, "name": "", "person": False, "connected": False, "level": "easy", "open": True},
             {"seat": 2, "name": "bob", "person": True, "connected": False, "level": "easy", "open": False},
             {"seat": 3, "name": "", "person": False, "connected": False, "level": "easy", "open": False}]
    assert not model.take(Event("moved", {"seats": []}))          # not a lobby event: nothing read
    assert model.take(Event("joined", {"seat": 2, "seats": seats, "phase": "lobby", "host": 0}))
    assert model.names() == ["alice", "", "bob", ""] and model.hosting and not model.started
    assert model.free(1) and not model.free(2) and not model.free(3)
    assert "alice" in model.line(0).plain and "bob" in model.line(2).plain
    assert model.take(Event("started", {"seat": 0, "seats": seats, "phase": "play", "host": 0}))
    assert model.started
    guest = LobbyModel("K7QX2M", "gongzhu", 2)
    guest.take(Event("snapshot", {"seats": seats, "phase": "lobby", "host": 0}))
    assert not guest.hosting


async def test_a_person_who_holds_up_a_table_of_two_has_their_cpu_move_for_them(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(turn_timeout=0.3))
        try:
            alice, bob, code = await table_of_two(hub)
            session = hub.tables[code].session
            seat, seen = await seat_for(bob)
            await to_move_or_play(alice, seat, seen)
            moves = len(session.match.moves)
            async with asyncio.timeout(20):                      # Bob does nothing: his CPU plays
                while not any(seat_ == 2 for seat_, _ in session.match.moves[moves:]):
                    await asyncio.sleep(0.05)
            async with asyncio.timeout(10):
                while not any(n.get("notice") == "hub_turn_timeout" for n in alice.notices):
                    await asyncio.sleep(0.05)
            assert session.seats[2].person and session.seats[2].connected     # still his seat
            await seat.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


async def test_alone_at_a_table_nobody_is_timed(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(turn_timeout=0.1))
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            code = (await alice.create("gongzhu", open_seats=(), level="easy"))["data"]["code"]
            assert (await alice.start())["ok"]
            session = hub.tables[code].session
            async with asyncio.timeout(20):
                while session.match.to_move() != 0:
                    await asyncio.sleep(0.02)
            moves = len(session.match.moves)
            await asyncio.sleep(0.6)
            assert len(session.match.moves) == moves                   # still waiting for her
            await alice.close()
        finally:
            await hub.close()


async def test_the_people_at_a_table_are_told_when_its_saves_fail_and_work_again(tmp_path, monkeypatch):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            real = tablestore.atomic_write
            failing = {"on": True}

            def write(path: Path, payload: bytes) -> None:
                if failing["on"]:
                    raise OSError(28, "No space left on device")
                real(path, payload)

            monkeypatch.setattr(tablestore, "atomic_write", write)
            hub.tables[code].session.autosave()
            async with asyncio.timeout(10):
                while not any(n.get("notice") == "hub_save_failed" for n in bob.notices):
                    await asyncio.sleep(0.02)
            notice = next(n for n in bob.notices if n.get("notice") == "hub_save_failed")
            assert "No space" in notice["params"]["why"]
            seat = RemoteSeat(alice, GZ)
            seen = Seen()
            seat.listen(seen)
            seat.go_on()
            await seen.until(lambda e: e.type == "autosave_failed")   # the link's own event for the screen
            failing["on"] = False
            hub.tables[code].session.autosave()
            async with asyncio.timeout(10):
                while not any(n.get("notice") == "hub_saved_again" for n in bob.notices):
                    await asyncio.sleep(0.02)
            await seat.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


def _saved_table(store: Any, code: str, over: bool, age: float) -> None:
    session = TableSession.create(GZ, "key-" + code, code.lower(), code=code, store=store, seed=7)
    if over:
        session.phase = OVER
        session.autosave()
    store.flush()
    store.unlock(session.slot)
    path = store.path(session.slot)
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))


async def test_the_store_keeps_recent_tables_and_prunes_old_finished_and_abandoned_ones(tmp_path):
    day = 86400.0
    hub = await started(tmp_path, fast(keep_finished=7 * day, keep_unfinished=90 * day, tables_kept=3))
    try:
        store = hub.store
        _saved_table(store, "AAAAA2", over=True, age=8 * day)       # finished a week ago: goes
        _saved_table(store, "AAAAA3", over=True, age=1 * day)       # finished yesterday: stays
        _saved_table(store, "AAAAA4", over=False, age=91 * day)     # abandoned: goes
        _saved_table(store, "AAAAA5", over=False, age=30 * day)     # unfinished, recent enough: stays
        _saved_table(store, "AAAAA6", over=False, age=2 * day)
        _saved_table(store, "AAAAA7", over=True, age=3 * day)       # beyond tables_kept: the oldest finished
        assert await asyncio.to_thread(hub.prune_store) == 3
        left = sorted(name for name in os.listdir(store.directory) if name.startswith(SLOT_PREFIX)
                      and not name.endswith(".lock"))
        assert [name.split(".")[0] for name in left] == ["table-AAAAA3", "table-AAAAA5", "table-AAAAA6"]
    finally:
        await hub.close()


async def test_a_take_back_at_a_shared_table_asks_the_other_person_and_no_answer_in_time_is_a_no(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(turn_timeout=3.0))
        try:
            alice, bob, code = await table_of_two(hub)
            session = hub.tables[code].session
            questions: list[str] = []
            answers = {"yes": True}
            said: list[str] = []

            def ask(question: str, answer: Any) -> None:
                questions.append(question)
                if answers["yes"] is not None:
                    answer(answers["yes"])

            def translate(key: str, **params: Any) -> str:
                return key + ":" + ",".join(f"{k}={v}" for k, v in sorted(params.items()))

            host = RemoteSeat(alice, GZ, notify=said.append, translate=translate, ask=ask)
            host_seen = Seen()
            host.listen(host_seen)
            host.go_on()
            seat, seen = await seat_for(bob)
            await bob_leads(alice, seat, seen)       # (a trick that ended is not taken back: its cards were seen)
            moves = len(session.match.moves)
            seat.send(Play(seat.view().legal[0]))
            await seen.until(lambda e: e.type == "moved" and e.data["seat"] == 0 and e.data["number"] > moves)
            seat.send(TakeBack())                              # Alice is asked, and agrees
            done = await seen.until(lambda e: e.type == "take_back_done")
            assert questions and questions[0].startswith("remote_take_back_ask:name=bob")
            assert done.data["moves"] == moves and len(session.match.moves) == moves
            assert session.undo_used
            # Asked again, Alice does not answer: after the turn timer that is a «no».
            answers["yes"] = None
            await bob_leads(alice, seat, seen)
            again = len(session.match.moves)
            seat.send(Play(seat.view().legal[0]))
            await seen.until(lambda e: e.type == "moved" and e.data["seat"] == 0 and e.data["number"] > again)
            seat.send(TakeBack())
            await host_seen.until(lambda e: e.type == "take_back_refused")
            assert session.request is None and any(text.startswith("remote_take_back_refused:name=alice")
                                                   for text in said)
            for remote in (host, seat):
                await remote.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


async def test_going_on_from_the_results_before_the_others_says_the_deal_waits_for_them(tmp_path, monkeypatch):
    from cardtable.ui import remoteseat

    monkeypatch.setattr(remoteseat, "WAIT_NOTICE", 0.2)
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, _code = await table_of_two(hub)
            said: list[str] = []
            seat = RemoteSeat(bob, GZ, notify=said.append, translate=lambda key, **params: key)
            seat.listen(Seen())
            seat.go_on()
            seat.send(NextHand())                      # no next deal follows: the others still read
            async with asyncio.timeout(10):
                while "remote_waiting_next" not in said:
                    await asyncio.sleep(0.05)
            said.clear()
            seat.send(NextHand())
            seat._deliver([Event("next_hand", {"to_move": 0})])     # the next deal came in time: nothing said
            await asyncio.sleep(0.5)
            assert "remote_waiting_next" not in said
            await seat.close()
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()
