"""Issue 29, item 6: `cardtable export` refuses what `continue` refuses, in the same line, status 2, and
never leaves a partial file; `export --history - | head` ends quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable import games
from cardtable.cli import main
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]


def _slot(tmp_path, count=12, **changes) -> Path:
    spec = games.get("guinote")
    match = spec.new_match(seed=5)
    bot = spec.bot("easy")
    for _ in range(count):
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    store = SaveStore(tmp_path / "saves")
    path = store.save("s", match, PLAYERS)
    data = json.loads(path.read_text())
    for key, change in changes.items():
        data[key] = change(data[key]) if callable(change) else change
    path.write_text(json.dumps(data))
    return path


def _illegal(moves):
    moves[-1] = {**moves[-1], "move": {"play": moves[0]["move"]["play"]}}    # a card played already
    return moves


def _undecodable(moves):
    moves[3] = {**moves[3], "move": {"bogus": 1}}
    return moves


CASES = {"unknown game": {"game": "poker"},
         "bad options": {"options": lambda options: {**options, "cotos": "many"}},
         "unknown option": {"options": lambda options: {**options, "house_rule": 1}},
         "illegal move": {"moves": _illegal},
         "undecodable move": {"moves": _undecodable},
         "bad players": {"players": ["human", "cpu:evil", "cpu:easy", "cpu:easy"]}}


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("case", list(CASES))
def test_export_refuses_what_continue_refuses(tmp_path, capsys, case):
    _slot(tmp_path, **CASES[case])
    saves = str(tmp_path / "saves")
    assert main(["--save-dir", saves, "continue", "s"]) == 2
    refused = _error(capsys)
    target = tmp_path / "out" / "history.jsonl"
    target.parent.mkdir()
    assert main(["--save-dir", saves, "export", "s", "--history", str(target)]) == 2
    assert _error(capsys) == refused
    assert list(target.parent.iterdir()) == []               # no partial file, no temp file


def test_export_replaces_the_file_only_when_done(tmp_path, capsys):
    _slot(tmp_path)
    target = tmp_path / "history.jsonl"
    target.write_text("an older export\n")
    assert main(["--save-dir", str(tmp_path / "saves"), "export", "s", "--history", str(target)]) == 0
    lines = target.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "match" and len(lines) > 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.jsonl", "saves"]
    _slot(tmp_path, game="poker")
    assert main(["--save-dir", str(tmp_path / "saves"), "export", "s", "--history", str(target)]) == 2
    assert target.read_text().splitlines() == lines             # the old export is untouched
    capsys.readouterr()


def test_export_to_a_directory_is_one_line(tmp_path, capsys):
    _slot(tmp_path)
    assert main(["--save-dir", str(tmp_path / "saves"), "export", "s", "--history", str(tmp_path)]) == 2
    assert "cannot write" in _error(capsys)


def test_export_to_a_reader_that_goes_away_ends_quietly(tmp_path):
    _slot(tmp_path, count=60)
    read_end, write_end = os.pipe()
    os.close(read_end)                          # `| head` gone before the first write
    try:
        out = subprocess.run([sys.executable, "-m", "cardtable", "--save-dir", str(tmp_path / "saves"),
                              "export", "s", "--history", "-"], stdout=write_end, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, check=False, timeout=60)
    finally:
        os.close(write_end)
    assert out.returncode == 141
    assert out.stderr == b""
