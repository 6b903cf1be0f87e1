"""Each person's statistics at a shared table: the hub writes every hand a person's seat finished into
that player's own database (``stats_path``), counted for their seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh

from cardtable import stats
from cardtable.serve import ssh as serve_ssh
from cardtable.serve.hub import Hub
from tests.test_table_hub import ALICE, BOB, BOUND, Person, fast, table_of_two


async def test_each_person_s_hands_go_to_their_own_statistics_for_their_seat(tmp_path):
    def stats_path(identity: str) -> Path | None:
        home = tmp_path / "users" / identity
        home.mkdir(parents=True, exist_ok=True)
        return home / "stats.sqlite3"

    async with asyncio.timeout(BOUND):
        hub = Hub(tmp_path / "hub", fast(), stats_path=stats_path)
        await hub.start()
        try:
            alice, bob, code = await table_of_two(hub, "gongzhu")
            session = hub.tables[code].session
            await asyncio.gather(Person(alice).play_hand(), Person(bob).play_hand())
            record = next(r for r in session.match.log if r["type"] == "hand_end")
            for client in (alice, bob):
                await client.close()
        finally:
            await hub.close()              # (the statistics' last writes are done)
    for identity, seat in ((ALICE, 0), (BOB, 2)):
        db = stats.StatsDB(tmp_path / "users" / identity / "stats.sqlite3")
        try:
            rows = db.summary("gongzhu")
            assert [(row.level, row.matches, row.hands) for row in rows] == [("easy", 1, 1)]
            expected = stats.hand_result("gongzhu", record, seat)
            assert expected is not None and rows[0].points == expected.points
        finally:
            db.close()
    assert sorted(path.name for path in (tmp_path / "users").iterdir()) == sorted([ALICE, BOB])  # no CPU's


def test_over_ssh_a_player_s_shared_statistics_are_those_of_their_own_tables(tmp_path, monkeypatch):
    key = asyncssh.generate_private_key("ssh-ed25519")
    identity = serve_ssh.hub_identity(key)
    assert serve_ssh.player_stats_path(tmp_path, identity) is None         # no directory yet
    home, throwaway = serve_ssh.player_home(tmp_path, key)
    assert not throwaway
    monkeypatch.setenv("CARDTABLE_HOME", str(home))        # what that player's own table process has
    assert serve_ssh.player_stats_path(tmp_path, identity) == stats.default_path() == home / "stats.sqlite3"
    assert serve_ssh.player_stats_path(tmp_path, "key-alice") is None
    assert serve_ssh.player_stats_path(tmp_path, "SHA256:not base64!") is None
