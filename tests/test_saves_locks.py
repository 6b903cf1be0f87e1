"""Issue 29, items 10 and 11: lock files exist only while held, odd lock paths refuse the slot, and the
slot list shows as damaged what opening would refuse (unknown options, illegal moves, huge numbers)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardtable import games, saves
from cardtable.cli import main
from cardtable.saves import SaveError, SaveStore, SlotBusy
from cardtable.sim import next_cpu_move

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]
pytestmark = pytest.mark.skipif(saves.fcntl is None, reason="slots are locked only where fcntl is")


def _saved(directory: Path, slot: str = "s", count: int = 8, **changes) -> Path:
    spec = games.get("gongzhu")
    match = spec.new_match(seed=3)
    bot = spec.bot("easy")
    for _ in range(count):
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    path = SaveStore(directory).save(slot, match, PLAYERS)
    if changes:
        data = json.loads(path.read_text())
        for key, change in changes.items():
            data[key] = change(data[key]) if callable(change) else change
        path.write_text(json.dumps(data))
    return path


def _locks(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".lock"))


def test_continue_on_no_such_slot_leaves_no_lock(tmp_path, capsys):
    (tmp_path / "saves").mkdir()
    assert main(["--save-dir", str(tmp_path / "saves"), "continue", "nosuchslot"]) == 2
    assert "no such slot" in capsys.readouterr().err
    assert _locks(tmp_path / "saves") == []


def test_opening_a_damaged_slot_leaves_no_lock(tmp_path, capsys):
    directory = tmp_path / "saves"
    directory.mkdir()
    (directory / "bad.json").write_text("{ not json")
    assert main(["--save-dir", str(directory), "continue", "bad"]) == 2
    capsys.readouterr()
    store = SaveStore(directory)
    store.lock("bad")
    with pytest.raises(SaveError):
        store.load("bad")
    store.unlock("bad")                       # what the table does when opening fails
    assert _locks(directory) == []


def test_deleting_a_slot_removes_its_lock(tmp_path):
    directory = tmp_path / "saves"
    _saved(directory)
    store = SaveStore(directory)
    store.lock("s")
    assert _locks(directory) == [".s.lock"]
    store.unlock("s")
    assert _locks(directory) == []            # a lock file exists only while it is held
    store.delete("s")
    assert _locks(directory) == [] and not (directory / "s.json").exists()


def test_a_held_lock_still_keeps_others_out(tmp_path):
    directory = tmp_path / "saves"
    _saved(directory)
    first, second = SaveStore(directory), SaveStore(directory)
    assert first.lock("s")
    with pytest.raises(SlotBusy):
        second.lock("s")
    first.unlock("s")
    assert second.lock("s") and second.holds("s")
    with pytest.raises(SlotBusy):
        first.lock("s")
    second.unlock("s")


def test_a_lock_file_removed_while_taking_it_is_taken_again(tmp_path, monkeypatch):
    """The holder removes the file after our open and before our flock: we must not keep a lock on a
    file that no longer has a name (a third process could lock a new one)."""
    directory = tmp_path / "saves"
    _saved(directory)
    holder, taker, third = SaveStore(directory), SaveStore(directory), SaveStore(directory)
    holder.lock("s")
    real_flock = saves.fcntl.flock
    calls = []

    def flock(fd, flags):
        if not calls:
            calls.append(fd)
            holder.unlock("s")                 # unlinks the file taker has just opened
        return real_flock(fd, flags)

    monkeypatch.setattr(saves.fcntl, "flock", flock)
    assert taker.lock("s")
    monkeypatch.setattr(saves.fcntl, "flock", real_flock)
    with pytest.raises(SlotBusy):
        third.lock("s")                         # taker's lock is on the file that has the name
    taker.unlock("s")


@pytest.mark.parametrize("odd", ["directory", "symlink", "dangling symlink", "fifo"])
def test_an_odd_lock_path_refuses_the_slot_with_the_reason(tmp_path, capsys, odd):
    directory = tmp_path / "saves"
    _saved(directory)
    lock = directory / ".s.lock"
    target = tmp_path / "elsewhere"
    if odd == "directory":
        lock.mkdir()
    elif odd == "symlink":
        target.write_text("do not touch")
        lock.symlink_to(target)
    elif odd == "dangling symlink":
        lock.symlink_to(target)
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(lock)
    with pytest.raises(SaveError) as caught:
        SaveStore(directory).lock("s")
    assert caught.value.key == "save_why_lock_odd" and ".s.lock" in caught.value.text
    assert main(["--save-dir", str(directory), "continue", "s"]) == 2
    err = capsys.readouterr().err
    assert "lock file" in err and len(err.strip().splitlines()) == 1
    assert (target.read_text() == "do not touch") if odd == "symlink" else not target.exists()
    with pytest.raises(SaveError):
        SaveStore(directory).delete("s")       # not deleted unprotected either
    assert (directory / "s.json").exists()


async def test_the_table_refuses_an_odd_lock_path_with_the_reason(tmp_path):
    from tests.ui_helpers import make_app

    directory = tmp_path / "saves"
    _saved(directory)
    (directory / ".s.lock").mkdir()
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.resume("s") is False
        await pilot.pause()
        assert any("lock file" in n.message for n in app._notifications)


# ---------------------------------------------------------------- item 11: the list shows the damage
def _illegal(moves):
    played = next(m["move"]["play"] for m in moves if "play" in m["move"])
    moves[-1] = {**moves[-1], "move": {"play": played}}           # a card played already
    return moves


@pytest.mark.parametrize(("changes", "words"), [
    ({"options": lambda options: {**options, "house_rule": 1}}, ["house_rule"]),
    ({"options": lambda options: {**options, "target": "many"}}, ["target"]),
    ({"moves": _illegal}, ["does not replay"]),
    ({"moves": lambda moves: [*moves[:2], {"seat": 0, "move": {"bogus": 1}}]}, ["does not replay"]),
])
def test_slots_that_do_not_open_are_listed_as_damaged(tmp_path, capsys, changes, words):
    directory = tmp_path / "saves"
    _saved(directory, **changes)
    _saved(directory, "good")
    infos = {info.slot: info for info in SaveStore(directory).list()}
    assert not infos["good"].damaged
    bad = infos["s"]
    assert bad.damaged and bad.game == "gongzhu"
    for word in words:
        assert word in bad.problem
    with pytest.raises(SaveError) as opened:
        SaveStore(directory).load("s")
    assert opened.value.text == bad.problem         # the list says what opening says
    assert main(["--save-dir", str(directory), "saves"]) == 0
    out = capsys.readouterr().out
    assert "damaged" in out and words[0] in out


def test_the_list_does_not_replay_an_unchanged_file_again(tmp_path, monkeypatch):
    directory = tmp_path / "saves"
    _saved(directory)
    store = SaveStore(directory)
    store.list()
    replays = []
    monkeypatch.setattr(saves, "rebuild", lambda slot, save: replays.append(slot))
    store.list()
    assert replays == []
    _saved(directory, count=9)                      # a new version of the file is checked again
    store.list()
    assert replays == ["s"]


def test_a_5000_digit_game_number_gets_its_real_reason(tmp_path, capsys):
    directory = tmp_path / "saves"
    path = _saved(directory)
    path.write_text(path.read_text().replace('"seed":3', '"seed":' + "7" * 5000))
    [info] = SaveStore(directory).list()
    assert info.damaged and "5000 digits" in info.problem and "JSON" not in info.problem
    assert main(["--save-dir", str(directory), "continue", "s"]) == 2
    assert "5000 digits" in capsys.readouterr().err


def test_a_huge_number_elsewhere_is_no_json_error_either(tmp_path):
    directory = tmp_path / "saves"
    path = _saved(directory)
    path.write_text(path.read_text().replace('{"seat":0,', '{"seat":' + "1" * 5000 + ",", 1))
    [info] = SaveStore(directory).list()
    assert info.damaged and "JSON" not in info.problem and "move 1" in info.problem
