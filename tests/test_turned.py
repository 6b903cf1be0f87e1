"""A shared table seen from the player's own chair (cardtable/ui/turned.py): every game's views and
records turned by a seat keep their meaning — the player at 0, their own cards and counts, whose turn,
the partner still opposite — and turning back gives the table's own."""

from __future__ import annotations

import dataclasses

import pytest

from cardtable import games
from cardtable.ui import turned


def _positions(game: str, moves: int = 400):
    """Views of every seat at many positions of a match between easy bots (Guiñote's optional moves too)."""
    spec = games.get(game)
    match = spec.new_match(None, 11)
    bot = spec.bot("easy")
    for _ in range(moves):
        if match.is_over():
            return
        yield match
        seat = match.to_move()
        if seat is None:
            return
        match.apply(bot.choose(match.view(seat)), seat)


@pytest.mark.parametrize("game", ["gongzhu", "guandan", "guinote"])
def test_a_turned_view_is_the_same_table_from_the_players_chair(game):
    checked = 0
    for match in _positions(game):
        for seat in range(4):
            raw = match.view(seat)
            view = turned.turn_view(game, raw, seat)
            assert view.seat == 0 and view.hand == raw.hand
            assert view.counts[0] == len(raw.hand) == raw.counts[seat]
            assert view.to_move == (None if raw.to_move is None else (raw.to_move - seat) % 4)
            assert (view.to_move == 0) == (raw.to_move == seat)
            back = turned.turn_view(game, view, (4 - seat) % 4)
            assert {f.name: getattr(back, f.name) for f in dataclasses.fields(raw)} == \
                   {f.name: getattr(raw, f.name) for f in dataclasses.fields(raw)}
            checked += 1
    assert checked > 100


def test_gong_zhu_tricks_and_records_follow_the_chair():
    match = next(m for m in _positions("gongzhu") if len(m.view(0).trick) >= 2)
    raw = match.view(1)
    view = turned.turn_view("gongzhu", raw, 1)
    assert [s for s, _ in view.trick] == [(s - 1) % 4 for s, _ in raw.trick]
    assert view.totals == raw.totals[1:] + raw.totals[:1]
    record = {"type": "hand_end", "lines": ["a", "b", "c", "d"], "winners": [0, 3], "hand": 2}
    assert turned.turn_record("gongzhu", record, 1) == {"type": "hand_end", "lines": ["b", "c", "d", "a"],
                                                        "winners": [3, 2], "hand": 2}


def test_an_odd_turn_swaps_the_pairs_and_an_even_one_keeps_them():
    record = {"type": "hand_end", "finish": [2, 1, 3, 0], "winner_team": 0, "levels": ["3", "2"]}
    assert turned.turn_record("guandan", record, 1) == {"type": "hand_end", "finish": [1, 0, 2, 3],
                                                        "winner_team": 1, "levels": ["2", "3"]}
    assert turned.turn_record("guandan", record, 2)["levels"] == ["3", "2"]
    claim = {"type": "hand_end", "winner": 0, "claim": {"pair": 1, "right": True}, "cotos": [0, 2]}
    assert turned.turn_record("guinote", claim, 3) == {"type": "hand_end", "winner": 1,
                                                       "claim": {"pair": 0, "right": True}, "cotos": [2, 0]}


def test_an_events_seats_and_outcome_are_turned():
    seats = [{"seat": i, "name": n} for i, n in enumerate(["alice", "", "bob", ""])]
    data = turned.turn_data("gongzhu", {"seat": 2, "to_move": 0, "seats": seats, "winners": [0],
                                        "totals": [1, 2, 3, 4]}, 2)
    assert data["seat"] == 0 and data["to_move"] == 2 and data["winners"] == [2]
    assert [s["name"] for s in data["seats"]] == ["bob", "", "alice", ""]
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3] and data["totals"] == [3, 4, 1, 2]


def test_guandan_s_tribute_receiver_is_named_from_the_payer_s_chair():
    from tests.test_guandan_rules import next_hand_after

    match = next_hand_after([0, 1, 3])                 # seat 2 is last: it pays the tribute to seat 0
    assert match.phase == "tribute" and match.view(2).tribute_to == 0
    view = turned.turn_view("guandan", match.view(2), 2)
    assert view.to_move == 0 and view.tribute_to == 2   # from seat 2's chair, the first out sits opposite
