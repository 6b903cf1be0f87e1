"""Shared tables over ``cardtable serve ssh``: the exec commands' parser, and two real SSH clients
(asyncssh, each on its own pty, read through pyte) at one Gong Zhu table on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import time

import pytest

asyncssh = pytest.importorskip("asyncssh")
pyte = pytest.importorskip("pyte")

from cardtable.serve import ssh as serve_ssh
from tests.test_serve_ssh import Terminal, _key, running_server


@pytest.mark.parametrize(("command", "args"), [
    ("host gongzhu", ["host", "gongzhu"]),
    ("host guandan --level hard --option target=500", ["host", "guandan", "--level", "hard", "--option", "target=500"]),
    ("join k7qx-2m", ["join", "K7QX2M"]),
    ("join K7QX2M", ["join", "K7QX2M"]),
    ("new gongzhu", None),                 # not a shared table's command: client_args reads it
    (None, None),
])
def test_shared_commands_are_read_strictly(command, args):
    assert serve_ssh.shared_args(command) == args


@pytest.mark.parametrize("command", [
    "host", "host chess", "host gongzhu --level god", "host gongzhu --seed 4", "host gongzhu --option",
    "host gongzhu --option $(rm -rf ~)", "host gongzhu --option a=b;c", "join", "join A B", "join 0O1IL0",
    "join " + "K" * 300, "host gongzhu\x1b[2J", "host gongzhu " + "--option a=1 " * 9,
])
def test_other_shared_commands_are_refused_with_one_line(command):
    with pytest.raises(serve_ssh.SharedCommandError) as refused:
        serve_ssh.shared_args(command)
    assert "host GAME" in str(refused.value) and "\n" not in str(refused.value)


@contextlib.asynccontextmanager
async def player(server, key, name: str, command: str, size=(100, 32)):
    options = {"username": name, "known_hosts": None, "client_keys": [key], "password_auth": False,
               "kbdint_auth": False, "agent_path": None}
    async with asyncssh.connect("127.0.0.1", server.port, **options) as conn:
        process = await conn.create_process(command, term_type="xterm-256color", term_size=size,
                                            env={"LANG": "en_US.UTF-8"}, encoding=None)
        terminal = Terminal(process, *size)
        try:
            yield terminal
        finally:
            process.close()


async def test_a_bad_shared_command_is_refused_in_one_line_over_ssh(tmp_path):
    async with running_server(tmp_path) as server, player(server, _key(), "eve", "join nothing") as term:
        await term.wait_for("a shared table is")
        await asyncio.wait_for(term.closed.wait(), 10)
        assert not server.sessions


async def test_two_players_over_ssh_share_one_gong_zhu_table(tmp_path):
    async with running_server(tmp_path) as server:
        assert server.hub is not None and (tmp_path / "hub" / "tables.sock").exists()
        # The CPUs' moves 2 s apart (0.6 s served): a card stays on the other screen long enough to be
        # painted even when this machine is loaded and a table's frames lag.
        server.hub.limits = dataclasses.replace(server.hub.limits, cpu_delay=2.0)
        async with player(server, _key(), "alice", "host gongzhu --level easy --option showing=false") as alice:
            await alice.wait_for("a table for friends")
            await alice.keys("\r")                                 # «Make the table»
            await alice.wait_for("The code to pass on")
            code = re.search(r"The code to pass on: ([2-9A-Z]{6})", alice.text()).group(1)
            async with player(server, _key(), "bob", f"join {code}") as bob:
                await bob.wait_for("alice")                         # each sees the other's name
                await alice.wait_for("bob")
                await alice.keys("s")                               # the host starts the deal
                session = server.hub.tables[code].session
                await _until(lambda: session.phase == "play", "the deal to start")
                bob_seat = next(seat.index for seat in session.seats if seat.name == "bob")
                people = {0: alice, bob_seat: bob}
                # Whoever holds the ♣2 leads: wait for the first person's turn (the CPUs before them play).
                await _until(lambda: session.match.to_move() in people, "a person's turn")
                first = session.match.to_move()
                second = bob_seat if first == 0 else 0
                await people[first].wait_for("Your turn")               # the table screens, each from its chair
                await people[second].wait_for(f"{CHAIR[(first - second) % 4]} to play")
                # Each table names the other person, at their place from this chair.
                await alice.wait_for(f"with bob ({CHAIR[bob_seat]})")
                await bob.wait_for(f"with alice ({CHAIR[(0 - bob_seat) % 4]})")
                # Each sees their own hand only.
                for term, seat in ((alice, 0), (bob, bob_seat)):
                    for card in session.match.hands[seat]:
                        await term.wait_for(_drawn(card))
                    for other in range(4):
                        shown = [_drawn(c) for c in session.match.hands[other] if _drawn(c) in term.text()]
                        assert bool(shown) == (other == seat), (other, shown)
                # The first lifts and plays the card under their cursor; it lands on the other's screen.
                card = await _play_a_card(people[first], session, first)
                await people[second].wait_for(card)
                # And the other's card on the first's screen, when their turn comes.
                await _until(lambda: session.match.to_move() == second, "the other person's turn")
                await people[second].wait_for("Your turn")
                card = await _play_a_card(people[second], session, second)
                await people[first].wait_for(card)


CHAIR = ("You", "West", "North", "East")        # the Gong Zhu table's places, from one's own chair
SUITS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def _drawn(card) -> str:
    """A card as the table draws it (rank, then the suit's sign)."""
    text = str(card)
    return text[:-1] + SUITS[text[-1]]


async def _play_a_card(term, session, seat: int) -> str:
    """Enter lifts the card under the cursor (a playable one), Enter again plays it: the card played."""
    moves = len(session.match.moves)
    await term.keys("\r", "\r", pause=0.4)
    await _until(lambda: any(s == seat for s, _ in session.match.moves[moves:]), f"seat {seat}'s card")
    return _drawn(next(move.card for s, move in session.match.moves[moves:] if s == seat))


async def _until(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_the_shared_tables_stop_and_resume_with_the_server(tmp_path):
    from cardtable.serve.tableclient import TableClient

    async with running_server(tmp_path) as server:
        socket_path = server.hub.socket_path
        alice = await TableClient.connect(socket_path, "SHA256:alice", "alice")
        code = (await alice.create("guinote", open_seats=(2,), level="easy"))["data"]["code"]
        assert (await alice.start())["ok"]
        await alice.close()
    assert server.hub is None and not socket_path.exists()         # stopped with the server, saved
    async with running_server(tmp_path) as again:
        assert code in again.hub.tables                                # resumed, nobody at it yet
        assert again.hub.tables[code].session.phase == "play"
        alice = await TableClient.connect(again.hub.socket_path, "SHA256:alice", "alice")
        assert (await alice.join(code))["data"]["seat"] == 0
        await alice.close()
    async with running_server(tmp_path, shared_tables=False) as plain:
        assert plain.hub is None and not (tmp_path / "hub" / "tables.sock").exists()
