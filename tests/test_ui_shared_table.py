"""A whole hand of each game at a shared table through the game's own table screen (Pilot): the screen
plays seat 2 through a RemoteSeat over a real hub — the table turned to that chair — while another
person (a client playing the easy bot) sits at seat 0; the hand's results dialog comes and the next
deal reaches the screen."""

from __future__ import annotations

import asyncio

import pytest

from cardtable import games
from cardtable.table import Decline, Event
from cardtable.ui.lobby import LobbyModel
from cardtable.ui.remoteseat import table_screen
from tests.test_table_hub import Person, fast, started, table_of_two
from tests.ui_helpers import make_app


@pytest.mark.parametrize("game", ["gongzhu", "guandan", "guinote"])
async def test_a_shared_hand_through_the_table_screen(tmp_path, game):
    hub = await started(tmp_path / "hub", fast())
    try:
        # Two hands at least: a Gong Zhu hand can end a ±500 match, so that table plays a fixed 4 hands.
        options = {"target": 0, "max_hands": 4} if game == "gongzhu" else None
        alice, bob, code = await table_of_two(hub, game, options)
        session = hub.tables[code].session
        lobby = LobbyModel(code, game, 2)
        lobby.take(Event("seats", {"seats": [s.public() for s in session.seats], "phase": "play", "host": 0}))
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = table_screen(app, bob, lobby)
            app.push_screen(screen)
            await pilot.pause()
            seat = screen.seat
            assert seat.seat == 2 and seat.index == 0
            async def alice_plays() -> None:
                person = Person(alice)
                await person.play_hand()
                reply = await alice.next_hand()
                assert reply["ok"], reply                      # done reading the results
                await person.play_hand(hand=2)

            other = asyncio.create_task(alice_plays())
            bot = games.get(game).bot("easy")
            first_hand: int | None = None        # the moves of the first hand, once the second is dealt
            async with asyncio.timeout(120):
                while True:
                    await pilot.pause(0.02)
                    if other.done() and other.exception() is not None:
                        raise other.exception()
                    if app.screen is not screen:                     # the hand's results: next hand
                        await pilot.press("enter")
                        continue
                    view = seat.view()
                    if view is None:
                        continue
                    # Guandan: into the second hand (its tribute, from this chair), a move of this seat made there.
                    hand_two = [mover for mover, _ in session.match.moves[first_hand:]] if first_hand else []
                    if view.hand_number == 2 and screen.pending_results is None and first_hand is None:
                        if game != "guandan":
                            break
                        first_hand = len(session.match.moves)
                    elif first_hand is not None and 2 in hand_two and len(hand_two) >= 6:
                        break
                    raw = seat._raw
                    if raw.legal and screen.pending_results is None and not screen.dealing:
                        move = bot.choose(raw)
                        if move is None:
                            seat.send(Decline())
                        elif raw.to_move == 2 or move in raw.legal:
                            screen.play(move)
                        await asyncio.sleep(0.05)
            # The screen drew the next deal of its own seat, from its own chair.
            assert screen.seat.view().hand == session.match.view(2).hand
            assert any(mover == 2 for mover, _ in session.match.moves)
            other.cancel()
            await asyncio.gather(other, return_exceptions=True)
            await seat.close()
        for client in (alice, bob):
            await client.close()
    finally:
        await hub.close()


async def test_a_shared_table_s_plates_name_the_people_and_keep_the_cpus_places(tmp_path):
    from cardtable.i18n import t
    from cardtable.ui.seats import SeatPanel

    hub = await started(tmp_path / "hub", fast())
    try:
        alice, bob, code = await table_of_two(hub, "gongzhu")
        session = hub.tables[code].session
        lobby = LobbyModel(code, "gongzhu", 2)
        lobby.take(Event("seats", {"seats": [s.public() for s in session.seats], "phase": "play", "host": 0}))
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = table_screen(app, bob, lobby)        # Bob at seat 2: Alice (seat 0) sits opposite him
            app.push_screen(screen)
            async with asyncio.timeout(20):
                while screen.seat.names()[2] != "alice" or screen.seat.view() is None:
                    await pilot.pause(0.02)
            screen.refresh_table()
            await pilot.pause()
            titles = {place: screen.query_one(f"#gz-{place}", SeatPanel).border_title
                      for place in ("west", "north", "east")}
            assert titles == {"north": t("remote_person_at", name="alice", place=t("gz_seat_2")),
                              "west": t("gz_seat_1"), "east": t("gz_seat_3")}
            # The hand's results and the match's end name them too (their columns, notes and totals).
            from cardtable.ui.gongzhu.dialogs import results_table
            from tests.test_ui_minus_signs import rendered

            record = {"hand": 1, "taken": [[], [], [], []], "shown": [[], [], [], []],
                      "lines": [dict.fromkeys(("hearts", "pig", "goat", "base", "hand", "total"), 0)
                                | {"transformer": "none"} for _ in range(4)]}
            for dialog in (screen.results_dialog(record), screen.match_end_dialog(record)):
                assert [dialog.name_of(index) for index in range(4)] == [
                    t("gz_seat_0"), t("gz_seat_1"), titles["north"], t("gz_seat_3")]
            assert "alice" in rendered(results_table(record, "colour", screen.results_dialog(record).name_of))
            await screen.seat.close()
        for client in (alice, bob):
            await client.close()
    finally:
        await hub.close()
