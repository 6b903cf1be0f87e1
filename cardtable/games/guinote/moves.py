"""Guiñote's moves: the play of a card, the exchange and the keep of the 7 of trumps, cantes and the
claim; their JSON (the hand-history format's) and text forms."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardtable.cards import CardError, SpanishCard, parse_spanish_card, spanish_deck
from cardtable.engine import MoveError
from cardtable.games.guinote import rules


@dataclasses.dataclass(frozen=True)
class Play:
    card: SpanishCard

    def to_json(self) -> dict[str, Any]:
        return {"play": self.card.code}

    def __str__(self) -> str:
        return self.card.code

    @classmethod
    def parse(cls, text: str) -> Play:
        """The inverse of ``str``: a card code, ``"12E"``."""
        move = decode_move({"play": text.strip() if isinstance(text, str) else text})
        assert isinstance(move, Play)
        return move


@dataclasses.dataclass(frozen=True)
class Exchange:
    card: SpanishCard   # the 7 of trumps

    def to_json(self) -> dict[str, Any]:
        return {"exchange": self.card.code}

    def __str__(self) -> str:
        return f"exchange {self.card.code}"


@dataclasses.dataclass(frozen=True)
class KeepSeven:
    """A seat of the pair that won the trick does not exchange the 7 of trumps before the draw: the
    holder declining, or (its only move) a seat without the 7 — both seats of the pair are asked, so
    that being asked shows nothing. The hand history does not write it (the format has no such line: a
    window without an exchange line means nobody exchanged); saves keep it, since a save is the move
    list."""

    card: SpanishCard   # the 7 of trumps

    def to_json(self) -> dict[str, Any]:
        return {"keep": self.card.code}

    def __str__(self) -> str:
        return f"keep {self.card.code}"


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
    if isinstance(data, dict) and len(data) == 1:
        try:
            if "play" in data:
                return Play(parse_spanish_card(data["play"]))
            if "exchange" in data:
                return Exchange(parse_spanish_card(data["exchange"]))
            if "keep" in data:
                return KeepSeven(parse_spanish_card(data["keep"]))
        except CardError as exc:
            raise MoveError(str(exc)) from None
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
