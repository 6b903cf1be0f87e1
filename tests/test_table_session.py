"""The table session (cardtable/table.py, issue 32): people and CPUs at one table, driven headlessly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.saves import SaveStore
from cardtable.stats import StatsDB
from cardtable.table import (
    ARMED_LIMIT,
    OUTBOX_LIMIT,
    TAKE_BACK_ASKS,
    Answer,
    Arm,
    BotThinker,
    CommandError,
    Decline,
    Event,
    Hint,
    NextHand,
    Play,
    Sit,
    Snapshot,
    Start,
    TableSession,
    TakeBack,
    WorkerThinker,
    clean_name,
    command_from_json,
    read_code,
)
from tests.test_wire import strings

GAMES = ("gongzhu", "guinote", "guandan")
ALICE, BOB, CAROL = "key-alice", "key-bob", "key-carol"
DECK = {"gongzhu": 52, "guinote": 40, "guandan": 108}


def shared_table(name: str, seed: int = 7, **kwargs: Any) -> TableSession:
    """Alice hosts at seat 0, Bob sits opposite (seat 2: her partner in the partnership games), the
    other two seats are easy CPUs; the deal has started."""
    spec = games.get(name)
    session = TableSession.create(spec, ALICE, "alice", seed=seed, levels=("easy",) * 4, open_seats=(2,),
                                  **kwargs)
    assert session.join(BOB, "bob").data == 2
    assert session.submit(0, Start()).ok
    return session


class People:
    """The people at the table: each decides from the last view its own events brought (never from the
    match), with the game's normal bot; every event is checked for hidden information as it is read."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.bot = session.spec.bot("normal")
        self.views: dict[int, Any] = {}
        self.events: dict[int, list[Event]] = {0: [], 1: [], 2: [], 3: []}
        self.hands_seen = 0

    def read(self) -> None:
        session = self.session
        for seat in session.connected():
            events = session.drain(seat)
            for event in events:
                check_event(session, seat, event)
                self.events[seat].append(event)
                if event.view is not None and event.type != "hand_over":   # (that one shows the hand ended)
                    self.views[seat] = event.view
                if event.type == "hand_over" and seat == session.connected()[0]:
                    self.hands_seen += 1
            if any(event.view is not None and event.type != "hand_over" for event in events):
                assert self.views[seat] == session.match.view(seat)

    def choose(self, seat: int) -> Any:
        view = self.views[seat]
        assert view == self.session.match.view(seat), "the seat's events left its view out of date"
        return self.bot.choose(view)

    def act(self) -> bool:
        """One person's action, in the order a table asks: results, optional moves, the turn."""
        session = self.session
        if session.results is not None:
            for seat in sorted(session._waiting & set(session.connected())):
                assert session.submit(seat, NextHand()).ok
            return True
        to_move = session.match.to_move()
        if to_move is None:
            return False
        for seat in session.match.optional_movers():
            if seat != to_move and not session.seats[seat].cpu_plays and seat not in session._declined_here():
                move = self.choose(seat)
                reply = session.submit(seat, Play(move) if move is not None else Decline())
                assert reply.ok, reply
                return True
        if not session.seats[to_move].cpu_plays:
            reply = session.submit(to_move, Play(self.choose(to_move)))
            assert reply.ok, reply
            return True
        return False


def play(session: TableSession, people: People, hands: int, limit: int = 20_000,
         stop: Any = None) -> None:
    """Run the CPUs and the people until ``hands`` more hands have ended (or the match, or ``stop()``)."""
    thinker = BotThinker(session.spec)
    target = people.hands_seen + hands
    for _ in range(limit):
        session.run_cpus(thinker)
        people.read()
        if session.match.is_over() or people.hands_seen >= target or (stop is not None and stop()):
            return
        if not people.act():
            raise AssertionError("the table is stuck: nobody can move")
        people.read()
    raise AssertionError("the table did not get there")


# ---------------------------------------------------------------- hidden information
def hidden_from(session: TableSession, seat: int, hand: int | None = None) -> set[str]:
    """Card codes of a deal (by default the one on the table) that ``seat`` has not seen: the other
    hands as dealt and the stock, less what any move of the hand showed and the seat's own cards."""
    log = session.match.log
    deal = next(r for r in reversed(log) if r["type"] == "deal" and hand in (None, r["hand"]))
    hidden = {code for other, hand in enumerate(deal["hands"]) if other != seat for code in hand}
    hidden |= set(deal.get("stock", ())) - {deal.get("pinta")}
    hand = deal["hand"]
    shown = {s for r in log if r["type"] == "move" and r["hand"] == hand for s in strings(r["move"])}
    return hidden - shown - set(deal["hands"][seat])


def check_event(session: TableSession, seat: int, event: Event) -> None:
    json.dumps(event.data)                                    # plain data, ready for the wire
    if event.type == "moved" and event.data["seat"] != seat:
        assert "move" not in event.data, "another seat's move was sent as such"
    # The seat's own move is its own; a finished hand's records are checked against that hand's deal.
    data = {key: value for key, value in event.data.items() if key not in ("move", "record", "results")}
    leaked = hidden_from(session, seat) & set(strings(data))
    assert not leaked, (event.type, leaked)
    for record in (event.data.get("record"), event.data.get("results")):
        if record is not None:
            hand = record.get("hand", record.get("hands"))
            leaked = hidden_from(session, seat, hand) & set(strings(record))
            assert not leaked, (event.type, leaked)
    if event.view is not None:
        assert event.view.seat == seat


# ---------------------------------------------------------------- whole hands, like Match
@pytest.mark.parametrize("name", GAMES)
def test_two_people_play_whole_hands_with_the_results_of_the_same_moves_through_match(name):
    session = shared_table(name)
    people = People(session)
    play(session, people, hands=2)
    match = session.match
    assert people.hands_seen == 2 or match.is_over()
    spec = session.spec
    replay = spec.match_type(match.options, match.seed)
    cpu = {seat.index: spec.bot(seat.level) for seat in session.seats if not seat.person}
    people_moved = set()
    told = {seat: {e.data["number"]: e.view for e in people.events[seat] if e.type == "moved"} for seat in (0, 2)}
    for number, (seat, move) in enumerate(match.moves, 1):
        if seat in cpu and replay.automatic_move(seat) is None:
            assert cpu[seat].choose(replay.view(seat)) == move     # the CPU's own decision
        if seat not in cpu:
            people_moved.add(seat)
        replay.apply(move, seat)
        for person in (0, 2):                                      # each seat was shown this move
            assert told[person][number] == replay.view(person)
    assert people_moved == {0, 2}
    # The pauses are data: a CPU's move is shown for the CPU delay, a person's and a silent one not at all.
    for event in (e for e in people.events[0] if e.type == "moved"):
        mover, move = match.moves[event.data["number"] - 1]
        cpu_made = mover in cpu and not match.silent(move)
        assert event.data["pause"] == (session.cpu_delay if cpu_made else 0.0)
    assert replay.log == match.log
    assert replay.outcome() == match.outcome()
    hand_ends = [r for r in replay.log if r["type"] == "hand_end"]
    for seat in (0, 2):
        told = [e.data["record"] for e in people.events[seat] if e.type == "hand_over"]
        assert told == hand_ends[:len(told)] and len(told) >= 2 - match.is_over()
        # Behind the results, the finished hand as its last move left it (not the next deal).
        for event in (e for e in people.events[seat] if e.type == "hand_over"):
            view = event.view
            assert view.seat == seat and view.to_move is None and view.legal == ()
            assert view.hand_number == event.data["record"]["hand"]
        last = [e for e in people.events[seat] if e.view is not None and e.type != "hand_over"][-1]
        assert last.view == replay.view(seat)


def test_a_seat_is_never_sent_another_seats_showing_in_gong_zhu():
    # The showing choices are simultaneous: Alice's choice reaches Bob only through his view.
    session = shared_table("gongzhu", seed=3)
    people = People(session)
    people.read()
    spec = session.spec
    for _ in range(4):
        to_move = session.match.to_move()
        if session.seats[to_move].person:
            move = session.match.legal_moves(to_move)[-1]          # the largest showing
            assert session.submit(to_move, Play(move)).ok
        else:
            session.run_cpus(BotThinker(spec))
        people.read()
    moved = [e for e in people.events[2] if e.type == "moved"]
    assert moved and all("move" in e.data for e in moved if e.data["seat"] == 2)
    assert all("move" not in e.data for e in moved if e.data["seat"] != 2)


# ---------------------------------------------------------------- drop, CPU, rejoin
@pytest.mark.parametrize("name", GAMES)
def test_a_dropped_player_is_replaced_by_a_cpu_at_once_and_rejoins(name):
    session = shared_table(name, seed=11)
    people = People(session)
    play(session, people, hands=1, stop=lambda: session.match.to_move() == 2 and len(session.match.moves) > 8
         and session.results is None and session.pending() is None)
    moves = len(session.match.moves)
    session.leave(2)
    assert session.seats[2].cpu_plays and session.seats[2].person
    turn = session.pending()
    assert turn is not None and turn.seat == 2 and not turn.optional     # the CPU takes over at once
    session.run_cpus(BotThinker(session.spec))
    assert session.match.moves[moves][0] == 2
    people.read()
    # A stranger cannot take the seat; Bob's key gets it back, with his view.
    assert session.join(CAROL, "carol").key == "table_full"
    reply = session.join(BOB, "bob ")
    assert reply.ok and reply.data == 2 and not session.seats[2].cpu_plays
    snapshot = session.drain(2)[-1]
    assert snapshot.type == "snapshot" and snapshot.view == session.match.view(2)
    assert [s["name"] for s in snapshot.data["seats"]] == ["alice", "", "bob", ""]
    people.views[2] = snapshot.view
    before = sum(1 for seat, _ in session.match.moves if seat == 2)
    play(session, people, hands=1)
    assert sum(1 for seat, _ in session.match.moves if seat == 2) > before


def test_a_cpu_answer_for_a_seat_whose_player_came_back_is_dropped():
    session = shared_table("gongzhu", seed=5)
    people = People(session)
    play(session, people, hands=1, stop=lambda: session.match.to_move() == 2 and session.pending() is None
         and session.match.view(2).phase == "play")
    session.leave(2)
    turn = session.pending()
    assert turn is not None and turn.seat == 2
    session.join(BOB, "bob")                     # back while the CPU thought
    moves = list(session.match.moves)
    assert not session.resolve(turn, turn.view.legal[0])
    assert session.match.moves == moves


def test_a_table_nobody_is_at_stands_still_until_someone_comes_back():
    clock = iter(range(1000, 2000))
    session = shared_table("guinote", seed=2, clock=lambda: float(next(clock)))
    session.leave(0)
    session.leave(2)
    assert session.idle_since == 1001.0 and session.still()          # since the last one left
    assert session.pending() is None and session.run_cpus() == 0 and session.match.moves == []
    assert session.join(ALICE, "alice").ok and session.idle_since is None
    session.run_cpus()                           # Bob's seat is a CPU's while he is away
    assert session.pending() is None and session.match.moves
    assert session.match.to_move() == 0 or 0 in session.match.optional_movers()


# ---------------------------------------------------------------- saving and resuming
@pytest.mark.parametrize("name", ("gongzhu", "guinote"))
def test_a_shared_table_is_saved_and_resumes_after_a_restart(tmp_path, name):
    def fresh() -> tuple[TableSession, People]:
        session = shared_table(name, seed=21, store=SaveStore(tmp_path / name), slot="table-ABCDEF",
                               code="ABCDEF")
        return session, People(session)

    session, people = fresh()
    play(session, people, hands=1, stop=lambda: len(session.match.moves) >= 25 and session.results is None)
    moves = list(session.match.moves)
    session.store.unlock_all()                   # the server's process ends
    resumed = TableSession.resume(SaveStore(tmp_path / name), "table-ABCDEF")
    assert resumed.match.moves == moves and resumed.code == "ABCDEF" and resumed.phase == "play"
    assert resumed.names() == ["alice", "", "bob", ""]
    assert [seat.person for seat in resumed.seats] == [True, False, True, False]
    assert resumed.connected() == [] and resumed.pending() is None      # nobody here: it stands still
    assert resumed.join(CAROL, "carol").key == "table_full"
    assert resumed.join(BOB, "bob").data == 2 and resumed.join(ALICE, "alice").data == 0
    again = People(resumed)
    again.read()
    play(resumed, again, hands=1)
    # The same table never restarted plays the very same moves.
    uninterrupted = shared_table(name, seed=21)
    play(uninterrupted, People(uninterrupted), hands=1)
    assert uninterrupted.match.moves == resumed.match.moves


def test_a_lobby_chooses_seats_and_only_the_host_starts_it():
    spec = games.get("guandan")
    session = TableSession.create(spec, ALICE, "alice", seed=4, open_seats=(1, 2, 3))
    assert read_code(session.code.lower()[:3] + "-" + session.code[3:]) == session.code
    assert session.join(BOB, "alice").data == 1
    assert session.seats[1].name == "alice 2"                    # names are unique at a table
    assert session.submit(1, Sit(2)).data == 2                   # Bob sits opposite Alice: partners
    assert session.submit(2, Sit(0)).key == "table_seat_taken"
    assert session.submit(2, Play(session.match.legal_moves()[0])).key == "table_not_started"
    assert session.submit(2, Start()).key == "table_host_only"
    lobby = session.drain(2)
    assert lobby and all(event.view is None for event in lobby)  # no hand is seen before the seats are set
    assert session.submit(0, Start()).ok
    assert session.join(CAROL, "carol").key == "table_full"      # the open seats nobody took are CPUs now
    assert [seat.person for seat in session.seats] == [True, False, True, False]
    assert session.submit(2, Sit(1)).key == "table_started"
    assert not session.hints                                      # two people: no hints unless the host says


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("name", GAMES)
def test_a_command_from_the_wrong_seat_or_an_illegal_one_is_refused_and_changes_nothing(name):
    session = shared_table(name, seed=9)
    people = People(session)
    play(session, people, hands=1, stop=lambda: session.match.to_move() == 0 and session.pending() is None
         and len(session.match.legal_moves(0)) > 1)
    people.read()
    legal = session.match.legal_moves(0)
    log, moves = list(session.match.log), list(session.match.moves)

    def unchanged(reply: Any, key: str) -> None:
        assert not reply.ok and reply.key == key and reply.reason
        assert session.match.log == log and session.match.moves == moves
        assert all(session.drain(seat) == [] for seat in range(4))

    unchanged(session.submit(2, Play(legal[0])), "not_your_turn")
    unchanged(session.submit(1, Play(legal[0])), "table_not_your_seat")   # a CPU's seat
    unchanged(session.submit(2, Answer(True)), "take_back_no_request")
    bob = session.match.view(2).hand
    mine = set(session.match.view(0).hand)
    foreign = next(card for card in bob if card not in mine and str(card) not in ("SJ", "BJ"))
    text = f"{foreign} as single {str(foreign)[:-1]}" if name == "guandan" else str(foreign)
    illegal = session.spec.match_type.parse_move(text)
    reply = session.submit(0, Play(illegal))
    assert not reply.ok and reply.key == session.match.why_illegal(illegal, 0).key
    unchanged(reply, reply.key)
    # The wire's JSON: a malformed command never becomes one.
    for bad, key in (({"cmd": "fly"}, "table_bad_command"), ({"cmd": "play"}, "table_bad_move"),
                     ({"cmd": "play", "move": {"play": "ZZ"}}, "table_bad_move"),
                     ({"cmd": "take_back", "please": 1}, "table_bad_command"), ([1], "table_bad_command"),
                     ({"cmd": "sit", "seat": True}, "table_bad_command")):
        with pytest.raises(CommandError) as caught:
            command_from_json(session.spec, bad)
        assert caught.value.key == key
    good = command_from_json(session.spec, {"cmd": "play", "move": legal[-1].to_json(), "id": 3})
    assert good == Play(legal[-1]) and session.submit(0, good).ok


# ---------------------------------------------------------------- take-back
def _at_alices_turn_after_her_play(session: TableSession, people: People) -> None:
    play(session, people, hands=1, stop=lambda: session.match.to_move() == 0 and session.pending() is None
         and session.take_back_target(0) is not None)


class Sink:
    def __init__(self, db: StatsDB) -> None:
        self.db = db
        self.calls: list[str] = []

    def submit(self, method: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append(method)
        getattr(self.db, method)(*args, **kwargs)


def test_take_back_at_a_shared_table_needs_the_others_consent(tmp_path):
    sinks = {0: Sink(StatsDB(tmp_path / "alice.sqlite3")), 2: Sink(StatsDB(tmp_path / "bob.sqlite3"))}
    session = shared_table("gongzhu", seed=13, stats_for=lambda seat: sinks.get(seat.index))
    people = People(session)
    play(session, people, hands=1)                                     # a hand for the statistics
    _at_alices_turn_after_her_play(session, people)
    moves = list(session.match.moves)
    assert session.submit(0, TakeBack()).data == "asked"
    assert session.submit(0, TakeBack()).key == "take_back_pending"
    assert [e.type for e in session.drain(2)] == ["take_back_asked"]
    assert session.pending() is None                                   # the CPUs wait for the answer
    assert session.submit(2, Answer(False)).ok
    assert session.match.moves == moves and session.request is None
    assert "take_back_refused" in [e.type for e in session.drain(0)]
    assert session.submit(0, TakeBack()).ok and session.submit(2, Answer(True)).ok
    keep = max(i for i, (seat, _) in enumerate(moves) if seat == 0)
    assert session.match.moves == moves[:keep] and session.undo_used
    done = [e for e in session.drain(2) if e.type == "take_back_done"]
    assert done and done[-1].view == session.match.view(2)
    assert sinks[0].calls.count("mark_undo") == 1 and sinks[2].calls.count("mark_undo") == 1
    for seat in (0, 2):
        rows = sinks[seat].db.summary("gongzhu")
        assert [(row.hands, row.undo) for row in rows] == [(1, True)]


def test_a_refused_take_back_cannot_be_asked_again_and_again_to_hold_the_table():
    """While a request is open the CPUs wait: asking again at once after every «no» would stop the
    table for good. A seat asks at most twice at one position (a «no» may be a slip)."""
    session = shared_table("gongzhu", seed=13)
    people = People(session)
    _at_alices_turn_after_her_play(session, people)
    for _ in range(TAKE_BACK_ASKS):
        assert session.submit(0, TakeBack()).data == "asked"
        assert session.submit(2, Answer(False)).ok
    refused = session.submit(0, TakeBack())
    assert not refused.ok and refused.key == "table_take_back_asked"
    assert refused.params == {"limit": TAKE_BACK_ASKS} and session.request is None
    people.read()
    moves = len(session.match.moves)
    people.act()                                                       # Alice plays on
    assert len(session.match.moves) == moves + 1
    assert session.submit(0, TakeBack()).data == "asked"               # a new position: she may ask


def test_a_refused_play_leaves_a_take_back_request_open():
    """A refused command changes nothing: an illegal play is no «playing on»."""
    session = shared_table("gongzhu", seed=13)
    people = People(session)
    _at_alices_turn_after_her_play(session, people)
    assert session.submit(0, TakeBack()).data == "asked"
    request = session.request
    illegal = next(move for move in session.match.legal_moves(0) if session.match.why_illegal(move, 2))
    refused = session.submit(2, Play(illegal))
    assert not refused.ok
    assert session.request is request
    assert "take_back_cancelled" not in [e.type for e in session.drain(2)]


def test_a_move_cancels_a_take_back_request_and_nobody_crosses_a_new_deal():
    session = shared_table("guinote", seed=17)
    people = People(session)
    _at_alices_turn_after_her_play(session, people)
    assert session.submit(0, TakeBack()).ok and session.request is not None
    people.read()
    people.act()                                                       # Alice plays on
    assert session.request is None
    assert "take_back_cancelled" in [e.type for e in session.drain(2)]
    play(session, people, hands=1)                                     # the hand ends: the next is dealt
    assert session.results is not None and any(seat == 0 for seat, _ in session.match.moves)
    moves = list(session.match.moves)
    assert session.submit(0, TakeBack()).key == "table_take_back_floor"
    assert session.match.moves == moves


def test_a_solo_table_takes_back_at_once():
    spec = games.get("gongzhu")
    session = TableSession.solo(spec, spec.new_match(seed=1), ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    people = People(session)
    assert session.submit(0, Snapshot()).ok
    _at_alices_turn_after_her_play(session, people)
    moves = list(session.match.moves)
    assert session.submit(0, TakeBack()).ok
    assert len(session.match.moves) < len(moves) and session.request is None and session.generation == 1


# ---------------------------------------------------------------- the invariant
def cards_accounted_for(session: TableSession) -> None:
    for seat in range(4):
        view = session.match.view(seat)
        assert len(view.hand) == view.counts[seat]
    view = session.match.view(0)
    total = sum(view.counts) + len(view.played) + getattr(view, "stock_count", 0)
    assert total == DECK[session.spec.name]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_commands_from_random_seats_keep_the_table_exact(name, data):
    session = shared_table(name, seed=data.draw(st.integers(0, 10_000), label="seed"))
    thinker = BotThinker(session.spec)
    people = People(session)
    for _ in range(data.draw(st.integers(5, 120), label="steps")):
        seat = data.draw(st.integers(0, 3), label="seat")
        kind = data.draw(st.sampled_from(["own", "to_move", "decline", "next", "take_back", "yes", "no",
                                          "leave", "join", "snapshot"]), label="kind")
        match, generation, moves = session.match, session.generation, list(session.match.moves)
        reply = None
        if kind in ("own", "to_move"):
            whose = seat if kind == "own" else session.match.to_move()
            legal = session.match.legal_moves(whose) if whose is not None else []
            if legal:
                reply = session.submit(seat, Play(data.draw(st.sampled_from(legal), label="move")))
        elif kind == "leave":
            session.leave(seat)
        elif kind == "join":
            session.join(ALICE if seat < 2 else BOB, "x")
        else:
            command = {"decline": Decline(), "next": NextHand(), "take_back": TakeBack(), "yes": Answer(True),
                       "no": Answer(False), "snapshot": Snapshot()}[kind]
            reply = session.submit(seat, command)
        if reply is not None and not reply.ok:
            assert reply.key and session.match is match and session.generation == generation
            assert session.match.moves == moves
        session.run_cpus(thinker)
        people.read()                                # every event checked for hidden cards
        cards_accounted_for(session)
    match = session.match
    replay = type(match).replay(match.options, match.seed, match.moves)
    assert replay.log == match.log and replay.outcome() == match.outcome()
    assert all(replay.view(seat) == match.view(seat) for seat in range(4))


def test_the_session_imports_no_textual_and_nothing_of_the_ui():
    import subprocess
    import sys

    code = ("import sys, cardtable.table\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'textual' or m.startswith('cardtable.ui')]\n"
            "assert not bad, bad\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def test_a_persons_automatic_move_at_a_shared_table_is_the_callers_to_time():
    # Guiñote's keep of a seat asked about the 7 without it: made at once, it would tell the other people
    # that this person lacked the 7 (a person holding it takes time to choose). The session hands it to
    # its caller, who makes it when it likes (run_cpus: at once); a CPU's is made as before.
    thinker = BotThinker(games.get("guinote"))
    for seed in range(60):
        session = shared_table("guinote", seed=seed)
        people = People(session)
        for _ in range(400):
            turn = session.pending()
            people.read()
            if turn is not None and turn.automatic is not None:
                assert session.seats[turn.seat].person and not session.seats[turn.seat].cpu_plays
                assert turn.automatic == session.match.automatic_move(turn.seat)
                moves = len(session.match.moves)
                assert session.pending() == turn                  # nothing made meanwhile
                assert session.resolve(turn, turn.automatic)
                assert session.match.moves[moves] == (turn.seat, turn.automatic)
                assert not session.resolve(turn, turn.automatic)  # once
                return
            if turn is not None:
                session.resolve(turn, thinker.decide(turn.level, turn.view, turn.partner_human))
            elif not people.act():
                break
            people.read()
    raise AssertionError("no person was asked about the 7 without holding it")


# ---------------------------------------------------------------- thinkers and drivers
def _to_a_person_turn_after_cpu_plays(session: TableSession, run: Any) -> list:
    people = People(session)
    for _ in range(50):
        run()
        people.read()
        to_move = session.match.to_move()
        if (len(session.match.moves) >= 8 and session.match.view(0).phase == "play" and to_move is not None
                and session.seats[to_move].person):
            return list(session.match.moves)
        assert people.act()
        people.read()
    raise AssertionError("no person's turn in the play phase")


def test_the_worker_thinker_and_the_async_loop_make_the_bots_own_moves():
    import asyncio

    from cardtable import workers

    spec = games.get("gongzhu")

    def table() -> TableSession:
        session = TableSession.create(spec, ALICE, "alice", seed=8, levels=("hard",) * 4, open_seats=(2,))
        session.join(BOB, "bob")
        session.submit(0, Start())
        return session

    plain = table()
    expected = _to_a_person_turn_after_cpu_plays(plain, lambda: plain.run_cpus(BotThinker(spec)))
    assert any(not plain.seats[seat].person for seat, _ in expected[4:])     # hard CPUs played cards
    thinker = workers.Thinker(processes=False)                               # its calls in this thread
    searched = table()
    assert _to_a_person_turn_after_cpu_plays(
        searched, lambda: searched.run_cpus(WorkerThinker(spec, thinker))) == expected
    assert thinker.answered["thread"] > 0
    waited = table()
    assert _to_a_person_turn_after_cpu_plays(waited, lambda: asyncio.run(waited.run_cpus_async())) == expected


def test_a_seat_that_stops_reading_loses_old_events_only_and_a_snapshot_catches_up():
    session = shared_table("guandan", seed=6)
    session.run_cpus()                           # Bob reads nothing from here on
    for _ in range(OUTBOX_LIMIT + 10):
        assert session.submit(2, Snapshot()).ok
    events = session.drain(2)
    assert len(events) == OUTBOX_LIMIT
    assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + OUTBOX_LIMIT))
    assert events[0].seq > 1                     # the oldest went
    assert events[-1].type == "snapshot" and events[-1].view == session.match.view(2)


def _values(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _values(item)
    else:
        yield value


def test_no_seat_is_told_the_game_number_while_the_match_goes_on():
    # The seed deals every hand: a player who knew it could replay the deal and see every card.
    session = shared_table("gongzhu", seed=987_654_321)
    people = People(session)
    session.submit(2, Snapshot())
    play(session, people, hands=1)
    told = [value for seat in (0, 2) for event in people.events[seat] for value in _values(event.data)]
    assert told and all(value not in (987_654_321, "987654321") for value in told)


def _alices_turn(session: TableSession, people: People) -> None:
    play(session, people, hands=1, stop=lambda: session.match.to_move() == 0 and session.pending() is None
         and session.results is None and len(session.match.legal_moves(0)) > 1)


def test_an_armed_move_is_made_as_soon_as_it_is_legal_and_a_disarmed_one_never():
    session = shared_table("gongzhu", seed=19)
    people = People(session)
    _alices_turn(session, people)
    first, second = session.match.legal_moves(0)[:2]
    arm = command_from_json(session.spec, {"cmd": "arm", "move": second.to_json()})
    assert session.submit(0, arm).ok and session.submit(0, Arm(first)).ok
    assert session.submit(0, Arm(first, on=False)).ok               # changed her mind
    moves = len(session.match.moves)
    session.run_cpus()
    assert session.match.moves[moves] == (0, second) and session.armed[0] == []
    cards = session.match.view(0).hand[:ARMED_LIMIT + 1]
    replies = [session.submit(0, Arm(session.spec.match_type.parse_move(str(card)))) for card in cards]
    assert all(reply.ok for reply in replies[:ARMED_LIMIT])
    assert replies[-1].key == "table_armed_limit" and replies[-1].params == {"limit": ARMED_LIMIT}


def test_hints_are_a_seats_own_and_off_by_default_with_two_people():
    spec = games.get("gongzhu")
    shared = shared_table("gongzhu", seed=23, thinker=BotThinker(spec))
    people = People(shared)
    _alices_turn(shared, people)
    assert shared.submit(0, Hint()).key == "table_hints_off"
    solo = TableSession.solo(spec, shared.match.clone(), ["human", "cpu:easy", "cpu:easy", "cpu:easy"],
                             thinker=BotThinker(spec))
    assert solo.hints
    reply = solo.submit(0, Hint())
    assert reply.ok and reply.data.move in solo.match.legal_moves(0)
    chosen = TableSession.create(spec, ALICE, "alice", seed=23, open_seats=(2,), hints=True)
    chosen.join(BOB, "bob")
    chosen.submit(0, Start())
    assert chosen.hints and chosen.match.to_move() != 2
    assert chosen.submit(2, Hint()).key == "not_your_turn"


def test_a_solo_table_saves_as_the_solo_screens_do_and_resumes_solo(tmp_path):
    spec = games.get("guinote")
    store = SaveStore(tmp_path / "saves")
    players = ["human", "cpu:easy", "cpu:normal", "cpu:easy"]
    session = TableSession.solo(spec, spec.new_match(seed=31), players, store=store, slot="guinote-1",
                                table_extra=lambda: {"claim_declined_hand": 1, "claim_declined_tricks": 4})
    people = People(session)
    session.submit(0, Snapshot())
    play(session, people, hands=1, stop=lambda: len(session.match.moves) > 10)
    saved = store.read("guinote-1")
    assert saved.players == players and saved.moves and saved.table == {"claim_declined_hand": 1,
                                                                      "claim_declined_tricks": 4}
    assert [info.slot for info in store.list()] == ["guinote-1"]         # the solo slot list shows it
    store.unlock_all()
    resumed = TableSession.resume(SaveStore(tmp_path / "saves"), "guinote-1")
    assert not resumed.shared and resumed.connected() == [0] and resumed.players() == players
    assert resumed.match.moves == session.match.moves and resumed.restored_table == saved.table


def test_names_are_cleaned_capped_unique_and_a_nameless_player_is_left_to_the_screen_to_name():
    spec = games.get("gongzhu")
    session = TableSession.create(spec, ALICE, "\x1b[31mAlice\u202e  the\tGreat and Terrible", seed=1)
    assert session.seats[0].name == "[31mAlice the Gr"        # no ESC, no bidi override, 16 characters
    assert session.join(BOB, "\x07\x1b").ok and session.seats[1].name == ""      # the screen names it
    assert session.join(CAROL, "").ok and session.seats[2].name == ""             # both nameless: no number
    assert session.seats[1].person and session.seats[2].person


@pytest.mark.parametrize("value", [None, 12, ["alice"], {"name": "alice"}, True])
def test_a_name_that_is_no_text_is_no_name(value):
    """A hello's ``name`` is data from a client: ``null`` is nobody's name, not «None»."""
    assert clean_name(value) == ""


def test_a_damaged_table_slot_is_refused_and_left_unlocked(tmp_path):
    from cardtable.saves import SaveError

    store = SaveStore(tmp_path / "tables")
    store.directory.mkdir(parents=True)
    store.path("table-ABCDEF").write_text('{"format": "cardtable-save", "schema": 1, "game": "gongzhu"}')
    with pytest.raises(SaveError):
        TableSession.resume(store, "table-ABCDEF")
    assert not store.holds("table-ABCDEF")


@pytest.mark.parametrize("name", GAMES)
def test_a_shared_tables_history_is_valid_under_the_history_format(name):
    from cardtable import history

    session = shared_table(name, seed=29)
    play(session, People(session), hands=1)
    records = session.history()
    head = records[0]
    assert head["players"] == ["human", "cpu:easy", "human", "cpu:easy"]
    assert head["names"] == ["alice", "", "bob", ""]
    lines = [history.dumps(record) for record in records]
    replayed = history.replay(list(history.read_records(lines)))
    assert replayed.moves == session.match.moves and replayed.log == session.match.log


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6)
                     | st.sampled_from(["QS", "10C", "1O", "7O", "12E", "SJ", "3H", "nothing", "single"]),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["play", "show", "as", "type", "key", "exchange", "cante", "claim",
                                          "pass", "tribute", "return", "keep", "x"]), inner, max_size=3),
                     max_leaves=10)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None)
@given(move=_JSON, cmd=st.sampled_from(["play", "arm", "fly", None]), seat=st.integers(0, 3))
def test_whatever_a_client_sends_is_a_command_or_a_refusal_never_a_crash(name, move, cmd, seat):
    session = shared_table(name, seed=3)
    moves = list(session.match.moves)
    try:
        command = command_from_json(session.spec, {"cmd": cmd, "move": move})
    except CommandError as exc:
        assert exc.key in ("table_bad_command", "table_bad_move") and exc.reason
        return
    reply = session.submit(seat, command)
    if not reply.ok:
        assert reply.key and reply.reason and session.match.moves == moves
    elif isinstance(command, Play):        # a legal move: made for that seat, nothing else
        assert session.match.moves == [*moves, (seat, command.move)]
    else:
        assert session.match.moves == moves and session.armed[seat] == [command.move]


class RecordingThinker(BotThinker):
    """The game's bots, noting for each CPU seat whether it was asked as a person's partner."""

    def __init__(self, spec: Any) -> None:
        super().__init__(spec)
        self.asked: dict[int, set[bool]] = {}

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any:
        self.asked.setdefault(view.seat, set()).add(partner_human)
        return super().decide(level, view, partner_human)


def test_a_cpu_opposite_a_person_plays_by_the_partner_rule_and_stops_when_a_cpu_takes_that_seat():
    # Alice at seat 0 and Bob at seat 1 (opponents): the CPUs at 2 and 3 are each a person's partner.
    spec = games.get("guandan")
    session = TableSession.create(spec, ALICE, "alice", seed=7, levels=("easy",) * 4, open_seats=(1,))
    assert session.join(BOB, "bob").data == 1
    assert session.submit(0, Start()).ok
    thinker = RecordingThinker(spec)
    people = People(session)
    for _ in range(40):
        session.run_cpus(thinker)
        people.read()
        if not people.act():
            break
    assert thinker.asked[2] == {True} and thinker.asked[3] == {True}
    # The bots a person's partner gets are the rule's own (the worker builds the same: see workers).
    assert thinker.bot("easy", True).spare_partner and not thinker.bot("easy").spare_partner
    # Bob leaves: a CPU plays his seat, so seat 3 sits opposite a CPU now and plays freely.
    session.leave(1)
    thinker.asked.clear()
    for _ in range(40):
        session.run_cpus(thinker)
        people.read()
        if not people.act():
            break
    assert thinker.asked.get(3, {False}) == {False} and True not in thinker.asked.get(1, set())
