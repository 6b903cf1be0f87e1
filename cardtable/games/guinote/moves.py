"""Guiñote's moves: the play of a card, the exchange and the keep of the 7 of trumps, cantes and the
claim; their JSON (the hand-history format's) and text forms."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from cardtable.cardmoves import CardMove, by_key, decode_card_move
from cardtable.cards import SpanishCard, parse_spanish_card, spanish_deck
from cardtable.engine import MoveError
from cardtable.games.guinote import rules


@dataclasses.dataclass(frozen=True)
class Play(CardMove):
    card: SpanishCard

    @classmethod
    def parse(cls, text: str) -> Play:
        """The inverse of ``str``: a card code, ``"12E"``."""
        move = decode_move({"play": text.strip() if isinstance(text, str) else text})
        assert isinstance(move, Play)
        return move


@dataclasses.dataclass(frozen=True)
class Exchange(CardMove):
    card: SpanishCard   # the 7 of trumps
    key: ClassVar[str] = "exchange"
    verb: ClassVar[str] = "exchange"


@dataclasses.dataclass(frozen=True)
class KeepSeven(CardMove):
    """A seat of the pair that won the trick does not exchange the 7 of trumps before the draw: the
    holder declining, or (its only move) a seat without the 7 — both seats of the pair are asked, so
    that being asked shows nothing. The hand history does not write it (the format has no such line: a
    window without an exchange line means nobody exchanged); saves keep it, since a save is the move
    list."""

    card: SpanishCard   # the 7 of trumps
    key: ClassVar[str] = "keep"
    verb: ClassVar[str] = "keep"


@dataclasses.dataclass(frozen=True)
class Cante:
    suit: str

    def to_json(self) -> dict[str, Any]:
        return {"cante": self.suit}

    def __str__(self) -> str:
        return f"cante {self.suit}"


@dataclasses.dataclass(frozen=True)
class Claim:
    def to_json(self) -> dict[str, Any]:
        return {"claim": True}

    def __str__(self) -> str:
        return "claim"


Move = Play | Exchange | KeepSeven | Cante | Claim
_CARD_MOVES: dict[str, type[Play | Exchange | KeepSeven]] = by_key(Play, Exchange, KeepSeven)


_DECK = tuple(spanish_deck())
_PLAYS = {card: Play(card) for card in _DECK}     # moves are values: one object per card will do
_CODES = {card: card.code for card in _DECK}      # the history's card codes, for the deal record
_CANTES = {suit: Cante(suit) for suit in "OCEB"}  # likewise one object per cante, and the claim
_CLAIM = Claim()
_COUPLES = tuple((suit, SpanishCard(rules.REY, suit), SpanishCard(rules.SOTA, suit)) for suit in "OCEB")


_PLAY_OF = _PLAYS.__getitem__


def play_of(card: SpanishCard) -> Play:
    """The Play of ``card``: the very object ``legal_moves`` offers (so a bot's choice takes the trusted
    path)."""
    return _PLAYS[card]


def decode_move(data: Any) -> Move:
    card_move = decode_card_move(data, _CARD_MOVES, parse_spanish_card)
    if card_move is not None:
        return card_move
    if isinstance(data, dict) and len(data) == 1:
        if data.get("cante") in ("O", "C", "E", "B"):
            return Cante(data["cante"])
        if data.get("claim") is True:
            return Claim()
    raise MoveError(f"not a Guiñote move: {data!r}")


def parse_move(text: str) -> Move:
    """A move from its text form (``str(move)``): ``"12E"``, ``"exchange 7B"``, ``"keep 7B"``, ``"cante O"``,
    ``"claim"``."""
    words = text.split() if isinstance(text, str) else []
    if words == ["claim"]:
        return Claim()
    if len(words) == 2 and words[0] == "exchange":
        return decode_move({"exchange": words[1]})
    if len(words) == 2 and words[0] == "cante":
        return decode_move({"cante": words[1]})
    if len(words) == 2 and words[0] == "keep":
        return decode_move({"keep": words[1]})
    if len(words) == 1:
        return Play.parse(words[0])
    raise MoveError(f"not a Guiñote move: {text!r} (write e.g. '12E', 'exchange 7B', 'cante O' or 'claim')")



def rules_seven(trump: str) -> SpanishCard:
    """The 7 of trumps."""
    return _SEVENS[trump]


_SEVENS = {suit: SpanishCard(rules.SEVEN, suit) for suit in "OCEB"}
