import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.saves import (
    MAX_SAVE_BYTES,
    SCHEMA_VERSION,
    SaveError,
    SaveStore,
    default_save_dir,
    parse_envelope,
)

REPO = Path(__file__).resolve().parents[1]
PLAYERS = ["human", "cpu:normal", "cpu:normal", "cpu:normal"]


def played_match(moves=30, seed=3):
    spec = games.get("gongzhu")
    match = spec.new_match(seed=seed)
    bot = spec.bot("easy")
    for _ in range(moves):
        match.apply(bot.choose(match.view(match.to_move())))
    return match


def test_save_and_load_replays_exactly(tmp_path):
    store = SaveStore(tmp_path)
    match = played_match()
    store.save("slot1", match, PLAYERS)
    loaded, data = store.load("slot1")
    assert loaded.moves == match.moves
    assert loaded.log == match.log
    assert loaded.view(0) == match.view(0)
    assert data.players == PLAYERS and data.schema == SCHEMA_VERSION


def test_write_is_atomic_and_leaves_no_temp_files(tmp_path):
    store = SaveStore(tmp_path)
    store.save("a", played_match(5), PLAYERS)
    store.save("a", played_match(9), PLAYERS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
    assert len(store.load("a")[0].moves) == 9


def test_garbage_slot_is_listed_as_damaged_and_others_still_load(tmp_path):
    store = SaveStore(tmp_path)
    store.save("good", played_match(), PLAYERS)
    (tmp_path / "garbage.json").write_bytes(os.urandom(300))
    (tmp_path / "truncated.json").write_text(json.dumps({"format": "cardtable-save"})[:20])
    infos = {info.slot: info for info in store.list()}
    assert infos["garbage"].damaged and "damaged" in infos["garbage"].error
    assert infos["truncated"].damaged
    assert not infos["good"].damaged and infos["good"].game == "gongzhu"
    store.load("good")
    with pytest.raises(SaveError, match="garbage"):
        store.load("garbage")


def test_newer_schema_is_refused_with_a_clear_message(tmp_path):
    store = SaveStore(tmp_path)
    store.save("x", played_match(2), PLAYERS)
    data = json.loads((tmp_path / "x.json").read_text())
    data["schema"] = SCHEMA_VERSION + 1
    (tmp_path / "x.json").write_text(json.dumps(data))
    with pytest.raises(SaveError, match="newer cardtable"):
        store.load("x")


def test_tampered_moves_do_not_replay(tmp_path):
    store = SaveStore(tmp_path)
    store.save("x", played_match(20), PLAYERS)
    data = json.loads((tmp_path / "x.json").read_text())
    data["moves"][10]["move"] = {"play": "2C"} if data["moves"][10]["move"] != {"play": "2C"} else {"play": "3C"}
    (tmp_path / "x.json").write_text(json.dumps(data))
    with pytest.raises(SaveError, match="does not replay"):
        store.load("x")


def test_too_large_file_is_refused(tmp_path):
    (tmp_path / "big.json").write_bytes(b" " * (MAX_SAVE_BYTES + 10))
    with pytest.raises(SaveError, match="too large"):
        SaveStore(tmp_path).load("big")


@pytest.mark.parametrize("name", ["../evil", "a/b", "", ".hidden", "x" * 65, "con\x00", "..", "a b"])
def test_slot_names_cannot_leave_the_directory(tmp_path, name):
    with pytest.raises(SaveError):
        SaveStore(tmp_path).path(name)


def test_symlinked_slot_is_not_followed(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("{}")
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "link.json").symlink_to(secret)
    with pytest.raises(SaveError, match="not a regular file"):
        SaveStore(saves).load("link")


def test_nan_and_deep_nesting_are_rejected():
    with pytest.raises(SaveError):
        parse_envelope("x", b'{"format":"cardtable-save","schema":1,"seed":NaN}')
    with pytest.raises(SaveError):
        parse_envelope("x", b"[" * 100000 + b"]" * 100000)


def test_save_dir_follows_cardtable_home(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    assert default_save_dir() == tmp_path / "saves"


def test_example_saves_in_the_repository_load():
    examples = sorted((REPO / "saves" / "examples").glob("*.json"))
    assert examples, "saves/examples must hold example save files"
    store = SaveStore(REPO / "saves" / "examples")
    for path in examples:
        match, data = store.load(path.stem)
        assert match.game == data.game
        assert len(match.moves) == len(data.moves)


def test_example_saves_match_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "saves" / "schema-v1.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for path in (REPO / "saves" / "examples").glob("*.json"):
        jsonschema.validate(json.loads(path.read_text()), schema)


def test_written_saves_match_the_json_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "saves" / "schema-v1.json").read_text())
    SaveStore(tmp_path).save("s", played_match(12), PLAYERS)
    jsonschema.validate(json.loads((tmp_path / "s.json").read_text()), schema)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@given(st.binary(max_size=400))
def test_loader_never_crashes_on_random_bytes(raw):
    try:
        parse_envelope("fuzz", raw)
    except SaveError as exc:
        assert "fuzz" in str(exc)


@given(json_values)
def test_loader_never_crashes_on_random_json(value):
    try:
        parse_envelope("fuzz", json.dumps(value).encode())
    except SaveError as exc:
        assert "fuzz" in str(exc)


@given(st.dictionaries(st.sampled_from(["format", "schema", "game", "options", "seed", "moves", "players",
                                        "summary"]), json_values, max_size=8))
def test_loader_and_replay_never_crash_on_hostile_envelopes(fields):
    from cardtable.saves import rebuild

    data = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], **fields}
    try:
        rebuild("fuzz", parse_envelope("fuzz", json.dumps(data).encode()))
    except SaveError as exc:
        assert "fuzz" in str(exc)
