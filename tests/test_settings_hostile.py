"""Issue 29, item 5: a hostile settings.json gives the defaults and one line, never a crash or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.cli import main
from cardtable.settings import MAX_SETTINGS_BYTES, Settings, read_settings

REPO = Path(__file__).resolve().parents[1]


def _home() -> Path:
    home = Path(os.environ["CARDTABLE_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    return home


def _write(content) -> Path:
    path = _home() / "settings.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return path


@pytest.mark.parametrize("data", [{"cpu_speed": []}, {"cpu_speed": {}}, {"language": ["zh"]},
                                  {"card_style": 3}, {"undo": True}, {"checker": None}])
def test_wrong_types_give_that_settings_default(data):
    settings, problem = read_settings(_write(data))
    assert settings == Settings()
    assert problem is not None and next(iter(data)) in problem.text and "\n" not in problem.text


def test_good_values_are_kept_beside_bad_ones():
    settings, problem = read_settings(_write({"cpu_speed": "fast", "card_style": ["x"], "language": "es"}))
    assert (settings.cpu_speed, settings.card_style, settings.language) == ("fast", "colour", "es")
    assert "card_style" in problem.text and "cpu_speed" not in problem.text


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", b"{", b'{"cpu_speed": ' + b"9" * 5000 + b"}"])
def test_broken_json_is_ignored(content):
    settings, problem = read_settings(_write(content))
    assert settings == Settings() and problem.key == "settings_ignored_not_json"


@pytest.mark.parametrize("limit", [1000, 20000])
@pytest.mark.parametrize(("content", "parsed"), [
    (b"[" * 5000 + b"]" * 5000, "settings_ignored_not_object"),
    (b'{"cpu_speed":' + b'{"a":' * 5000 + b"1" + b"}" * 5001, "settings_values_ignored")])
def test_deep_nesting_is_ignored_whatever_the_recursion_limit(content, parsed, limit):
    """5,000 levels: a RecursionError at Python's default limit; parsed where a tool raised the limit
    (mypy does, in the same process): either way the defaults and one problem."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        settings, problem = read_settings(_write(content))
    finally:
        sys.setrecursionlimit(before)
    assert settings == Settings() and problem.key in ("settings_ignored_not_json", parsed)


def test_a_json_value_that_is_no_object():
    assert read_settings(_write([1, 2]))[1].key == "settings_ignored_not_object"


def test_a_huge_file_is_not_read():
    path = _home() / "settings.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_SETTINGS_BYTES * 100)            # sparse: large, and cheap
    settings, problem = read_settings(path)
    assert settings == Settings() and problem.key == "settings_ignored_too_large"


def test_a_directory_is_ignored():
    (_home() / "settings.json").mkdir()
    settings, problem = read_settings(_home() / "settings.json")
    assert settings == Settings() and problem.key == "settings_ignored_not_file"


def test_a_missing_file_is_no_problem():
    assert read_settings(_home() / "settings.json") == (Settings(), None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_never_hangs_a_command():
    os.mkfifo(_home() / "settings.json")
    settings, problem = read_settings(_home() / "settings.json")
    assert settings == Settings() and problem.key == "settings_ignored_not_file"
    # A whole command, in a child process with a deadline: it must end by itself.
    out = subprocess.run([sys.executable, "-m", "cardtable", "rules", "guinote"], capture_output=True,
                         text=True, timeout=60, cwd=REPO, stdin=subprocess.DEVNULL,
                         env={**os.environ, "LANG": "en_US.UTF-8"}, check=False)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "settings.json was ignored" in out.stderr


def test_a_command_says_it_in_one_line_and_goes_on(capsys):
    _write({"cpu_speed": [], "language": "zh"})
    assert main(["saves"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "cpu_speed" in lines[0] and "：" in lines[0]      # in the file's language


async def test_the_table_says_it_once(tmp_path):
    from cardtable.saves import SaveStore
    from cardtable.ui.app import CardTableApp

    settings, problem = read_settings(_write({"cpu_speed": []}))
    app = CardTableApp(store=SaveStore(tmp_path / "saves"), settings=settings, notices=(problem.text,),
                       language_override="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said.count(problem.text) == 1


def test_an_unreadable_file_is_said_but_an_unusable_home_is_left_to_the_command(tmp_path):
    from tests.test_chaos import run_unprivileged

    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text('{"cpu_speed": "fast"}')
    try:
        (home / "settings.json").chmod(0)
        out = run_unprivileged(["rules", "guinote"], home)
        assert out.returncode == 0 and "settings.json was ignored" in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
        home.chmod(0)
        out = run_unprivileged(["rules", "guinote"], home)
        assert out.returncode == 0 and out.stderr == ""
    finally:
        home.chmod(0o700)
        (home / "settings.json").chmod(0o600)
