"""Guiñote's view on the wire (cardtable/wire.py): the legal moves; a ``SungCante`` crosses as an object
of its fields (a 20 sung in arrastre keeps its suit hidden: ``null``, as the view holds it)."""

from cardtable import wire
from cardtable.cards import SpanishCard, parse_spanish_card
from cardtable.games.guinote.state import GuinoteView, decode_move

CODEC = wire.ViewCodec(GuinoteView, parse_spanish_card, SpanishCard, decode_move,
                       fields={"legal": tuple[wire.Move, ...]})
