"""Every move has a text form: ``str(move)`` reads back through the game's ``parse_move`` (and the
classes' ``parse``) to an equal move; any other text is a MoveError, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import games
from cardtable.cards import french_deck, guandan_deck, parse_card, spanish_deck
from cardtable.engine import MoveError
from cardtable.games.gongzhu import rules as gz_rules
from cardtable.games.gongzhu import state as gz
from cardtable.games.guandan import rules as gd_rules
from cardtable.games.guandan import state as gd
from cardtable.games.guinote import state as gn

GONGZHU_MOVES = st.one_of(
    st.builds(gz.Play, st.sampled_from(french_deck())),
    st.sets(st.sampled_from(gz_rules.SHOWABLE)).map(
        lambda cards: gz.decode_move({"show": [c.code for c in cards]})),
)
GUANDAN_MOVES = st.one_of(
    st.builds(gd.Play, st.lists(st.sampled_from(guandan_deck()), min_size=1, max_size=10).map(tuple),
              st.sampled_from(gd_rules.TYPES), st.one_of(st.none(), st.integers(2, 16))),
    st.just(gd.Pass()),
    st.builds(gd.Tribute, st.sampled_from(guandan_deck())),
    st.builds(gd.Return, st.sampled_from(guandan_deck())),
)
GUINOTE_MOVES = st.one_of(
    st.builds(gn.Play, st.sampled_from(spanish_deck())),
    st.builds(gn.Exchange, st.sampled_from(spanish_deck())),
    st.builds(gn.Cante, st.sampled_from("OCEB")),
    st.just(gn.Claim()),
)
MOVES = {"gongzhu": GONGZHU_MOVES, "guandan": GUANDAN_MOVES, "guinote": GUINOTE_MOVES}


@pytest.mark.parametrize("name", list(MOVES))
@given(data=st.data())
def test_text_form_round_trips(name, data):
    match_type = games.get(name).match_type
    move = data.draw(MOVES[name])
    text = str(move)
    assert match_type.parse_move(text) == move
    if hasattr(type(move), "parse"):
        assert type(move).parse(text) == move
    assert match_type.parse_move(f"  {text}  ") == move          # surrounding blanks are no matter
    assert match_type.decode_move(move.to_json()) == move


@pytest.mark.parametrize("name", list(MOVES))
@given(text=st.text(max_size=30))
def test_any_other_text_is_a_move_error(name, text):
    match_type = games.get(name).match_type
    try:
        move = match_type.parse_move(text)
    except MoveError:
        return
    assert match_type.parse_move(str(move)) == move


@pytest.mark.parametrize("name,text", [
    ("gongzhu", "QS"), ("gongzhu", "10H"), ("gongzhu", "show QS AH"), ("gongzhu", "show nothing"),
    ("guandan", "7C 7D as pair 7"), ("guandan", "SJ SJ BJ BJ as joker_bomb"), ("guandan", "pass"),
    ("guandan", "tribute AS"), ("guandan", "return 5D"), ("guandan", "2H 5S 6S 8S 9S as straight_flush 9"),
    ("guinote", "12E"), ("guinote", "exchange 7B"), ("guinote", "cante O"), ("guinote", "claim"),
])
def test_the_documented_forms(name, text):
    assert str(games.get(name).match_type.parse_move(text)) == text


@pytest.mark.parametrize("name,text", [
    ("gongzhu", ""), ("gongzhu", "show"), ("gongzhu", "show 2C"), ("gongzhu", "show QS QS"), ("gongzhu", "Q S"),
    ("guandan", "7C 7D"), ("guandan", "7C 7D as"), ("guandan", "7C 7D as pair 7 7"), ("guandan", "as pair 7"),
    ("guandan", "7C 7D as quad 7"), ("guandan", "tribute"), ("guandan", "pass pass"),
    ("guinote", "8O"), ("guinote", "cante X"), ("guinote", "claim now"), ("guinote", "exchange"),
])
def test_malformed_text_is_refused(name, text):
    with pytest.raises(MoveError):
        games.get(name).match_type.parse_move(text)


def test_play_parse_reads_one_card():
    assert gz.Play.parse("QS") == gz.Play(parse_card("QS"))
    assert str(gz.Play.parse("QS")) == "QS"
    with pytest.raises(MoveError):
        gz.Play.parse("show QS")


def test_replay_and_history_errors_name_the_move_in_its_text_form():
    from cardtable.engine import IllegalMove
    from cardtable.history import HistoryError, replay

    spec = games.get("gongzhu")
    match = spec.new_match(seed=7)
    moves = [(seat, gz.Show(())) for seat in range(4)] + [(3, gz.Play.parse("AS"))]
    with pytest.raises(IllegalMove, match=r"move 5 \(AS by seat 3\): AS is not in your hand"):
        spec.match_type.replay(match.options, 7, moves)
    records = [match.match_record(["cpu:easy"] * 4), *match.log]
    records += [{"type": "move", "hand": 1, "seat": s, "move": m.to_json()} for s, m in moves]
    with pytest.raises(HistoryError, match="record 7: illegal move AS by seat 3"):
        replay(records)
