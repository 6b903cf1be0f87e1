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
