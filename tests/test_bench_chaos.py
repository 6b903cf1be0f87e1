"""`cardtable bench chaos` (issue 29): bounded, in a temporary directory, reports tries and failures,
and a broken rule shows up as failures."""

from __future__ import annotations

import os

from cardtable import bench, chaos
from cardtable.saves import SaveStore


def test_the_chaos_bench_runs_bounded_and_finds_nothing(capsys, tmp_path):
    home = os.environ["CARDTABLE_HOME"]
    status = bench.chaos(seconds=0.4)
    out = capsys.readouterr().out
    assert status == 0, out
    for name in ("mutated saves", "hostile settings", "statistics database", "lock paths"):
        line = next(line for line in out.splitlines() if name in line)
        assert " 0 failures" in line and " 0 tries" not in line
    assert os.environ["CARDTABLE_HOME"] == home           # put back
    assert not list(tmp_path.glob("**/*.lock"))


def test_a_broken_rule_is_reported(monkeypatch, tmp_path):
    import random

    monkeypatch.setattr(SaveStore, "_check_replays", lambda self, slot, path, save: None)   # item 11 undone
    with chaos._home(tmp_path):
        family = chaos.mutated_saves(tmp_path, random.Random(3), 20, 150)
    assert family.tries == 150
    assert any("listed as playable but does not open" in failure for failure in family.failures)
