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
