"""Issue 29, item 7: `cardtable stats` with an unusable home says so in one line, status 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardtable.cli import main
from cardtable.stats import FILE_NAME, StatsDB
from tests.test_chaos import one_line_error, run_unprivileged


def _one_line(capsys, *words: str) -> None:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable: "), captured.err
    assert "Traceback" not in captured.err
    for word in words:
        assert word in captured.err


def test_a_home_that_is_a_file(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.write_text("a file, not a directory")
    monkeypatch.setenv("CARDTABLE_HOME", str(home))
    assert main(["stats"]) == 2
    _one_line(capsys, "statistics")
    assert main(["stats", "--json"]) == 2
    _one_line(capsys)


def test_a_database_path_that_is_a_directory(capsys):
    home = Path(os.environ["CARDTABLE_HOME"])
    (home / FILE_NAME).mkdir(parents=True)
    assert main(["stats"]) == 2
    _one_line(capsys, "cannot be opened")


def test_a_damaged_database_is_one_line_and_the_table_still_prints(capsys):
    home = Path(os.environ["CARDTABLE_HOME"])
    home.mkdir(parents=True)
    (home / FILE_NAME).write_bytes(b"garbage " * 200)
    assert main(["stats"]) == 0
    captured = capsys.readouterr()
    assert len(captured.err.strip().splitlines()) == 1 and "damaged" in captured.err
    assert "No statistics yet" in captured.out


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_a_read_only_or_unreadable_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    try:
        home.chmod(0o555)                         # read-only, no database yet: nothing to show
        one_line_error(run_unprivileged(["stats"], home), "statistics")
        home.chmod(0o700)
        db = StatsDB(home / FILE_NAME)
        db.record_hand(slot="a", game="guandan", level="easy", seed=1, options={}, number=1,
                       record={"winner_team": 0, "level_up": 1})
        db.close()
        home.chmod(0o555)                         # read-only with a database: shown as it is
        out = run_unprivileged(["stats"], home)
        assert out.returncode == 0 and "Guandan" in out.stdout and "Traceback" not in out.stderr, out
        home.chmod(0)                             # no permission at all
        one_line_error(run_unprivileged(["stats"], home), "statistics")
    finally:
        home.chmod(0o700)
