"""Guandan's view on the wire (cardtable/wire.py): the fields that hold moves (the legal moves, each
seat's last action, the tricks) and the play to beat, a ``TopPlay``: its seat, cards and form, with the
level and option its reading depends on (the reading itself, what the wilds stand for, is made again
on the client when the table shows it)."""

from typing import Any

from cardtable import wire
from cardtable.cards import Card, parse_card
from cardtable.games.guandan import rules
from cardtable.games.guandan.state import GuandanView, TopPlay, decode_move


def encode_top(top: TopPlay) -> dict[str, Any]:
    form = top.form
    return {"seat": top.seat, "cards": [card.code for card in top.cards], "type": form.type,
            "key": form.key, "size": form.size, "level": top._level, "sf_as_straight": top._sf}


def decode_top(data: Any) -> TopPlay:
    fields = {"seat", "cards", "type", "key", "size", "level", "sf_as_straight"}
    if not isinstance(data, dict) or set(data) != fields:
        raise wire.WireError(f"a top play has the fields {', '.join(sorted(fields))}")
    seat, cards, kind, key, size, level, sf = (data[name] for name in
                                               ("seat", "cards", "type", "key", "size", "level", "sf_as_straight"))
    if (type(seat) is not int or not isinstance(cards, list) or kind not in rules.TYPES
            or not (key is None or type(key) is int) or type(size) is not int or size != len(cards)
            or type(level) is not int or type(sf) is not bool):
        raise wire.WireError("a top play's fields have the wrong types")
    return TopPlay(seat, tuple(parse_card(code) for code in cards), form=rules.Form(kind, key, size),
                   level=level, sf_as_straight=sf)


CODEC = wire.ViewCodec(GuandanView, parse_card, Card, decode_move, fields={
    "legal": tuple[wire.Move, ...],
    "actions": tuple[wire.Move | None, ...],
    "trick": tuple[tuple[int, wire.Move], ...],
    "last_trick": tuple[tuple[int, wire.Move], ...],
}, values={TopPlay: wire.ValueCodec(encode_top, decode_top)})
