"""LocalSeat: a terminal's own table as a seat of a solo TableSession (cardtable/ui/seatlink.py)."""

import asyncio

from cardtable import games, workers
from cardtable.cards import french_deck
from cardtable.games.gongzhu.state import Play as CardPlay
from cardtable.table import NextHand, Play, TakeBack
from cardtable.ui.seatlink import LocalSeat


class Pacing:
    """A screen that never holds the table: no pauses, the CPU loop run as a task."""

    def __init__(self):
        self.tasks = []
        self.delays = []

    def cpu_may_move(self):
        return True

    def cpu_delay(self, seat, move):
        self.delays.append(seat)
        return 0.0

    async def pause(self, seconds):
        return None

    def armed_move(self):
        return None

    def run_cpus(self, loop):
        self.tasks.append(asyncio.ensure_future(loop()))


def local_seat(game, seed, store=None):
    spec = games.get(game)
    match = spec.new_match(None, seed)
    seat = LocalSeat(spec, match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"], f"{game}-1",
                     thinker=workers.Thinker(processes=False), store=store)
    events = []
    seat.listen(events.extend)
    pacing = Pacing()
    seat.pace(pacing)
    return seat, events, pacing


async def cpus_done(seat, pacing):
    seat.go_on()
    while pacing.tasks:
        await pacing.tasks.pop()


async def test_a_seat_plays_a_hand_to_its_results_and_on_to_the_next_deal():
    seat, events, pacing = local_seat("gongzhu", 5)
    await cpus_done(seat, pacing)
    hands = 0
    while not any(e.type == "hand_over" for e in events):
        view = seat.view()
        assert view.to_move == 0 and view.legal
        reply = seat.send(Play(view.legal[0]))
        assert reply.ok
        await cpus_done(seat, pacing)
        hands += 1
        assert hands < 200
    moved = [e for e in events if e.type == "moved"]
    assert all("move" not in e.data for e in moved if e.data["seat"] != 0)
    assert all(e.data["pause"] == 0.0 for e in moved)        # the screen paces: no pause in the data
    assert set(pacing.delays) <= {1, 2, 3} and pacing.delays
    finished = seat.view()
    assert finished.to_move is None and finished.legal == ()     # the finished hand, behind its results
    assert seat.send(NextHand()).ok
    assert events[-1].type == "next_hand"
    assert seat.view().to_move is not None and seat.view().hand_number == 2


async def test_a_refusal_changes_nothing_and_a_take_back_replays():
    seat, events, pacing = local_seat("gongzhu", 5)
    await cpus_done(seat, pacing)
    while seat.view().phase != "play" or seat.view().to_move != 0:
        seat.send(Play(seat.view().legal[0]))
        await cpus_done(seat, pacing)
    view = seat.view()
    wrong = CardPlay(next(card for card in french_deck() if card not in view.hand))
    before = seat.position()
    reply = seat.send(Play(wrong))
    assert not reply.ok and reply.key and seat.position() == before
    assert seat.refusal(wrong) is not None and seat.refusal(view.legal[0]) is None
    seat.send(Play(view.legal[0]))
    await cpus_done(seat, pacing)
    assert seat.send(TakeBack()).ok
    assert events[-1].type == "take_back_done" and seat.undo_used
    assert seat.view() == view


async def test_a_failed_autosave_is_an_event_in_the_players_language(tmp_path, monkeypatch):
    from cardtable.saves import SaveStore

    store = SaveStore(tmp_path / "saves")
    seat, events, _pacing = local_seat("guinote", 3, store=store)
    assert seat.save() and seat.save_error is None

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cardtable.saves.atomic_write", full)
    assert not seat.save()
    assert seat.save_error and events[-1].type == "autosave_failed"
    assert events[-1].data["reason"] == seat.save_error


async def test_a_play_waits_for_a_cpus_optional_move_then_goes():
    """Guiñote, seed 50: the partner (seat 2) sings out of turn with the person to lead. While its cante
    is shown (the screen's pause) the person's lead is refused with ``wait_first``; once it is made, a
    ``waited`` event says so and the same lead is played."""
    from cardtable.games.guinote.state import Cante
    from cardtable.games.guinote.state import Play as CardPlay

    normal = games.get("guinote").bot("normal")
    spec = games.get("guinote")
    seat = LocalSeat(spec, spec.new_match(None, 50), ["human", "cpu:normal", "cpu:normal", "cpu:normal"],
                     "guinote-1", thinker=workers.Thinker(processes=False))
    events = []
    seat.listen(events.extend)
    held, release = asyncio.Event(), asyncio.Event()

    class Holding(Pacing):
        async def pause(self, seconds):
            if seat.waiting_for() is not None:
                held.set()
                await release.wait()

    pacing = Holding()
    seat.pace(pacing)
    holding = asyncio.ensure_future(held.wait())
    for _ in range(200):
        seat.go_on()
        task = pacing.tasks.pop()
        await asyncio.wait({task, holding}, return_when=asyncio.FIRST_COMPLETED)
        if held.is_set():
            break
        view = seat.view()
        assert view.to_move == 0, "the CPUs stopped with the person not to move"
        assert seat.send(Play(normal.choose(view))).ok
    assert held.is_set() and seat.waiting_for() == 2 and seat.view().to_move == 0
    lead = next(move for move in seat.view().legal if isinstance(move, CardPlay))
    before = seat.position()
    refused = seat.send(Play(lead))
    assert not refused.ok and refused.key == "wait_first" and refused.params == {"seat": 2}
    assert seat.position() == before
    release.set()
    await task
    assert (2, Cante("C")) in seat.match.moves[-1:] and seat.waiting_for() is None
    assert any(e.type == "waited" and e.data == {"seat": 2} for e in events)
    assert seat.send(Play(lead)).ok and seat.match.moves[-1] == (0, lead)
