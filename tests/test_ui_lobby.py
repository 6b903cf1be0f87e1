"""The shared tables' screens in the app (Pilot), over a real hub in the test's directory: «Play with
friends» only when served with a hub, joining by code from the home screen, the lobby's seats, sitting
opposite a friend and the host's start."""

from __future__ import annotations

import asyncio
import os

from textual.widgets import OptionList

from cardtable.serve.tableclient import HUB_FD_VARIABLE, TableClient
from cardtable.ui import friends
from cardtable.ui.lobby import LobbyScreen
from tests.test_table_hub import ALICE, BOB, fast, started
from tests.ui_helpers import make_app, settle, wait_until


def _seats_text(screen: LobbyScreen) -> str:
    seats = screen.query_one("#lobby-seats", OptionList)
    return "\n".join(str(seats.get_option_at_index(i).prompt) for i in range(seats.option_count))


async def test_no_play_with_friends_without_a_hub(tmp_path, monkeypatch):
    monkeypatch.delenv(HUB_FD_VARIABLE, raising=False)
    monkeypatch.setattr(friends, "_client", None)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        assert not friends.available()
        assert app.screen.check_action("friends", ()) is False
        await pilot.press("f")
        await settle(pilot)
        assert not isinstance(app.screen, friends.FriendsDialog)


async def test_join_from_the_home_screen_sit_opposite_and_the_host_starts(tmp_path, monkeypatch):
    hub = await started(tmp_path / "hub", fast())
    try:
        alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
        code = (await alice.create("guandan", open_seats=(1, 2, 3), level="easy"))["data"]["code"]
        # Bob's table process, as serve ssh starts it: the hub's socket inherited, his identity fixed.
        theirs = hub.socket_pair(BOB, "bob")
        monkeypatch.setenv("CARDTABLE_SERVED", "ssh")
        monkeypatch.setenv(HUB_FD_VARIABLE, str(theirs.detach()))
        monkeypatch.setattr(friends, "_client", None)
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            assert friends.available()
            await pilot.press("f")
            await wait_until(pilot, lambda: isinstance(app.screen, friends.FriendsDialog))
            await pilot.press("down", "enter")                  # «Join a table»
            await wait_until(pilot, lambda: isinstance(app.screen, friends.JoinDialog))
            await pilot.press(*code.lower()[:3], "-", *code.lower()[3:], "enter")   # typed loosely
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), timeout=10)
            lobby = app.screen
            await wait_until(pilot, lambda: "alice" in _seats_text(lobby) and "bob" in _seats_text(lobby),
                             timeout=10)
            bob_seat = lobby.model.seat
            assert bob_seat == 1 and "(you)" in _seats_text(lobby) and "host" in _seats_text(lobby)
            assert "Partners sit opposite" in str(lobby.query_one("#lobby-partners").render())
            # Bob moves opposite Alice (seat 3 in the list: index 2), his partner.
            await pilot.press("down", "enter")
            await wait_until(pilot, lambda: lobby.model.seat == 2, timeout=10)
            assert hub.tables[code].session.seats[2].name == "bob"
            # Only the host starts.
            handed: list[LobbyScreen] = []
            lobby.on_started = handed.append
            await pilot.press("s")
            await asyncio.sleep(0.3)
            await pilot.pause()
            assert hub.tables[code].session.phase == "lobby"
            assert (await alice.start())["ok"]
            await wait_until(pilot, lambda: handed == [lobby], timeout=10)
            assert lobby.model.started
        await alice.close()
        if friends._client is not None:
            await friends._client.close()
    finally:
        monkeypatch.setattr(friends, "_client", None)
        await hub.close()


async def test_the_host_sees_the_code_and_a_friend_arrive(tmp_path):
    hub = await started(tmp_path / "hub", fast())
    try:
        alice = await TableClient.connect(hub.socket_path, ALICE, "alice")
        code = (await alice.create("gongzhu", open_seats=(2,), level="easy"))["data"]["code"]
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            lobby = LobbyScreen(alice)
            app.push_screen(lobby)
            await settle(pilot)
            assert code in str(lobby.query_one("#lobby-code").render())
            text = _seats_text(lobby)
            assert "open seat" in text and "CPU (Easy)" in text and "Everyone plays for themselves" in str(
                lobby.query_one("#lobby-partners").render())
            bob = await TableClient.connect(hub.socket_path, BOB, "bob")
            assert (await bob.join(code))["ok"]
            await wait_until(pilot, lambda: "bob" in _seats_text(lobby), timeout=10)
            await bob.close()
            # Gone before the deal: the seat is open again (a seat stays a person's once the deal starts).
            await wait_until(pilot, lambda: "bob" not in _seats_text(lobby), timeout=10)
            assert "open seat" in _seats_text(lobby)
        await alice.close()
    finally:
        await hub.close()


def test_no_socket_descriptor_of_ours_leaks_when_none_is_inherited(monkeypatch):
    monkeypatch.setenv("CARDTABLE_SERVED", "ssh")
    read, write = os.pipe()                           # a descriptor that is not a socket is never taken
    try:
        monkeypatch.setenv(HUB_FD_VARIABLE, str(read))
        from cardtable.serve.tableclient import has_hub, take_inherited_socket

        assert not has_hub() and take_inherited_socket() is None
    finally:
        os.close(read)
        os.close(write)


async def test_host_asks_the_games_options_then_the_open_seats_and_hints(tmp_path, monkeypatch):
    hub = await started(tmp_path / "hub", fast())
    try:
        theirs = hub.socket_pair(ALICE, "alice")
        monkeypatch.setenv("CARDTABLE_SERVED", "ssh")
        monkeypatch.setenv(HUB_FD_VARIABLE, str(theirs.detach()))
        monkeypatch.setattr(friends, "_client", None)
        app = make_app(tmp_path, launch=("friends", "host", "gongzhu", None, "easy"))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__.endswith("Setup"), timeout=10)
            setup = app.screen
            setup.action_start()                                 # the game's own options, as they are
            await wait_until(pilot, lambda: isinstance(app.screen, friends.TableSetupDialog), timeout=10)
            dialog = app.screen
            dialog.query_one("#open-3").value = False            # seat 4: a CPU's
            dialog.query_one("#hints").value = True
            await pilot.press("enter")                           # «Make the table» has the focus
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), timeout=10)
            lobby = app.screen
            session = hub.tables[lobby.model.code].session
            assert session.seats[0].name == "alice" and session.host == 0 and session.hints
            assert [seat.open for seat in session.seats] == [False, True, True, False]
            await wait_until(pilot, lambda: "open seat" in _seats_text(lobby), timeout=10)
            assert "CPU" in _seats_text(lobby).splitlines()[3]
        if friends._client is not None:
            await friends._client.close()
    finally:
        monkeypatch.setattr(friends, "_client", None)
        await hub.close()
