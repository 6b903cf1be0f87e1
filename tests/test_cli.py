"""The command line: clear messages and exit codes, never a traceback."""

import json
import os
import subprocess
import sys

import pytest

from cardtable import __version__
from cardtable.cli import main
from cardtable.history import read_records, replay, split_matches


def run(*args, env=None):
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True, text=True, check=False,
                          env=full_env, stdin=subprocess.DEVNULL)


def test_version_and_help():
    assert run("--version").stdout.strip() == f"cardtable {__version__}"
    for command in ([], ["new"], ["continue"], ["saves"], ["sim"], ["bench"], ["rules"]):
        out = run(*command, "--help")
        assert out.returncode == 0 and "usage: cardtable" in out.stdout


@pytest.mark.parametrize("args,message", [
    (["new", "poker"], "unknown game 'poker'"),
    (["new", "gongzhu", "--seed", "abc"], "whole number"),
    (["new", "gongzhu", "--seed", "-5"], "game number"),
    (["new", "gongzhu", "--option", "target=7"], "must be one of"),
    (["new", "gongzhu", "--option", "colour=red"], "unknown option 'colour'"),
    (["new", "gongzhu", "--level", "godlike"], "unknown CPU level"),
    (["sim", "gongzhu", "--players", "easy,easy"], "--players"),
    (["sim", "gongzhu", "--games", "0"], "at least 1"),
    (["continue", "nope"], "no such slot"),
    (["continue", "../../etc/passwd"], "slot name"),
])
def test_bad_input_gets_a_clear_message(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_unknown_flag_is_a_usage_error():
    out = run("--frobnicate")
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr


def test_no_tty_gives_one_line_and_status_2():
    out = run("new", "gongzhu", "--seed", "1")
    assert out.returncode == 2
    assert "ssh -t" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_saves_lists_garbage_as_damaged(tmp_path):
    from cardtable import games
    from cardtable.saves import SaveStore

    store = SaveStore(tmp_path / "saves")
    store.save("good", games.get("gongzhu").new_match(seed=1), ["human"] + ["cpu:easy"] * 3)
    (tmp_path / "saves" / "garbage.json").write_bytes(b"\x00\xffnot json at all")
    out = run("--save-dir", str(tmp_path / "saves"), "saves", env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    assert "garbage" in out.stdout and "damaged" in out.stdout
    assert "good" in out.stdout and "hand 1, trick 1" in out.stdout


def test_saves_in_spanish(tmp_path):
    out = run("--lang", "es", "--save-dir", str(tmp_path), "saves")
    assert out.returncode == 0 and "Aún no hay partidas guardadas" in out.stdout


def test_sim_writes_a_history_that_replays(tmp_path):
    history = tmp_path / "h.jsonl"
    out = run("sim", "gongzhu", "--games", "3", "--seed", "1", "--history", str(history), "--legal",
              "--players", "normal,easy,easy,easy")
    assert out.returncode == 0, out.stderr
    assert "hands/s" in out.stdout and "normal" in out.stdout
    with history.open() as handle:
        matches = list(split_matches(read_records(handle)))
    assert len(matches) == 3
    for records in matches:
        assert records[0]["players"] == ["cpu:normal", "cpu:easy", "cpu:easy", "cpu:easy"]
        assert replay(records).is_over()


def test_sim_rotate_plays_each_deal_under_every_seating(tmp_path):
    history = tmp_path / "h.jsonl"
    out = run("sim", "gongzhu", "--games", "2", "--rotate", "--history", str(history),
              "--players", "normal,easy,easy,easy")
    assert out.returncode == 0
    heads = [json.loads(line) for line in history.read_text().splitlines() if '"type":"match"' in line]
    assert len(heads) == 8
    assert [h["players"].index("cpu:normal") for h in heads[:4]] == [0, 1, 2, 3]


def test_rules_prints_markdown():
    out = run("--lang", "es", "rules", "gongzhu")
    assert out.returncode == 0 and "el Cerdo" in out.stdout


def test_sim_counts_a_team_win_once():
    from cardtable import games, sim

    spec = games.get("guinote")
    result = sim.run(spec, spec.options_type(cotos=1), 3, 1, ["normal", "easy", "normal", "easy"])
    assert sum(result.wins_by_level.values()) == result.matches == 3
    assert sum(s.n for s in result.by_level.values()) == 2 * result.hands
