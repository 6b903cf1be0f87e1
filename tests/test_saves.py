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


# ---------------------------------------------------------------- issue 10: slots, locks, hostile files
def write_envelope(path, **fields):
    data = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], "players": PLAYERS, "summary": "hand 1", "saved_at": "2026-01-01T00:00:00+00:00"}
    data.update(fields)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("players", [["human", "cpu:evil", "cpu:normal", "cpu:normal"],
                                     ["human"] * 4, ["cpu:easy", "human", "cpu:easy", "cpu:easy"]])
def test_players_are_validated_when_listing_and_loading(tmp_path, players):
    write_envelope(tmp_path / "p.json", players=players)
    info = SaveStore(tmp_path).list()[0]
    assert info.damaged and "players" in info.error
    with pytest.raises(SaveError, match="players"):
        SaveStore(tmp_path).load("p")


def test_leftover_temp_files_are_cleaned_but_not_those_of_an_open_slot(tmp_path):
    store = SaveStore(tmp_path)
    store.save("a", played_match(3), PLAYERS)
    store.save("b", played_match(3), PLAYERS)
    (tmp_path / ".a.k3j_x9zq.tmp").write_bytes(b"half a save")
    (tmp_path / ".b.zz81abcd.tmp").write_bytes(b"a save in progress")
    other = SaveStore(tmp_path)
    other.lock("b")                     # "b" is open in another cardtable
    removed = SaveStore(tmp_path).clean_temp_files()
    assert removed == [".a.k3j_x9zq.tmp"]
    assert (tmp_path / ".b.zz81abcd.tmp").exists() and (tmp_path / "a.json").exists()
    other.unlock("b")


@pytest.mark.parametrize("name", ["-rf", "ñandú", "has space", "x" * 70, "a\x1b[2Jb"])
def test_odd_file_names_are_listed_as_damaged_and_can_be_deleted(tmp_path, name):
    write_envelope(tmp_path / f"{name}.json")
    store = SaveStore(tmp_path)
    [info] = store.list()
    assert info.slot == name and info.damaged and "not a slot name" in info.error
    store.delete(name)
    assert not (tmp_path / f"{name}.json").exists()


def test_damaged_is_said_once(tmp_path):
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe")
    [info] = SaveStore(tmp_path).list()
    assert info.error.startswith("damaged: ")       # the reason as the loader words it
    assert not info.problem.startswith("damaged")   # what the lists print after their own «damaged:»


def test_a_huge_file_is_reported_with_its_real_size(tmp_path):
    with (tmp_path / "big.json").open("wb") as handle:
        handle.truncate(100 * 1024 * 1024)          # sparse: costs no disk
    with pytest.raises(SaveError, match="104857600 bytes"):
        SaveStore(tmp_path).read("big")


def test_a_giant_game_name_gives_a_short_error(tmp_path):
    write_envelope(tmp_path / "g.json", game="\x1b]0;OWNED\x07" + "G" * 3_000_000)
    [info] = SaveStore(tmp_path).list()
    assert info.damaged and len(info.error) <= 200 and "\x1b" not in info.error
    with pytest.raises(SaveError) as caught:
        SaveStore(tmp_path).load("g")
    assert len(str(caught.value)) < 300


def test_a_save_dir_that_cannot_be_listed_is_an_error_not_an_empty_list(tmp_path):
    from cardtable.saves import SaveDirError

    (tmp_path / "saves").write_text("a file where the directory should be")
    with pytest.raises(SaveDirError, match="not a directory"):
        SaveStore(tmp_path / "saves").list()
    with pytest.raises(SaveDirError):
        SaveStore(tmp_path / "saves").check_usable()
    assert SaveStore(tmp_path / "missing").list() == []


def test_a_slot_lock_is_exclusive_between_stores_and_released(tmp_path):
    from cardtable.saves import SlotBusy

    first, second = SaveStore(tmp_path), SaveStore(tmp_path)
    assert first.lock("s")
    with pytest.raises(SlotBusy, match="open in another cardtable") as caught:
        second.lock("s")
    assert caught.value.holder == str(os.getpid())
    first.unlock("s")
    assert second.lock("s")
    second.unlock("s")


def test_the_kernel_drops_the_lock_of_a_killed_process(tmp_path):
    import subprocess
    import sys
    import time

    from cardtable.saves import SlotBusy

    code = ("import sys, time; from cardtable.saves import SaveStore; SaveStore(sys.argv[1]).lock('s'); "
            "print('locked', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                            cwd=REPO)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(SlotBusy):
            SaveStore(tmp_path).lock("s")
    finally:
        proc.kill()
        proc.wait()
    for _ in range(100):                 # the lock goes with the process
        try:
            assert SaveStore(tmp_path).lock("s")
            break
        except SlotBusy:
            time.sleep(0.05)
    else:
        raise AssertionError("the lock outlived its process")


def test_a_busy_slot_cannot_be_deleted(tmp_path):
    from cardtable.saves import SlotBusy

    store = SaveStore(tmp_path)
    store.save("s", played_match(2), PLAYERS)
    store.lock("s")
    with pytest.raises(SlotBusy):
        SaveStore(tmp_path).delete("s")
    assert (tmp_path / "s.json").exists()
    store.delete("s")                      # the holder may
    assert not (tmp_path / "s.json").exists()


def test_an_idle_window_never_overwrites_newer_moves(tmp_path):
    idle, busy = SaveStore(tmp_path), SaveStore(tmp_path)
    idle.save("s", played_match(4), PLAYERS)
    idle_match, _ = idle.load("s")
    busy.load("s")
    busy.save("s", played_match(12), PLAYERS)           # the other window moved on
    with pytest.raises(SaveError, match="changed by another cardtable"):
        idle.save("s", idle_match, PLAYERS)
    assert len(SaveStore(tmp_path).load("s")[0].moves) == 12


def test_two_new_games_in_the_same_second_get_different_slots(tmp_path):
    first, second = SaveStore(tmp_path), SaveStore(tmp_path)
    names = {first.claim_new_slot("gongzhu"), second.claim_new_slot("gongzhu")}
    assert len(names) == 2


# The history (every record) each example save replays to, fingerprinted with the engines as they were
# before they were made faster (issue 11): the fast paths must land every old save on the same position.
EXAMPLE_POSITIONS = {
    "gongzhu-mid-hand": ("bede87b421716de6", 0, [8, 7, 7, 7]),
    "gongzhu-new": ("a73ab8c4e989ec5a", 0, [13, 13, 13, 13]),
    "guandan-mid-hand": ("0c2fe6890684f023", 0, [5, 12, 18, 14]),
}


def test_example_saves_land_on_the_same_position():
    import hashlib

    from cardtable.history import dumps

    store = SaveStore(REPO / "saves" / "examples")
    for name, (fingerprint, to_move, sizes) in EXAMPLE_POSITIONS.items():
        match, _ = store.load(name)
        log = "\n".join(dumps(record) for record in match.log)
        assert hashlib.sha256(log.encode()).hexdigest()[:16] == fingerprint, name
        assert match.to_move() == to_move and [len(h) for h in match.hands] == sizes, name
    for path in sorted((REPO / "saves" / "examples").glob("*.json")):
        match, _ = store.load(path.stem)       # and every example (Guiñote's too) replays exactly
        moves = [(seat, match.decode_move(move.to_json())) for seat, move in match.moves]
        assert type(match).replay(match.options, match.seed, moves).log == match.log


def test_listing_does_not_make_a_stale_window_current(tmp_path):
    idle, busy = SaveStore(tmp_path), SaveStore(tmp_path)
    idle.save("s", played_match(4), PLAYERS)
    idle_match, _ = idle.load("s")
    busy.load("s")
    busy.save("s", played_match(12), PLAYERS)
    idle.list()                                          # the idle window's home screen refreshes
    with pytest.raises(SaveError, match="changed by another cardtable"):
        idle.save("s", idle_match, PLAYERS)
