"""Helpers shared by the games' PlayerViews."""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

T = TypeVar("T")

_PERSON = b"cardtable-bot"


def bot_key(match_seed: int) -> bytes:
    """A match's key for its bots' seeds: one-way (BLAKE2b) from the match seed, so holding it reveals
    nothing about the deal. Computed once per match."""
    return hashlib.blake2b(str(match_seed).encode(), digest_size=16, person=_PERSON).digest()


def bot_seed(key: bytes, move_number: int, seat: int) -> int:
    """A per-decision seed for a bot's own randomness (keyed BLAKE2b of move number and seat);
    deterministic, so a game number replays exactly."""
    digest = hashlib.blake2b(f"{move_number}:{seat}".encode(), digest_size=8, key=key, person=_PERSON).digest()
    return int.from_bytes(digest, "big")


class LazyBotSeed:
    """Base of the views: ``bot_seed`` is computed only when a bot asks for it, from the view's
    ``decision`` field ``(bot key, move number, seat)``."""

    __slots__ = ()

    @property
    def bot_seed(self) -> int:
        key, move_number, seat = self.decision  # type: ignore[attr-defined]
        return bot_seed(key, move_number, seat)


def fast_view(cls: type[T], **fields: Any) -> T:
    """Build a frozen dataclass view without its generated ``__init__`` (one ``object.__setattr__`` per
    field, a real cost at ~20 fields per decision). Only for views whose ``__init__`` merely stores the
    fields (no ``__post_init__``, no defaults left out): the fields must be given in full."""
    view = object.__new__(cls)
    view.__dict__.update(fields)
    return view


class _LazyField:
    """A view field read on first use from the view's ``_lazy`` tuple (then kept in the view's dict like
    any other field). A non-data descriptor: the dataclass ``__init__`` (``dataclasses.replace``, a
    view built field by field) stores the value in the instance dict, which wins over it."""

    __slots__ = ("index", "name")

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index

    def __get__(self, view: Any, owner: type | None = None) -> Any:
        if view is None:
            return self
        fields = view.__dict__
        value = fields[self.name] = fields["_lazy"][self.index]
        return value


class LazyFields:
    """Base of the views whose rarely read fields are filled on first use: the match builds the view's
    dict with the fields every bot reads and a ``_lazy`` tuple holding the others' values, in the order
    ``lazy_fields`` was given them. The values are the view's own (copies or immutable values, never the
    match's lists), so a lazy view is a snapshot like an eager one; pickling, ``==``, ``repr`` and
    ``dataclasses.replace`` read every field and so see them all."""

    __slots__ = ()
    _lazy_names: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        fields = self.__dict__  # type: ignore[attr-defined]
        if "_lazy" in fields:
            for name in self._lazy_names:
                getattr(self, name)
            fields = {k: v for k, v in fields.items() if k != "_lazy"}
        return fields


def lazy_fields(cls: type[T], names: tuple[str, ...]) -> type[T]:
    """Make ``names`` (fields of the dataclass ``cls``, a :class:`LazyFields`) read from ``_lazy``."""
    import dataclasses

    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    assert set(names) <= known, set(names) - known
    for index, name in enumerate(names):
        setattr(cls, name, _LazyField(name, index))
    cls._lazy_names = names  # type: ignore[attr-defined]
    return cls
