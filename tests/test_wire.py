"""The wire form of views and events (cardtable/wire.py and each game's wire.py): whole random hands
of every game round-trip through JSON text, and an encoded view holds no card hidden from its seat."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import games, wire
from cardtable.table import Event, Play, Start, TableSession

GAMES = ("gongzhu", "guinote", "guandan")


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def hidden_from(match: Any, seat: int) -> set[str]:
    """Card codes of the deal on the table that ``seat`` has not seen: the other hands as dealt and the
    stock, less what a move of the hand showed and the seat's own cards (dealt, or drawn since: its hand)."""
    log = match.log
    deal = next(r for r in reversed(log) if r["type"] == "deal")
    hidden = {code for other, hand in enumerate(deal["hands"]) if other != seat for code in hand}
    hidden |= set(deal.get("stock", ())) - {deal.get("pinta")}
    shown = {s for r in log if r["type"] == "move" and r["hand"] == deal["hand"] for s in strings(r["move"])}
    own = {card.code for card in match.view(seat).hand}
    return hidden - shown - set(deal["hands"][seat]) - own


def without_key(view: Any) -> Any:
    """``view`` as it arrives: the bot key stays on the server."""
    _key, number, seat = view.decision
    return dataclasses.replace(view, decision=(wire.SKIPPED_KEY, number, seat))


def whole_hand(name: str, seed: int, picks: Any) -> Iterator[Any]:
    """A match of ``name`` played at random (optional moves out of turn included) to the end of its
    first hand; yields the match after every move (and at the deal)."""
    match = games.get(name).new_match(seed=seed)
    yield match
    for _ in range(2000):
        if match.is_over() or match.view(0).hand_number > 1:
            return
        movers = [match.to_move(), *(s for s in match.optional_movers() if s != match.to_move())]
        seat = movers[picks.draw(st.integers(0, len(movers) - 1))] if len(movers) > 1 else movers[0]
        legal = match.legal_moves(seat)
        match.apply(legal[picks.draw(st.integers(0, len(legal) - 1))], seat)
        yield match
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**31 - 1), picks=st.data())
def test_every_view_of_a_whole_random_hand_round_trips_through_json_text(name, seed, picks):
    codec = games.get(name).wire()
    for match in whole_hand(name, seed, picks):
        for seat in range(4):
            view = match.view(seat)
            line = json.dumps(codec.encode_view(view), ensure_ascii=False)
            back = codec.decode_view(json.loads(line))
            assert back == without_key(view)
            assert type(back) is type(view)
            assert json.dumps(codec.encode_view(back), ensure_ascii=False) == line


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**31 - 1), picks=st.data())
def test_an_encoded_view_never_holds_a_card_hidden_from_its_seat(name, seed, picks):
    codec = games.get(name).wire()
    seen_hidden = False
    for match in whole_hand(name, seed, picks):
        for seat in range(4):
            hidden = hidden_from(match, seat)
            seen_hidden |= bool(hidden)
            encoded = codec.encode_view(match.view(seat))
            # Guiñote's «keep» names the 7 of trumps whoever holds it (both seats of the pair are asked).
            cards = set(strings({**encoded, "legal": [m for m in encoded["legal"] if "keep" not in m]}))
            assert not hidden & cards, (seat, hidden & cards)
            assert "bot" not in json.dumps(encoded) and not any(isinstance(v, bytes) for v in encoded.values())
    assert seen_hidden                                 # (the check had something to find)


@pytest.mark.parametrize("name", GAMES)
def test_a_table_sessions_events_round_trip_with_their_views(name):
    spec = games.get(name)
    codec = spec.wire()
    session = TableSession.create(spec, "key-alice", "alice", seed=5, levels=("easy",) * 4, open_seats=())
    assert session.submit(0, Start()).ok
    events: list[Event] = []
    for _ in range(6):                                  # a few rounds: the CPUs, then the person
        session.run_cpus()
        events += session.drain(0)
        view = events[-1].view
        if view is not None and view.to_move == 0 and view.legal:
            assert session.submit(0, Play(view.legal[0])).ok
    assert {"started", "moved"} <= {event.type for event in events}
    for event in events:
        line = json.dumps(wire.encode_event(codec, event))
        back = wire.decode_event(codec, json.loads(line))
        assert isinstance(back, Event)
        assert (back.type, back.seq) == (event.type, event.seq)
        assert back.data == json.loads(json.dumps(event.data))
        assert back.view == (None if event.view is None else without_key(event.view))


@pytest.mark.parametrize("name", GAMES)
def test_a_malformed_view_is_refused_with_a_wire_error_never_built(name):
    codec = games.get(name).wire()
    good = codec.encode_view(games.get(name).new_match(seed=1).view(0))
    bad: list[Any] = [None, [], {}, {**good, "extra": 1}, {k: v for k, v in good.items() if k != "hand"},
                      {**good, "hand": ["ZZ"]}, {**good, "hand": "AS"}, {**good, "seat": True},
                      {**good, "seat": "0"}, {**good, "legal": [{"nonsense": 1}]}, {**good, "decision": [1]},
                      {**good, "options": {"no_such_option": 3}}, {**good, "counts": [1.5]}]
    for value in bad:
        with pytest.raises(wire.WireError):
            codec.decode_view(value)
    for value in ({"event": "moved"}, {"event": 1, "seq": 1, "data": {}, "view": None},
                  {"event": "moved", "seq": 1, "data": {}, "view": {"seat": 0}}):
        with pytest.raises(wire.WireError):
            wire.decode_event(codec, value)
