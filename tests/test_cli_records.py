"""`cardtable stats` and `cardtable export`: statistics after a played match, histories of saved slots."""

import json
import os
from pathlib import Path

from cardtable import games
from cardtable.cli import main
from cardtable.history import read_records, replay, split_matches
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move
from cardtable.stats import StatsDB


def _play(game, seed, moves=None):
    spec = games.get(game)
    match = spec.new_match(spec.options_type(), seed)
    bot = spec.bot("easy")
    count = 0
    while match.to_move() is not None and (moves is None or count < moves):
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
        count += 1
    return match


def test_stats_after_a_played_match_as_table_and_json(capsys):
    match = _play("guinote", 11)
    db = StatsDB()
    hands = [r for r in match.log if r["type"] == "hand_end"]
    end = match.log[-1]
    assert end["type"] == "match_end"
    for i, record in enumerate(hands):
        db.record_hand(slot="g1", game="guinote", level="normal", seed=11, options={}, number=record["hand"],
                       record=record, seconds=60, outcome=match.outcome() if i == len(hands) - 1 else None)
    db.close()
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Guiñote · normal" in out and "Statistics" in out
    assert main(["stats", "guinote", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["hands"] == len(hands) and row["matches"] == 1 and row["finished"] == 1
    assert row["won"] == int(end["winner"] == 0)
    assert main(["--lang", "es", "stats"]) == 0
    assert "Estadísticas" in capsys.readouterr().out
    assert main(["stats", "gongzhu", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_stats_with_no_database_yet(capsys):
    assert main(["stats"]) == 0
    assert "No statistics yet" in capsys.readouterr().out


def test_export_writes_a_history_that_replays(tmp_path):
    store = SaveStore(Path(os.environ["CARDTABLE_HOME"]) / "saves")
    finished = _play("gongzhu", 5)
    store.save("done", finished, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    halfway = _play("guandan", 6, moves=40)
    store.save("halfway", halfway, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    for slot, match in (("done", finished), ("halfway", halfway)):
        out = tmp_path / f"{slot}.jsonl"
        assert main(["export", slot, "--history", str(out)]) == 0
        with out.open(encoding="utf-8") as lines:
            [records] = list(split_matches(read_records(lines)))
        assert records[0]["players"][0] == "human"
        replayed = replay(records)                  # the checker replays every line
        assert replayed.log == match.log
    assert records[-1]["type"] != "match_end"       # the unfinished one has no end line
    assert any(r["type"] == "match_end" for r in json.loads("[" + ",".join(
        (tmp_path / "done.jsonl").read_text().splitlines()) + "]"))


def test_export_errors_are_one_line(tmp_path, capsys):
    assert main(["export", "nope", "--history", str(tmp_path / "x.jsonl")]) == 2
    assert "no such slot" in capsys.readouterr().err
    store = SaveStore(Path(os.environ["CARDTABLE_HOME"]) / "saves")
    store.save("s", _play("gongzhu", 1, moves=3), ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    assert main(["export", "s", "--history", str(tmp_path / "missing" / "x.jsonl")]) == 2
    assert "cannot write" in capsys.readouterr().err
