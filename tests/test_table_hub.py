"""The table hub (cardtable/serve/hub.py) and its client (cardtable/serve/tableclient.py), over the real
Unix socket in a temporary directory: people at one table, hidden information on the wire, drop → CPU
→ rejoin, a hub restart, and clients that flood, send garbage or stop reading."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import games, wire
from cardtable.serve.hub import PROTOCOL, SLOT_PREFIX, Hub, HubBusy, HubLimits
from cardtable.serve.tableclient import HubError, TableClient
from cardtable.table import BotThinker, Event, NextHand, Play, Start
from tests.test_wire import strings

ALICE, BOB, EVE = "key-alice", "key-bob", "key-eve"
BOUND = 60.0                  # every test ends by itself well within this


class Clock:
    """A clock the test moves (the idle timeout, the guess window)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fast(**changes: Any) -> HubLimits:
    return HubLimits(cpu_delay=0.0, think_time=0.0, **changes)


async def started(directory: Path, limits: HubLimits | None = None, clock: Any = None) -> Hub:
    hub = Hub(directory, limits or fast(), **({"clock": clock} if clock is not None else {}))
    await hub.start()
    return hub


async def table_of_two(hub: Hub, game: str = "gongzhu",
                       options: dict[str, Any] | None = None) -> tuple[TableClient, TableClient, str]:
    """Alice hosts, Bob sits opposite her (seat 2), two easy CPUs; the deal has started."""
    alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
    bob = await TableClient.connect(hub.socket_path, BOB, "bob")
    made = await alice.create(game, options=options, open_seats=(2,), level="easy")
    assert made["ok"], made
    code = made["data"]["code"]
    joined = await bob.join(code)
    assert joined["ok"] and joined["data"]["seat"] == 2, joined
    assert (await alice.start())["ok"]
    return alice, bob, code


class Person:
    """A client that plays its seat with the game's easy bot from the views its events bring, and
    keeps every event it read (and every event's wire form, to check it for hidden cards)."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.bot = games.get(client.game or "").bot("easy")
        self.events: list[Event] = []

    async def play_hand(self, hand: int = 1, stop: Any = None) -> None:
        """Move whenever the last view says this seat may (its turn, or an optional move out of turn:
        Guiñote's cantes, which the CPUs wait for) in hand ``hand``, and read the next event, until that
        hand is over (or ``stop(event)``)."""
        client = self.client
        for _ in range(5000):
            view = client.view
            if client.events.empty() and view is not None and view.hand_number == hand and view.legal:
                move = self.bot.choose(view)
                reply = await (client.play(move) if move is not None else client.decline())
                # A refusal changes nothing: the table moved on meanwhile and the next event says so.
                assert reply["ok"] or reply["key"] != "table_bad_move", reply
            event = await client.next_event(timeout=20)
            self.events.append(event)
            if stop is not None and stop(event):
                return
            if event.type == "hand_over" and event.view.hand_number == hand:
                return
        raise AssertionError("the hand did not end")


def assert_no_hidden_cards(hub: Hub, code: str, seat: int, events: list[Event]) -> None:
    """Every card code in an event a seat received (its wire form) is the seat's own (dealt to it) or
    was shown by a move made before that event's view: never another seat's hidden card."""
    session = hub.tables[code].session
    codec = session.spec.wire()
    log = session.match.log
    deal = next(r for r in log if r["type"] == "deal" and r["hand"] == 1)
    deck = {code for hand in deal["hands"] for code in hand}
    moves = [r for r in log if r["type"] == "move" and r["hand"] == 1]
    checked = 0
    for event in events:
        if event.view is None or event.view.hand_number != 1:
            continue
        number = event.view.decision[1]
        seen = set(deal["hands"][seat]) | {s for r in moves[:number] for s in strings(r["move"])}
        cards = set(strings(wire.encode_event(codec, event))) & deck
        assert cards <= seen, (event.type, cards - seen)
        checked += 1
    assert checked > 20


async def test_the_socket_is_the_owners_only(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path / "hub")
        try:
            assert stat.S_IMODE(os.stat(hub.socket_path).st_mode) == 0o600
            assert stat.S_IMODE(os.stat(tmp_path / "hub").st_mode) == 0o700
        finally:
            await hub.close()
        assert not hub.socket_path.exists()


async def test_two_clients_play_a_whole_gong_zhu_hand_and_each_sees_the_other_and_their_cards(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            people = [Person(alice), Person(bob)]
            await asyncio.gather(*(person.play_hand() for person in people))
            session = hub.tables[code].session
            assert session.match.view(0).hand_number == 2 or session.match.is_over()
            for person, other_name, other_seat in ((people[0], "bob", 2), (people[1], "alice", 0)):
                # The other's name, from the seats the events carry.
                names = {s["seat"]: s["name"] for e in person.events for s in e.data.get("seats", ())}
                assert names[other_seat] == other_name
                # The other's cards: every card the other played shows in this seat's views.
                played = {card for e in person.events if e.view is not None and e.view.hand_number == 1
                          for trick in (*e.view.tricks, e.view.trick) for seat, card in trick if seat == other_seat}
                theirs = {move.card for seat, move in session.match.moves if seat == other_seat
                          and hasattr(move, "card")}
                assert len(theirs) == 13 and theirs <= played
                assert_no_hidden_cards(hub, code, person.client.seat or 0, person.events)
            # Nobody was sent another seat's move as such.
            for person in people:
                for event in person.events:
                    if event.type == "moved" and event.data["seat"] != person.client.seat:
                        assert "move" not in event.data
            await alice.close()
            await bob.close()
        finally:
            await hub.close()


async def test_a_player_who_drops_is_played_by_the_cpu_and_rejoins_with_the_same_identity(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            session = hub.tables[code].session
            await bob.close()                                      # Bob's connection drops
            person = Person(alice)
            await person.play_hand(stop=lambda e: e.type == "moved" and e.data["seat"] == 2)
            assert any(e.type == "left" and e.data["seat"] == 2 for e in person.events)
            assert session.seats[2].cpu_plays and session.seats[2].owner is not None   # still Bob's seat
            # Bob comes back with the same key: his seat, his view, and he plays on.
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            again = await bob.join(code.lower()[:3] + "-" + code.lower()[3:])     # typed loosely
            assert again["ok"] and again["data"]["seat"] == 2
            snapshot = await bob.next_event(timeout=10)
            while snapshot.type != "snapshot":
                snapshot = await bob.next_event(timeout=10)
            assert snapshot.view is not None and snapshot.view.seat == 2
            assert not session.seats[2].cpu_plays
            mover = Person(bob)
            alice_task = asyncio.create_task(person.play_hand())
            await mover.play_hand()
            await alice_task
            assert any(seat == 2 for seat, _ in session.match.moves[-30:])
            # A stranger cannot take a seat at a started table.
            eve = await TableClient.connect(hub.socket_path, EVE, "eve")
            refused = await eve.join(code)
            assert not refused["ok"] and refused["key"] == "table_full"
            for client in (alice, bob, eve):
                await client.close()
        finally:
            await hub.close()


async def test_the_same_player_on_a_second_connection_takes_the_seat_over(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            second = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await second.join(code))["data"]["seat"] == 2
            await asyncio.wait_for(bob.closed.wait(), 10)          # the old connection is let go
            assert any(n.get("key") == "hub_replaced" for n in bob.notices)
            assert hub.tables[code].session.seats[2].connected
            for client in (alice, bob, second):
                await client.close()
        finally:
            await hub.close()


async def test_a_second_connection_in_the_lobby_keeps_the_seat_its_player_chose(tmp_path):
    """Reconnecting before the deal takes the same seat over: the partnership chosen by sitting stays."""
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            code = (await alice.create("guinote", open_seats=(1, 2, 3)))["data"]["code"]
            assert (await bob.join(code))["data"]["seat"] == 1
            assert (await bob.sit(2))["ok"]
            second = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await second.join(code))["data"]["seat"] == 2
            await asyncio.wait_for(bob.closed.wait(), 10)
            session = hub.tables[code].session
            assert [s.index for s in session.seats if s.person] == [0, 2]
            assert session.seats[1].open and session.seats[2].connected
            for client in (alice, bob, second):
                await client.close()
        finally:
            await hub.close()


async def test_a_table_that_cannot_be_saved_is_not_made(tmp_path):
    """The table store's writes happen later, in a thread: the lock is what says at once that nothing
    can be kept there (here a file stands where its directory goes)."""
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            (tmp_path / "tables").write_text("not a directory")
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            refused = await alice.create("gongzhu")
            assert not refused["ok"] and refused["key"] == "hub_cannot_save", refused
            assert not hub.tables
            (tmp_path / "tables").unlink()
            code = (await alice.create("gongzhu"))["data"]["code"]
            # Its saves are written in the store's thread: let them land, or one could make the
            # directory again after the rename below.
            assert await asyncio.to_thread(hub.store.flush)
            (tmp_path / "tables").rename(tmp_path / "kept")
            (tmp_path / "tables").write_text("not a directory")   # a refused second table: still at hers
            assert (await alice.create("guinote"))["key"] == "hub_cannot_save"
            assert hub.tables[code].conns[0] is not None and hub.tables[code].session.seats[0].connected
            await alice.close()
        finally:
            await hub.close()


async def test_a_refused_join_keeps_the_player_at_their_table(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, code = await table_of_two(hub)
            eve = await TableClient.connect(hub.socket_path, EVE, "eve")
            other = (await eve.create("gongzhu", open_seats=()))["data"]["code"]    # no seat for Bob there
            refused = await bob.join(other)
            assert not refused["ok"] and refused["key"] == "table_full", refused
            session = hub.tables[code].session
            assert session.seats[2].connected and hub.tables[code].conns[2] is not None
            assert bob.code == code and bob.seat == 2
            for client in (alice, bob, eve):
                await client.close()
        finally:
            await hub.close()


async def test_a_restarted_hub_resumes_its_tables_where_they_were(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        alice, bob, code = await table_of_two(hub, "guinote")
        people = [Person(alice), Person(bob)]
        moves_seen = 0

        def enough(event: Event) -> bool:
            return event.type == "moved" and event.data["number"] >= 12

        await asyncio.gather(*(person.play_hand(stop=enough) for person in people))
        before = hub.tables[code].session.match.moves[:]
        moves_seen = len(before)
        await alice.close()
        await bob.close()
        await hub.close()
        assert (tmp_path / "tables" / f"{SLOT_PREFIX}{code}.json").is_file()
        assert not list((tmp_path).glob("*.json"))               # not among the solo slots

        hub = await started(tmp_path)
        try:
            assert code in hub.tables
            session = hub.tables[code].session
            assert session.match.moves[:moves_seen] == before[:moves_seen]
            assert session.still() and not session.connected()     # nobody there: it stands still
            assert [s.name for s in session.seats if s.person] == ["alice", "bob"]
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await bob.join(code))["data"]["seat"] == 2
            event = await bob.next_event(timeout=10)
            while event.type != "snapshot":
                event = await bob.next_event(timeout=10)
            # His view is the table as the saved moves left it (the CPUs play on once he is there).
            number = event.data["moves"]
            assert number >= moves_seen
            match = session.match
            there = type(match).replay(match.options, match.seed, match.moves[:number]).view(2)
            assert event.view == dataclasses.replace(there, decision=(wire.SKIPPED_KEY, *there.decision[1:]))
            await bob.close()
        finally:
            await hub.close()


async def test_a_restart_replays_each_unfinished_table_once_and_no_finished_one(tmp_path, monkeypatch):
    """The table store keeps every table ever made: starting replays only what it resumes, once."""
    from cardtable import saves
    from cardtable.table import TableSession

    spec = games.get("gongzhu")
    store = saves.SaveStore(tmp_path / "tables")
    for index, code in enumerate(("AAAAAA", "BBBBBB", "CCCCCC")):
        session = TableSession.create(spec, ALICE, "alice", seed=index, code=code, store=store,
                                      slot=SLOT_PREFIX + code)
        assert session.submit(0, Start()).ok
        if code == "CCCCCC":                                  # a finished table, kept for review
            session.run_cpus(BotThinker(spec))
            while not session.match.is_over():
                seat = session.match.to_move()
                if seat is None:
                    break
                if seat == 0:
                    assert session.submit(0, Play(session.match.legal_moves(0)[0])).ok
                    session.submit(0, NextHand())
                session.run_cpus(BotThinker(spec))
                if session.results is not None:
                    session.submit(0, NextHand())
            assert session.match.is_over() and session.phase == "over"
        store.unlock(SLOT_PREFIX + code)
    replays: list[str] = []
    rebuild = saves.rebuild

    def counted(slot: str, save: Any) -> Any:
        replays.append(slot)
        return rebuild(slot, save)

    monkeypatch.setattr(saves, "rebuild", counted)
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            assert sorted(hub.tables) == ["AAAAAA", "BBBBBB"]
            assert sorted(replays) == [SLOT_PREFIX + "AAAAAA", SLOT_PREFIX + "BBBBBB"]
        finally:
            await hub.close()


async def test_a_table_nobody_is_at_for_the_idle_timeout_is_saved_closed_and_can_be_joined_again(tmp_path):
    async with asyncio.timeout(BOUND):
        clock = Clock()
        hub = await started(tmp_path, fast(idle_timeout=0.2), clock)
        try:
            alice, bob, code = await table_of_two(hub)
            await alice.close()
            await bob.close()
            for _ in range(200):
                if not hub.tables[code].session.connected():
                    break
                await asyncio.sleep(0.01)
            clock.now += 1.0
            for _ in range(500):                                   # the sweeper runs every 0.05 s
                if code not in hub.tables:
                    break
                await asyncio.sleep(0.01)
            assert code not in hub.tables
            assert (tmp_path / "tables" / f"{SLOT_PREFIX}{code}.json").is_file()
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            closed = (await alice.tables())["data"]                 # «Continue» lists it
            assert [(t["code"], t["seat"], t["names"][2]) for t in closed] == [(code, 0, "bob")]
            eve = await TableClient.connect(hub.socket_path, EVE, "eve")
            assert (await eve.tables())["data"] == []
            await eve.close()
            assert (await alice.join(code))["data"]["seat"] == 0    # resumed from its slot
            listed = await alice.tables()
            assert [t["code"] for t in listed["data"]] == [code]
            await alice.close()
        finally:
            await hub.close()


async def raw_client(hub: Hub, identity: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(str(hub.socket_path), limit=8 * 1024 * 1024)
    writer.write(json.dumps({"hello": PROTOCOL, "version": wire.WIRE_VERSION, "identity": identity,
                             "name": identity}).encode() + b"\n")
    hello = json.loads(await reader.readline())
    assert hello["hello"] == PROTOCOL
    return reader, writer


async def lines_until_closed(reader: asyncio.StreamReader) -> list[dict[str, Any]]:
    out = []
    for _ in range(100_000):
        try:
            raw = await reader.readline()
        except (ConnectionError, ValueError):
            break
        if not raw:
            break
        out.append(json.loads(raw))
    return out


async def other_sees_a_move(alice: TableClient, bob: TableClient) -> None:
    """Whichever of the two is to move plays; the other's events show that move (they flow while
    someone misbehaves)."""
    for _ in range(1000):
        mover = next((c for c in (alice, bob) if c.view is not None and c.view.to_move == c.seat
                      and c.view.legal), None)
        if mover is not None:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("neither was ever to move")
    other = bob if mover is alice else alice
    while not other.events.empty():
        other.events.get_nowait()
    move = games.get("gongzhu").bot("easy").choose(mover.view)
    assert (await mover.play(move))["ok"]
    for _ in range(200):
        event = await other.next_event(timeout=10)
        if event.type == "moved" and event.data["seat"] == mover.seat:
            return
    raise AssertionError("the other never saw the move")


async def test_listing_closed_tables_reads_their_seats_off_the_loop_and_replays_no_match(tmp_path, monkeypatch):
    """«Continue» reads the saved tables' seats only: no match is replayed for it (the table store keeps
    every table ever made), and the files are read in a thread, never on the hub's event loop."""
    import threading

    from cardtable import saves

    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            code = (await alice.create("gongzhu", open_seats=(2,)))["data"]["code"]
            assert (await alice.leave())["ok"]
            hub._close_table(hub.tables[code])                   # as the idle sweeper does
            readers: list[threading.Thread] = []
            read = hub.store.read

            def reading(slot: str) -> Any:
                readers.append(threading.current_thread())
                return read(slot)

            def no_replay(*args: Any) -> Any:
                raise AssertionError("a match was replayed to list the tables")

            monkeypatch.setattr(hub.store, "read", reading)
            monkeypatch.setattr(saves, "rebuild", no_replay)
            listed = await alice.tables()
            assert [(t["code"], t["seat"], t["names"][0]) for t in listed["data"]] == [(code, 0, "alice")]
            assert readers and threading.main_thread() not in readers
            await alice.close()
        finally:
            await hub.close()


async def test_a_flood_an_oversized_line_and_garbage_from_one_client_do_not_stop_the_others(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(rate=5.0, burst=10))
        try:
            alice, bob, code = await table_of_two(hub)
            # Garbage: refused line by line, the connection stays (within the rate).
            reader, writer = await raw_client(hub, EVE)
            for junk in (b"not json\n", b"[1, 2]\n", b'{"cmd": "play", "move": "AS"}\n', b"\xff\xfe\n",
                         b'{"cmd": "explode"}\n'):
                writer.write(junk)
                answer = json.loads(await reader.readline())
                assert answer["ok"] is False and answer["key"], answer
            await other_sees_a_move(alice, bob)
            # A flood: cut off.
            writer.write(b'{"cmd": "tables"}\n' * 200)
            answers = await lines_until_closed(reader)
            assert answers[-1]["key"] == "hub_flood"
            writer.close()
            await other_sees_a_move(alice, bob)
            # An oversized line: refused, cut off.
            reader, writer = await raw_client(hub, EVE)
            writer.write(b'{"cmd": "' + b"x" * (hub.limits.line_bytes + 10) + b'"}\n')
            answers = await lines_until_closed(reader)
            assert answers[-1]["key"] == "hub_line_too_long"
            writer.close()
            await other_sees_a_move(alice, bob)
            assert hub.tables[code].session.seats[2].connected
            await alice.close()
            await bob.close()
        finally:
            await hub.close()


async def test_json_nested_too_deep_is_refused_as_bad_json_and_the_connection_stays(tmp_path, caplog):
    """A line of 30,000 open brackets fits the line limit but not Python's recursion limit: it is bad
    JSON like any other (refused, the connection goes on), never an error of the hub."""
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            reader, writer = await raw_client(hub, EVE)
            writer.write(b"[" * 30_000 + b"\n")
            answer = json.loads(await reader.readline())
            assert answer["ok"] is False and answer["key"] == "hub_bad_json", answer
            writer.write(b'{"cmd": "tables", "id": 1}\n')
            assert json.loads(await reader.readline()) == {"reply": 1, "ok": True, "data": []}
            writer.close()
            # In the hello too: refused as a bad hello.
            reader, writer = await asyncio.open_unix_connection(str(hub.socket_path))
            writer.write(b"[" * 30_000 + b"\n")
            assert json.loads(await reader.readline())["key"] == "hub_bad_hello"
            writer.close()
            assert "a table connection failed" not in caplog.text
        finally:
            await hub.close()


async def test_a_client_that_stops_reading_is_cut_off_and_its_seat_goes_to_its_cpu(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(rate=10_000.0, burst=10_000, queue_lines=16, write_timeout=2.0))
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            made = await alice.create("gongzhu", open_seats=(2,), level="easy")
            code = made["data"]["code"]
            _reader, writer = await raw_client(hub, EVE)
            writer.write(json.dumps({"cmd": "join", "code": code}).encode() + b"\n")
            assert (await alice.start())["ok"]
            # Eve asks for the table again and again and never reads an answer.
            writer.write(b'{"cmd": "snapshot"}\n' * 2000)
            left = None
            for _ in range(20_000):
                event = await alice.next_event(timeout=20)
                if event.type == "left" and event.data["seat"] == 2:
                    left = event
                    break
            assert left is not None
            assert hub.tables[code].session.seats[2].cpu_plays
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")       # the others go on
            assert (await bob.tables())["ok"]
            writer.close()
            await alice.close()
            await bob.close()
        finally:
            await hub.close()


async def test_wrong_code_guesses_are_limited_per_player(tmp_path):
    async with asyncio.timeout(BOUND):
        clock = Clock()
        hub = await started(tmp_path, fast(guesses=5, guess_window=60.0), clock)
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            code = (await alice.create("gongzhu"))["data"]["code"]
            eve = await TableClient.connect(hub.socket_path, EVE, "eve")
            wrong = "23456" + ("7" if code[-1] != "7" else "8")
            for _ in range(5):
                answer = await eve.join(wrong if wrong != code else "ZZZZZZ")
                assert answer["key"] == "hub_no_such_table"
            blocked = await eve.join(code)                       # even the right code, for a while
            assert not blocked["ok"] and blocked["key"] == "hub_code_guesses"
            assert blocked["params"]["seconds"] >= 1
            assert not list((tmp_path / "tables").glob(".table-23456*"))   # a guess leaves no file
            other = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await other.join(code))["ok"]                # another player is not held up
            clock.now += 61
            assert (await eve.join(code))["ok"]
            for client in (alice, eve, other):
                await client.close()
        finally:
            await hub.close()


async def test_hello_lobby_and_limits(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(tables_hosted=2))
        try:
            with pytest.raises(HubError):                        # a hello names its player
                reader, writer = await asyncio.open_unix_connection(str(hub.socket_path))
                writer.write(json.dumps({"hello": PROTOCOL, "version": wire.WIRE_VERSION}).encode() + b"\n")
                answer = json.loads(await reader.readline())
                writer.close()
                raise HubError(answer["key"])
            alice = await TableClient.connect(hub.socket_path, ALICE, "\x1b[31mal\u202eice " + "x" * 40)
            assert alice.hello["name"] == "alice " + "x" * 10 or len(alice.hello["name"]) <= 16
            assert "\x1b" not in alice.hello["name"] and "\u202e" not in alice.hello["name"]
            assert (await alice.request("play", move={"play": "QS"}))["key"] == "hub_no_table"
            bad = await alice.create("gongzhu", options={"target": "lots"})
            assert not bad["ok"] and bad["key"] == "hub_bad_options"
            assert (await alice.create("chess"))["key"] == "hub_no_such_game"
            assert (await alice.request("create", game="gongzhu", open=[0, 5]))["key"] == "hub_bad_seats"
            assert (await alice.create("gongzhu"))["ok"]
            code = (await alice.create("guinote", open_seats=(1, 2, 3)))["data"]["code"]
            assert (await alice.create("guandan"))["key"] == "hub_too_many_hosted"
            # The lobby: Bob sits, picks the seat opposite, and only the host starts.
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await bob.join(code))["data"]["seat"] == 1
            assert (await bob.sit(2))["ok"]
            assert (await bob.start())["key"] == "table_host_only"
            fresh = games.get("guinote").new_match()
            assert (await bob.play(fresh.legal_moves(fresh.to_move())[0]))["key"] == "table_not_started"
            assert bob.seat == 2
            assert (await alice.start())["ok"]
            session = hub.tables[code].session
            assert [s.name for s in session.seats if s.person] == [alice.hello["name"], "bob"]
            assert [s.index for s in session.seats if s.person] == [0, 2]
            # A move for another seat is refused by the session's checks (for the sender's own seat).
            mover = session.match.to_move()
            if mover != 2:
                someone_elses = session.match.legal_moves(mover)[0]
                refused = await bob.play(someone_elses)
                assert not refused["ok"]
            # A socket the server hands out speaks for its own identity.
            pair = hub.socket_pair(BOB, "bob")
            paired = await TableClient.over_socket(pair)
            assert (await paired.join(code))["data"]["seat"] == 2
            for client in (alice, bob, paired):
                await client.close()
        finally:
            await hub.close()


class BrokenThinker:
    """A thinker that fails every time (a dead worker, a bug)."""

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any:
        raise RuntimeError("no decision")

    def hint(self, view: Any) -> Any:
        raise RuntimeError("no hint")


class WrongThinker(BrokenThinker):
    """A thinker that answers, but never a move the table takes (a bot's bug): no move at its turn."""

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any:
        return None


@pytest.mark.parametrize(("thinker", "logged"), [(BrokenThinker, "could not decide"),
                                                 (WrongThinker, "refused the answer")])
async def test_a_thinker_that_fails_does_not_hang_the_table(tmp_path, caplog, thinker, logged):
    async with asyncio.timeout(BOUND):
        hub = Hub(tmp_path, fast(), thinker_for=lambda spec: thinker())
        await hub.start()
        try:
            alice, bob, code = await table_of_two(hub)
            await asyncio.gather(Person(alice).play_hand(), Person(bob).play_hand())
            session = hub.tables[code].session
            assert session.match.view(0).hand_number == 2 or session.match.is_over()
            assert logged in caplog.text
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()


async def test_connections_beyond_the_cap_are_refused(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path, fast(connections=1))
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            with pytest.raises(HubError, match="as many connections"):
                await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await alice.tables())["ok"]                 # the one inside is not disturbed
            await alice.close()
            for _ in range(200):
                if not hub.conns:
                    break
                await asyncio.sleep(0.01)
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")   # room again
            await bob.close()
        finally:
            await hub.close()


async def test_a_gap_in_the_events_makes_the_client_ask_for_the_table_afresh(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
            await alice.create("gongzhu", open_seats=())
            while not alice.events.empty():
                alice.events.get_nowait()
            # As if the hub's outbox had dropped four events: the next one's seq jumps.
            alice._take({"event": "seats", "seq": alice.seq + 5, "data": {}, "view": None})
            types = []
            for _ in range(20):
                event = await alice.next_event(timeout=10)
                types.append(event.type)
                if event.type == "snapshot":
                    break
            assert types[-1] == "snapshot"
            await alice.close()
        finally:
            await hub.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**40) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
commands = st.fixed_dictionaries(
    {"cmd": st.sampled_from(["create", "join", "tables", "leave", "play", "arm", "sit", "start", "answer",
                             "hint", "snapshot", "decline", "next_hand", "take_back", "nope"])},
    optional={"game": st.sampled_from(["gongzhu", "guinote", "guandan", "x"]) | json_values,
              "options": json_values, "open": json_values, "level": json_values, "hints": json_values,
              "code": json_values, "move": json_values, "seat": json_values, "yes": json_values,
              "on": json_values, "id": json_values})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(commands | json_values, min_size=1, max_size=25))
def test_whatever_a_client_sends_gets_a_reply_and_the_hub_goes_on(tmp_path_factory, messages):
    directory = tmp_path_factory.mktemp("fuzz")

    async def body() -> None:
        async with asyncio.timeout(BOUND):
            hub = await started(directory, fast(rate=1000.0, burst=1000))
            try:
                reader, writer = await raw_client(hub, EVE)
                for message in messages:
                    writer.write(json.dumps(message).encode() + b"\n")
                    answer = json.loads(await reader.readline())
                    while "event" in answer:
                        answer = json.loads(await reader.readline())
                    assert set(answer) >= {"reply", "ok"}, answer
                    assert answer["ok"] or (answer["key"] and answer["reason"]), answer
                writer.close()
                alice = await TableClient.connect(hub.socket_path, ALICE, "alice")   # the hub is fine
                assert (await alice.create("gongzhu"))["ok"]
                await alice.close()
            finally:
                await hub.close()

    asyncio.run(body())


async def test_a_second_hub_on_the_same_directory_is_refused_and_a_dead_ones_socket_replaced(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            with pytest.raises(HubBusy):
                await started(tmp_path)
            first = await TableClient.connect(hub.socket_path, ALICE, "a")
            assert (await first.tables())["ok"]                 # the first one serves on
            await first.close()
        finally:
            await hub.close()
        import socket as sockets

        stale = sockets.socket(sockets.AF_UNIX)                 # a socket file nobody listens on
        stale.bind(str(hub.socket_path))
        stale.close()
        again = await started(tmp_path)
        try:
            client = await TableClient.connect(again.socket_path, ALICE, "a")
            assert (await client.tables())["ok"]
            await client.close()
        finally:
            await again.close()


async def test_a_hint_is_the_seats_own_asked_off_the_loop_and_off_when_the_table_says(tmp_path):
    async with asyncio.timeout(BOUND):
        hub = await started(tmp_path)
        try:
            alice, bob, _code = await table_of_two(hub, "guinote")
            off = await alice.hint()                             # two people: off by default
            assert not off["ok"] and off["key"] in ("table_hints_off", "not_your_turn")
            solo = await TableClient.connect(hub.socket_path, EVE, "eve")
            await solo.create("guinote", open_seats=(), level="easy")
            assert (await solo.start())["ok"]
            for _ in range(500):
                if solo.view is not None and solo.view.to_move == solo.seat and solo.view.legal:
                    break
                await solo.next_event(timeout=10)
            hint = await solo.hint()
            assert hint["ok"], hint
            move = games.get("guinote").match_type.decode_move(hint["data"]["move"])
            assert move in solo.view.legal
            assert isinstance(hint["data"]["reason"]["key"], str)
            json.dumps(hint)
            for client in (alice, bob, solo):
                await client.close()
        finally:
            await hub.close()


async def test_a_request_on_a_connection_the_hub_just_dropped_is_a_hub_error():
    """The socket may break before the reader sees the end: the caller gets the client's own error."""

    class BrokenWriter:
        def write(self, data: bytes) -> None:
            pass

        async def drain(self) -> None:
            raise ConnectionResetError(104, "Connection reset by peer")

        def close(self) -> None:
            pass

    client = TableClient(asyncio.StreamReader(), BrokenWriter())  # type: ignore[arg-type]
    with pytest.raises(HubError):
        await client.request("tables", timeout=5)
    assert not client._pending
    reset = asyncio.StreamReader()                 # and when the hello's answer is a reset
    reset.set_exception(ConnectionResetError(104, "Connection reset by peer"))
    with pytest.raises(HubError):
        await TableClient._start(reset, BrokenWriter(), {}, 5)  # type: ignore[arg-type]


async def test_a_client_whose_reader_falls_behind_asks_for_the_table_afresh_once(monkeypatch):
    """Events nobody reads are dropped beyond a bound, oldest first: what they said (a hand's results)
    comes back in one snapshot, asked for once until it arrives."""
    from cardtable.serve import tableclient

    class Writer:
        def __init__(self) -> None:
            self.lines: list[dict[str, Any]] = []

        def write(self, data: bytes) -> None:
            self.lines.append(json.loads(data))

    monkeypatch.setattr(tableclient, "EVENT_LIMIT", 4)
    writer = Writer()
    client = TableClient(asyncio.StreamReader(), writer)  # type: ignore[arg-type]
    client._take({"reply": 1, "ok": True, "data": {"code": "ABCDEF", "game": "gongzhu", "seat": 0}})

    def event(kind: str, seq: int) -> None:
        client._take({"event": kind, "seq": seq, "data": {}, "view": None})

    for seq in range(1, 11):
        event("moved", seq)
    assert client.events.qsize() == 4
    assert writer.lines == [{"cmd": "snapshot"}]
    event("snapshot", 11)
    for seq in range(12, 16):
        event("moved", seq)
    assert writer.lines == [{"cmd": "snapshot"}] * 2


def test_the_hub_the_client_and_the_wire_import_no_textual():
    import subprocess
    import sys

    code = ("import sys\n"
            "import cardtable.wire, cardtable.serve.hub, cardtable.serve.tableclient, cardtable.serve.tablestore\n"
            "from cardtable import games\n"
            "for spec in games.games().values():\n"
            "    spec.wire()\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'textual']\n"
            "assert not bad, bad\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
