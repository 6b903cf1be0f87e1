"""The wire form of a seat's views and events: plain JSON and back (docs/design.md «Shared tables»,
«The message format»).

A view is encoded field by field from its dataclass's own annotations: ints, strings and booleans as
they are, tuples as lists, frozensets as sorted lists, cards by their code, options by ``to_dict``,
small dataclasses (Guiñote's ``SungCante``) as objects. What the annotations cannot say — which fields
hold moves (``legal``, Guandan's ``actions``) and values of the game's own classes (Guandan's
``TopPlay``) — the game's codec says (``cardtable/games/<game>/wire.py``, reached through
:meth:`cardtable.games.GameSpec.wire`). The decoder checks every type on the way back and raises
:class:`WireError` for anything else, so a client never builds a view from a malformed line.

The bot key (the first value of a view's ``decision``) never crosses: it is for the CPUs only. A decoded
view carries ``(b"", move number, seat)`` there.

This module imports no Textual.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from cardtable.engine import MoveError, Options

PROTOCOL = "cardtable-tables"      # the hub's hello (cardtable/serve/hub.py)
WIRE_VERSION = 1
SKIPPED_KEY = b""          # a decoded view's bot key (the real one stays on the server)


class WireError(ValueError):
    """A wire value that is not what its field holds."""


class Move:
    """Marker for a field type: one of the game's moves (its ``to_json`` form, read by ``decode_move``)."""


Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]


@dataclasses.dataclass(frozen=True)
class ValueCodec:
    """How a value of a game's own class crosses: ``encode`` to plain JSON, ``decode`` back (raising
    ``WireError``, ``ValueError``, ``TypeError`` or ``KeyError`` for a bad value)."""

    encode: Encode
    decode: Decode


class ViewCodec:
    """One game's view codec: ``view_type`` (a frozen dataclass), the game's card parser and move
    decoder, the field types the annotations leave open (``fields``: a type expression that may use
    :class:`Move`), and codecs for the game's own value classes (``values``)."""

    def __init__(self, view_type: type, parse_card: Callable[[str], Any], card_type: type,
                 decode_move: Callable[[Any], Any], *, fields: Mapping[str, Any] | None = None,
                 values: Mapping[type, ValueCodec] | None = None) -> None:
        self.view_type = view_type
        self.parse_card = parse_card
        self.card_type = card_type
        self.decode_move = decode_move
        self.values = dict(values or {})
        hints = typing.get_type_hints(view_type)
        hints.update(fields or {})
        self.names = [field.name for field in dataclasses.fields(view_type) if field.name != "decision"]
        self._encoders = {name: self._encoder(hints[name]) for name in self.names}
        self._decoders = {name: self._decoder(hints[name]) for name in self.names}

    # -- views
    def encode_view(self, view: Any) -> dict[str, Any]:
        """``view`` as a JSON object (every field but the bot key)."""
        out = {name: self._encoders[name](getattr(view, name)) for name in self.names}
        _key, number, seat = view.decision
        out["decision"] = [number, seat]
        return out

    def decode_view(self, data: Any) -> Any:
        """The game's view from its wire form; :class:`WireError` for anything else."""
        if not isinstance(data, dict):
            raise WireError("a view is a JSON object")
        expected = set(self.names) | {"decision"}
        if set(data) != expected:
            odd = sorted(set(data) ^ expected)
            raise WireError(f"view fields differ: {', '.join(map(str, odd[:4]))}")
        fields: dict[str, Any] = {}
        for name in self.names:
            try:
                fields[name] = self._decoders[name](data[name])
            except WireError as exc:
                raise WireError(f"{name}: {exc}") from None
            except (MoveError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                raise WireError(f"{name}: {type(exc).__name__}: {str(exc)[:80]}") from None
        decision = data["decision"]
        if not (isinstance(decision, list) and len(decision) == 2 and all(_is_int(v) for v in decision)):
            raise WireError("decision: [move number, seat]")
        return self.view_type(**fields, decision=(SKIPPED_KEY, decision[0], decision[1]))

    # -- building the field codecs from type expressions
    def _encoder(self, kind: Any) -> Encode:
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if kind is Move:
            return lambda move: move.to_json()
        if kind in (int, str, bool, type(None)):
            return _same
        if origin in (typing.Union, types.UnionType):
            inner = [arg for arg in args if arg is not type(None)]
            if len(inner) != 1:
                raise TypeError(f"a union the wire cannot tell apart: {kind!r} (give the field's type)")
            encode = self._encoder(inner[0])
            return lambda value: None if value is None else encode(value)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self._encoder(args[0])
                return lambda value: [item(v) for v in value]
            items = [self._encoder(arg) for arg in args]
            return lambda value: [encode(v) for encode, v in zip(items, value, strict=True)]
        if origin is frozenset:
            item = self._encoder(args[0])
            return lambda value: sorted(item(v) for v in value)
        if kind is self.card_type:
            return lambda card: card.code
        if kind in self.values:
            return self.values[kind].encode
        if isinstance(kind, type) and issubclass(kind, Options):
            return lambda options: options.to_dict()
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            hints = typing.get_type_hints(kind)
            parts = {field.name: self._encoder(hints[field.name]) for field in dataclasses.fields(kind)}
            return lambda value: {name: encode(getattr(value, name)) for name, encode in parts.items()}
        raise TypeError(f"no wire form for {kind!r} (give the field's type to the game's codec)")

    def _decoder(self, kind: Any) -> Decode:
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if kind is Move:
            return self.decode_move
        if kind is bool:
            return _checked(lambda v: type(v) is bool, "true or false")
        if kind is int:
            return _checked(_is_int, "a whole number")
        if kind is str:
            return _checked(lambda v: isinstance(v, str), "a string")
        if kind is type(None):
            return _checked(lambda v: v is None, "null")
        if origin in (typing.Union, types.UnionType):
            inner = [arg for arg in args if arg is not type(None)]
            decode = self._decoder(inner[0])
            return lambda value: None if value is None else decode(value)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self._decoder(args[0])
                return lambda value: tuple(item(v) for v in _list(value))
            items = [self._decoder(arg) for arg in args]

            def fixed(value: Any) -> tuple[Any, ...]:
                value = _list(value)
                if len(value) != len(items):
                    raise WireError(f"expected {len(items)} values, got {len(value)}")
                return tuple(decode(v) for decode, v in zip(items, value, strict=True))

            return fixed
        if origin is frozenset:
            item = self._decoder(args[0])
            return lambda value: frozenset(item(v) for v in _list(value))
        if kind is self.card_type:
            return lambda code: self.parse_card(_checked(lambda v: isinstance(v, str), "a card code")(code))
        if kind in self.values:
            return self.values[kind].decode
        if isinstance(kind, type) and issubclass(kind, Options):
            options_type = kind

            def options(value: Any) -> Any:
                if not isinstance(value, dict):
                    raise WireError("options are a JSON object")
                return options_type.from_dict(value)

            return options
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            record_type = kind
            hints = typing.get_type_hints(kind)
            parts = {field.name: self._decoder(hints[field.name]) for field in dataclasses.fields(kind)}

            def record(value: Any) -> Any:
                if not isinstance(value, dict) or set(value) != set(parts):
                    raise WireError(f"a {record_type.__name__} has the fields {', '.join(parts)}")
                return record_type(**{name: decode(value[name]) for name, decode in parts.items()})

            return record
        raise TypeError(f"no wire form for {kind!r} (give the field's type to the game's codec)")


def _same(value: Any) -> Any:
    return value


def _is_int(value: Any) -> bool:
    return type(value) is int


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise WireError("expected a list")
    return value


def _checked(test: Callable[[Any], bool], what: str) -> Decode:
    def check(value: Any) -> Any:
        if not test(value):
            raise WireError(f"expected {what}")
        return value

    return check


# ---------------------------------------------------------------- events
def encode_event(codec: ViewCodec, event: Any) -> dict[str, Any]:
    """A table event (``cardtable.table.Event``) as the wire's ``{"event", "seq", "data", "view"}``."""
    return {"event": event.type, "seq": event.seq, "data": event.data,
            "view": None if event.view is None else codec.encode_view(event.view)}


def decode_event(codec: ViewCodec, data: Any) -> Any:
    """An event from its wire form, its view decoded into the game's view class."""
    from cardtable.table import Event

    if not isinstance(data, dict) or set(data) != {"event", "seq", "data", "view"}:
        raise WireError("an event has the fields event, seq, data, view")
    if not isinstance(data["event"], str) or not _is_int(data["seq"]) or not isinstance(data["data"], dict):
        raise WireError("an event's type is a string, its seq a number, its data an object")
    view = None if data["view"] is None else codec.decode_view(data["view"])
    return Event(data["event"], data["data"], view, data["seq"])


def plain(value: Any) -> Any:
    """A value a hint's reason names, as plain JSON: cards by code, moves by their text form, reasons as
    ``{"key", "params"}``."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if hasattr(value, "to_json"):
        return str(value)
    if isinstance(getattr(value, "code", None), str):
        return value.code
    if hasattr(value, "key") and hasattr(value, "params"):
        return {"key": value.key, "params": {str(k): plain(v) for k, v in value.params}}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list | frozenset | set):
        return [plain(item) for item in value]
    return str(value)


def encode_hint(hint: Any) -> Any:
    """A hint (``hints.Hint``) as the wire carries it: the move, its reason (key and parameters) and
    the expected gain."""
    if hint is None:
        return None
    return {"move": hint.move.to_json(), "reason": plain(getattr(hint, "reason", None)),
            "gain": getattr(hint, "gain", None)}
