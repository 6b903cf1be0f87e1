"""A shared table seen from the player's own chair.

The table screens draw their person at seat 0 («You» at the bottom, the others to the left, across and
to the right) and read the views' seat numbers that way. A person at seat 2 of a shared table must see
the same picture from their chair, so :class:`~cardtable.ui.remoteseat.RemoteSeat` hands its screen
the table **turned** by its seat: every seat number in the views, the events and the hand and match
records is counted from the player's own seat (``(seat - shift) % 4``), every per-seat tuple starts
at it, and — where a turn by an odd number of seats swaps the pairs — every per-pair value changes
places. Cards and moves name no seat, so commands go out unturned. Each game lists which of its
view's fields and records' keys name seats (:data:`GAMES`); a game without a list is shown turned only
when the player sits at seat 0 (:func:`can_turn`).

This module imports no Textual.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

SEATS = 4

Turn = Callable[[Any, int], Any]


def seat(value: Any, shift: int) -> Any:
    return (value - shift) % SEATS if type(value) is int else value


def seats(values: Any, shift: int) -> Any:
    return type(values)(seat(value, shift) for value in values) if isinstance(values, tuple | list) else values


def per_seat(values: Any, shift: int) -> Any:
    if not isinstance(values, tuple | list) or len(values) != SEATS:
        return values
    return type(values)(values[(index + shift) % SEATS] for index in range(SEATS))


def team(value: Any, shift: int) -> Any:
    return (value + shift) % 2 if type(value) is int else value


def per_team(values: Any, shift: int) -> Any:
    if not isinstance(values, tuple | list) or len(values) != 2 or shift % 2 == 0:
        return values
    kind: Any = type(values)                   # a tuple or a list, kept
    return kind((values[1], values[0]))


def pairs(values: Any, shift: int) -> Any:
    """``((seat, x), …)``."""
    if not isinstance(values, tuple | list):
        return values
    return type(values)(type(pair)((seat(pair[0], shift), *pair[1:])) for pair in values)


def nested_pairs(values: Any, shift: int) -> Any:
    return type(values)(pairs(inner, shift) for inner in values) if isinstance(values, tuple | list) else values


def decision(value: Any, shift: int) -> Any:
    """``(bot key, move number, seat)``."""
    return (value[0], value[1], seat(value[2], shift)) if isinstance(value, tuple) and len(value) == 3 else value


def field_of(name: str, turn: Turn) -> Turn:
    """An object (a dataclass) whose field ``name`` names a seat or seats."""
    def turned(value: Any, shift: int) -> Any:
        if value is None or not dataclasses.is_dataclass(value):
            return value
        return dataclasses.replace(value, **{name: turn(getattr(value, name), shift)})  # type: ignore[type-var]  # an instance: is_dataclass admits classes too
    return turned


def each(turn: Turn) -> Turn:
    return lambda values, shift: type(values)(turn(v, shift) for v in values) if isinstance(values, tuple | list) else values


def slot_of(name: str, turn: Turn) -> Turn:
    """An object with ``__slots__`` (Guandan's TopPlay) whose attribute ``name`` names a seat."""
    def turned(value: Any, shift: int) -> Any:
        if value is None:
            return value
        import copy

        moved = copy.copy(value)
        setattr(moved, name, turn(getattr(value, name), shift))
        return moved
    return turned


def pair_or_none(value: Any, shift: int) -> Any:
    """``(seat, x)`` or None (Guiñote's exchange)."""
    return (seat(value[0], shift), *value[1:]) if isinstance(value, tuple) and value else value


def dict_of(**turns: Turn) -> Turn:
    """A record's small object whose keys name seats or pairs (Guiñote's claim)."""
    return lambda value, shift: ({key: turns[key](item, shift) if key in turns else item
                                  for key, item in value.items()} if isinstance(value, dict) else value)


def tribute_moves(values: Any, shift: int) -> Any:
    """Guandan's ``(kind, from, to, card)``."""
    return tuple((kind, seat(a, shift), seat(b, shift), card) for kind, a, b, card in values)


@dataclasses.dataclass(frozen=True)
class GameTurn:
    """Which fields of a game's view, and which keys of its records, name seats or pairs."""

    view: Mapping[str, Turn]
    record: Mapping[str, Turn]


_COMMON = {"seat": seat, "to_move": seat, "decision": decision}
_RECORD_COMMON: dict[str, Turn] = {"winners": seats}

GAMES: dict[str, GameTurn] = {
    "gongzhu": GameTurn(
        view={**_COMMON, "counts": per_seat, "shown": per_seat, "leader": seat, "trick": pairs,
              "tricks": nested_pairs, "winners": seats, "taken": per_seat, "totals": per_seat},
        record={**_RECORD_COMMON, "taken": per_seat, "shown": per_seat, "lines": per_seat, "totals": per_seat,
                "pig": seats}),
    "guandan": GameTurn(
        view={**_COMMON, "levels": per_team, "a_failures": per_team, "declarer": team, "counts": per_seat,
              "finish": seats, "top": slot_of("seat", seat), "actions": per_seat, "tribute_moves": tribute_moves,
              "anti_holders": seats, "plays": pairs, "trick": pairs, "last_trick": pairs, "last_winner": seat,
              "tribute_to": seat},
        record={**_RECORD_COMMON, "finish": seats, "winner_team": team, "levels": per_team,
                "a_failures": per_team}),
    "guinote": GameTurn(
        view={**_COMMON, "dealer": seat, "mano": seat, "pinta_taker": seat, "exchange": pair_or_none,
              "counts": per_seat, "trick": pairs, "tricks": nested_pairs, "winners": seats,
              "card_points": per_team, "cantes": each(field_of("seat", seat)), "window_pair": team,
              "deciding": seat, "carry": per_team, "score": per_team, "cotos": per_team},
        record={**_RECORD_COMMON, "points": per_team, "cantes": per_team, "ultimas": team, "totals": per_team,
                "winner": team, "claim": dict_of(pair=team), "score": per_team, "cotos": per_team}),
}


def can_turn(game: str, shift: int) -> bool:
    return shift % SEATS == 0 or game in GAMES


def turn_view(game: str, view: Any, shift: int) -> Any:
    if view is None or shift % SEATS == 0:
        return view
    fields = GAMES[game].view
    changes = {name: turn(getattr(view, name), shift) for name, turn in fields.items() if hasattr(view, name)}
    return dataclasses.replace(view, **changes)


def turn_record(game: str, record: Any, shift: int) -> Any:
    if not isinstance(record, dict) or shift % SEATS == 0:
        return record
    keys = GAMES[game].record
    return {key: keys[key](value, shift) if key in keys else value for key, value in record.items()}


_EVENT_SEATS = ("seat", "to_move", "host", "by")


def turn_data(game: str, data: dict[str, Any], shift: int) -> dict[str, Any]:
    """An event's data from the player's chair: its seats, the public seat list, the records and an
    outcome's winners and totals."""
    if shift % SEATS == 0:
        return data
    turned = dict(data)
    for key in _EVENT_SEATS:
        if key in turned:
            turned[key] = seat(turned[key], shift)
    if isinstance(turned.get("seats"), list) and len(turned["seats"]) == SEATS:
        turned["seats"] = [dict(place, seat=seat(place.get("seat"), shift)) if isinstance(place, dict) else place
                           for place in per_seat(turned["seats"], shift)]
    if isinstance(turned.get("record"), dict):
        turned["record"] = turn_record(game, turned["record"], shift)
    if isinstance(turned.get("results"), dict):
        turned["results"] = turn_record(game, turned["results"], shift)
    if isinstance(turned.get("hands"), list):          # a snapshot's finished hands
        turned["hands"] = [turn_record(game, record, shift) for record in turned["hands"]]
    if "winners" in turned:
        turned["winners"] = seats(turned["winners"], shift)
    if "totals" in turned:
        turned["totals"] = per_seat(turned["totals"], shift)
    if isinstance(turned.get("waiting"), list):
        turned["waiting"] = seats(turned["waiting"], shift)
    return turned
