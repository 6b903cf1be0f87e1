"""The command line: clear messages and exit codes, never a traceback."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# ---------------------------------------------------------------- issue 10: limits, output, hostile files
@pytest.mark.parametrize("args,message", [
    (["new", "gongzhu", "--seed", "١٢٣"], "digits 0-9"),
    (["new", "gongzhu", "--seed", "1_000"], "digits 0-9"),
    (["new", "gongzhu", "--seed", "9" * 5000], "game number"),
    (["sim", "gongzhu", "--games", "1000000"], "at most 100000"),
    (["bench", "--seconds", "-1"], "--seconds"),
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "--seconds", "inf"], "--seconds"),
    (["bench", "--seconds", "0"], "--seconds"),
])
def test_limits_are_enforced(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["sim", "gongzhu", "--games", "١٢"], ["sim", "gongzhu", "--games", "1_0"],
                                  ["--save-dir", "", "saves"]])
def test_usage_errors_for_odd_numbers_and_empty_paths(args):
    out = run(*args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "digits 0-9" in out.stderr or "empty path" in out.stderr


HOSTILE = "\u001b]0;OWNED\u0007\u001b[2J[bold red]RED[/] [link=https://evil.example]LINK[/link]"


def hostile_saves(directory):
    directory.mkdir(parents=True, exist_ok=True)
    base = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], "players": ["human", "cpu:easy", "cpu:easy", "cpu:easy"]}
    (directory / "summary.json").write_text(json.dumps({**base, "summary": HOSTILE, "saved_at": HOSTILE,
                                                        "progress": {"over": "\x1b[2J"}}))
    (directory / "game.json").write_text(json.dumps({**base, "game": HOSTILE}))
    (directory / "opt.json").write_text(json.dumps({**base, "options": {HOSTILE: 1}}))
    (directory / "\x1b[31mname.json").write_text(json.dumps(base))


@pytest.mark.parametrize("env", [{"COLUMNS": "200"}, {"COLUMNS": "200", "FORCE_COLOR": "1", "TERM": "xterm"}])
def test_saves_prints_hostile_text_as_data(tmp_path, env):
    hostile_saves(tmp_path / "saves")
    out = run("--save-dir", str(tmp_path / "saves"), "saves", env=env)
    assert out.returncode == 0, out.stderr
    assert "OWNED" in out.stdout
    assert "\x1b]" not in out.stdout and "\x07" not in out.stdout and "\x1b[2J" not in out.stdout
    assert "\x1b[31mname" not in out.stdout and "[31mname" in out.stdout     # the file name's ESC is gone
    assert "[bold red]RED[/]" in out.stdout          # shown as it is written, not obeyed


def test_a_hostile_option_key_gives_a_short_clean_error(tmp_path, capsys):
    hostile_saves(tmp_path / "saves")
    assert main(["--save-dir", str(tmp_path / "saves"), "continue", "opt"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and len(err) < 400


def test_saves_says_damaged_once_and_lists_odd_names(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "bad.json").write_bytes(b"\xff")
    # saves (damaged ones) under names that are not slot names; a "{}" is no save at all and is not listed
    (saves / "-rf.json").write_text('{"format": "cardtable-save"}')
    (saves / "ñ.json").write_text('{"format": "cardtable-save"}')
    (saves / "notes.json").write_text("{}")
    out = run("--save-dir", str(saves), "saves", env={"COLUMNS": "200"})
    assert out.returncode == 0
    assert "damaged: damaged" not in out.stdout and "damaged: not UTF-8" in out.stdout
    assert "-rf" in out.stdout and "ñ" in out.stdout and out.stdout.count("not a slot name") == 2
    assert "notes" not in out.stdout


def test_a_save_dir_that_cannot_be_read_is_one_line_and_status_2(tmp_path):
    (tmp_path / "saves").write_text("not a directory")
    for command in (["saves"], ["continue"], ["continue", "x"]):
        out = run("--save-dir", str(tmp_path / "saves"), *command)
        assert out.returncode == 2, command
        assert "No saved games" not in out.stdout and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["rules", "gongzhu"], ["--help"], ["saves"], ["sim", "gongzhu", "--games", "1"]])
def test_a_reader_that_goes_away_is_not_a_traceback(args, tmp_path):
    # `cardtable rules gongzhu | head -1`, made deterministic: the reader is gone before the first
    # write (a short text could otherwise fit in the pipe before `head` leaves).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        out = subprocess.run([sys.executable, "-m", "cardtable", "--save-dir", str(tmp_path), *args],
                             stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, check=False)
    finally:
        os.close(write_end)
    assert out.returncode == 141
    assert out.stderr == b""


@pytest.mark.parametrize("args", [["rules", "gongzhu"], ["saves"], ["--help"], ["sim", "gongzhu", "--games", "1"]])
def test_a_full_disk_is_one_line_and_status_2(args, tmp_path):
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "cardtable", "--save-dir", str(tmp_path), *args],
                             stdout=full, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, check=False)
    assert out.returncode == 2
    assert out.stderr.strip() == "cardtable: cannot write the output: No space left on device"


def test_sim_history_on_a_full_disk(tmp_path):
    out = run("sim", "gongzhu", "--games", "2", "--history", "/dev/full")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == "cardtable: cannot write /dev/full: No space left on device"


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"PYTHONIOENCODING": "ascii", "LC_ALL": "POSIX", "LANG": ""}])
@pytest.mark.parametrize("args", [["--lang", "es", "rules", "guinote"], ["--lang", "es", "saves"], ["--help"],
                                  ["sim", "guinote", "--games", "1"]])
def test_an_ascii_only_output_gets_plain_text(args, env, tmp_path):
    from cardtable import games
    from cardtable.saves import SaveStore

    SaveStore(tmp_path).save("s", games.get("guinote").new_match(seed=1), ["human"] + ["cpu:easy"] * 3)
    out = subprocess.run([sys.executable, "-m", "cardtable", "--save-dir", str(tmp_path), *args],
                         capture_output=True, env={**os.environ, **env}, stdin=subprocess.DEVNULL, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.isascii() and out.stdout.strip()
    assert b"\\u" not in out.stdout and b"Traceback" not in out.stderr
    if "rules" in args:
        assert b"Guinote" in out.stdout          # «Guiñote» without its tilde, not '?'


@settings(max_examples=25)
@given(fields=st.fixed_dictionaries({}, optional={
    "summary": st.text(max_size=60), "saved_at": st.text(max_size=60), "game": st.text(max_size=60),
    "progress": st.dictionaries(st.text(max_size=8), st.text(max_size=30) | st.integers(), max_size=4)}),
    name=st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
                 min_size=1, max_size=20))
def test_saves_output_never_carries_control_characters(tmp_path_factory, fields, name):
    import io
    import unicodedata
    from argparse import Namespace

    from cardtable.cli import _cmd_saves

    saves = tmp_path_factory.mktemp("fuzz")
    base = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1, "moves": [],
            "players": ["human", "cpu:easy", "cpu:easy", "cpu:easy"]}
    (saves / "good.json").write_text(json.dumps({**base, **fields}))
    if name not in (".", "..") and not name.startswith("."):
        try:
            (saves / f"{name}.json").write_text(json.dumps({**base, **fields}))
        except (OSError, UnicodeError):
            pass                        # a name the file system refuses (too long in bytes)
    out = io.StringIO()
    assert _cmd_saves(Namespace(save_dir=saves), out) == 0
    text = out.getvalue()
    assert all(c == "\n" or unicodedata.category(c) not in {"Cc", "Cf"} for c in text), repr(text)


def test_sim_rate_is_never_rounded_to_zero():
    """A hard arena plays well under one hand a second: the summary shows 0.35, not 0."""
    from cardtable.cli import _rate_text

    assert _rate_text(0.3498) == "0.35"
    assert _rate_text(12.345) == "12.3"
    assert _rate_text(2345.6) == "2346"
    assert _rate_text(float("inf")) == "inf"


def test_sim_rotate_plays_a_seating_once():
    """Two against two in Gong Zhu has two distinct rotations, not four (the others repeat them)."""
    from cardtable import games, sim

    gongzhu, guinote = games.get("gongzhu"), games.get("guinote")
    assert sim.rotations(gongzhu, ["hard", "normal", "hard", "normal"], True) == [
        ["hard", "normal", "hard", "normal"], ["normal", "hard", "normal", "hard"]]
    assert len(sim.rotations(gongzhu, ["hard", "normal", "normal", "normal"], True)) == 4
    assert len(sim.rotations(guinote, ["hard", "normal", "hard", "normal"], True)) == 2
    assert sim.rotations(gongzhu, ["easy"] * 4, True) == [["easy"] * 4]
