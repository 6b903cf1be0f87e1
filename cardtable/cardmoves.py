"""Moves that are one card (a play, a tribute, the exchange of the 7...), shared by the games.

Each game subclasses :class:`CardMove` once per kind, naming its JSON key and its text's verb, so every
such move encodes alike: ``{"play": "QS"}`` / ``"QS"``, ``{"tribute": "AS"}`` / ``"tribute AS"``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from cardtable.cards import CardError
from cardtable.engine import MoveError

M = TypeVar("M", bound="CardMove")


@dataclasses.dataclass(frozen=True)
class CardMove:
    """A move that is one card. ``key`` is its JSON key; ``verb`` the word before the card in its text
    form (none for a play, whose text is the card's code). Subclasses are frozen dataclasses that
    narrow ``card``'s type; moves of two kinds are never equal (a dataclass compares its own class)."""

    card: Any
    key: ClassVar[str] = "play"
    verb: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {self.key: self.card.code}

    def __str__(self) -> str:
        return f"{self.verb} {self.card.code}" if self.verb else self.card.code


def decode_card_move(data: Any, kinds: Mapping[str, type[M]], parse_card: Callable[[Any], Any]) -> M | None:
    """The move ``data`` encodes when it is ``{key: card code}`` for the key of one of ``kinds`` (a
    mapping from the kinds' keys, see :func:`by_key`), else None; a bad card code is a MoveError."""
    if isinstance(data, dict) and len(data) == 1:
        [(key, code)] = data.items()
        kind = kinds.get(key)
        if kind is not None:
            try:
                return kind(parse_card(code))
            except CardError as exc:
                raise MoveError(str(exc)) from None
    return None


def by_key(*kinds: type[M]) -> dict[str, type[M]]:
    """``kinds`` by their JSON key, as :func:`decode_card_move` takes them."""
    return {kind.key: kind for kind in kinds}
